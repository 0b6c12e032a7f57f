"""Assertions on props: a prop of the element a wrapper stands for, as the attribute it
became (where the capture saw that attribute), or a child component's prop, from the recorded
props of its instance."""

from __future__ import annotations

import re

from ..syntax import (
    Node,
    args_of,
    js_string,
    object_declared,
    pair_key,
    regex_escape,
    string_value,
    text,
    unwrap,
)
from .chains import prop_read_key
from .dom_attributes import is_dom_attribute
from .interactions import Interactions
from .shown_state import shown_read
from .state import SHOWN_TEXT, Ctx, Dropped, Target, Untranslatable
from .tables import (
    BOOLEAN_ATTRIBUTES,
    DISABLEABLE_TAGS,
    DOM_STATE_PROPS,
    PROP_ATTRIBUTES,
    SVG_CAMEL,
    SVG_HYPHENATED,
)
from .text_checks import found_by_text, text_content_check


class PropAssertions(Interactions):
    """Assertions on the props of what a wrapper selected."""

    def _bool_of(self, matcher: str, negated: bool, margs: list[Node]) -> bool | None:
        if matcher in ("toBe", "toEqual", "toStrictEqual") and margs:
            raw = text(margs[0])
            if raw in ("true", "false"):
                return (raw == "true") != negated
            return None
        if matcher == "toBeTruthy":
            return not negated
        if matcher == "toBeFalsy":
            return negated
        return None

    def _dom_only(self, target: Target, what: str) -> None:
        if target.component:
            raise Untranslatable(
                f"{what} on the component {target.component} (props of components are not "
                "visible in the DOM); assert on what it renders"
            )

    def _recorded_prop(
        self,
        base: Node,
        ops: list[tuple[str, list[Node], Node]],
        matcher: str,
        negated: bool,
        margs: list[Node],
        ctx: Ctx,
    ) -> str | None:
        """A prop of a child component that the DOM does not show (no such attribute), from
        the recording, as ``find(C).prop('k')`` reads it: jest-enzyme's
        ``expect(wrapper.find(C)).toHaveProp('k'[, v])`` (``toHaveClassName(c)``: ``c`` among
        the classes of its ``className``), or ``.prop('k')`` read on a find by CSS that
        selected the one node of a child component (``find('.toggle')``). None for other
        shapes, or when the component cannot be recorded."""
        neg = ".not" if negated else ""
        if matcher == "toHaveProp":
            key = string_value(margs[0]) if margs else None
            selection_ops = ops
        elif matcher == "toHaveClassName" and len(margs) == 1:
            # On a component, Enzyme's hasClass reads the className prop it was given (one
            # class here: several would each be a check of their own).
            literal = string_value(margs[0])
            if literal is not None and re.search(r"[.\s]", literal.lstrip(".")):
                return None
            key, selection_ops = "className", ops
        elif ops and ops[-1][0] == "prop" and len(ops[-1][1]) == 1:
            key = string_value(ops[-1][1][0])
            selection_ops = ops[:-1]
        else:
            return None
        if key is None or len(margs) > 2 or base.type != "identifier":
            return None
        binding = self.binding_named(text(base), base)
        if binding is None or binding.props_of:
            return None
        if binding.selection is not None:
            # `const icon = root.find(Icon)`
            selection_ops = [*binding.selection, *selection_ops]
        elif binding.kind not in ("decl", "var"):
            return None
        props = self.recorded_selection_props(selection_ops, ctx)
        if props is None:
            return None
        read = f"{props}{self._prop_read('prop', key, [])}"
        if matcher == "toHaveClassName":
            classes = class_argument(margs[0], self.value(margs[0], ctx))
            return f"expect(String({read}).split(' ')){neg}.toContain({classes});"
        if matcher != "toHaveProp":
            args_code = ", ".join(self.value(a, ctx) for a in margs)
            return f"expect({read}){neg}.{matcher}({args_code});"
        if len(margs) == 1:
            return f"expect({read}){neg}.toBeDefined();"
        return f"expect({read}){neg}.toEqual({self.value(margs[1], ctx)});"

    def shown_state(self, ops: list[tuple[str, list[Node], Node]]) -> str | None:
        """An assertion on a value of a class component's state that the page shows
        (``expect(wrapper.state('count')).toBe(5)``; see ``shown_state``): the element that
        shows it, asserted as the user sees it (``expect(screen.getByRole('status'))
        .toHaveTextContent(/^5$/)``, ``toHaveAttribute('aria-expanded', 'true')``); None
        where the page does not follow that key."""
        if not ops or ops[0][0] != "state":
            return None
        member = ops[0][2].child_by_field_name("function")
        shown = shown_read(self.records, member) if member is not None else None
        if shown is None:
            return None
        query = shown.query
        if shown.holds is not None and shown.attribute is not None:
            # An index: the element at that position holds the state.
            target = self._query_target(
                (query.method, list(query.args), True), multi=True, index=shown.value
            )
            element = self.element_code(target, "get")
            self.need_jest_dom()
            name, held = js_string(shown.attribute), js_string(shown.holds)
            return f"expect({element}).toHaveAttribute({name}, {held});"
        target = self._query_target(
            (query.method, list(query.args), False), multi=False, index=None
        )
        element = self.element_code(target, "get")
        self.need_jest_dom()
        if shown.attribute is None:
            return f"expect({element}).toHaveTextContent(/^{regex_escape(shown.value)}$/);"
        name, value = js_string(shown.attribute), js_string(shown.value)
        return f"expect({element}).toHaveAttribute({name}, {value});"

    def _root_prop(
        self, target: Target, key_node: Node, matcher: str, margs: list[Node], ctx: Ctx
    ) -> str | None:
        """``expect(wrapper.prop('k')).toBe(v)`` on a full render's root, which Enzyme answers
        with the props the test gave its element (reactstrap's ``Progress``, ``PopperContent``:
        "should render with the given value", "with max 100 by default"), as the capture saw
        the prop at that read in every run: the one attribute of the rendered DOM that shows
        its value, asserted on the element a query selects (``expect(screen.getByRole(
        'progressbar')).toHaveAttribute('aria-valuenow', '10')``), which is what the user
        sees; else, for a prop the element was not given and the component's ``defaultProps``
        holds, that default (``expect(Progress.defaultProps.value).toBe(0)``). None otherwise:
        the props the test passed are Enzyme's bookkeeping. ``key_node``: the one argument of
        ``prop(…)``, asserted on alone, not negated."""
        key = string_value(key_node)
        if key is None or matcher not in ("toBe", "toEqual", "toStrictEqual"):
            return None
        if len(margs) != 1 or unwrap(margs[0]) is None:
            return None
        call = key_node.parent.parent if key_node.parent is not None else None  # prop(key)
        fn = call.child_by_field_name("function") if call is not None else None
        prop = fn.child_by_field_name("property") if fn is not None else None
        records = self._records_at(prop, ctx, root=True) if prop is not None else None
        props = [r.root_prop for r in records or [] if r.root_prop is not None]
        if not props or len(props) != len(records or []):
            return None
        expected = unwrap(margs[0])
        literal = expected is not None and expected.type in ("string", "number")
        values = {p.value for p in props}
        attributes = {p.attribute for p in props}
        if literal and None not in attributes and len(attributes) == 1 and len(values) == 1:
            holder = self._agreed([p.queries for p in props], multi=False)
            if holder is not None:
                self.need_jest_dom()
                element = self.element_code(holder, "get")
                name, value = js_string(attributes.pop() or ""), js_string(values.pop() or "")
                return f"expect({element}).toHaveAttribute({name}, {value});"
        rendered = self._rendered_element(target)
        if rendered is None or not all(p.defaulted for p in props):
            return None
        component, given = rendered
        if key in given:
            return None
        optional = "?." if self.ts else ""  # a function component's defaultProps may be unset
        if re.fullmatch(r"[A-Za-z_$][\w$]*", key):
            member = f"{optional or '.'}{key}"
        else:
            member = f"{optional}[{js_string(key)}]"
        read = f"{component}.defaultProps{member}"
        return f"expect({read}).{matcher}({self.value(margs[0], ctx)});"

    def _rendered_element(self, target: Target) -> tuple[str, set[str]] | None:
        """The component a root was rendered from (``mount(<Progress max={50} />)``) and the
        props its JSX gives it (``children`` among them where it has any); None where that is
        not one component's element the source spells, or a spread may give it anything."""
        binding = target.binding
        element = binding.element if binding is not None else None
        if element is None and target.inline is not None:
            element = self._element_of(target.inline)
        if element is None:
            return None
        name = self._tag_of(element)
        if not name[:1].isupper() or name.endswith(".Provider") or name.endswith(".Consumer"):
            return None
        opening = (
            element
            if element.type == "jsx_self_closing_element"
            else element.child_by_field_name("open_tag")
        )
        if opening is None:
            return None
        given: set[str] = set()
        for attribute in opening.named_children:
            if attribute.type == "jsx_expression":  # {...props}
                return None
            if attribute.type == "jsx_attribute" and attribute.named_children:
                given.add(text(attribute.named_children[0]))
        if self.jsx_children(element):
            given.add("children")
        return name, given

    def _prop_assertion(
        self,
        target: Target,
        op: str,
        args: list[Node],
        after: list[tuple[str, list[Node], Node]],
        matcher: str,
        negated: bool,
        margs: list[Node],
        ctx: Ctx,
    ) -> str:
        if (
            target.kind == "root"
            and not target.render.shallow
            and target.render.element != "output"  # what the component rendered: its own
        ):
            if op == "prop" and len(args) == 1 and not after and not negated:
                shown = self._root_prop(target, args[0], matcher, margs, ctx)
                if shown is not None:
                    return shown
            raise Dropped(
                "removed an assertion on the props the test itself passed to the rendered "
                "element (Enzyme bookkeeping, nothing the component does)"
            )
        margs_code = ", ".join(self.value(a, ctx) for a in margs)
        key = string_value(args[0]) if op == "prop" and len(args) == 1 else None
        if key != "className":
            # Another component's element at a shallow root: the props it was given.
            props = self.recorded_root(target)
            if props is not None:
                read = f"{props}{self._prop_read(op, key, args)}"
                tail = "".join(self._raw_op(o, a) for o, a, _n in after)
                neg = ".not" if negated else ""
                return f"expect({read}{tail}){neg}.{matcher}({margs_code});"
        # A shallow root's props are those of the element the component rendered: its
        # attributes, read on the root DOM node (props that are no attribute stay untranslated).
        read_key = prop_read_key([(op, args), *((o, a) for o, a, _n in after)])
        if read_key is None or target.shown_attribute(read_key) is None:
            self._dom_only(target, f"{op}()")
        style = self.style_read([(op, args), *((o, a) for o, a, _n in after)])
        if style is not None and matcher in ("toBe", "toEqual", "toStrictEqual", "toMatch"):
            if negated:
                # The DOM normalises values ('#fff' reads 'rgb(255, 255, 255)'): a negated
                # comparison could pass whatever the style is.
                raise Untranslatable("compares a style value with .not; use toHaveStyle")
            self._dom_style(target)
            element = self.element_code(target, "get", non_null=True)
            tail = "".join(self._raw_op(o, a) for o, a, _n in after[style[1] - 1 :])
            return f"expect({element}.style{style[0]}{tail}).{matcher}({margs_code});"
        if op == "prop" and args and not after:
            key = string_value(args[0])
            if key is None:
                raise Untranslatable("prop() with a computed name")
            return self._attribute_assertion(target, key, matcher, negated, margs, margs_code)
        if op == "props" and len(after) == 1 and after[0][0].startswith("."):
            return self._attribute_assertion(
                target, after[0][0][1:], matcher, negated, margs, margs_code
            )
        if op == "props" and len(after) == 1 and after[0][0] == "[]" and after[0][1]:
            key = string_value(after[0][1][0])
            if key is not None:
                return self._attribute_assertion(target, key, matcher, negated, margs, margs_code)
        if op == "props" and not after and matcher in ("toEqual", "toMatchObject") and margs:
            expected = unwrap(margs[0])
            if (
                expected is not None
                and expected.type == "call_expression"
                and text(expected.child_by_field_name("function")) == "expect.objectContaining"
            ):
                inner = args_of(expected)
                expected = unwrap(inner[0]) if inner else None
            elif matcher == "toEqual":
                raise Untranslatable("compares all props of an element")
            if expected is None or expected.type != "object" or negated:
                raise Untranslatable("compares props with a non-literal object")
            lines = []
            for pair in expected.named_children:
                if pair.type != "pair":
                    raise Untranslatable("compares props with a spread or method")
                key = pair_key(pair)
                value = pair.child_by_field_name("value")
                assert value is not None
                lines.append(
                    self._attribute_assertion(target, key, "toBe", False, [value], text(value))
                )
            return "\x00".join(lines)
        raise Untranslatable(f"reads {op}() in a way testmend cannot map to the DOM")

    def _shown_text(
        self,
        target: Target,
        element: str,
        matcher: str,
        negated: bool,
        margs: list[Node],
        margs_code: str,
    ) -> str:
        """A child's prop that the element it rendered shows as its whole text, compared with a
        value: the element's text (a literal as jest-dom reads it, ``toHaveTextContent(/^New$/)``;
        a value only the run knows as ``textContent``, which is always a string)."""
        expected = unwrap(margs[0]) if len(margs) == 1 else None
        if matcher not in ("toBe", "toEqual", "toStrictEqual") or expected is None:
            raise Untranslatable(f"compares a prop the element shows as its text with {matcher}")
        neg = ".not" if negated else ""
        literal = string_value(expected) if expected.type == "string" else None
        if expected.type == "number":
            literal = text(expected)
        if literal is not None and " ".join(literal.split()) == literal and literal:
            return self._text_is(target, element, literal, neg)
        return f"expect({self.read_of(target)}.textContent){neg}.{matcher}(String({margs_code}));"

    def _text_is(self, target: Target, element: str, literal: str, neg: str) -> str:
        """That ``element``'s whole text is ``literal`` (single-spaced): by jest-dom, or, where
        the element is found by that very text, only that it is there."""
        if not neg and found_by_text(target, literal):
            return f"expect({element}).toBeInTheDocument();"
        return text_content_check(element, element, neg, "exact", literal, js_string(literal))

    @staticmethod
    def _disabled_assertion(target: Target, element: str, value: bool) -> str:
        """``disabled`` on a form control is its disabled state; on anything else (a link
        styled as a button) it shows, when it does, as ``aria-disabled`` or a class, which
        the capture must have seen."""
        tags = {e.tag for e in target.captured}
        if property_disabled(target):
            return f"expect({element}).toHaveProperty('disabled', {str(value).lower()});"
        if not tags or tags <= DISABLEABLE_TAGS:
            return f"expect({element}).{'toBeDisabled' if value else 'toBeEnabled'}();"
        if not value:
            return f"expect({element}).not.toHaveAttribute('aria-disabled', 'true');"
        if all(e.attributes.get("aria-disabled") == "true" for e in target.captured):
            return f"expect({element}).toHaveAttribute('aria-disabled', 'true');"
        if all("disabled" in e.classes for e in target.captured):
            return f"expect({element}).toHaveClass('disabled');"
        raise Untranslatable(
            f"reads the disabled prop of a <{sorted(tags)[0]}>, and the capture shows no "
            "aria-disabled or class for it"
        )

    def _attribute_assertion(
        self,
        target: Target,
        key: str,
        matcher: str,
        negated: bool,
        margs: list[Node],
        margs_code: str,
    ) -> str:
        if key.startswith("on") and key[2:3].isupper():
            raise Untranslatable(f"reads the event handler prop {key}; fire the event instead")
        neg = ".not" if negated else ""
        if key == "children":
            literal = string_value(margs[0]) if len(margs) == 1 else None
            label = margs[0] if len(margs) == 1 else None
            declared = (
                object_declared(text(label), label)
                if label is not None and label.type == "identifier"
                else None
            )
            if declared is not None and declared.type.startswith("jsx_"):
                # `const topContent = <div />`: an element, which the text is not.
                raise Untranslatable(
                    "compares the children prop with a React element; assert on what it renders"
                )
            if (
                matcher in ("toBe", "toEqual", "toStrictEqual")
                and label is not None
                and (literal is not None or label.type == "identifier")
            ):
                # Text children: what the element shows, compared exactly. (Element children
                # never equal a string, in Enzyme or here.)
                if literal and " ".join(literal.split()) == literal:
                    self.need_jest_dom()
                    return self._text_is(target, self.element_code(target, "get"), literal, neg)
                return f"expect({self.read_of(target)}.textContent){neg}.{matcher}({margs_code});"
            raise Untranslatable("reads the children prop; assert on the rendered text")
        if key == "style":
            styles = unwrap(margs[0]) if len(margs) == 1 else None
            if (
                matcher in ("toEqual", "toStrictEqual")
                and not negated
                and styles is not None
                and styles.type == "object"
                and styles.named_children
                and all(
                    pair.type == "pair"
                    and (style_value := unwrap(pair.child_by_field_name("value"))) is not None
                    and style_value.type in ("string", "template_string")
                    for pair in styles.named_children
                )
            ):
                # `{ width: `${p}%` }`: each value as the element's style has it (strings only:
                # React adds units to numbers, which the comparison would not).
                self._dom_style(target)
                self.need_jest_dom()
                element = self.element_code(target, "get")
                return f"expect({element}).toHaveStyle({text(styles)});"
            raise Untranslatable("reads the style prop; use toHaveStyle")
        self.need_jest_dom()
        element = self.element_code(target, "get")
        value = self._bool_of(matcher, negated, margs)
        literal = text(margs[0]) if margs else None
        if key == "disabled" and value is not None:
            return self._disabled_assertion(target, element, value)
        if key == "checked" and value is not None:
            return f"expect({element}){'' if value else '.not'}.toBeChecked();"
        if (
            key in DOM_STATE_PROPS
            and value is None
            and matcher in ("toBe", "toEqual")
            and len(margs) == 1
            and text(margs[0]) not in ("undefined", "null")
        ):
            # Compared with a value only the run knows: React sets these as the element's
            # properties (a controlled checkbox has no `checked` attribute), so the property
            # is what the prop became.
            read = f"({element} as {DOM_STATE_PROPS[key]})" if self.ts else element
            return f"expect({read}.{key}){neg}.{matcher}({margs_code});"
        if key == "value" and matcher in ("toBe", "toEqual") and margs:
            if _string_valued(target) and margs[0].type not in ("string", "template_string"):
                # React writes the prop as the DOM's string (`<option value={version.id}>`
                # reads "123"); only number inputs read back a number.
                number = re.fullmatch(r"\d+(\.\d*[1-9])?", text(margs[0])) is not None
                margs_code = js_string(text(margs[0])) if number else f"String({margs_code})"
            return f"expect({element}){neg}.toHaveValue({margs_code});"
        if key == "className" and matcher in ("toBe", "toEqual") and margs:
            if self._shallow_root(target) and target.render.component_root:
                # The class given to the component at the root, which may add its own.
                return f"expect({element}){neg}.toHaveClass({margs_code});"
            return f"expect({element}){neg}.toHaveAttribute('class', {margs_code});"
        attr = PROP_ATTRIBUTES.get(key, key)
        hyphenated = re.sub(r"[A-Z]", lambda m: "-" + m.group(0).lower(), key)
        shown = target.shown_attribute(key)
        if shown == SHOWN_TEXT:
            return self._shown_text(target, element, matcher, negated, margs, margs_code)
        if shown is not None:
            attr = shown  # the capture saw the prop's value there
        elif hyphenated in SVG_HYPHENATED:
            attr = hyphenated
        elif key in SVG_CAMEL:
            attr = key
        elif attr != key or "-" in key or key.lower() == key or key in ("id", "href"):
            attr = attr if "-" in attr else attr.lower()
        else:
            raise Untranslatable(f"reads the prop {key}, which is not an HTML attribute")
        if matcher in ("toBeUndefined",) or (
            matcher in ("toBe", "toEqual") and literal in ("undefined", "null")
        ):
            if not is_dom_attribute(attr):
                raise Untranslatable(f"reads the prop {key}, which is not an HTML attribute")
            return (
                f"expect({element}){'' if negated else '.not'}.toHaveAttribute({js_string(attr)});"
            )
        if (value is False and attr in BOOLEAN_ATTRIBUTES) or (negated and value is None):
            # Asserted absent (or not equal): the capture shows no attribute either way.
            if not is_dom_attribute(attr):
                raise Untranslatable(f"reads the prop {key}, which is not an HTML attribute")
        elif shown is None:
            shown_as_attribute(target, key, attr)
        if matcher == "toBeDefined":
            return f"expect({element}){neg}.toHaveAttribute({js_string(attr)});"
        if value is not None:
            if attr in BOOLEAN_ATTRIBUTES:
                return (
                    f"expect({element}){'' if value else '.not'}.toHaveAttribute("
                    f"{js_string(attr)});"
                )
            return (
                f"expect({element}).toHaveAttribute({js_string(attr)}, "
                f"{js_string('true' if value else 'false')});"
            )
        if matcher in ("toBe", "toEqual", "toStrictEqual") and margs:
            node = unwrap(margs[0])
            if node is not None and node.type == "number":
                return (
                    f"expect({element}){neg}.toHaveAttribute({js_string(attr)}, "
                    f"{js_string(text(node))});"
                )
            if node is not None and string_value(node) is not None:
                return f"expect({element}){neg}.toHaveAttribute({js_string(attr)}, {margs_code});"
            return (
                f"expect({element}){neg}.toHaveAttribute({js_string(attr)}, String({margs_code}));"
            )
        if matcher in ("toContain", "toMatch") and margs:
            return (
                f"expect({element}.getAttribute({js_string(attr)})){neg}.{matcher}({margs_code});"
            )
        raise Untranslatable(f"reads the prop {key} with {matcher}")


def shown_as_attribute(target: Target, key: str, attr: str) -> None:
    """Raise Untranslatable unless the prop ``key`` is the attribute ``attr`` of what ``target``
    selects: every element the capture saw it select has that attribute, or (no capture) it is
    one React writes for a host element's prop. A component's prop (``label``, ``icon``) that
    its element does not write as such is no attribute, whatever the name."""
    if target.node_of is not None and not target.captured:
        raise Untranslatable(
            f"reads the prop {key} of the component {target.node_of}; no DOM capture shows "
            "it as an attribute of what the component rendered"
        )
    if target.captured:
        # (the capture keeps an element's classes apart from its other attributes)
        if all(
            attr.lower() in {name.lower() for name in e.attributes}
            or (attr.lower() == "class" and e.classes)
            for e in target.captured
        ):
            return
        tags = sorted({e.tag for e in target.captured})
        raise Untranslatable(
            f"reads the prop {key}, which is no attribute of the <{'>, <'.join(tags)}> the "
            "capture saw it select (a component's prop, not the element's)"
        )
    if not is_dom_attribute(attr):
        raise Untranslatable(f"reads the prop {key}, which is not an HTML attribute")


def class_argument(marg: Node, code: str) -> str:
    """jest-dom's ``toHaveClass`` argument for jest-enzyme's ``toHaveClassName(marg)``
    (``code``: the argument as translated): ``'.a.b'`` is the classes ``'a b'``."""
    cls = string_value(marg)
    if cls is not None:
        return js_string(cls.lstrip(".").replace(".", " "))
    return class_template(text(marg)) if marg.type == "template_string" else code


def class_template(template: str) -> str:
    """jest-enzyme's ``toHaveClassName`` takes a class with or without its selector dot: the
    template ``.${styles.skeleton}`` is the class ``styles.skeleton`` (jest-dom's
    ``toHaveClass`` would look for a class named with the dot)."""
    whole = re.fullmatch(r"`\.\$\{([^`{}]*)\}`", template)
    if whole is not None:
        return whole.group(1).strip()
    return "`" + template[2:] if template.startswith("`.") else template


def _string_valued(target: Target) -> bool:
    """``target`` is an element whose value jest-dom reads as a string, whatever value the
    prop had: found by a role whose elements have one (an ``<option>``, a single select, a
    slider, a text box), or seen by the capture as such an element (any input but a number's,
    whose value alone reads back a number)."""
    target = held(target)
    by_role = (
        target.kind == "query"
        and target.method == "Role"
        and re.match(r"""['"](option|combobox|slider|textbox|searchbox)['"]""", target.args)
        is not None
    )
    seen = bool(target.captured) and all(
        (e.tag == "input" and e.attributes.get("type", "text") != "number")
        or (e.tag == "select" and "multiple" not in e.attributes)
        or e.tag in ("option", "textarea")
        for e in target.captured
    )
    return by_role or seen


def property_disabled(target: Target) -> bool:
    """The capture saw ``target`` as custom elements whose disabled state is their property
    alone (a web component's React wrapper sets it so: Clarity's ``<cds-button>``), which
    jest-dom's ``toBeDisabled``, reading the attribute, never sees."""
    captured = held(target).captured
    return bool(captured) and all("-" in e.tag and "disabled" in e.properties for e in captured)


def held(target: Target) -> Target:
    """What a variable target stands for (``const slider = …``), else ``target`` itself."""
    if target.kind == "var" and target.binding is not None and target.binding.target is not None:
        return target.binding.target
    return target

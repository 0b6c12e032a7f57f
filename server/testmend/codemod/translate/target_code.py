"""The code that reads a target: the query, the CSS lookup or the render's node for one
element or a list, and the render result's members it goes through."""

from __future__ import annotations

import re
from typing import Literal

from ..syntax import Node, args_of, text, unwrap, walk
from .captured import CapturedQueries
from .state import Binding, Ctx, Target, Untranslatable, Variant


class TargetCode(CapturedQueries):
    def _screen(self, query: str, target: Target) -> str:
        if target.within is not None:
            return f"{self.need('within')}({target.within}).{query}"
        self.need("screen")
        return f"screen.{query}"

    def read_of(self, target: Target) -> str:
        """``target``'s element as the object of a property read (``….textContent``): a
        ``querySelector`` that may find nothing is read through ``?.`` (no non-null assertion,
        which lint rules forbid; reading nothing fails the comparison all the same)."""
        element = self.element_code(target, "get")
        return element + "?" if re.search(r"\.querySelector\([^()]*\)$", element) else element

    def element_code(self, target: Target, variant: Variant, *, non_null: bool = False) -> str:
        bang = "!" if non_null and self.ts else ""
        if target.kind == "query" or (target.kind == "var" and not target.nullable):
            bang = ""
        if target.kind == "root":
            # The root wrapper's DOM node: what the component rendered, inside RTL's container
            # (inside the <svg> around it, for an SVG element), by the query the capture saw
            # select it alone, when there is one and no other render shares the document.
            queries = target.render.root_queries
            alone = target.binding is None or not target.binding.beside_others
            if queries and alone and target.within is None and not target.render.svg:
                method, args = queries[0]
                self.dom_queries_used += 1
                return self._screen(f"{variant}By{method}({args})", target)
            if target.render.svg:
                return self.member_of(target, "container") + ".querySelector('svg > *')" + bang
            return self.member_of(target, "container") + ".firstElementChild" + bang
        if target.kind == "var":
            if target.multi:
                return self._index_code(target.css, target.index, variant, bang)
            return target.css + bang
        if target.kind == "query":
            if target.multi:
                query = "getAll" if variant == "get" else "queryAll"
                base = self._screen(f"{query}By{target.method}({target.args})", target)
                return self._index_code(base, target.index, variant, bang)
            return self._screen(f"{variant}By{target.method}({target.args})", target)
        # css
        if target.index == "expr":
            return target.css + bang
        if target.index == "list":
            return self._index_code(target.css, None, variant, bang)
        if target.multi:
            return self._index_code(
                f"{target.scope}.querySelectorAll({target.css})", target.index, variant, ""
            )
        return f"{target.scope}.querySelector({target.css}){bang}"

    @staticmethod
    def _index_code(base: str, index: str | None, variant: Variant, bang: str) -> str:
        if index is None or index == "list":
            index = "0"
        if index == "last":
            if re.fullmatch(r"[A-Za-z_$][\w$]*", base):
                expr = f"{base}[{base}.length - 1]"
            elif base.startswith(("screen.", "within(")):
                expr = f"{base}.slice(-1)[0]"
            else:
                expr = f"Array.from({base}).slice(-1)[0]"
        else:
            expr = f"{base}[{index}]"
        if variant == "query":
            return f"{expr} ?? null"
        return expr + bang

    def list_code(self, target: Target, variant: Literal["getAll", "queryAll"]) -> str:
        if target.index not in (None, "list"):
            raise Untranslatable("counts the elements of a single element")
        if target.kind == "query":
            return self._screen(f"{variant}By{target.method}({target.args})", target)
        if target.kind == "var":
            if not target.multi:
                raise Untranslatable("counts a single element")
            return target.css
        if target.kind == "root":
            if self._shallow_root(target):
                return self._root_nodes(target)
            raise Untranslatable("counts the rendered root")
        if target.index == "list":
            return target.css
        return f"{target.scope}.querySelectorAll({target.css})"

    def _root_nodes(self, target: Target) -> str:
        """The nodes a shallow root's component rendered (a fragment's, one by one)."""
        container = self.member_of(target, "container")
        if target.render.svg:
            return container + (".firstChild!" if self.ts else ".firstChild") + ".childNodes"
        return container + ".childNodes"

    @staticmethod
    def _component_root(target: Target) -> bool:
        """The root wrapper of a full render given a component's element (``mount(<Pagination
        />)``), where Enzyme's children are the component's output, not the DOM's."""
        return (
            target.kind == "root"
            and not target.render.shallow
            and target.render.element in ("component", "mixed")
        )

    @staticmethod
    def _shallow_root(target: Target) -> bool:
        return target.kind == "root" and target.render.shallow

    def member_of(self, target: Target, name: str) -> str:
        return self.member(target.binding, name, target.inline)

    def member(self, binding: Binding | None, name: str, inline: Node | None = None) -> str:
        if binding is None and inline is not None:
            return f"{self.render_code(inline, Ctx())}.{name}"
        if binding is None:
            raise Untranslatable("uses the render result of an inline render")
        binding.members.add(name)
        binding.used = True
        if binding.kind == "decl":
            return name
        if binding.kind == "param" and not self._param_gets_results(binding):
            raise Untranslatable(f"needs the render result ({name}) inside a helper")
        return f"{binding.name}.{name}"

    def _param_gets_results(self, binding: Binding) -> bool:
        """Whether every call of the helper passes a render's result for this parameter (a
        wrapper variable, which then stays whole), so the helper can read its members."""
        node = binding.node
        while node is not None and node.type not in (
            "function_declaration",
            "arrow_function",
            "function_expression",
        ):
            node = node.parent
        name = self._function_name(node) if node is not None else None
        if node is None or name is None:
            return False
        index = next(
            (
                i
                for i in range(8)
                if self._param_of(name, i) is not None
                and text(self._param_of(name, i)) == binding.name
            ),
            None,
        )
        if index is None:
            return False
        calls = 0
        for call in walk(self.tree.root_node):
            if call.type != "call_expression" or text(call.child_by_field_name("function")) != name:
                continue
            arguments = args_of(call)
            arg = unwrap(arguments[index]) if index < len(arguments) else None
            if arg is None or arg.type != "identifier":
                return False
            if self.binding_named(text(arg), arg) is None:
                return False
            calls += 1
        return calls > 0

    def map_code(self, target: Target, fn: Node) -> str:
        items = self.list_code(target, "getAll")
        fn = unwrap(fn) or fn
        if fn.type != "arrow_function":
            raise Untranslatable("map() over elements with a function reference")
        params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
        body = fn.child_by_field_name("body")
        if params is None or body is None:
            raise Untranslatable("map() callback without a parameter")
        param_names = [text(p) for p in walk(params) if p.type == "identifier"]
        if not param_names:
            raise Untranslatable("map() callback without a parameter")
        param = param_names[0]
        code = text(body)
        code = re.sub(rf"\b{re.escape(param)}\.text\(\)", f"{param}.textContent", code)
        code = re.sub(rf"\b{re.escape(param)}\.hasClass\(", f"{param}.classList.contains(", code)
        code = re.sub(
            rf"\b{re.escape(param)}\.prop\((['\"])([\w-]+)\1\)",
            lambda m: f"{param}.getAttribute('{m.group(2)}')",
            code,
        )
        if re.search(rf"\b{re.escape(param)}\.(?!textContent|classList|getAttribute)\w+\(", code):
            raise Untranslatable("map() callback uses Enzyme methods testmend cannot translate")
        head = text(fn)[: body.start_byte - fn.start_byte]
        return f"Array.from({items}, {head}{code})"

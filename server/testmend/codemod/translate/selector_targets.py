"""Selectors read from the source → targets: a string selector (a tag with a role, an
attribute a query reads, a test id, CSS), a component (``find(Button)``, ``find(Form.Label)``,
``find('Modal')``) or a props object (``find({ type: 'submit' })``). Chains of them, with the
capture's queries, are in ``targets.py``."""

from __future__ import annotations

import re

from ..syntax import (
    Node,
    js_string,
    object_declared,
    object_items,
    pair_key,
    string_value,
    text,
    unwrap,
)
from .selector_params import SelectorParams
from .state import Target, Untranslatable
from .tables import ATTRIBUTE_QUERIES, INPUT_ROLES, PROP_ATTRIBUTES, TAG_ROLES


class SelectorTargets(SelectorParams):
    """The target a selector of the source names, before any capture is consulted."""

    def source_target(self, selector: Node, context: str) -> Target:
        value = string_value(selector)
        if value is None:
            node = unwrap(selector)
            if node is not None and node.type == "identifier" and text(node)[:1].isupper():
                return Target("css", component=text(node))
            if node is not None and self._component_member(node):
                return Target("css", component=text(node))
            if node is not None and node.type == "object":
                return self._object_selector(node)
            # A selector computed at run time (e.g. a helper's parameter).
            return Target("css", css=text(selector))
        value = value.strip()
        if re.fullmatch(r"[A-Z][\w.$]*", value):
            return Target("css", component=value)
        checkbox = bool(re.search(r"type=['\"]?(checkbox|radio)", value))
        attr = re.fullmatch(r"(\w*)\[([\w-]+)=['\"]?([^'\"\]]*)['\"]?\]", value)
        if attr and attr.group(2) == self.options.test_id_attribute:
            return Target("query", method="TestId", args=js_string(attr.group(3)))
        if context == "capture-only":
            return Target("css", css=js_string(value), checkbox=checkbox)
        if attr and not attr.group(1):
            name, val = attr.group(2), attr.group(3)
            if name == "role":
                return Target("query", method="Role", args=js_string(val))
            if name in ATTRIBUTE_QUERIES:
                return Target("query", method=ATTRIBUTE_QUERIES[name], args=js_string(val))
        if re.fullmatch(r"h[1-6]", value):
            return Target("query", method="Role", args=f"'heading', {{ level: {value[1]} }}")
        if value in TAG_ROLES:
            return Target("query", method="Role", args=js_string(TAG_ROLES[value]))
        typed = re.fullmatch(r"input\[type=['\"]?(\w+)['\"]?\]", value)
        if typed and typed.group(1) in INPUT_ROLES and context != "text":
            return Target(
                "query",
                method="Role",
                args=js_string(INPUT_ROLES[typed.group(1)]),
                checkbox=checkbox,
            )
        return Target("css", css=js_string(value), checkbox=checkbox)

    def _component_member(self, node: Node) -> bool:
        """``Form.Label``, ``components.Button``: a component reached through an object (a
        UI kit's compound components, a namespace import), never a CSS selector; a class of
        a stylesheet module (``styles.Header``) is a string."""
        if node.type != "member_expression":
            return False
        prop = node.child_by_field_name("property")
        root: Node | None = node
        while root is not None and root.type == "member_expression":
            root = root.child_by_field_name("object")
        if prop is None or not text(prop)[:1].isupper() or root is None:
            return False
        if root.type != "identifier":
            return False
        declared = object_declared(text(root), node)
        if declared is not None:  # the test's own object: a selector where it holds a string
            value = dict(object_items(declared)).get(text(prop))
            return value is None or value.type not in ("string", "template_string")
        stylesheets = {
            local
            for stmt, module in self.own_imports()
            if re.search(r"\.(?:s?css|sass|less)$", module)
            for _imported, local in self._import_names(stmt)
        }
        return text(root) not in stylesheets

    def _object_selector(self, node: Node) -> Target:
        parts = []
        for pair in node.named_children:
            if pair.type != "pair":
                raise Untranslatable("selects by a props object that is not plain literals")
            key = pair_key(pair)
            value_node = pair.child_by_field_name("value")
            value = string_value(value_node)
            if value is None:
                raw = text(value_node)
                if re.fullmatch(r"-?\d+(\.\d+)?|true|false", raw):
                    value = raw
                else:
                    raise Untranslatable("selects by a prop value that is not a literal")
            if key == self.options.test_id_attribute:
                return Target("query", method="TestId", args=js_string(value))
            attr = PROP_ATTRIBUTES.get(key, key)
            if attr == "class":
                parts.append("." + ".".join(value.split()))
            else:
                parts.append(f'[{attr}="{value}"]')
        return Target("css", css=js_string("".join(parts)))

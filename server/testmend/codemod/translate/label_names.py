"""A list of labelled items read by its labels' texts (``expect(find('label.text').map((l) =>
l.text())).toEqual(['Write', 'Test'])``), where no query selects the labels: the controls they
label, by the role query the capture checked, each asserted to have that name
(``toHaveAccessibleName``), as a screen reader announces it."""

from __future__ import annotations

from ..syntax import Node, args_of, arrow_of_one, js_value, string_value, text, unwrap
from .prop_assertions import PropAssertions
from .state import Ctx, Target

# A role's plural, for the list's name (checkbox → checkboxes).
_PLURAL_ES = ("s", "x", "ch", "sh")


class LabelNames(PropAssertions):
    def label_names(
        self,
        target: Target,
        rest: list[tuple[str, list[Node], Node]],
        matcher: str,
        negated: bool,
        margs: list[Node],
        ctx: Ctx,
    ) -> str | None:
        """The statements for the shape above, or None for any other: a negation, another
        matcher, a callback that does more than read the text, an expected list not written
        out as strings, or one that is not what every capture of the find saw the labels say
        (the checks would then fail where the original did too, for a reason it did not
        have)."""
        if (
            target.kind != "css"
            or target.origin is None
            or target.index
            or target.scope != "document"
            or negated
            or matcher not in ("toEqual", "toStrictEqual")
            or len(margs) != 1
            or len(rest) != 1
            or rest[0][0] != "map"
            or not self._reads_text(rest[0][1])
        ):
            return None
        expected = unwrap(margs[0])
        if expected is None or expected.type != "array":
            return None
        names = [string_value(item) for item in expected.named_children]
        if not names or any(name is None for name in names):
            return None
        runs = self._matched_at(target.origin, ctx)
        if not runs or any(
            r.count != len(names) or [e.text for e in r.elements] != names for r in runs
        ):
            return None
        controls = self._agreed(
            [sorted(r.labelled, key=lambda q: len(q.args)) for r in runs], multi=True
        )
        if controls is None or controls.kind != "query" or not self.options.accessible_names:
            return None
        role = next(
            (
                q.args[0]
                for q in runs[0].labelled
                if ", ".join(js_value(a) for a in q.args) == controls.args
            ),
            None,
        )
        self.need_jest_dom()
        items = self._list_name(role if isinstance(role, str) else None)
        query = self._screen(f"getAllBy{controls.method}({controls.args})", target)
        lines = [f"const {items} = {query};", f"expect({items}).toHaveLength({len(names)});"]
        lines += [
            f"expect({items}[{i}]).toHaveAccessibleName({text(item)});"
            for i, item in enumerate(expected.named_children)
        ]
        return "\x00".join(lines)

    @staticmethod
    def _reads_text(args: list[Node]) -> bool:
        """Whether the map's callback is ``(node) => node.text()``."""
        arrow = arrow_of_one(args[0]) if len(args) == 1 else None
        if arrow is None or arrow[1].type != "call_expression":
            return False
        param, body = arrow
        return text(body).replace(" ", "") == f"{param}.text()" and not args_of(body)

    def _list_name(self, role: str | None) -> str:
        """A name for the controls that nothing in the file uses yet (``checkboxes``)."""
        if role and role.isalpha():
            base = role + ("es" if role.endswith(_PLURAL_ES) else "s")
        else:
            base = "controls"
        taken = self.identifiers | self.list_names
        name, k = base, 1
        while name in taken:
            k += 1
            name = f"{base}{k}"
        self.list_names.add(name)
        return name

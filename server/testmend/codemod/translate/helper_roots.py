"""``setProps`` on a render a project helper made around the test's element: Enzyme's root is the
element the helper mounts (``mount(<Provider store={store}>{children}</Provider>)``), not the
test's, so the props went to that root (``HelperMapping.root``)."""

from __future__ import annotations

import re

from ..syntax import Node, object_keys, text
from .settable import SettableRenders
from .state import Binding, Dropped, Untranslatable

# A helper's root that renders its children as they are, whatever props it is given.
_PASSES_NOTHING = re.compile(r"(Provider|Router)$")


class HelperRoots(SettableRenders):
    def set_on_helper_root(self, binding: Binding, props: Node | None) -> None:
        """Every render into ``binding`` is a project helper's that mounts the test's element
        inside a provider or router (``mountWrapper``: ``<Provider>``), Enzyme's root, whose props
        ``setProps`` set: ``Dropped`` when that root hands none of them down (nothing the test
        sees changed), ``Untranslatable`` when they name its own (``store``, ``children``)."""
        calls = [self.render_call_of(v) for v in self.values_into(binding)]
        names = {text(c.child_by_field_name("function")) if c else None for c in calls}
        mapping = self.helper_roots.get(names.pop() or "") if len(names) == 1 else None
        keys = object_keys(props) if mapping is not None and props is not None else None
        if mapping is None or keys is None or not _PASSES_NOTHING.search(mapping.root or ""):
            return
        if keys & {*mapping.root_props, "children", "key"}:
            raise Untranslatable(
                f"setProps() sets props of <{mapping.root}>, the root {mapping.enzyme_name}() "
                "mounts; a re-render of the test's element alone would not"
            )
        raise Dropped(
            f"setProps() set these props on the root {mapping.enzyme_name}() mounts, "
            f"<{mapping.root}>, which does not hand them to the element the test rendered: "
            "the original re-rendered nothing the test sees"
        )

"""The capture's records of one call site, by the position of the called member's property
(``state`` in ``wrapper.state('count')``) and the special selector they were recorded under
(``:state``, ``:instance``)."""

from __future__ import annotations

from ..models import FindRecord
from ..syntax import Node

Records = dict[tuple[int, int], list[FindRecord]]


def records_at(records: Records, prop: Node, selector: str) -> list[FindRecord]:
    """The ``selector`` records of the call whose member's property is ``prop``: at its
    position, or the one position on its line that has any (stack columns vary by engine)."""
    key = (prop.start_point[0] + 1, prop.start_point[1] + 1)
    found = [r for r in records.get(key, []) if r.selector == selector]
    if found:
        return found
    line = [
        r for (at, rs) in records.items() if at[0] == key[0] for r in rs if r.selector == selector
    ]
    return line if len({(r.line, r.column) for r in line}) == 1 else []

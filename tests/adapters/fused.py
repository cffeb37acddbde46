"""What the fused pair tests share (test_fused_pairs*.py): a body with one value changed, and
the check that two results are the same answer."""

from __future__ import annotations

import copy
from typing import Any

from interlingua.conversion import ConversionResult

#: Given as the value to `changed`: the key is removed.
DELETE: Any = object()


def changed(body: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """A copy of ``body`` with the value at ``path`` replaced (`DELETE`: removed)."""
    found = copy.deepcopy(body)
    node: Any = found
    for step in path[:-1]:
        node = node[step]
    if value is DELETE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return found


def same(a: ConversionResult, b: ConversionResult) -> None:
    """The same output, losses, id map and name map."""
    assert (a.output, a.losses, dict(a.id_map), dict(a.name_map)) == (
        b.output,
        b.losses,
        dict(b.id_map),
        dict(b.name_map),
    )

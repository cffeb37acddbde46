"""Equality of JSON values, as every case file defines it.

Numbers compare by value (1 equals 1.0); booleans never equal numbers; arrays compare in order;
objects compare by key, whatever the order. Two implementations agree when their outputs are
equal in this sense, however each one serialises them.
"""

from __future__ import annotations

from typing import Any


def same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b

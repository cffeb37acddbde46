"""The mapping files (schemas/mappings/*.yaml) as the generator loads them, loaded once for the
tests. The loader checks every file against the meta-schema, about a second a call (two and a
half under coverage), and most generator tests take a mapping only to change it.

Each call gives copies of its own, so a test may change what it gets.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from generator.adapters import Mapping, load_mappings


@cache
def _loaded() -> tuple[Mapping, ...]:
    return tuple(load_mappings())


def mappings() -> list[Mapping]:
    """Every mapping, in the loader's order."""
    return copy.deepcopy(list(_loaded()))


def mapping_data(fmt: str) -> dict[str, Any]:
    """The data of ``fmt``'s mapping."""
    (mapping,) = [m for m in _loaded() if m.format == fmt]
    return copy.deepcopy(mapping.data)


def data_by_format() -> dict[str, Any]:
    """Every mapping's data, by its format."""
    return {m.format: m.data for m in mappings()}

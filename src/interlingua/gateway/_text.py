"""Text shaping shared by cards and error envelopes: one line, no control characters, capped."""

from __future__ import annotations

import re
from typing import Any, Final

from pydantic import BaseModel

#: Characters that break a line or control a terminal: C0, DEL, C1, and the Unicode line and
#: paragraph separators. Each becomes a space.
_BREAKING: Final = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_SPACES: Final = re.compile(" {2,}")
ELLIPSIS: Final = "\u2026"


def single_line(text: str) -> str:
    """``text`` on one line: line-breaking and control characters become spaces, runs of
    spaces (U+0020) collapse to one, and spaces at either end are removed."""
    return _SPACES.sub(" ", _BREAKING.sub(" ", text)).strip(" ")


def cap(text: str, limit: int) -> str:
    """``text`` if it has at most ``limit`` characters, else its first ``limit - 1`` and ``…``."""
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def shown(value: Any, limit: int = 48) -> str:
    """A short rendering of an untrusted value for a message (``repr`` escapes control
    characters, so they stay visible), capped at ``limit`` characters."""
    return cap(repr(value), limit)


def max_length(model: type[BaseModel], field: str) -> int:
    """The ``maxLength`` the schema gives ``model.field`` (read from the generated model)."""
    for constraint in model.model_fields[field].metadata:
        limit = getattr(constraint, "max_length", None)
        if isinstance(limit, int):
            return limit
    raise LookupError(f"{model.__name__}.{field} has no maxLength")

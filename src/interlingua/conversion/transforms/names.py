"""Display names a format restricts: a document's name made of a few safe characters.

Some formats require every document to carry a name and allow only letters, digits, single
whitespace, hyphens, parentheses and square brackets in it (no dots, so no file extension,
and no path). The canonical `title` is free text and optional, so writing it may need a
rewrite (reported as `name_rewritten`) or, when there is none, a placeholder (reported as
`placeholder_inserted`). Reading takes the name as the title.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms.base import ABSENT, Transform

PLACEHOLDER = "document"
MAX_LENGTH = 200
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}$")
_DISALLOWED = re.compile(r"[^A-Za-z0-9\s()\[\]-]+")
_SPACES = re.compile(r"\s+")


def safe_name(title: str) -> str:
    """``title`` as a name of the safe characters: the last path segment, without a file
    extension, other characters as spaces, whitespace runs as one space; empty when nothing
    is left."""
    name = re.split(r"[/\\]", title)[-1]
    name = _EXTENSION.sub("", name) or name
    name = _DISALLOWED.sub(" ", name)
    return _SPACES.sub(" ", name).strip()[:MAX_LENGTH].strip()


def _encode(ctx: Context, at: str, title: Any) -> Any:
    if title is ABSENT or not isinstance(title, str):
        ctx.loss(
            at,
            "placeholder_inserted",
            f"{ctx.adapter} requires a document name; sent {PLACEHOLDER!r}",
            "document",
        )
        return PLACEHOLDER
    name = safe_name(title) or PLACEHOLDER
    if name == title:
        return name
    ctx.loss(
        at,
        "name_rewritten",
        f"{ctx.adapter}: document names take letters, digits, single spaces, hyphens, "
        f"parentheses and brackets only; {title!r} sent as {name!r}",
        "document",
    )
    return name


def _decode(ctx: Context, wire: Any, at: str) -> str:
    if not isinstance(wire, str) or not wire:
        raise ConversionError("wrong_type", at, "expected a non-empty document name")
    return wire


DOCUMENT_NAME = Transform(
    "document_name",
    1,
    _encode,
    _decode,
    "A document title as a required name of letters, digits, single spaces, hyphens, "
    "parentheses and brackets: rewritten when it has other characters, a placeholder when "
    "there is none (both reported).",
)

NAME_TRANSFORMS: Mapping[str, Transform] = {DOCUMENT_NAME.name: DOCUMENT_NAME}

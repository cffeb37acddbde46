"""A resource's URI and its kind, for formats that identify a resource by its URI alone.

The canonical `resource` and `resource_ref` parts say what kind of thing a resource is
(`file`, `database`, `api` …); MCP names a resource by its URI and nothing else. Reading gives
the kind the URI shows: `file` for a `file:` URI, `uri` for any other. Writing carries the URI;
a kind other than the one its URI shows has no place and is reported as dropped, so a resource
read from such a format goes back to it without a loss.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms.base import Transform


def kind_of(uri: str) -> str:
    """The resource kind a URI shows by itself."""
    scheme = uri.split(":", 1)[0].lower() if ":" in uri else ""
    return "file" if scheme == "file" else "uri"


def _encode(ctx: Context, at: str, uri: Any, kind: Any, part_type: Any) -> Any:
    if not isinstance(uri, str):
        raise ConversionError("wrong_type", at, "a resource URI is a string")
    shown = kind_of(uri)
    if kind != shown:
        ctx.loss(
            at.rsplit("/", 1)[0] + "/resource_type",
            "field_dropped",
            f"{ctx.adapter} names a resource by its URI only; the kind {kind!r} is not carried "
            f"(it reads back as {shown!r})",
            part_type if isinstance(part_type, str) else None,
        )
    return uri


def _decode(ctx: Context, wire: Any, at: str, part_type: Any) -> tuple[str, str, None]:
    if not isinstance(wire, str) or not wire:
        raise ConversionError("wrong_type", at, "a resource URI is a non-empty string")
    return wire, kind_of(wire), None  # nothing for the part type


RESOURCE_KIND = Transform(
    "resource_kind",
    3,
    _encode,
    _decode,
    "A resource's URI, standing for its URI and its kind (`[$uri, $kind, <part type>]`): "
    "reading gives `file` for a `file:` URI and `uri` for any other; writing reports any other "
    "kind as dropped.",
    literals=True,
)

RESOURCE_TRANSFORMS: Mapping[str, Transform] = {RESOURCE_KIND.name: RESOURCE_KIND}

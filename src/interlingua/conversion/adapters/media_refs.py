"""Media by reference: which of a media part's sources a provider's format is given.

A canonical media source may say where the same bytes are stored at providers (`file_ids`,
provider → file id), and a file source names the provider that issued its id (`provider`).
Writing to a format of provider P, a part whose source knows an id at P goes as that id (when
the format has a file reference for the part), so a file uploaded once is not sent again as
bytes; otherwise it goes as it is (its bytes or URL). A file id issued by another provider
names nothing at P: such a part, with no id for P and nothing else to send, is left out and
reported (`file_not_portable`), never sent to be refused.

The bytes or URL a reference replaces are not a loss (the reference names the same bytes);
what the wire has no room for (the hash, the size, the map itself, a media type) is reported
by the format's encoder like any other field it does not carry.
"""

from __future__ import annotations

from typing import Any, Final

from interlingua.conversion import Context
from interlingua.conversion.adapters.runtime import MISS, Codec
from interlingua.generated.providers import PROVIDER_KEYS


class _NotPortable:
    """Returned by :func:`encode_media` for a part it left out (already reported)."""

    def __repr__(self) -> str:
        return "NOT_PORTABLE"


NOT_PORTABLE: Final = _NotPortable()

# What a file reference keeps of the source it replaces: the facts about the bytes.
_REFERENCE_DROPS: Final = frozenset({"type", "url", "data", "file_id", "provider"})


def file_id_for(source: dict[str, Any], provider: str) -> str | None:
    """The id the source's bytes have at ``provider``, if it knows one: the file id itself
    when ``provider`` issued it, else the one `file_ids` lists, else a file id of unknown
    issuer (taken as valid anywhere, as before issuers were recorded)."""
    kind, issuer, own = source.get("type"), source.get("provider"), source.get("file_id")
    if kind == "file" and issuer == provider and isinstance(own, str):
        return own
    ids = source.get("file_ids")
    if type(ids) is dict and isinstance(ids.get(provider), str):
        return str(ids[provider])
    if kind == "file" and issuer is None and isinstance(own, str):
        return own
    return None


def encode_media(ctx: Context, fmt: str, encoder: Codec, part: dict[str, Any], at: str) -> Any:
    """A media part written by ``encoder`` (the format's encoder of its type) with the source
    its provider can take: MISS when the format has no variant for it, NOT_PORTABLE when it
    was left out for naming another provider's file (reported here)."""
    provider = PROVIDER_KEYS.get(fmt)
    source = part.get("source")
    if provider is None or type(source) is not dict:
        return encoder(ctx, part, at)
    file_id = file_id_for(source, provider)
    if file_id is not None:
        reference = {k: v for k, v in source.items() if k not in _REFERENCE_DROPS}
        reference.update(type="file", file_id=file_id, provider=provider)
        result = encoder(ctx, {**part, "source": reference}, at)
        if result is not MISS or source.get("type") == "file":
            return result
        # No file reference for this part here: its bytes or URL go instead.
    issuer = source.get("provider")
    if source.get("type") == "file" and issuer not in (None, provider):
        ctx.loss(
            at + "/source/file_id",
            "file_not_portable",
            f"{ctx.adapter}: the file id was issued by {issuer}, and the part names no "
            f"{provider} id for it nor carries its bytes or URL",
            part.get("type"),
        )
        return NOT_PORTABLE
    return encoder(ctx, part, at)

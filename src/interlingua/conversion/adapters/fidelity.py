"""Exact same-format round trips through `provider_raw`.

The canonical form does not model everything a wire payload may hold (OpenAI's `logprobs`,
a content string written as a one-block list, an unknown block type). Rather than a field per
oddity, decoding re-encodes what it just read and, where the result differs from the input,
keeps an RFC 6902 patch from the one to the other under `provider_raw[<format>]`, together
with a digest of the canonical content it was taken from. Encoding to the same format applies
the patch when that content is unchanged; when it changed, the stale patch is left out and
reported. Other formats never read it, and say so (`provider_raw_dropped`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from interlingua.conversion import Context, ConversionError, Loss
from interlingua.conversion.adapters.runtime import escape

if TYPE_CHECKING:
    from interlingua.conversion.adapters.runtime import Adapter


def without_raw(value: Any) -> Any:
    """``value`` with `provider_raw` left out at every level it occurs."""
    if isinstance(value, dict):
        return {k: without_raw(v) for k, v in value.items() if k != "provider_raw"}
    if isinstance(value, list):
        return [without_raw(v) for v in value]
    return value


def digest(value: Any) -> str:
    """A fingerprint of canonical content, `provider_raw` left out at every level it occurs."""
    text = json.dumps(without_raw(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _patch(produced: Any, original: Any, path: str = "") -> list[dict[str, Any]]:
    """RFC 6902 operations turning ``produced`` into ``original``.

    Objects are compared key by key and lists item by item over their common length, the
    longer one's tail added or removed (never the whole list replaced: a list whose first
    item holds a turn, say a response's choices, keeps that item for the turn to fill);
    anything else that differs is replaced whole. Coarser than a minimal diff (jsonpatch's
    `make_patch` searches list moves and costs 50 times more), and patches are small in
    practice: the fields a format has beyond the canonical form.
    """
    if type(produced) is dict and type(original) is dict:
        ops: list[dict[str, Any]] = []
        # Keys written that the original lacks: one holding exactly a value the original has
        # under another key is a spelling the original chose (`reasoning` where the writer
        # says `reasoning_content`), moved rather than copied into the patch.
        extra = [key for key in produced if key not in original]
        for key, value in original.items():
            at = f"{path}/{escape(key)}"
            if key not in produced:
                renamed = next((k for k in extra if _same(produced[k], value)), None)
                if renamed is None:
                    ops.append({"op": "add", "path": at, "value": value})
                else:
                    extra.remove(renamed)
                    ops.append({"op": "move", "from": f"{path}/{escape(renamed)}", "path": at})
            elif produced[key] != value or type(produced[key]) is not type(value):
                ops += _patch(produced[key], value, at)
        ops += [{"op": "remove", "path": f"{path}/{escape(key)}"} for key in extra]
        return ops
    if type(produced) is list and type(original) is list:
        common = min(len(produced), len(original))
        ops = [
            op
            for i, (a, b) in enumerate(zip(produced[:common], original[:common], strict=True))
            if a != b or type(a) is not type(b)
            for op in _patch(a, b, f"{path}/{i}")
        ]
        ops += [
            {"op": "add", "path": f"{path}/{i}", "value": original[i]}
            for i in range(common, len(original))
        ]
        # From the end, so each index still names the item it removes.
        ops += [
            {"op": "remove", "path": f"{path}/{i}"} for i in reversed(range(common, len(produced)))
        ]
        return ops
    return [{"op": "replace", "path": path, "value": original}]


def _same(a: Any, b: Any) -> bool:
    """Equal as JSON (``1 == True`` and ``1 == 1.0`` are not), for a string or a number."""
    return type(a) is type(b) and type(a) in (str, int, float) and a == b


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token


def _apply(document: Any, ops: list[dict[str, Any]]) -> Any:
    """``document`` with ``ops`` applied, copying only the containers on the ops' paths, each
    once however many ops pass through it (so a patch costs what its ops touch, not ops times
    the size of the lists they sit in)."""
    fresh: set[int] = set()  # ids of the containers this call made: its own to change
    for op in ops:
        tokens = [_unescape(t) for t in op["path"].split("/")[1:]]
        if not tokens:
            document = op["value"]
            fresh.clear()
            continue
        document = _own(document, fresh)
        node = document
        for token in tokens[:-1]:
            key: Any = int(token) if type(node) is list else token
            node[key] = _own(node[key], fresh)
            node = node[key]
        last: Any = tokens[-1]
        if type(node) is list:
            last = len(node) if last == "-" else int(last)
            if op["op"] == "add":
                node.insert(last, op["value"])
                continue
        if op["op"] == "remove":
            del node[last]
        elif op["op"] == "move":  # between keys of one object (see _patch)
            node[last] = node.pop(_unescape(op["from"].rsplit("/", 1)[1]))
        else:
            node[last] = op["value"]
    return document


def _own(node: Any, fresh: set[int]) -> Any:
    """``node`` if this apply made it, else a shallow copy of it that it now owns."""
    if id(node) in fresh or type(node) not in (dict, list):
        return node
    copy = dict(node) if type(node) is dict else list(node)
    fresh.add(id(copy))
    return copy


def keep(target: dict[str, Any], fmt: str, entry: dict[str, Any]) -> None:
    """Add ``entry`` to the round-trip data ``target`` keeps for ``fmt``."""
    raw = dict(target.get("provider_raw") or {})
    raw[fmt] = {**raw.get(fmt, {}), **entry}
    target["provider_raw"] = raw


_keep = keep


def attach(
    ctx: Context,
    adapter: Adapter,
    messages: list[dict[str, Any]],
    turn: dict[str, Any],
    merged_with_previous: bool,
    *,
    whole: list[Any] | None = None,
) -> None:
    """Record on the first of ``messages`` how to get ``turn`` back from them exactly (or, in
    an item layout, the list items ``whole``)."""
    fmt = adapter.format
    if ctx.given:
        turn = ctx.given.get(id(turn), turn)  # as it came, in its own spelling
    entry: dict[str, Any] = {}
    if merged_with_previous:
        entry["boundary"] = True  # the input kept this turn apart from the one before
    again, _ = adapter.turns.encode_messages(ctx.scratch(), messages, "", False)
    if whole is not None:
        if again != whole:
            entry["patch"] = _patch(again, whole)
            entry["digest"] = digest(messages)
    elif again != [turn]:
        produced = again[0] if len(again) == 1 else {}
        entry["patch"] = _patch(produced, turn)
        entry["digest"] = digest(messages)
    if entry:
        _keep(messages[0], fmt, entry)


def apply(
    ctx: Context,
    fmt: str,
    messages: list[dict[str, Any]],
    turn: Any,
    spans: list[str],
    *,
    restored: set[str],
) -> Any:
    """``turn`` with the patch kept on ``messages[0]`` applied, if it still fits them (a wire
    turn: an object, or the list of items an item format spreads it into); ``spans``: the
    pointers of ``messages``, added to ``restored`` when the patch applies."""
    raw = messages[0].get("provider_raw")
    entry = raw.get(fmt) if raw else None
    if not entry or "patch" not in entry:
        return turn
    if entry.get("digest") != digest(messages):
        ctx.loss(
            spans[0],
            "provider_raw_stale",
            f"{ctx.adapter}: the content changed since it was "
            "read, so fields it had outside the canonical form are not restored",
        )
        return turn
    patched: dict[str, Any] = _apply(turn, entry["patch"])
    restored.update(spans)
    return patched


def drop_restored(ctx: Context, restored: set[str]) -> None:
    """Leave out what writing reported lost of the messages at ``restored``: each went back as
    it was read, exactly (a field read only, such as OpenAI Chat's cache hint, is restored with
    it). One pass over the losses, each looked up by its pointer's heads."""
    ctx.losses[:] = [loss for loss in ctx.losses if not _within(loss, restored)]


def _within(loss: Loss, restored: set[str]) -> bool:
    """Whether ``loss`` is about what a message at one of ``restored`` holds (and not about
    round-trip data kept for another format, which no patch restores)."""
    if loss.code.startswith("provider_raw"):
        return False
    pointer = loss.pointer
    while pointer not in restored:
        if not pointer:
            return False
        pointer = pointer.rpartition("/")[0]
    return True


def restores(fmt: str, message: dict[str, Any]) -> bool:
    """Whether ``message`` keeps a patch for ``fmt`` that still fits it: its turn goes out even
    when nothing in it could be encoded (a lone block kept verbatim), for the patch to fill."""
    raw = message.get("provider_raw")
    entry = raw.get(fmt) if raw else None
    return bool(entry and "patch" in entry and entry.get("digest") == digest([message]))


def note_foreign(ctx: Context, raw: dict[str, Any], fmt: str, at: str) -> None:
    """Report round-trip data kept for other formats, which this one cannot use."""
    for other, entry in raw.items():
        if other != fmt and isinstance(entry, dict) and entry.get("patch"):
            paths = ", ".join(sorted({op.get("path", "") or "/" for op in entry["patch"]}))
            ctx.loss(
                f"{at}/provider_raw/{other}",
                "provider_raw_dropped",
                f"{ctx.adapter}: fields only {other} has are not carried ({paths})",
            )


def envelope(
    ctx: Context,
    fmt: str,
    canonical: dict[str, Any],
    original: dict[str, Any],
    *,
    encode: Callable[[Context, dict[str, Any]], dict[str, Any]],
    without_messages: Callable[[dict[str, Any]], dict[str, Any]],
    canonical_key: str,
) -> None:
    """Keep on ``canonical`` what its envelope lacks to give back ``original`` exactly.

    Turns are left out of the comparison: each carries its own patch.
    """
    if ctx.given:
        original = ctx.given.get(id(original), original)  # as it came, in its own spelling
    try:
        again = without_messages(encode(ctx.scratch(), canonical))
    except ConversionError:
        # The writer refuses what reading tolerated (a request of no turns, which the provider
        # refuses too): the whole envelope is round-trip data, so it comes back as it came.
        again = {}
    wanted = without_messages(original)
    if again != wanted:
        _keep(
            canonical,
            fmt,
            {
                "patch": _patch(again, wanted),
                "digest": digest(_envelope_content(canonical, canonical_key)),
            },
        )


def _envelope_content(canonical: dict[str, Any], canonical_key: str) -> Any:
    """What an envelope patch depends on: the envelope, and its system messages (hoisted
    formats keep them outside the turns), but not the other turns."""
    content = {k: v for k, v in canonical.items() if k not in (canonical_key, "provider_raw")}
    value = canonical.get(canonical_key)
    if isinstance(value, list):
        content["system"] = [m for m in value if m.get("role") in ("system", "developer")]
    return content


def envelope_fits(fmt: str, canonical: dict[str, Any], canonical_key: str) -> bool:
    """Whether ``canonical`` keeps an envelope patch for ``fmt`` that still fits it (the body
    it was read from comes back)."""
    raw = canonical.get("provider_raw")
    entry = raw.get(fmt) if raw else None
    return bool(
        entry
        and "patch" in entry
        and entry.get("digest") == digest(_envelope_content(canonical, canonical_key))
    )


def apply_envelope(
    ctx: Context,
    fmt: str,
    canonical: dict[str, Any],
    wire: dict[str, Any],
    canonical_key: str,
) -> dict[str, Any]:
    raw = canonical.get("provider_raw")
    entry = raw.get(fmt) if raw else None
    if raw:
        note_foreign(ctx, raw, fmt, "")
    if not entry or "patch" not in entry:
        return wire
    if entry.get("digest") != digest(_envelope_content(canonical, canonical_key)):
        ctx.loss(
            "",
            "provider_raw_stale",
            f"{ctx.adapter}: the envelope changed since it was "
            "read, so fields it had outside the canonical form are not restored",
        )
        return wire
    patched: dict[str, Any] = _apply(wire, entry["patch"])
    # The patch gives back the envelope as it was read (so what writing it reported lost is
    # there again, and placeholders hold what the input had), and the empty system prompts
    # it was read with (the digest covers them).
    ctx.losses[:] = [loss for loss in ctx.losses if not _restored(loss, canonical, canonical_key)]
    return patched


def _restored(loss: Loss, canonical: dict[str, Any], canonical_key: str) -> bool:
    if loss.code.startswith("provider_raw"):
        return False
    if not loss.pointer.startswith(("/messages", "/message")):
        # The envelope goes back as it was read: a placeholder is the value it had, a field
        # read only (a tool's cache hint in OpenAI Chat) is there again.
        return True
    if loss.code != "message_dropped" or not loss.pointer.startswith(f"/{canonical_key}/"):
        return False
    messages = canonical.get(canonical_key)
    index = loss.pointer.rsplit("/", 1)[-1]
    if not isinstance(messages, list) or not index.isdigit() or int(index) >= len(messages):
        return False
    message = messages[int(index)]
    return message.get("role") in ("system", "developer") and not message.get("content")

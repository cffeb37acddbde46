"""Tool-call ids and tool names under a format's rules, rewritten reversibly when they break them.

A rule is ``(allowed, first, max_length)``: a regex character class every character must be
in, one the first character must be in, and a length bound (the mapping file's ``ids``
section). An id that breaks the rule is rewritten deterministically (disallowed characters to
``_``, a letter prefix, a hash suffix when too long or when two ids would collide), the
rewrite is recorded in the context's map (output value → input value), and decoding a reply
maps it back.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from typing import Any

from interlingua.conversion import Context, ConversionError
from interlingua.conversion.transforms.base import Transform


@lru_cache(maxsize=64)
def _compiled(allowed: str, first: str, max_length: int) -> tuple[re.Pattern[str], re.Pattern[str]]:
    valid = re.compile(f"[{first}][{allowed}]{{0,{max_length - 1}}}")
    bad = re.compile(f"[^{allowed}]")
    return valid, bad


def conform(value: str, rule: tuple[str, str, int], taken: dict[str, str]) -> str:
    """``value`` if it keeps the rule, else its deterministic rewrite, unique within ``taken``
    (a map of rewritten values already handed out to the values they stand for)."""
    allowed, first, max_length = rule
    valid, bad = _compiled(allowed, first, max_length)
    if valid.fullmatch(value) and taken.get(value, value) == value:
        return value
    digest = hashlib.sha256(value.encode()).hexdigest()
    candidate = bad.sub("_", value)
    if not re.match(f"[{first}]", candidate):
        candidate = "t" + candidate
    if len(candidate) > max_length or taken.get(candidate, value) != value:
        candidate = candidate[: max_length - 9] + "_" + digest[:8]
    return candidate


def _rewriter(kind: str, code: str) -> Transform:
    rule_attr, map_attr, known_attr = f"{kind}_rule", f"{kind}_map", f"known_{kind}s"
    sent_attr = f"{kind}_sent"

    def encode(ctx: Context, at: str, value: Any) -> Any:
        rule = getattr(ctx, rule_attr)
        if rule is None:
            return value
        mapping: dict[str, str] = getattr(ctx, map_attr)
        sent: dict[str, str] = getattr(ctx, sent_attr)  # the reverse of ``mapping``
        if value in sent:
            return sent[value]
        out = conform(value, rule, mapping)
        if out != value:
            mapping[out] = value
            sent[value] = out
            ctx.loss(
                at,
                code,
                f"{ctx.adapter}: {kind} {value!r} breaks the format's rules; sent as {out!r}",
            )
        return out

    def decode(ctx: Context, wire: Any, at: str) -> Any:
        if not isinstance(wire, str) or not wire:
            raise ConversionError("wrong_type", at, f"expected a non-empty {kind} string")
        known: dict[str, str] = getattr(ctx, known_attr)
        return known.get(wire, wire)

    return Transform(
        f"tool_{kind}",
        1,
        encode,
        decode,
        f"A tool {kind} under the format's rules, rewritten reversibly when it breaks them.",
    )


TOOL_ID = _rewriter("id", "id_rewritten")
TOOL_NAME = _rewriter("name", "name_rewritten")

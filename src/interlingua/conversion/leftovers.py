"""What reading leaves of a wire object: whether a dropped value holds anything to lose, and
the report of the fields no reading took. The readers, the stream reader, the fused pair
converters and the transforms that read a wire object themselves all ask these; they sit
below both the transforms and the adapters, which import them from here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interlingua.conversion import Context


def escape(key: str) -> str:
    """A key as an RFC 6901 pointer token."""
    return key.replace("~", "~0").replace("/", "~1")


def carries(value: Any) -> bool:
    """Whether a wire value a reader drops holds anything to lose: a null or an empty string
    does not, nor a list none of whose items does, nor an object with members none of which
    does. Servers fill fields they do not use with such placeholders (Snowflake's
    `service_tier: ""`, `function_call: {"name": "", "arguments": ""}`, `logprobs:
    {"content": null, "refusal": null}` on every chunk), so dropping one loses nothing and
    nothing is reported. An empty object carries: its presence is the value (Gemini's
    `googleSearch: {}` turns the tool on); so does any other scalar (a 0, a false). The
    readers, the stream reader and the fused pair converters all ask this."""
    kind = type(value)
    if kind is dict:
        members: dict[Any, Any] = value
        if not members:
            return True
        for member in members.values():  # noqa: SIM110  (a loop: compiled, no generator)
            if carries(member):
                return True
        return False
    if kind is list:
        items: list[Any] = value
        for item in items:  # noqa: SIM110
            if carries(item):
                return True
        return False
    return value is not None and not (kind is str and value == "")


def unread(
    ctx: Context,
    value: Mapping[str, Any],
    known: frozenset[str],
    at: str,
    *,
    part_type: str | None,
    defaults: Mapping[str, tuple[Any, ...]] | None = None,
) -> None:
    """Report every field of a wire object that reading did not take (when no round-trip
    data keeps it: the conversion goes to another format), unless it `carries` nothing or is
    one of the ``defaults`` the mapping names for it (a value that asks for what every format
    does anyway: OpenAI Chat's `n: 1`)."""
    for key in sorted(value.keys() - known):
        if not carries(value[key]):
            continue
        if defaults is not None and key in defaults and is_default(value[key], defaults[key]):
            continue
        ctx.loss(
            f"{at}/{escape(key)}",
            "field_dropped",
            f"{ctx.adapter}: `{key}` has no canonical home; not carried",
            part_type,
        )


def is_default(value: Any, defaults: tuple[Any, ...]) -> bool:
    """Whether ``value`` is one of ``defaults``, type for type (`true` is not `1`)."""
    for default in defaults:  # noqa: SIM110  (a loop: compiled, no generator)
        if type(value) is type(default) and value == default:
            return True
    return False


# The mapping's `usage_breakdowns`: an entry's key of its kind, its key of its count, the plain
# kind, and each split's key with the key of the count it splits.
Breakdowns = tuple[str, str, str, Mapping[str, str]]


def unread_counts(
    ctx: Context,
    value: Any,
    known: Mapping[str, Any],
    at: str,
    *,
    defaults: Mapping[str, tuple[Any, ...]] | None = None,
    breakdowns: Breakdowns | None = None,
    repeats: Mapping[str, tuple[str, ...]] | None = None,
) -> None:
    """Report what a usage object holds beyond the counts reading took (``known``: each key
    read, with the keys read inside it, or None), as ``unread`` does. A count of zero says
    nothing either (OpenAI's `audio_tokens: 0` on every response), so it goes unreported, nor
    does one of the mapping's ``defaults`` for its top level (Anthropic's `service_tier:
    standard`), nor a split of a count that only repeats it (``breakdowns``, the mapping's
    `usage_breakdowns`: Gemini's prompt count, all of it text), nor a count that holds the
    same number as the count it repeats under another name (``repeats``: the path of that count
    in the object, the mapping's `usage_repeats`: Converse's `cacheReadInputTokenCount` beside
    `cacheReadInputTokens`, DeepSeek's `prompt_cache_hit_tokens` beside
    `prompt_tokens_details.cached_tokens`)."""
    # A breakdown of zeros (Anthropic's `cache_creation` of no cache) is no loss either.
    if type(value) is not dict:
        return
    members: dict[str, Any] = value
    for key in sorted(members):
        member = members[key]
        if key in known:
            inner = known[key]
            if inner is not None:
                unread_counts(ctx, member, inner, f"{at}/{escape(key)}")
            continue
        if not _counts_something(member):
            continue
        if defaults is not None and key in defaults and is_default(member, defaults[key]):
            continue
        if (
            breakdowns is not None
            and key in breakdowns[3]
            and _plain(member, members.get(breakdowns[3][key]), breakdowns)
        ):
            continue
        if (
            repeats is not None
            and key in repeats
            and _same_count(member, _at(members, repeats[key]))
        ):
            continue
        ctx.loss(
            f"{at}/{escape(key)}",
            "field_dropped",
            f"{ctx.adapter}: usage `{key}` has no canonical home; not carried",
            None,
        )


def _at(members: dict[str, Any], path: tuple[str, ...]) -> Any:
    """The value at ``path`` inside a usage object, or None. (`adapters.runtime.get`'s walk:
    runtime imports this module, so this one cannot import it.)"""
    value: Any = members
    for key in path:
        if type(value) is not dict:
            return None
        value = value.get(key)
    return value


def _same_count(count: Any, repeated: Any) -> bool:
    """Whether ``count`` is the integer ``repeated`` is (not a bool, not a float)."""
    return type(count) is int and type(repeated) is int and count == repeated


def _plain(split: Any, counted: Any, breakdowns: Breakdowns) -> bool:
    """Whether ``split`` is of the plain kind alone and adds up to ``counted``, the count it
    splits: then it says nothing the count does not (Gemini's `[{modality: TEXT, tokenCount:
    n}]` of a prompt of n tokens)."""
    kind, count, plain, _counts = breakdowns
    if type(split) is not list or type(counted) is not int:
        return False
    total = 0
    entries: list[Any] = split
    for entry in entries:
        if type(entry) is not dict or entry.get(kind) != plain:
            return False
        tokens = entry.get(count)
        if type(tokens) is not int:
            return False
        total += tokens
    return total == counted


def _counts_something(value: Any) -> bool:
    """Whether a usage field says anything: as `carries`, but a zero count says nothing, and
    neither does an object or a list of nothing but zeros."""
    kind = type(value)
    if kind is int:
        return bool(value)
    if kind is dict:
        members: dict[Any, Any] = value
        for member in members.values():  # noqa: SIM110  (a loop: compiled, no generator)
            if _counts_something(member):
                return True
        return False
    if kind is list:
        items: list[Any] = value
        for item in items:  # noqa: SIM110
            if _counts_something(item):
                return True
        return False
    return carries(value)

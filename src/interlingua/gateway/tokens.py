"""Exact ``cl100k_base`` token counts, offline, and §2.4's deterministic description truncation.

The encoding comes from ``bpe-openai``, which ships the ``cl100k_base`` ranks in its wheel and
gives the same token ids as tiktoken, so nothing is downloaded at run time. Text is encoded as
ordinary text: a special-token string such as ``<|endoftext|>`` in a description counts as the
plain characters it is (tiktoken's ``encode(text, disallowed_special=())``).
"""

from __future__ import annotations

import re
import warnings
from functools import cache
from typing import Any, Final

from interlingua.gateway._text import ELLIPSIS
from interlingua.gateway.errors import GatewayError

ENCODING_NAME: Final = "cl100k_base"
#: Longest text the encoder accepts in one call (its own limit).
MAX_ENCODE_CHARS: Final = 999_999
#: Longest text encoded whole when truncating: at most 4 tokens a character stays within the
#: encoder's 200,000-token limit.
_WHOLE_TEXT_CHARS: Final = 50_000
#: A sentence terminator (§2.4) that ends a sentence: followed by a space or the end of text.
_SENTENCE_END: Final = re.compile(r"[.!?](?= |\Z)")


@cache
def _bpe() -> Any:
    """The ``bpe_openai`` module, imported on first use: importing it loads every encoding's
    ranks (tens of milliseconds), which commands that count no tokens should not pay. Version
    0.1.4 loads them through a deprecated importlib API; that warning is not ours to act on."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:
            import bpe_openai  # type: ignore[import-untyped]  # noqa: PLC0415  # ships no types
        except ImportError:
            raise GatewayError(
                "TOKENIZER_UNAVAILABLE",
                "counting tokens needs the cl100k_base encoder: pip install 'interlingua[gateway]'",
            ) from None
    return bpe_openai


@cache
def _encoding() -> Any:
    return _bpe().get_encoding(ENCODING_NAME)


@cache
def max_token_bytes() -> int:
    """Bytes in the longest token of the encoding (128 for cl100k_base)."""
    return max(len(value) for value in _encoding().token_byte_values())


def encode(text: str) -> list[int]:
    """The ``cl100k_base`` token ids of ``text``; ARGS_INVALID past the encoder's limits."""
    if len(text) > MAX_ENCODE_CHARS:
        raise GatewayError(
            "ARGS_INVALID", f"text of {len(text)} characters is too long to count tokens of"
        )
    try:
        tokens: list[int] = _encoding().encode_ordinary(text)
    except _bpe().TokenLimitError:
        raise GatewayError("ARGS_INVALID", "text has too many tokens to count") from None
    return tokens


def count_tokens(text: str) -> int:
    """Exact ``cl100k_base`` token count of ``text``."""
    return len(encode(text))


def truncate_description(text: str, budget: int) -> str:
    """``text`` cut to fit ``budget`` tokens, deterministically (§2.4).

    1. If ``text`` has at most ``budget`` tokens it is returned verbatim.
    2. Otherwise the longest prefix ending at a sentence terminator (``.``, ``!`` or ``?``
       followed by a space or the end of the text) that has at most ``budget`` tokens.
    3. Otherwise the text up to the end of its first ``budget - 1`` tokens, backed off to a
       character boundary when that byte offset falls inside a UTF-8 sequence, followed by
       ``…`` (U+2026).

    Only prefixes of at most ``budget × 128`` characters are tried in step 2: no longer one
    can fit, since a token has at most 128 bytes. A text longer than 50,000 characters (the
    most that always stays within the encoder's token limit) is encoded only up to its first
    ``budget × 128 + 4096`` characters; that gives the same result unless a single
    pre-tokenizer chunk (one run of letters, punctuation or spaces) straddles the cut.
    """
    if budget < 1:
        raise GatewayError("ARGS_INVALID", f"a token budget is at least 1, not {budget}")
    reach = budget * max_token_bytes()
    window = text if len(text) <= _WHOLE_TEXT_CHARS else text[: reach + 4096]
    tokens = encode(window)
    if window == text and len(tokens) <= budget:
        return text
    ends = [m.end() for m in _SENTENCE_END.finditer(window) if m.end() <= reach]
    for end in reversed(ends):
        prefix = window[:end]
        if count_tokens(prefix) <= budget:
            return prefix
    cut = b"".join(_encoding().decode_single_token_bytes(t) for t in tokens[: budget - 1])
    return cut.decode("utf-8", errors="ignore") + ELLIPSIS

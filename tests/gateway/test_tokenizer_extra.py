"""Without the `gateway` extra (bpe-openai), counting tokens is the coded error
TOKENIZER_UNAVAILABLE, not an ImportError traceback."""

from __future__ import annotations

import sys

import pytest

from interlingua.gateway import tokens
from interlingua.gateway.errors import GatewayError


def test_a_missing_tokenizer_is_a_coded_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "bpe_openai", None)  # what an absent package imports as
    tokens._bpe.cache_clear()
    tokens._encoding.cache_clear()
    try:
        with pytest.raises(GatewayError) as raised:
            tokens.count_tokens("hello")
        assert raised.value.code == "TOKENIZER_UNAVAILABLE"
        assert "interlingua[gateway]" in raised.value.message
    finally:
        monkeypatch.undo()
        tokens._bpe.cache_clear()
        tokens._encoding.cache_clear()
    assert tokens.count_tokens("hello") == 1

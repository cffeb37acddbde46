"""Patterns from upstream schemas: RE2 only, linear time, refusals coded (issue 22, item 4)."""

import pytest

from interlingua.gateway.patterns import (
    PatternRefused,
    compile_linear,
    schema_patterns,
    search,
)


def test_a_catastrophic_pattern_answers_at_once() -> None:
    """Regression: Python's re takes minutes on this (exponential backtracking); RE2 does not
    backtrack, so the answer comes back on any length."""
    assert not search("^(a+)+$", "a" * 29 + "b")
    assert not search("^(a+)+$", "a" * 100_000 + "b")
    assert search("^(a+)+$", "a" * 100_000)
    assert not search("^(a|aa)*c$", "a" * 50_000)


def test_search_is_unanchored_like_json_schema() -> None:
    assert search("b", "abc")
    assert not search("^b", "abc")
    assert search("^é+$", "éé")  # patterns and text are UTF-8, not bytes
    assert search(".", "\U0001f600") and not search("^..$", "\U0001f600")


def test_lone_surrogates_never_crash() -> None:
    assert search("x", "\ud800x")
    assert search("^.$", "\ud800")  # one character, as in Python
    assert not search("^\\p{L}$", "\ud800")  # of no Unicode class
    with pytest.raises(PatternRefused) as refused:
        compile_linear("\udc00")
    assert refused.value.reason == "pattern_unsupported"


@pytest.mark.parametrize("pattern", ["(?=a)", "(?<!a)b", "(a)\\1", "\\Z", "(a{1000}){1000}"])
def test_what_re2_cannot_run_is_refused(pattern: str) -> None:
    with pytest.raises(PatternRefused) as refused:
        compile_linear(pattern)
    assert refused.value.reason == "pattern_unsupported"
    assert "RE2" in refused.value.message


def test_schema_patterns_are_found_through_schema_keywords_only() -> None:
    schema = {
        "pattern": "top",
        "properties": {
            "pattern": {"type": "string", "pattern": "named"},  # a property called pattern
            "m": {"patternProperties": {"^k": {}}, "additionalProperties": {"pattern": "ap"}},
        },
        "items": [{"pattern": "tuple"}],
        "$defs": {"d": {"allOf": [{"not": {"pattern": "deep"}}]}},
        "const": {"pattern": "data"},  # data, not a schema
        "default": {"pattern": "data"},
    }
    assert sorted(schema_patterns(schema)) == ["^k", "ap", "deep", "named", "top", "tuple"]

"""URI globs: the old regex semantics, matched without backtracking (issue 22, item 4)."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

import interlingua
from interlingua.documents.globs import compile_glob, glob_match


def regex_oracle(pattern: str, text: str) -> bool:
    """The former implementation (a backtracking regex): the meaning globs keep. Only ever run
    here on short inputs, where backtracking is harmless."""
    pieces = re.split(r"(\*\*|\*)", pattern)
    regex = "".join(".*" if p == "**" else "[^/]*" if p == "*" else re.escape(p) for p in pieces)
    return re.fullmatch(regex, text, re.DOTALL) is not None


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet="ab/*.\n", max_size=9),
    st.text(alphabet="ab/.\n*", max_size=10),
)
def test_same_meaning_as_the_regex(pattern: str, text: str) -> None:
    assert glob_match(pattern, text) == regex_oracle(pattern, text)


def test_wildcards() -> None:
    assert glob_match("tool://*/read", "tool://fs/read")
    assert not glob_match("tool://*/read", "tool://a/b/read")  # * stays in one segment
    assert glob_match("tool://**/read", "tool://a/b/read")
    assert glob_match("tool://**", "tool://")
    assert glob_match("***", "a/b")  # ** then *
    assert glob_match("", "")
    assert not glob_match("", "x")
    assert glob_match("a*", "a")
    assert not glob_match("a?", "ab")  # only * is a wildcard
    assert glob_match("\ud800*", "\ud800x")  # lone surrogates are plain characters


def test_an_almost_matching_uri_does_not_backtrack() -> None:
    """Regression: as a regex, this took over 10 s on 1,000 characters (exponential in the
    stars); the automaton answers in one pass."""
    uri = "tool://" + "a" * 1_000
    assert not glob_match("tool://*a*a*a*b", uri)
    assert glob_match("tool://*a*a*a*", uri)
    assert not glob_match("**a**a**a**a**a**b", "a" * 5_000)


def test_the_automaton_has_one_state_per_token() -> None:
    glob = compile_glob("x/**/*y")
    assert glob.accept == 1 << 6  # x / ** / * y
    assert glob.any_stars == 1 << 2
    assert glob.segment_stars == 1 << 4
    assert glob.literals == {"x": 1, "/": (1 << 1) | (1 << 3), "y": 1 << 5}


def test_views_match_uri_patterns_in_linear_time() -> None:
    namespace = "n" * 1_000
    message = {
        "role": "assistant",
        "content": [{"type": "tool_call", "id": "c", "name": "t", "namespace": namespace}],
    }
    view = next(interlingua.views(message))
    assert not view.matches_uri_pattern("tool://*n*n*n*n*n*x/t")
    assert view.matches_uri_pattern("tool://*n*n*n*n*n*/t")

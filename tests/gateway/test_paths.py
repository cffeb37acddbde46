"""Browse paths and requests (seed 002 §3): PATH_INVALID versus PATH_NOT_FOUND."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interlingua.gateway.errors import GatewayError
from interlingua.gateway.paths import ChoiceGraph, parse_browse_request, parse_path, resolve_path

from .strategies import namespaces, segments

GRAPH: ChoiceGraph = {"github": {"issues": {"create_issue": None}}, "slack": {}}


@given(namespaces.filter(lambda s: len(s) <= 64), st.lists(segments, max_size=5), st.booleans())
def test_well_formed_paths_parse_to_their_segments(root: str, rest: list[str], star: bool) -> None:
    path = "/" + "/".join([root, *rest]) + ("/*" if star else "")
    assert parse_path(path) == [root, *rest]


@given(st.text(max_size=80))
def test_any_string_parses_or_is_path_invalid(text: str) -> None:
    try:
        parsed = parse_path(text)
    except GatewayError as error:
        assert error.code == "PATH_INVALID"
        assert error.envelope().path == error.envelope().path.strip(" ")
    else:
        assert "/" + "/".join(parsed) in (text, text.removesuffix("/*"), "/")


@pytest.mark.parametrize(
    ("path", "reason"),
    [
        ("github", "leading_slash"),
        ("/github/", "trailing_slash"),
        ("//github", "empty_segment"),
        ("/a//b", "empty_segment"),
        ("/a/*/b", "misplaced_wildcard"),
        ("/Github", "bad_segment"),
        ("/" + "a/" * 5000, "trailing_slash"),
        ("/" + "x" * 10_000, "bad_segment"),
    ],
)
def test_malformed_paths_say_why(path: str, reason: str) -> None:
    with pytest.raises(GatewayError) as raised:
        parse_path(path)
    assert raised.value.code == "PATH_INVALID"
    assert raised.value.details == {"reason": reason}
    envelope = raised.value.as_json()
    assert len(envelope["path"]) <= 256
    assert len(envelope["message"]) <= 256


def test_resolution() -> None:
    assert resolve_path("/", GRAPH).children == ["github", "slack"]
    leaf = resolve_path("/github/issues/create_issue/*", GRAPH)
    assert (leaf.path, leaf.leaf, leaf.children) == ("/github/issues/create_issue", True, [])
    for missing in ("/gitlab", "/github/pulls", "/github/issues/create_issue/more", "/a" * 5000):
        with pytest.raises(GatewayError) as raised:
            resolve_path(missing, GRAPH)
        assert raised.value.code == "PATH_NOT_FOUND"
        assert raised.value.retryable is False


def test_browse_requests() -> None:
    assert parse_browse_request({"path": "/github", "top_k": 2}).top_k == 2
    assert parse_browse_request({"query": "issues"}).path is None
    for bad, code in (
        ({"query": "a", "path": "/"}, "ARGS_INVALID"),
        ({}, "ARGS_INVALID"),
        ("query", "ARGS_INVALID"),
        ({"path": "/github/"}, "PATH_INVALID"),
    ):
        with pytest.raises(GatewayError) as raised:
            parse_browse_request(bad)
        assert raised.value.code == code
    for neither_or_both in ({"top_k": 1}, {"query": "q", "path": "/"}):
        with pytest.raises(GatewayError) as raised:
            parse_browse_request(neither_or_both)
        assert raised.value.details is not None
        assert [f["code"] for f in raised.value.details["findings"]] == ["exactly_one_required"]
    with pytest.raises(GatewayError) as raised:
        parse_browse_request({"query": 5, "extra": 1})
    assert raised.value.details is not None
    assert [f["code"] for f in raised.value.details["findings"]] == ["unknown_field", "wrong_type"]

"""Header names compared as a server reads them; header entries scrubbed at any depth."""

from typing import Any

import pytest

from interlingua.documents.headers import header_key, is_sensitive, scrub

SENSITIVE = frozenset({"authorization", "cookie", "x-api-key"})


@pytest.mark.parametrize(
    "name",
    [
        "Authorization",
        "AUTHORIZATION",
        " authorization",
        "authorization\t",
        "\tAuthorization \r\n",
        "authorization:",
        "Authorization :",
        "\x00Authorization",
        "Author\x00ization",
        "\ufeffAuthorization",
        "Authori\u200bzation",
        "\u00a0Authorization\u00a0",
        "authorization\x7f",
        "authorization\x85",
        "HTTP_AUTHORIZATION",
        "http-authorization",
    ],
)
def test_spellings_of_authorization_are_one_name(name: str) -> None:
    assert header_key(name) == "authorization"


def test_other_names() -> None:
    assert header_key("X_API_KEY") == "x-api-key"
    assert header_key("HTTP_X_API_KEY") == "x-api-key"
    assert header_key("Cookie:") == "cookie"
    assert header_key("X-Trace") == "x-trace"
    assert header_key("") == ""
    assert header_key("\ud800") == "\ud800"  # a lone surrogate is a character like any other
    assert not is_sensitive(7, SENSITIVE)
    assert not is_sensitive("authorization-hint", SENSITIVE)


def test_scrub_removes_header_entries_at_any_depth() -> None:
    data: dict[str, Any] = {
        "Authorization": "a",
        "keep": {"deeper": [{" cookie:": "c", "ok": 1}]},
        "pairs": [["X-API-Key", "k"], ["Accept", "*/*"], ["x", "y", "z"]],
        "objects": [
            {"name": "authorization", "value": "b"},
            {"Name": "Accept", "Value": "*/*"},
            {"name": "cookie", "value": "c", "extra": 1},  # not a name/value pair: kept
        ],
        "text": "Authorization: Bearer inside a string is content, not a header",
    }
    assert scrub(data, SENSITIVE) is data
    assert data == {
        "keep": {"deeper": [{"ok": 1}]},
        "pairs": [["Accept", "*/*"], ["x", "y", "z"]],
        "objects": [
            {"Name": "Accept", "Value": "*/*"},
            {"name": "cookie", "value": "c", "extra": 1},
        ],
        "text": "Authorization: Bearer inside a string is content, not a header",
    }
    assert scrub(None, SENSITIVE) is None


def test_scrub_is_iterative() -> None:
    deep: dict[str, Any] = {"cookie": 1}
    for _ in range(50_000):
        deep = {"a": deep}
    scrub(deep, SENSITIVE)
    node = deep
    while "a" in node:
        node = node["a"]
    assert node == {}

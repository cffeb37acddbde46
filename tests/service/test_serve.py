"""`interlingua serve`: loopback by default, a token for anything else, and the token asked
of every request to the real service."""

from __future__ import annotations

import json
import sys

import pytest

from interlingua.cli.commands import main
from interlingua.service.serve import is_loopback
from tests.service.server import call, running_service


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("::1", True),
        ("localhost", True),
        ("0.0.0.0", False),
        ("example.org", False),
    ],
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_another_address_needs_a_token(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("INTERLINGUA_SERVICE_TOKEN", raising=False)
    assert main(["serve", "--host", "0.0.0.0"]) == 2
    assert "without a token" in capsys.readouterr().err


def test_without_the_extra_it_says_which_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if the extra were not installed
    assert main(["serve", "--token", "t"]) == 2
    assert "interlingua[service]" in capsys.readouterr().err


def test_the_real_service_asks_for_its_token() -> None:
    body = json.dumps({"role": "user", "content": [{"type": "text", "text": "hi"}]}).encode()
    with running_service("--token", "s3cret") as (base, _):
        status, problem = call(f"{base}/v1/validate", data=body)
        assert (status, problem["code"]) == (401, "unauthorized")
        status, _ = call(f"{base}/v1/validate", token="wrong", data=body)
        assert status == 401
        status, answer = call(f"{base}/v1/validate", token="s3cret", data=body)
        assert (status, answer) == (200, {"valid": True, "findings": []})

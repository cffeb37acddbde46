"""Seed 001's rule: readers tolerate unknown metadata fields. The extensions a later version
may extend are open for forward compatibility (`x-forward`); policy extensions and our own
contract stay closed."""

from __future__ import annotations

import json
from typing import Any

import pytest

import interlingua


def _message(extensions: dict[str, Any]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": [{"type": "text", "text": "hi"}],
        "extensions": extensions,
    }


@pytest.mark.parametrize(
    ("extensions", "path"),
    [
        ({"tracing": {"span": "1"}}, "/extensions/tracing"),  # a later version's extension
        ({"completion": {"model": "a:m", "energy_wh": 2}}, "/extensions/completion/energy_wh"),
        ({"agent": {"agent_id": "a", "mood": "calm"}}, "/extensions/agent/mood"),
    ],
)
def test_an_unknown_metadata_field_is_kept_with_a_warning(
    extensions: dict[str, Any], path: str
) -> None:
    message = _message(extensions)
    findings = interlingua.validate(message)
    assert [(f.code, f.path, f.severity) for f in findings] == [
        ("unknown_metadata_field", path, "warning")
    ]
    loaded = interlingua.load(json.dumps(message).encode())
    assert interlingua.dump(loaded) == message


@pytest.mark.parametrize(
    ("document", "path"),
    [
        (
            _message({"security": {"labels": [], "clearance": "x"}}),
            "/extensions/security/clearance",
        ),
        (_message({"http": {"tunnel": True}}), "/extensions/http/tunnel"),
        ({**_message({}), "mood": "calm"}, "/mood"),
    ],
)
def test_policy_extensions_and_our_own_contract_stay_closed(
    document: dict[str, Any], path: str
) -> None:
    findings = interlingua.validate(document)
    assert ("unknown_field", path, "error") in [(f.code, f.path, f.severity) for f in findings]

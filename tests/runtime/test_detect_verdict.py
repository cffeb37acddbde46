"""detect(..., explain=False), what a batch runs per line, names the same format and kind as
detect() for every body the repository holds; only the reason is shorter."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.paths import ROOT
from interlingua.conversion import ConversionError
from interlingua.conversion.detector import detect

BODIES = sorted(
    [
        *(ROOT / "schemas" / "formats").glob("*/*/*.json"),
        *(ROOT / "conformance" / "real").rglob("*.json"),
    ]
)


def _verdict(payload: object, explain: bool) -> tuple[str, str | None, str | None] | str:
    try:
        found = detect(payload, explain=explain)
    except ConversionError as exc:
        return exc.code
    return found.status, found.format, found.kind


@pytest.mark.parametrize("path", BODIES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_verdict_without_the_explanation_is_the_same(path: Path) -> None:
    payload = json.loads(path.read_text(encoding="utf-8"))
    assert _verdict(payload, explain=False) == _verdict(payload, explain=True)


def test_the_short_reason_says_why() -> None:
    body = {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "max_completion_tokens": 5,
    }
    found = detect(body, kind="request", explain=False)
    assert found.detected and found.reason.startswith(f"valid {found.format} request: ")

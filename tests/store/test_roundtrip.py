"""Every round-trip body of the conformance suite, imported into the store and exported to its
own format, comes back exactly (the store keeps what the canonical form needs for that).
Cases whose messages the store cannot keep as one session are named with the reason."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from interlingua.store import Store

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"


def _roundtrip_cases() -> list[Any]:
    found = []
    for path in sorted(CASES.glob("*/roundtrip.json")):
        group = json.loads(path.read_text())
        for case in group["cases"]:
            if case["kind"] == "roundtrip" and not isinstance(case["wire"], str):
                found.append(
                    pytest.param(group["format"], case["document"], case["wire"], id=case["id"])
                )
    return found


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Any:
    opened = Store.open(str(tmp_path_factory.mktemp("rt") / "store.db"))
    yield opened
    opened.close()


@pytest.mark.parametrize(("fmt", "kind", "wire"), _roundtrip_cases())
def test_a_body_comes_back_from_the_store_exactly(
    store: Store, fmt: str, kind: str, wire: Any, request: pytest.FixtureRequest
) -> None:
    report = store.import_document(wire, request.node.name, fmt)
    assert not report.refused, report.refused
    [done] = report.sessions
    assert done.session_id is not None
    assert store.export(done.session_id).bodies == [wire]

"""The derived v2 bundle, as another language takes it: Ajv 2020 (strict, discriminator)
compiles the plain v2 bundle, finds every v1 document example migrated up valid, and the v1
examples that a declared change breaks invalid."""

from __future__ import annotations

import json

from interlingua.documents.migrate import migrate
from tests.typescript.toolchain import ROOT, TOOLS, run_node

PLAIN_V2 = ROOT / "generated" / "schemas" / "interlingua-v2.plain.json"
DOCUMENTS = ("Conversation", "Response", "Message")


def _unversioned(document: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in document.items() if key != "schema_version"}


def test_ajv_takes_the_v2_bundle_and_every_migrated_example() -> None:
    paths = sorted(
        p for name in DOCUMENTS for p in (ROOT / "schemas/examples" / name).glob("*.json")
    )
    v1 = [(p.parent.name, json.loads(p.read_text("utf-8"))) for p in paths]
    v2 = [(name, migrate(document, 2, source=1).output) for name, document in v1]
    # Examples a v1 -> v2 change touches beyond the version: as they are, v2 refuses them.
    touched = [
        (name, document)
        for (name, document), (_, up) in zip(v1, v2, strict=True)
        if _unversioned(document) != _unversioned(up)
    ]
    batch = [{"type": name, "document": document} for name, document in v2 + touched]
    answers = run_node(TOOLS / "ajv_verdicts.js", [str(PLAIN_V2)], batch)
    assert [a["valid"] for a in answers[: len(v2)]] == [True] * len(v2), answers
    assert touched and not any(a["valid"] for a in answers[len(v2) :])

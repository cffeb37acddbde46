"""The Node harness (tools/node/harness.ts on the generated package) through the conformance
runner, exactly as another team's implementation is run: every canonical and gateway vector
passes, what it does not implement (conversions) is listed in
conformance/expected-failures/node.txt, and the matrix shows it beside the Python
implementation."""

from __future__ import annotations

import json
import re
from pathlib import Path

from conformance.__main__ import main
from tests.typescript.toolchain import ROOT, compiled, node

NODE_FAILURES = ROOT / "conformance" / "expected-failures" / "node.txt"
#: Groups the harness implements, with their number of cases.
IMPLEMENTED = {
    "canonical/semantics": 19,
    "canonical/structure": 34,
    "canonical/unknown": 4,
    "canonical/valid": 9,
    "gateway/tool_id": 86,
    "gateway/primitive_id": 23,
    "gateway/paths": 48,
    "gateway/selection": 20,
    "gateway/arguments": 60,  # schema trust, normalization, validation (RE2), dry run
    "gateway/errors": 29,  # the envelope (retryable from the schema) and redaction
    "gateway/cards": 53,  # cl100k_base token counts (js-tiktoken), truncation, cards, order
}


def test_the_node_harness_passes_the_canonical_and_gateway_vectors_it_implements(
    tmp_path: Path,
) -> None:
    harness = compiled() / "tools" / "node" / "harness.js"
    report, table = tmp_path / "node.json", tmp_path / "node.md"
    arguments = ["--report", str(report), "--matrix", str(table)]
    command = f"{node()} {harness}"
    assert (
        main(["run", "--impl", command, "--expected-failures", str(NODE_FAILURES), *arguments]) == 0
    )
    cases = json.loads(report.read_text())["cases"]
    passed = {c["group"] for c in cases if c["status"] == "pass"}
    assert set(IMPLEMENTED) <= passed
    # What passes is exactly what is implemented; everything else is listed (a listed case
    # that passes fails the run, so the list cannot go stale).
    assert sum(c["status"] == "pass" for c in cases) == sum(IMPLEMENTED.values())
    assert {c["status"] for c in cases} == {"pass", "xfail"}

    # The Python run, with the Node run's report beside it: one matrix, both implementations.
    python_report, both = tmp_path / "python.json", tmp_path / "matrix.md"
    beside = ["--beside", str(report), "--report", str(python_report), "--matrix", str(both)]
    assert main(["run", "--group", "canonical", *beside]) == 0
    lines = both.read_text().splitlines()
    assert lines[0] == (
        "# Conformance: interlingua (python, in-process) beside interlingua (typescript)"
    )
    assert "| canonical/structure | 34/34 | 0/0 | 0 | 34/34 | 0/0 | 0 |" in lines
    # A group only the other implementation ran has dashes where this run has no numbers.
    only_node = [line for line in lines if line.startswith("| anthropic/cross |")]
    assert len(only_node) == 1
    assert re.fullmatch(
        r"\| anthropic/cross \| — \| — \| — \| 0/\d+ \| 0/\d+ \| \d+ \|", only_node[0]
    )


def test_an_unreadable_beside_report_is_a_usage_error(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    assert main(["run", "--group", "canonical/valid", "--beside", str(missing)]) == 2

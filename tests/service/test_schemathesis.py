"""Schemathesis against the real service: `interlingua serve` on a free loopback port, fuzzed
through `GET /openapi.json` with every check, at least 100 generated requests per operation
that takes input, and no failure.

The run takes about 25 s on an idle core (2,000 requests or so). Settings are in
`schemathesis.toml` beside this file (why a 422 may answer a schema-valid request of some
operations). `INTERLINGUA_SERVICE_EXAMPLES` raises the number of examples per operation.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.service.server import running_service
from tests.tracing import CHILD_COVERAGE

HERE = Path(__file__).resolve().parent
EXAMPLES = int(os.environ.get("INTERLINGUA_SERVICE_EXAMPLES", "100"))
#: Operations with no input to vary: schemathesis sends them what there is to send.
FIXED = {"GET /healthz"}
#: Schemathesis leaves out the operation that serves the document it reads.
ITSELF = "GET /openapi.json"

pytestmark = pytest.mark.slow


def _requests_per_operation(events: Path) -> Counter[str]:
    counts: Counter[str] = Counter()
    for line in events.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        finished = event.get("ScenarioFinished")
        if finished is not None and "interactions" in finished["recorder"]:
            counts[finished["recorder"]["label"]] += len(finished["recorder"]["interactions"])
    return counts


def test_schemathesis_finds_nothing(tmp_path: Path) -> None:
    report, events = tmp_path / "report.json", tmp_path / "events.ndjson"
    with running_service() as (base, _):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "schemathesis.cli",
                "--config-file",
                str(HERE / "schemathesis.toml"),
                "run",
                f"{base}/openapi.json",
                "--checks",
                "all",
                "--max-examples",
                str(EXAMPLES),
                "--seed",
                "17",
                # One worker: hypothesis describes strategies with `ast`, which CPython 3.11
                # does not parse safely from two threads at once.
                "--workers",
                "1",
                "--no-color",
                "--report",
                "json,ndjson",
                "--report-json-path",
                str(report),
                "--report-ndjson-path",
                str(events),
            ],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
            cwd=tmp_path,  # where schemathesis keeps its cache of crashes
            # Coverage measures the service, not the client: traced, schemathesis's own run
            # took as long again as the rest of the test.
            env={k: v for k, v in os.environ.items() if k != CHILD_COVERAGE},
        )
    summary = json.loads(report.read_text(encoding="utf-8"))
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert summary["failures"] == [] and summary["errors"] == []
    assert summary["operations"]["tested"] == summary["operations"]["total"]
    counts = _requests_per_operation(events)
    document = json.loads((HERE.parents[1] / "generated" / "openapi.json").read_text())
    labels = {
        f"{method.upper()} {path}"
        for path, methods in document["paths"].items()
        for method in methods
    }
    assert set(counts) == labels - {ITSELF}  # every other operation was tested
    short = {label: n for label, n in counts.items() if label not in FIXED and n < EXAMPLES}
    assert not short, counts

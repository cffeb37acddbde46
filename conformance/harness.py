"""The Python implementation behind the line protocol: a reference for other languages' harnesses.

    python -m conformance run --impl "python -m conformance.harness"

runs the suite through a real child process, exactly as a Node, Go or Rust harness would be run.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from interlingua.contract import FUNCTIONS, ContractError

IMPLEMENTATION = {"name": "interlingua (python)", "language": "python", "version": "0.1.0"}


def answer(request: dict[str, Any]) -> dict[str, Any] | None:
    """The reply to one request; None for stop."""
    command = request.get("cmd")
    if command == "start":
        return {"version": 1, "implementation": IMPLEMENTATION}
    if command == "stop":
        return None
    case = request.get("case", {})
    seq = request.get("seq")
    function = FUNCTIONS.get(case.get("function", ""))
    if function is None:
        return {"seq": seq, "skipped": True, "message": f"no function {case.get('function')!r}"}
    try:
        return {"seq": seq, "output": function(case.get("input", {}))}
    except ContractError as exc:
        return {"seq": seq, "error": {"code": exc.code, "details": exc.details or {}}}


def serve(stdin: TextIO, stdout: TextIO) -> None:
    for line in stdin:
        reply = answer(json.loads(line))
        if reply is None:
            return
        stdout.write(json.dumps(reply, default=str) + "\n")
        stdout.flush()


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)

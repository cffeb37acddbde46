"""The line protocol between the runner and an implementation under test.

The runner starts the implementation as a child process and talks newline-delimited JSON on
its stdin / stdout, one request and one response per line:

    -> {"cmd": "start", "version": 1}
    <- {"version": 1, "implementation": {"name": "...", "language": "...", "version": "..."}}
    -> {"cmd": "run", "seq": 7,
        "case": {"id": "...", "kind": "vectors", "function": "...", "input": {...}}}
    <- {"seq": 7, "output": <JSON>}                         the function's result
    <- {"seq": 7, "error": {"code": "PATH_INVALID", "details": {...}}}   it failed with a code
    <- {"seq": 7, "skipped": true, "message": "why"}        not implemented (counts as a failure)
    -> {"cmd": "stop"}

Anything else (a line that is not JSON, a wrong `seq`, a crash, silence past the timeout) is
an implementation error for that case, never a runner crash.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from conformance.cases import Case

VERSION = 1


@dataclass(frozen=True)
class Outcome:
    """What an implementation did with one case."""

    output: Any = None
    error: dict[str, Any] | None = None
    skipped: str | None = None
    broken: str | None = None  # the implementation misbehaved (bad line, crash, timeout)


class InProcess:
    """The Python implementation, called directly."""

    def __init__(
        self,
        functions: dict[str, Callable[[dict[str, Any]], Any]],
        error_type: type[Exception] | tuple[type[Exception], ...],
    ) -> None:
        self.functions = functions
        self.error_type = error_type
        self.name = "interlingua (python, in-process)"

    def run(self, case: Case) -> Outcome:
        function = self.functions.get(case.function)
        if function is None:
            return Outcome(skipped=f"no function {case.function!r}")
        try:
            return Outcome(output=json.loads(json.dumps(function(case.input))))
        except self.error_type as exc:
            return Outcome(
                error={
                    "code": getattr(exc, "code", ""),
                    "details": getattr(exc, "details", None) or {},
                }
            )

    def close(self) -> None:
        """Nothing to release."""


class External:
    """Any program speaking the protocol on stdin / stdout."""

    def __init__(self, command: str, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.process = subprocess.Popen(
            shlex.split(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        # A reader thread, so a silent implementation costs a timeout, never a hang.
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.seq = 0
        try:
            reply = self._call({"cmd": "start", "version": VERSION})
        except (EOFError, ValueError, OSError, TimeoutError) as exc:
            reply = f"{type(exc).__name__}: {exc}"
        if not isinstance(reply, dict) or reply.get("version") != VERSION:
            self.close()
            raise RuntimeError(
                f"{command!r} did not answer start with protocol version {VERSION}: {reply!r}"
            )
        implementation = reply.get("implementation", {})
        self.name = (
            str(implementation.get("name", command))
            if isinstance(implementation, dict)
            else command
        )

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put("")  # end of output

    def _call(self, request: dict[str, Any]) -> Any:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        try:
            line = self.lines.get(timeout=self.timeout)
        except queue.Empty:
            raise TimeoutError(f"no answer within {self.timeout} s") from None
        if not line:
            raise EOFError("the implementation closed its output")
        return json.loads(line)

    def run(self, case: Case) -> Outcome:
        self.seq += 1
        try:
            reply = self._call({"cmd": "run", "seq": self.seq, "case": case.as_json()})
        except (EOFError, ValueError, OSError, TimeoutError) as exc:
            return Outcome(broken=f"{type(exc).__name__}: {exc}")
        if not isinstance(reply, dict) or reply.get("seq") != self.seq:
            return Outcome(broken=f"reply out of sequence: {str(reply)[:200]}")
        if reply.get("skipped"):
            return Outcome(skipped=str(reply.get("message", "skipped")))
        if "error" in reply:
            error = reply["error"]
            return Outcome(error=error if isinstance(error, dict) else {"code": str(error)})
        if "output" not in reply:
            return Outcome(broken="reply has neither output, error nor skipped")
        return Outcome(output=reply["output"])

    def close(self) -> None:
        try:
            if self.process.poll() is None:
                assert self.process.stdin is not None
                self.process.stdin.write(json.dumps({"cmd": "stop"}) + "\n")
                self.process.stdin.close()
                self.process.wait(timeout=self.timeout)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            self.process.kill()

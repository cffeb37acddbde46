"""The real service as a child process on a free loopback port, for the tests and benchmarks
that talk to it over a socket (`interlingua serve`, as a user starts it)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _healthy(base: str) -> bool:
    try:
        with urllib.request.urlopen(base + "/healthz", timeout=2) as answer:
            return bool(json.load(answer)["status"] == "ok")
    except OSError:
        return False


@contextmanager
def running_service(
    *options: str, wait: float = 60.0
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``interlingua serve`` on a free loopback port: its base URL and process, stopped after."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    env.pop("INTERLINGUA_SERVICE_TOKEN", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "interlingua", "serve", "--port", str(port), *options],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + wait
        while not _healthy(base):
            if process.poll() is not None:
                raise RuntimeError(f"the service exited: {process.stderr.read().decode()}")  # type: ignore[union-attr]
            if time.monotonic() > deadline:
                raise RuntimeError("the service did not answer /healthz in time")
            time.sleep(0.1)
        yield base, process
    finally:
        # Ctrl-C, as a user stops it: uvicorn shuts down and the interpreter exits normally
        # (after SIGTERM it re-raises the signal, which skips coverage's exit handler).
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()


def call(
    url: str, token: str | None = None, data: bytes | None = None
) -> tuple[int, dict[str, Any]]:
    """POST ``data`` as JSON (GET without it): the status and the JSON answer, a refusal's
    problem document included (whose media type it checks)."""
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as refused:
        assert refused.headers["content-type"] == "application/problem+json"
        return refused.code, json.load(refused)

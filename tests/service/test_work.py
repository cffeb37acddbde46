"""Where a request's work runs (`interlingua.service.work`): a large body in a worker process,
killed when its request outlives the time limit; a small one in a thread; the same answers and
problems either way."""

from __future__ import annotations

import json
import logging
import os
import pickle
import signal
import time
import urllib.error
import urllib.request
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from interlingua.service.app import create_app
from interlingua.service.limits import Limits
from interlingua.service.problems import ProblemError
from interlingua.service.work import THREAD_BYTES
from tests.service.conftest import check_documented
from tests.service.server import call, running_service

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

CONVERT = "/v1/convert?from=anthropic&to=gemini&kind=request"
JSON = {"content-type": "application/json"}


def _anthropic(messages: int, *, last: Any = None) -> bytes:
    """An Anthropic request of ``messages`` turns (the last one's content ``last``, if given)."""
    turns = [
        {"role": ("user", "assistant")[n % 2], "content": f"turn {n}"} for n in range(messages)
    ]
    if last is not None:
        turns[-1]["content"] = last
    return json.dumps({"model": "m", "max_tokens": 10, "messages": turns}).encode()


def _workers(service: int) -> set[int]:
    """The service's child processes: its workers."""
    return {
        int(child)
        for task in Path(f"/proc/{service}/task").iterdir()
        for child in (task / "children").read_text().split()
    }


def _until(condition: Any, seconds: float = 20.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_a_request_past_its_time_limit_stops_its_worker() -> None:
    """Regression: the work ran in a thread, which a 408 left converting (minutes, for a body
    at the size limit). Now the worker process running it is killed, and the next large body
    gets a new one."""
    # Detection with its reasons walks a body through every schema: 20 s for these 9 MB here,
    # past the limit on any machine we run on. The limit leaves a new worker time to start
    # (about 2 s: the interpreter, the imports, the schemas compiled).
    slow = _anthropic(200_000)
    with running_service("--timeout", "5", "--processes", "1") as (base, service):
        # A small body is answered in a thread: no worker is started for it.
        assert call(base + CONVERT, data=_anthropic(4))[0] == 200
        assert not _workers(service.pid)
        with ThreadPoolExecutor(1) as pool:
            refused = pool.submit(call, base + "/v1/detect", None, slow)
            assert _until(lambda: bool(_workers(service.pid)))
            (worker,) = _workers(service.pid)
            status, problem = refused.result(timeout=60)
        assert (status, problem["code"]) == (408, "request_timeout")
        assert _until(lambda: not Path(f"/proc/{worker}").exists())
        status, answer = call(base + CONVERT, data=_anthropic(2_001))
        assert status == 200 and len(answer["output"]["contents"]) == 2_001
        assert _workers(service.pid) - {worker}


def test_a_worker_that_dies_is_the_problem_worker_lost_and_is_replaced() -> None:
    """Regression: a worker process that died mid-request (the system's out-of-memory killer,
    say) surfaced as anyio's BrokenWorkerProcess, answered as a plain-text 500. Now it is the
    problem 503 `worker_lost`, and the next large body gets a new worker."""
    slow = _anthropic(200_000)
    with running_service("--timeout", "120", "--processes", "1") as (base, service):
        with ThreadPoolExecutor(1) as pool:
            lost = pool.submit(call, base + "/v1/detect", None, slow)
            assert _until(lambda: bool(_workers(service.pid)))
            (worker,) = _workers(service.pid)
            time.sleep(0.5)  # (past its start: the body is being read or answered)
            os.kill(worker, signal.SIGKILL)
            status, problem = lost.result(timeout=60)
        assert (status, problem["code"], problem["status"]) == (503, "worker_lost", 503)
        check_documented("POST", "/v1/detect", status, "application/problem+json", problem)
        # The service says so on stderr (written before the answer: read without waiting).
        assert service.stderr is not None
        os.set_blocking(service.stderr.fileno(), False)
        logged = (service.stderr.read() or b"").decode()
        assert (
            "WARNING:     interlingua.service.work: the worker process answering detect" in logged
        )
        status, answer = call(base + CONVERT, data=_anthropic(2_001))
        assert status == 200 and len(answer["output"]["contents"]) == 2_001
        assert _workers(service.pid) - {worker}


def test_what_a_worker_logs_is_logged_by_the_service(caplog: pytest.LogCaptureFixture) -> None:
    """Regression: a worker's output is closed, so what the package logged while answering in
    a worker was lost. Now its records come back with the answer: the service logs the same
    records whether the work ran in a worker or a thread, at the level it logs `interlingua`
    at."""
    turns = [{"role": ("user", "assistant")[n % 2], "content": f"turn {n}"} for n in range(3_001)]
    body = json.dumps({"model": "m", "seed": 7, "messages": turns}).encode()  # one loss: seed
    requests = [("/v1/convert?from=openai-chat&to=anthropic", body)]
    assert len(body) > THREAD_BYTES
    found = {}
    for processes in (1, 0):
        caplog.clear()
        with caplog.at_level(logging.DEBUG, logger="interlingua"):
            assert _answers(processes, requests)[0][0] == 200
        found[processes] = [
            (r.name, r.levelno, r.getMessage())
            for r in caplog.records
            if r.name.startswith("interlingua.conversion")
        ]
    assert found[1] == found[0]
    assert any("parameter_dropped at /parameters/seed" in message for *_, message in found[1])
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="interlingua"):
        assert _answers(1, requests)[0][0] == 200
    assert not [r for r in caplog.records if r.name.startswith("interlingua.conversion")]


def test_a_large_body_is_read_off_the_event_loop() -> None:
    """Regression: the service parsed every body on its event loop, so nothing else was
    answered meanwhile: a 26 MiB body for 1.7 s, and with a repeated key (read again by the
    hooked reader, to say where) for 12 s. Now a large body is read in a worker process, and
    a health check sent while it is read is answered first."""
    slow = _anthropic(100_000)[:-1] + b', "model": "again"}'  # seconds to refuse as repeated
    with running_service() as (base, _), ThreadPoolExecutor(2) as pool:
        refused = pool.submit(call, base + CONVERT, None, slow)
        time.sleep(0.3)  # (the body is on its way, or being read)
        with urllib.request.urlopen(base + "/healthz", timeout=60) as answer:
            assert answer.status == 200
        assert not refused.done()
        status, problem = refused.result(timeout=60)
    assert (status, problem["code"], problem["pointer"]) == (400, "duplicate_key", "/model")


def _answers(processes: int, requests: list[tuple[str, bytes]]) -> list[tuple[int, Any]]:
    with TestClient(create_app(limits=Limits(processes=processes))) as client:
        found = []
        for path, data in requests:
            answer = client.post(path, content=data, headers=JSON)
            found.append((answer.status_code, answer.json()))
        return found


def test_a_worker_process_answers_as_a_thread_does() -> None:
    """Large bodies through a worker process, and through a thread: the same answers, and the
    same problems (a refusal is pickled back from the worker with its extra members)."""
    large = 3_001  # turns: past THREAD_BYTES
    requests = [
        (CONVERT, _anthropic(large)),
        (CONVERT, _anthropic(large, last=5)),  # an invalid body: 422 at its last message
        (CONVERT + "&strict=true", _anthropic(large)),  # lossy: 422 with its losses
        (CONVERT, _anthropic(large)[:-1]),  # not JSON
        ("/v1/detect", _anthropic(large)),
    ]
    assert all(len(data) > THREAD_BYTES for _, data in requests)
    found = _answers(1, requests)
    assert found == _answers(0, requests)
    assert [status for status, _ in found] == [200, 422, 422, 400, 200]
    assert found[1][1]["pointer"] == f"/messages/{large - 1}/content"
    assert found[2][1]["losses"]  # the problem's extra member, from the worker


def test_a_problem_pickles_whole() -> None:
    problem = ProblemError(422, "lossy", "a loss", "/x", headers={"a": "b"}, losses=[{"c": 1}])
    again = pickle.loads(pickle.dumps(problem))
    assert (again.document(), again.headers, str(again)) == (
        problem.document(),
        problem.headers,
        str(problem),
    )


@pytest.mark.parametrize("processes", [0, 2])
def test_the_limits_say_how_many_workers(processes: int) -> None:
    assert Limits(processes=processes).processes == processes
    assert Limits().processes >= 1

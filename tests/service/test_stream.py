"""`POST /v1/stream`: the CLI's stream translation over HTTP, piece by piece."""

from __future__ import annotations

import itertools
import json
import socket
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conformance.cases import Case
from interlingua.service import streaming
from interlingua.service.limits import Limits
from interlingua.streams.engine import StreamTranslator
from interlingua.streams.losses import told_stream
from tests.bodies import signed_gemini_stream
from tests.service.conftest import CheckedClient
from tests.service.server import running_service
from tests.streams.helpers import STREAM_CASES, framed

SSE = {"content-type": "text/event-stream"}
NDJSON = {"content-type": "application/x-ndjson"}


def _case(fmt: str, name: str) -> Case:
    return next(c for c in STREAM_CASES if c.id == f"{fmt}.stream.{name}")


def _lines(fmt: str, name: str) -> list[str]:
    return framed(fmt, _case(fmt, name).input["chunks"])


@pytest.mark.parametrize(
    ("source", "target"), [("anthropic", "openai-chat"), ("anthropic", "canonical")]
)
def test_the_answer_is_the_translators(client: CheckedClient, source: str, target: str) -> None:
    lines = _lines(source, "text")
    answer = client.post(
        f"/v1/stream?from={source}&to={target}", content="".join(lines).encode(), headers=SSE
    )
    assert answer.status_code == 200
    assert answer.text == "".join(told_stream(lines, source, target))
    expected = "application/x-ndjson" if target == "canonical" else "text/event-stream"
    assert answer.headers["content-type"].startswith(expected)


def test_canonical_events_in(client: CheckedClient) -> None:
    events = _case("anthropic", "text").expected["events"]
    text = "\n".join(json.dumps(e) for e in events)  # the last line has no end: still read
    answer = client.post(
        "/v1/stream?from=canonical&to=gemini", content=text.encode(), headers=NDJSON
    )
    assert answer.status_code == 200
    assert answer.text == "".join(
        told_stream(text.splitlines(keepends=True), "canonical", "gemini")
    )


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("data: {not json\n\n", "invalid_json"),
        ("", "stream_truncated"),
        ('data: {"type": "ping"}\n\n', "stream_truncated"),
    ],
)
def test_a_stream_that_fails_before_answering_is_refused(
    client: CheckedClient, text: str, code: str
) -> None:
    answer = client.post(
        "/v1/stream?from=anthropic&to=openai-chat", content=text.encode(), headers=SSE
    )
    assert answer.status_code == 422
    assert answer.json()["code"] == code


def test_a_failure_after_the_answer_began_is_the_targets_error_chunk(client: CheckedClient) -> None:
    lines = _lines("anthropic", "text")
    cut = [*lines[:6], "data: {not json\n", "\n", *lines[6:]]
    answer = client.post(
        "/v1/stream?from=anthropic&to=openai-chat", content="".join(cut).encode(), headers=SSE
    )
    assert answer.status_code == 200
    assert answer.text == "".join(told_stream(cut, "anthropic", "openai-chat"))
    assert '"error"' in answer.text


def test_a_line_past_the_limit_is_refused(make_client: Any) -> None:
    small = make_client(limits=Limits(max_bytes=64))
    text = "data: " + json.dumps({"type": "message_start", "pad": "x" * 200}) + "\n\n"
    answer = small.post(
        "/v1/stream?from=anthropic&to=openai-chat", content=text.encode(), headers=SSE
    )
    assert (answer.status_code, answer.json()["code"]) == (422, "input_too_large")


def test_stream_options_are_checked_before_anything_is_read(client: CheckedClient) -> None:
    answer = client.post("/v1/stream?from=umf&to=openai-chat", content=b"", headers=SSE)
    assert (answer.status_code, answer.json()["parameter"]) == (400, "from")
    assert client.post("/v1/stream?from=anthropic&to=gemini", content=b"").status_code == 415


def _read_until(sock: socket.socket, marker: bytes, seen: bytes = b"") -> bytes:
    while marker not in seen:
        piece = sock.recv(65536)
        if not piece:
            break
        seen += piece
    return seen


def _open_stream(sock: socket.socket, first: bytes) -> None:
    """Start a chunked request and send its first piece, leaving the body open."""
    sock.sendall(
        b"POST /v1/stream?from=anthropic&to=openai-chat HTTP/1.1\r\nHost: test\r\n"
        b"Content-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
        + f"{len(first):x}\r\n".encode()
        + first
        + b"\r\n"
    )


def _first_piece(lines: list[str]) -> int:
    """How many lines it takes before the translator has something to send."""
    translator = StreamTranslator("anthropic", "openai-chat")
    return next(n + 1 for n, line in enumerate(lines) if translator.feed(line))


def test_the_first_chunk_arrives_before_the_body_has() -> None:
    lines = _lines("anthropic", "text")
    cut = _first_piece(lines)
    assert cut < len(lines) - 1  # there is more body to send after it
    first, rest = "".join(lines[:cut]).encode(), "".join(lines[cut:]).encode()
    with running_service() as (base, _):
        host, port = base.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=60) as sock:
            _open_stream(sock, first)
            # The body is still open: the translated first chunk must come back regardless.
            head = _read_until(sock, b'"role":"assistant"')
            assert b"200 OK" in head and b'"role":"assistant"' in head
            assert b"[DONE]" not in head
            sock.sendall(f"{len(rest):x}\r\n".encode() + rest + b"\r\n0\r\n\r\n")
            whole = _read_until(sock, b"data: [DONE]", head)
    assert b'"content":"Hello"' in whole and b"stream_truncated" not in whole


def test_a_long_chunk_is_read_off_the_event_loop(
    client: CheckedClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A chunk past 64 KiB is read in a thread, the event loop free meanwhile: the line that
    ends its event (where it is parsed: seconds for megabytes with a repeated key), not only
    the long data line. Smaller chunks stay on the event loop."""
    hops: list[bytes] = []
    hop = anyio.to_thread.run_sync

    async def recorded(work: Any, *args: Any, **options: Any) -> Any:
        if getattr(work, "__name__", "") == "_feed":
            hops.append(args[0])
        return await hop(work, *args, **options)

    monkeypatch.setattr(anyio.to_thread, "run_sync", recorded)
    lines = _lines("anthropic", "text")
    path = "/v1/stream?from=anthropic&to=openai-chat"
    answer = client.post(path, content="".join(lines).encode(), headers=SSE)
    assert answer.status_code == 200 and not hops
    junk = json.dumps(["x" * 60] * 2_000)  # 124 KiB
    long = f'event: ping\ndata: {{"type": "ping", "junk": {junk}}}\n\n'
    answer = client.post(
        path, content="".join([*lines[:3], long, *lines[3:]]).encode(), headers=SSE
    )
    assert answer.status_code == 200 and "stream_truncated" not in answer.text
    assert b"\n" in hops  # the blank line that ends the long event, where it is parsed
    assert any(len(line) > 64 * 1024 for line in hops)


def test_out_of_time_the_answer_ends_as_a_stream_cut_short() -> None:
    lines = _lines("anthropic", "text")
    first = "".join(lines[: _first_piece(lines)]).encode()
    with running_service("--timeout", "1") as (base, _):
        host, port = base.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=60) as sock:
            _open_stream(sock, first)  # and never the rest
            whole = _read_until(sock, b"data: [DONE]")
    assert b"200 OK" in whole and b"stream_truncated" in whole


def test_a_line_past_the_limit_without_its_end_is_refused(make_client: Any) -> None:
    small = make_client(limits=Limits(max_bytes=64))
    text = "data: " + "x" * 200  # no newline: the line is cut at the limit, never held whole
    answer = small.post(
        "/v1/stream?from=anthropic&to=openai-chat", content=text.encode(), headers=SSE
    )
    assert (answer.status_code, answer.json()["code"]) == (422, "input_too_large")


def test_reading_stops_when_the_client_goes_away() -> None:
    messages: list[dict[str, Any]] = [
        {"type": "http.request", "body": b"data: {}\n\npartial", "more_body": True},
        {"type": "http.disconnect"},
    ]

    async def receive() -> dict[str, Any]:
        return messages.pop(0)

    async def collect() -> list[bytes]:
        return [line async for line in streaming._lines(receive, 1024)]

    # A thread of its own: a test before this one in the same worker may leave an event loop
    # running in this thread, where another cannot start.
    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(anyio.run, collect).result() == [b"data: {}\n", b"\n"]


@given(
    data=st.binary(max_size=300).map(lambda b: b.replace(b"\x00", b"\n")),
    cuts=st.lists(st.integers(0, 300), max_size=12),
    limit=st.integers(1, 400),
)
@settings(max_examples=300, deadline=None)
def test_the_lines_are_the_bodys_however_it_arrives(
    data: bytes, cuts: list[int], limit: int
) -> None:
    """However the body is cut into messages: its lines, each ending with its newline; past
    ``limit`` bytes without one, what was read so far, and nothing after it."""
    at = sorted({min(c, len(data)) for c in cuts} | {0, len(data)})
    pieces = [data[a:b] for a, b in itertools.pairwise(at)] or [b""]
    messages = [
        {"type": "http.request", "body": piece, "more_body": n < len(pieces) - 1}
        for n, piece in enumerate(pieces)
    ]

    async def receive() -> dict[str, Any]:
        return messages.pop(0)

    async def collect() -> list[bytes]:
        return [line async for line in streaming._lines(receive, limit)]

    with ThreadPoolExecutor(1) as pool:  # (an event loop of its own, as above)
        found = pool.submit(anyio.run, collect).result()
    *ended, tail = data.split(b"\n")
    whole = [line + b"\n" for line in ended] + ([tail] if tail else [])
    if all(len(line) <= limit for line in whole):
        assert found == whole
    else:
        assert b"".join(found) == data[: len(b"".join(found))]
        assert all(line.endswith(b"\n") for line in found[:-1])
        assert len(found[-1]) > limit or found[-1] == whole[-1]


def _vertex_reasoning() -> list[str]:
    """A Gemini stream whose reasoning Vertex signed."""
    return framed("gemini", signed_gemini_stream())


def _translated(
    client: CheckedClient, monkeypatch: pytest.MonkeyPatch, path: str, lines: list[str]
) -> tuple[str, streaming.TranslatedStream]:
    """What the service answers at ``path``, and the response object that answered it."""
    made: list[streaming.TranslatedStream] = []

    class Kept(streaming.TranslatedStream):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr("interlingua.service.app.TranslatedStream", Kept)
    answer = client.post(path, content="".join(lines).encode(), headers=SSE)
    assert answer.status_code == 200
    return answer.text, made[0]


@pytest.mark.parametrize(
    ("endpoints", "kept"),
    [
        ("&source_endpoint=vertex&target_endpoint=gemini-api", False),
        ("&source_endpoint=vertex&target_endpoint=vertex", True),
        ("&source_endpoint=vertex", True),
    ],
)
def test_the_stream_takes_the_endpoints_the_replay_check_needs(
    client: CheckedClient, monkeypatch: pytest.MonkeyPatch, endpoints: str, kept: bool
) -> None:
    # Before: the service made its StreamTranslator without the endpoints, so Vertex-signed
    # reasoning went on to the Gemini API (which refuses it) with nothing reported.
    lines = _vertex_reasoning()
    text, answered = _translated(
        client, monkeypatch, f"/v1/stream?from=gemini&to=gemini{endpoints}", lines
    )
    assert ("thoughtSignature" in text) is kept
    codes = [loss.code for loss in answered.translator.losses]
    assert codes == ([] if kept else ["thinking_not_replayable"])
    assert text == "".join(
        told_stream(
            lines,
            "gemini",
            "gemini",
            source_endpoint="vertex",
            target_endpoint="gemini-api" if "gemini-api" in endpoints else None,
        )
    )


def test_an_unknown_endpoint_is_refused_before_anything_is_read(client: CheckedClient) -> None:
    answer = client.post(
        "/v1/stream?from=gemini&to=gemini&target_endpoint=not%20one", content=b"", headers=SSE
    )
    assert (answer.status_code, answer.json()["parameter"]) == (400, "target_endpoint")

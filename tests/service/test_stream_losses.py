"""`POST /v1/stream` tells its client every loss, in a stream the providers' SDKs still read.

Before: the translator collected its losses and the CLI printed them, but the service sent only
the translated chunks, so a client of the service lost data silently."""

from __future__ import annotations

import json
import socket
import urllib.request
from typing import Any

import pytest

from interlingua.documents.validation import is_error, validate
from interlingua.streams.engine import StreamTranslator, reassemble, translate_stream
from interlingua.streams.losses import COMMENT, MEMBER
from tests.service.conftest import CheckedClient
from tests.service.sdk_readers import READERS
from tests.service.server import running_service
from tests.service.test_stream import _lines, _read_until
from tests.streams.helpers import STREAM_CASES

SSE = {"content-type": "text/event-stream"}
NDJSON = {"content-type": "application/x-ndjson"}
PREFIX = f": {COMMENT} "


def _expected(source: str, name: str, target: str) -> list[dict[str, Any]]:
    """The losses the translator meets, as `Loss.as_json` gives them, in its order."""
    translator = StreamTranslator(source, target)
    for line in _lines(source, name):
        translator.feed(line)
    translator.close()
    return [loss.as_json() for loss in translator.losses]


def _comments(text: str) -> list[dict[str, Any]]:
    return [json.loads(line[len(PREFIX) :]) for line in text.split("\n") if line.startswith(": ")]


def _without_comments(text: str) -> str:
    """``text`` without its blocks of comment lines."""
    blocks = text.split("\n\n")
    return "\n\n".join(b for b in blocks if not all(x.startswith(": ") for x in b.split("\n")))


def _members(text: str) -> list[dict[str, Any]]:
    """The losses the chunks carry (NDJSON lines or SSE `data:` lines)."""
    out: list[dict[str, Any]] = []
    for line in text.split("\n"):
        payload = line.removeprefix("data: ")
        if payload.startswith("{"):
            out += json.loads(payload).get(MEMBER, [])
    return out


def _chunks(text: str) -> list[Any]:
    return [json.loads(x.removeprefix("data: ")) for x in text.splitlines() if x.strip()]


def _post(base: str, path: str, body: bytes) -> str:
    request = urllib.request.Request(base + path, data=body, headers=SSE, method="POST")
    with urllib.request.urlopen(request, timeout=60) as answer:
        assert answer.status == 200
        return str(answer.read().decode("utf-8"))


def test_a_lossy_stream_reaches_the_client_with_its_losses_over_http() -> None:
    # A Gemini stream read into Anthropic's: what Anthropic cannot carry (Gemini's reasoning;
    # its count of reasoning tokens Anthropic now carries) reaches the client as SSE comments.
    lines = _lines("gemini", "usage_thoughts")
    expected = _expected("gemini", "usage_thoughts", "anthropic")
    assert [loss["code"] for loss in expected] == ["thinking_not_replayable"]
    with running_service() as (base, _):
        text = _post(base, "/v1/stream?from=gemini&to=anthropic", "".join(lines).encode())
    assert _comments(text) == expected
    # Every comment comes before the stream's end, which an SDK stops reading at.
    assert text.rindex(PREFIX) < text.index("event: message_stop")
    # Without the comments, the answer is the translation as it was.
    assert _without_comments(text) == "".join(translate_stream(lines, "gemini", "anthropic"))


def test_each_loss_is_sent_as_soon_as_it_is_met() -> None:
    # The first lines of the stream, the body left open: the loss they cause comes back
    # before the rest of the stream is even sent.
    lines = _lines("gemini", "text")
    translator = StreamTranslator("gemini", "anthropic")
    cut = next(n + 1 for n, line in enumerate(lines) if translator.feed(line) and translator.losses)
    assert cut < len(lines)
    first, rest = "".join(lines[:cut]).encode(), "".join(lines[cut:]).encode()
    with running_service() as (base, _):
        host, port = base.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=60) as sock:
            sock.sendall(
                b"POST /v1/stream?from=gemini&to=anthropic HTTP/1.1\r\nHost: test\r\n"
                b"Content-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                + f"{len(first):x}\r\n".encode()
                + first
                + b"\r\n"
            )
            head = _read_until(sock, b"\n\n", _read_until(sock, PREFIX.encode()))
            assert b"message_stop" not in head
            sock.sendall(f"{len(rest):x}\r\n".encode() + rest + b"\r\n0\r\n\r\n")
            _read_until(sock, b"event: message_stop", head)


# A lossy translation to each target an SDK reads (its source chosen so that it loses).
LOSSY = [
    ("gemini", "text", "openai-chat"),
    ("gemini", "text", "openai-responses"),
    ("gemini", "text", "anthropic"),
    ("openai-chat", "refusal", "gemini"),
    ("gemini", "text", "ollama"),
]


@pytest.mark.parametrize(("source", "name", "target"), LOSSY, ids=[t for _, _, t in LOSSY])
def test_the_providers_sdk_reads_the_answer_unchanged(
    client: CheckedClient, source: str, name: str, target: str
) -> None:
    lines = _lines(source, name)
    answer = client.post(
        f"/v1/stream?from={source}&to={target}", content="".join(lines).encode(), headers=SSE
    )
    assert answer.status_code == 200
    told = _comments(answer.text) + _members(answer.text)
    assert told == _expected(source, name, target) != []
    bare = "".join(translate_stream(lines, source, target))
    read = READERS[target]
    assert read(answer.content) == read(bare.encode())


@pytest.mark.parametrize("target", ["gemini", "ollama", "bedrock"])
def test_where_no_comment_is_read_the_losses_ride_on_a_chunk(
    client: CheckedClient, target: str
) -> None:
    source, name = ("openai-chat", "refusal") if target == "gemini" else ("gemini", "text")
    lines = _lines(source, name)
    answer = client.post(
        f"/v1/stream?from={source}&to={target}", content="".join(lines).encode(), headers=SSE
    )
    assert ": " + COMMENT not in answer.text
    assert _members(answer.text) == _expected(source, name, target) != []
    # Take the member out again: the chunks are the translation's, in the same frames.
    bare = "".join(translate_stream(lines, source, target))
    chunks = _chunks(answer.text)
    for chunk in chunks:
        chunk.pop(MEMBER, None)
    assert chunks == _chunks(bare)
    assert answer.text.count("\n") == bare.count("\n")


@pytest.mark.parametrize(
    ("source", "target"),
    [("anthropic", "anthropic"), ("gemini", "gemini"), ("anthropic", "canonical")],
)
def test_a_lossless_stream_carries_no_loss(client: CheckedClient, source: str, target: str) -> None:
    lines = _lines(source, "text")
    assert _expected(source, "text", target) == []
    answer = client.post(
        f"/v1/stream?from={source}&to={target}", content="".join(lines).encode(), headers=SSE
    )
    assert answer.text == "".join(translate_stream(lines, source, target))
    assert PREFIX not in answer.text and MEMBER not in answer.text
    assert '"type":"loss"' not in answer.text


def test_canonical_events_carry_each_loss_as_a_loss_event(client: CheckedClient) -> None:
    lines = _lines("anthropic", "unknown_event_reported")
    answer = client.post(
        "/v1/stream?from=anthropic&to=canonical", content="".join(lines).encode(), headers=SSE
    )
    events = [json.loads(line) for line in answer.text.splitlines()]
    losses = [e for e in events if e["type"] == "loss"]
    assert [e["loss"] for e in losses] == _expected(
        "anthropic", "unknown_event_reported", "canonical"
    )
    assert losses != []
    for event in events:
        assert [f for f in validate(event, "StreamEvent") if is_error(f)] == [], event
    # A loss event builds nothing: the events reassemble as they do without it.
    case = next(c for c in STREAM_CASES if c.id == "anthropic.stream.unknown_event_reported")
    assert reassemble(events, "anthropic") == case.expected["canonical"]
    # Translated on, the stream reports those losses again: none is dropped on the way.
    again = client.post(
        "/v1/stream?from=canonical&to=openai-chat", content=answer.content, headers=NDJSON
    )
    assert _comments(again.text)[: len(losses)] == [e["loss"] for e in losses]


@pytest.mark.parametrize("target", ["canonical", "anthropic"])
def test_a_stream_that_fails_before_its_first_chunk_is_still_refused(
    client: CheckedClient, target: str
) -> None:
    # Found by schemathesis: a chunk no rule reads is a loss, and telling it began the answer
    # (200), so a stream that then failed was no longer refused. The answer begins with the
    # first translated chunk; losses met before it go out with it.
    answer = client.post(f"/v1/stream?from=bedrock&to={target}", content=b"null\n", headers=NDJSON)
    assert (answer.status_code, answer.json()["code"]) == (422, "stream_truncated")


def test_losses_met_before_the_first_chunk_go_out_with_it(client: CheckedClient) -> None:
    lines = _lines("bedrock", "text")
    answer = client.post(
        "/v1/stream?from=bedrock&to=canonical",
        content=b'{"unknown": 1}\n' + "".join(lines).encode(),
        headers=NDJSON,
    )
    assert answer.status_code == 200
    first = json.loads(answer.text.splitlines()[0])
    assert first["type"] == "loss" and first["loss"]["pointer"] == "/0"

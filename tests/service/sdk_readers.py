"""The providers' own SDKs reading a stream's raw text, as their clients would.

Each reader hands ``body`` to the SDK as the answer of its streaming call (through the HTTP
client's mock transport: the SDK's own parser and models do the reading) and gives back what
the SDK yields, as plain JSON. A reader whose SDK is not installed raises `pytest.skip`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import pytest

SSE = {"content-type": "text/event-stream"}
NDJSON = {"content-type": "application/x-ndjson"}


def _sdk(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        pytest.skip(f"{name} is not installed")


def _dump(item: Any) -> Any:
    return item.model_dump(mode="json") if hasattr(item, "model_dump") else item


def _openai(body: bytes, responses: bool) -> list[Any]:
    openai, httpx = _sdk("openai"), _sdk("httpx")
    transport = httpx.MockTransport(lambda request: httpx.Response(200, headers=SSE, content=body))
    client = openai.OpenAI(
        api_key="k", base_url="http://sdk.test/v1", http_client=httpx.Client(transport=transport)
    )
    if responses:
        stream = client.responses.create(model="m", input="hi", stream=True)
    else:
        stream = client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}], stream=True
        )
    return [_dump(item) for item in stream]


def _anthropic(body: bytes) -> list[Any]:
    anthropic, httpx = _sdk("anthropic"), _sdk(_anthropic_http())
    transport = httpx.MockTransport(lambda request: httpx.Response(200, headers=SSE, content=body))
    client = anthropic.Anthropic(
        api_key="k", base_url="http://sdk.test", http_client=httpx.Client(transport=transport)
    )
    stream = client.messages.create(
        model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}], stream=True
    )
    return [_dump(item) for item in stream]


def _anthropic_http() -> str:
    """The HTTP client the installed anthropic SDK takes (httpx2 from its 2.x releases)."""
    try:
        importlib.import_module("httpx2")
    except ImportError:
        return "httpx"
    return "httpx2"


def _gemini(body: bytes) -> list[Any]:
    genai, httpx = _sdk("google.genai"), _sdk("httpx")
    transport = httpx.MockTransport(lambda request: httpx.Response(200, headers=SSE, content=body))
    options = {"base_url": "http://sdk.test", "httpx_client": httpx.Client(transport=transport)}
    client = genai.Client(api_key="k", http_options=options)
    stream = client.models.generate_content_stream(model="m", contents="hi")
    return [_without_http(_dump(item)) for item in stream]


def _without_http(item: dict[str, Any]) -> dict[str, Any]:
    """A google-genai response without `sdk_http_response` (the headers, not the stream)."""
    return {key: value for key, value in item.items() if key != "sdk_http_response"}


def _ollama(body: bytes) -> list[Any]:
    ollama, httpx = _sdk("ollama"), _sdk("httpx")
    transport = httpx.MockTransport(
        lambda request: httpx.Response(200, headers=NDJSON, content=body)
    )
    client = ollama.Client(host="http://sdk.test", transport=transport)
    stream = client.chat(model="m", messages=[{"role": "user", "content": "hi"}], stream=True)
    return [_dump(item) for item in stream]


#: The SDK reader of each target format that has one.
READERS: dict[str, Callable[[bytes], list[Any]]] = {
    "openai-chat": lambda body: _openai(body, responses=False),
    "openai-responses": lambda body: _openai(body, responses=True),
    "anthropic": _anthropic,
    "gemini": _gemini,
    "ollama": _ollama,
}

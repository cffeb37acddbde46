"""Image URLs of every spelling through the forward fused passes: the pass asks the reading
schema's URL pattern only of a spelling other than a web URL's exact scheme or a data URL of a
media type it takes as spelled (generator/pairs.py: `implied_url_pattern`), and gives the
two-step path's answer for each (or sends the body there)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from interlingua.conversion.converter import convert
from interlingua.generated.pairs import PAIRS
from tests.adapters import differential

FROM_CHAT = sorted(pair for pair in PAIRS if pair[0] == "openai-chat")
URLS = [
    "data:image/png;base64,iVBORw0KGgo=",
    "data:image/PNG;base64,iVBORw0KGgo=",
    "data:IMAGE/png;base64,iVBORw0KGgo=",
    "data:Image/Jpeg;base64,/9j/",
    "data:image/tiff;base64,AAAA",
    "data:image/svg+xml;base64,AAAA",
    "data:image/png;base64",
    "data:image/png,AAAA",
    "data:;base64,AAAA",
    "https://e.com/a.png",
    "http://e.com/a.png",
    "HTTPS://e.com/a.png",
    "Http://e.com/a.png",
    "ftp://e.com/a.png",
    " https://e.com/a.png",
]
# Taken by every forward pass as they are spelled (Bedrock drops a web image, reported).
TAKEN = {URLS[0], URLS[1], URLS[9], URLS[10]}


def body(url: str) -> dict[str, Any]:
    return {
        "model": "m",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "What is this?"},
                    {"type": "image_url", "image_url": {"url": url}},
                ],
            }
        ],
    }


def _convert(payload: Any, source: str, target: str, kind: str) -> Any:
    return convert(copy.deepcopy(payload), source, target, kind)


def _two_step(payload: Any, source: str, target: str, kind: str) -> Any:
    return convert(copy.deepcopy(payload), source, target, kind, fused=False)


@pytest.mark.parametrize("url", URLS)
@pytest.mark.parametrize(("source", "target"), FROM_CHAT)
def test_each_spelling_of_an_image_url_converts_as_the_two_step_path_converts_it(
    source: str, target: str, url: str
) -> None:
    got = differential.outcome(_convert, body(url), source, target, "request")
    assert got == differential.outcome(_two_step, body(url), source, target, "request")
    taken = type(PAIRS[source, target](body(url))) is tuple
    if url in TAKEN:
        assert taken
    if got[0] == "error":  # the schema refuses it: never the pass's to take
        assert not taken

"""The anthropic → openai-chat pass on media and documents in or beside tool results (issue 16,
real traffic): a tool message of OpenAI Chat holds text only, so the two-step writer moves a
result's images and documents to a user turn of their own right after the results, each
reported `moved`; a document by URL and a file id Anthropic issued are dropped (reported), and a
user turn left with nothing is none (`message_dropped`). The pass does the same, with the same
output, losses (pointer, code, reason, order), id map and name map; what it cannot make the same
goes two-step, with the reason."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from interlingua.conversion.converter import check_wire, convert
from interlingua.generated.pairs import PAIRS
from tests.adapters.fused import deep, mutants_taken, refused_alike, same, takes_two_steps
from tests.adapters.test_fused_pairs import ANTHROPIC_BODY

_PAIR = ("anthropic", "openai-chat")
_TEXT = {"type": "text", "text": "x"}
_CALL = {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {}}
_IMAGE_URL = {"type": "image", "source": {"type": "url", "url": "https://example.com/m.png"}}
_IMAGE_DATA: dict[str, Any] = {
    "type": "image",
    "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0K"},
}
_IMAGE_FILE = {"type": "image", "source": {"type": "file", "file_id": "file_1"}}
_PDF: dict[str, Any] = {
    "type": "document",
    "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0x"},
}
_PLAIN: dict[str, Any] = {
    "type": "document",
    "source": {"type": "text", "media_type": "text/plain", "data": "Dummy é\n"},
}
_DOCUMENT_URL = {"type": "document", "source": {"type": "url", "url": "https://e.com/a.pdf"}}
_DOCUMENT_FILE = {"type": "document", "source": {"type": "file", "file_id": "file_2"}}
# Blocks of kinds Anthropic's mapping and reading schema do not know: reading keeps each
# verbatim, the writer drops it (reported; in a result: moved, then dropped).
_UPLOAD = {"type": "container_upload", "file_id": "file_3"}
_REFERENCE = {"type": "tool_reference", "tool_name": "search_only_tool"}
_MEDIA = [
    *(_IMAGE_URL, _IMAGE_DATA, _IMAGE_FILE, _PDF, _PLAIN, _DOCUMENT_URL, _DOCUMENT_FILE),
    *(_UPLOAD, _REFERENCE),
]


def _result(n: int, content: Any, **extra: Any) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": content, **extra}


def _body(*turns: list[Any], calls: int = 1, last: Any = None) -> dict[str, Any]:
    """ANTHROPIC_BODY's envelope, a question, then for each of ``turns`` a model turn of
    ``calls`` calls and a user turn of its blocks; ``last``: a model turn at the end."""
    messages: list[Any] = [{"role": "user", "content": "Hi"}]
    for n, blocks in enumerate(turns):
        ids = [f"toolu_{n * calls + k}" for k in range(calls)]
        messages.append({"role": "assistant", "content": [{**_CALL, "id": i} for i in ids]})
        messages.append({"role": "user", "content": copy.deepcopy(blocks)})
    if last is not None:
        messages.append({"role": "assistant", "content": last})
    return {**copy.deepcopy(ANTHROPIC_BODY), "messages": messages}


def _convert(body: dict[str, Any]) -> Any:
    return convert(copy.deepcopy(body), *_PAIR)


# name: a body the pass now takes (each went the two-step way before: the pass left any
# result holding more than text, and any document)
SHAPES: dict[str, dict[str, Any]] = {
    "a result holding text and images (the images move after the results)": _body(
        [_result(0, [_TEXT, _IMAGE_URL, _TEXT, _IMAGE_DATA])]
    ),
    "a result holding an image alone (its content an empty text)": _body(
        [_result(0, [_IMAGE_URL])]
    ),
    "a result holding a text document (written as its bytes)": _body([_result(0, [_PLAIN])]),
    "a PDF beside a result (a user turn of its own)": _body([_result(0, "r"), _PDF, _TEXT]),
    "an image by a file id in a result (dropped: no moved turn)": _body(
        [_result(0, [_IMAGE_FILE], is_error=False)]
    ),
    "a document by a file id beside a result (the user turn left empty is none)": _body(
        [_result(0, [_TEXT]), _DOCUMENT_FILE]
    ),
    "a document by URL beside a result, then text (dropped, the text stays)": _body(
        [_result(0, "r"), _DOCUMENT_URL, _TEXT]
    ),
    "several results with media: one moved turn after the last": _body(
        [_result(0, [_IMAGE_URL]), _result(1, [_TEXT, _PDF], is_error=True), _TEXT], calls=2
    ),
    "results with media in two user turns: pointers after the moved turns": _body(
        [_result(0, [_IMAGE_URL, _DOCUMENT_URL])],
        [_result(1, [_TEXT, _PLAIN], is_error=True), _IMAGE_FILE],
        last=[{"type": "thinking", "thinking": "Hm.", "signature": "s"}, _TEXT],
    ),
    "a result with media, then a user turn of one string (the moved turn before it)": {
        **_body([_result(0, [_PDF])]),
        "messages": [
            *_body([_result(0, [_PDF])])["messages"],
            {"role": "user", "content": "Thanks."},
        ],
    },
    "a result holding a tool reference (moved, dropped: no moved turn)": _body(
        [_result(0, [_REFERENCE], is_error=False)]
    ),
    "a tool reference beside a text in a result, then an upload": _body(
        [_result(0, [_TEXT, _REFERENCE, _IMAGE_URL]), _UPLOAD, _TEXT]
    ),
    "a container upload beside the user's words (dropped, the words stay)": {
        **copy.deepcopy(ANTHROPIC_BODY),
        "messages": [
            {"role": "user", "content": [_TEXT, _UPLOAD]},
            *copy.deepcopy(ANTHROPIC_BODY["messages"][1:]),
        ],
    },
    "a user turn of a container upload alone (no message)": _body([_result(0, "r")], [_UPLOAD]),
    "an unknown block holding nested values": _body(
        [_result(0, [{"type": "x_new", "a": {"b": [1, None, "é"]}}]), {"type": "y_new"}]
    ),
    "documents and an image by a file id in the user's first turn": {
        **copy.deepcopy(ANTHROPIC_BODY),
        "messages": [
            {"role": "user", "content": [_TEXT, _PDF, _IMAGE_FILE, _PLAIN, _DOCUMENT_URL]},
            *copy.deepcopy(ANTHROPIC_BODY["messages"][1:]),
        ],
    },
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_media_in_and_beside_results_take_one_pass_with_the_two_step_answer(name: str) -> None:
    body = SHAPES[name]
    fused = _convert(body)
    two_step = convert(copy.deepcopy(body), *_PAIR, fused=False)
    assert fused.fused and not two_step.fused
    same(fused, two_step)
    check_wire(fused.output, "openai-chat", "request", strict=True)


def test_a_results_media_move_to_a_user_turn_after_the_results_reported_in_order() -> None:
    """Spelled out once: the results first (their text parts kept, an empty text when none),
    then one user turn of what they held, each part reported moved (in order), then what
    writing them drops; a later message's pointers are the canonical form's (the moved turn
    is no message of it)."""
    body = SHAPES["results with media in two user turns: pointers after the moved turns"]
    result = _convert(body)
    assert result.fused
    messages = result.output["messages"]
    assert [m["role"] for m in messages] == [
        *("system", "user", "assistant", "tool", "user", "assistant", "tool", "user"),
        "assistant",
    ]
    assert messages[3] == {"role": "tool", "tool_call_id": "toolu_0", "content": ""}
    assert messages[4] == {
        "role": "user",
        "content": [{"type": "image_url", "image_url": {"url": "https://example.com/m.png"}}],
    }
    assert messages[6]["content"] == [{"type": "text", "text": "x"}]
    assert messages[7]["content"] == [
        {"type": "file", "file": {"file_data": "data:text/plain;base64,RHVtbXkgw6kK"}}
    ]
    assert [(x.pointer, x.code, x.part_type) for x in result.losses] == [
        ("/parameters/top_k", "parameter_dropped", None),
        ("/messages/3/content/0/content/0", "moved", "image"),
        ("/messages/3/content/0/content/1", "moved", "document"),
        ("/messages/3/content/0/content/1", "part_dropped", "document"),
        ("/messages/5/content/0/is_error", "field_dropped", "tool_result"),
        ("/messages/5/content/0/content/1", "moved", "document"),
        ("/messages/6/content/0/source/file_id", "file_not_portable", "image"),
        ("/messages/6", "message_dropped", None),
        ("/messages/7/content/0", "thinking_not_replayable", "thinking"),
    ]


def test_the_recorded_requests_with_media_in_results_take_one_pass() -> None:
    """Six of the corpus's bodies with media or documents in or beside tool results, one with
    a `tool_reference` block in a result and one with a `container_upload` beside the user's
    words (blocks of kinds Anthropic's mapping does not know, kept verbatim by reading). One
    offers code execution, a hosted tool the two-step path reads: it goes that way."""
    from interlingua.generated.pairs.anthropic_to_openai_chat import HOSTED_TOOLS
    from tests.adapters.differential import real_bodies

    bodies = [
        body
        for label, body, fmt, kind in real_bodies()
        if fmt == "anthropic"
        and kind == "request"
        and (
            "multimodal-tool-return" in label
            or "explicit-tool-search-keeps-search-surface-2" in label
            or "code-execution-files-cache-prefix-stable-auto-2" in label
        )
    ]
    assert len(bodies) == 8
    for body in bodies:
        fused = _convert(body)
        hosted = any(tool.get("type") in HOSTED_TOOLS for tool in body.get("tools", []))
        assert fused.fused is not hosted
        same(fused, convert(copy.deepcopy(body), *_PAIR, fused=False))


# name: (body, the reason the pass gives for sending it the two-step way)
OUTSIDE: dict[str, tuple[dict[str, Any], str]] = {
    "a document's title (written as the file's name)": (
        _body([_result(0, "r"), {**_PDF, "title": "a.pdf"}]),
        "user content outside the fused shape",
    ),
    "a document's cache hint": (
        _body([_result(0, [{**_PDF, "cache_control": {"type": "ephemeral"}}])]),
        "user content outside the fused shape",
    ),
    "a document of custom content": (
        _body([_result(0, [{"type": "document", "source": {"type": "content", "content": "c"}}])]),
        "user content outside the fused shape",
    ),
    "a text document left empty": (
        _body([_result(0, [{"type": "document", "source": {**_PLAIN["source"], "data": ""}}])]),
        "user content outside the fused shape",
    ),
    "an image in a result of a type OpenAI does not take": (
        _body(
            [
                _result(
                    0,
                    [
                        {
                            "type": "image",
                            "source": {**_IMAGE_DATA["source"], "media_type": "image/bmp"},
                        }
                    ],
                )
            ]
        ),
        "user content outside the fused shape",
    ),
    "a block of a kind Anthropic does not know in the model's turn": (
        _body([_result(0, "r")], last=[_TEXT, _UPLOAD]),
        "assistant content outside the fused shape",
    ),
    "a server tool's result block in a result (a tag the mapping reads)": (
        _body([_result(0, [{"type": "web_search_tool_result", "tool_use_id": "s"}])]),
        "user content outside the fused shape",
    ),
    "a document URL that is not a web URL (the reader's to report)": (
        _body([_result(0, [{"type": "document", "source": {"type": "url", "url": "s3://b/a"}}])]),
        "user content outside the fused shape",
    ),
    "an empty file id": (
        _body([_result(0, [{"type": "image", "source": {"type": "file", "file_id": ""}}])]),
        "user content outside the fused shape",
    ),
    "a blank text beside an image in a result": (
        _body([_result(0, [{"type": "text", "text": " "}, _IMAGE_URL])]),
        "user content outside the fused shape",
    ),
}


@pytest.mark.parametrize("name", sorted(OUTSIDE))
def test_media_outside_the_shape_take_the_two_step_path_and_say_why(
    name: str, caplog: pytest.LogCaptureFixture
) -> None:
    takes_two_steps(*OUTSIDE[name], *_PAIR, caplog)


BAD: dict[str, Any] = {
    "a PDF's data that is not base64": _body(
        [_result(0, [{"type": "document", "source": {**_PDF["source"], "data": "not base64!"}}])]
    ),
    "a PDF of another media type": _body(
        [_result(0, "r"), {"type": "document", "source": {**_PDF["source"], "media_type": "x/y"}}]
    ),
    "a text document's text of the wrong type": _body(
        [_result(0, [{"type": "document", "source": {**_PLAIN["source"], "data": 7}}])]
    ),
    "a lone surrogate in a text document": _body(
        [_result(0, [{"type": "document", "source": {**_PLAIN["source"], "data": "\ud800"}}])]
    ),
    "a file id of the wrong type": _body(
        [_result(0, "r"), {"type": "document", "source": {"type": "file", "file_id": 7}}]
    ),
    "a document without a source": _body([_result(0, [{"type": "document"}])]),
    "a block whose tag is a canonical part type (reading refuses it)": _body(
        [_result(0, "r"), {"type": "audio", "data": "x"}]
    ),
    "a block whose tag the reading schema names elsewhere (thinking in a user turn)": _body(
        [_result(0, [_TEXT]), {"type": "thinking", "thinking": "t", "signature": "s"}]
    ),
    "a search result in a result (a tag the reading schema names)": _body(
        [_result(0, [{"type": "search_result", "source": "s", "title": "t"}])]
    ),
    "a block with an empty tag": _body([_result(0, "r"), {"type": "", "file_id": "f"}]),
    "a block whose tag is not a string": _body([_result(0, [{"type": 7, "tool_name": "t"}])]),
    "a lone surrogate in an unknown block": _body([_result(0, "r"), {**_UPLOAD, "x": "\udc00"}]),
    "a lone surrogate in an unknown block's tag": _body([_result(0, [{"type": "new\ud800"}])]),
    "an unknown block nested past the depth limit": _body(
        [_result(0, [{**_REFERENCE, "x": deep(252)}])]
    ),
}


@pytest.mark.parametrize("validate", [True, False])
@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_media_get_the_two_step_paths_coded_error(name: str, validate: bool) -> None:
    refused_alike(BAD[name], *_PAIR, validate=validate)


def test_every_mutant_of_a_body_with_media_in_results_converts_the_same_both_ways() -> None:
    """Each value swapped for values of every JSON type, each key deleted, a key added to each
    object, of a body holding every medium in and beside results: the same outcome whichever
    path converts it."""
    body = _body(
        [_result(0, [_TEXT, _IMAGE_URL, _IMAGE_FILE, _REFERENCE], is_error=True), _PDF],
        [_result(1, [_PLAIN, _DOCUMENT_URL]), _DOCUMENT_FILE, _UPLOAD, _TEXT],
    )
    body["messages"][4]["content"].insert(1, _result(1, [_IMAGE_DATA]))
    assert _convert(body).fused
    assert mutants_taken(body, *_PAIR) > 150


@pytest.mark.parametrize("seed", range(3))
def test_random_results_and_media_convert_the_same_both_ways(seed: int) -> None:
    """User turns of results holding random media and text, media beside them, in random
    numbers and orders, some turns following each other: the pass takes those of its shape,
    each with the two-step path's answer."""
    rng = random.Random(seed)
    pool = [*_MEDIA, _TEXT, _TEXT]
    taken = 0
    for _ in range(120):
        turns = []
        for n in range(rng.randint(1, 3)):
            content: Any = [copy.deepcopy(rng.choice(pool)) for _ in range(rng.randint(0, 3))]
            flag = {"is_error": rng.choice([True, False, None])} if rng.random() < 0.3 else {}
            turns.append(
                [
                    _result(n, content or "r", **flag),
                    *[copy.deepcopy(rng.choice(pool)) for _ in range(rng.randint(0, 2))],
                ]
            )
        body = _body(*turns, last=rng.choice([None, "ok", [_TEXT]]))
        if rng.random() < 0.4:  # a user turn right after another
            content = rng.choice([[_result(9, [_IMAGE_URL])], "hi", [_DOCUMENT_URL], [_TEXT]])
            body["messages"].insert(3, {"role": "user", "content": copy.deepcopy(content)})
        fused = _convert(body)
        same(fused, convert(copy.deepcopy(body), *_PAIR, fused=False))
        taken += fused.fused
    assert taken > 60


def test_a_pass_that_takes_media_is_generated_for_anthropic_only() -> None:
    """Bedrock's pass (untagged blocks) leaves a result's media to the two-step path: its
    module has no mover."""
    from interlingua.generated.pairs import anthropic_to_openai_chat, bedrock_to_openai_chat

    assert hasattr(anthropic_to_openai_chat, "_moved")
    assert not hasattr(bedrock_to_openai_chat, "_moved")
    assert type(PAIRS[_PAIR](_body([_result(0, [_IMAGE_URL])]))) is tuple

"""Media by reference: a file id goes only to the provider that issued it; an id the source
lists for the target's provider replaces its bytes or URL; everything else is reported."""

from __future__ import annotations

from typing import Any

import pytest

from interlingua.conversion.adapters.media_refs import file_id_for
from interlingua.conversion.converter import convert

PDF = "JVBERi0xLjQK"


def _doc(*parts: dict[str, Any]) -> dict[str, Any]:
    return {
        "schema_version": 1,
        "model": "m",
        "messages": [{"role": "user", "content": list(parts)}],
    }


def _losses(result: Any) -> set[tuple[str, str]]:
    return {
        (loss.pointer, loss.code) for loss in result.losses if loss.pointer.startswith("/messages")
    }


@pytest.mark.parametrize(
    ("source", "provider", "expected"),
    [
        (
            {"type": "url", "url": "https://x/a.png", "file_ids": {"openai": "file-1"}},
            "openai",
            "file-1",
        ),
        (
            {"type": "url", "url": "https://x/a.png", "file_ids": {"openai": "file-1"}},
            "google",
            None,
        ),
        ({"type": "file", "file_id": "file_9", "provider": "anthropic"}, "anthropic", "file_9"),
        ({"type": "file", "file_id": "file_9", "provider": "anthropic"}, "openai", None),
        ({"type": "file", "file_id": "file_9"}, "openai", "file_9"),  # issuer unknown
        (
            {
                "type": "file",
                "file_id": "file_9",
                "provider": "anthropic",
                "file_ids": {"openai": "f"},
            },
            "openai",
            "f",
        ),
        (  # the issuer's own id wins over a stale entry for it in the map
            {
                "type": "file",
                "file_id": "f9",
                "provider": "anthropic",
                "file_ids": {"anthropic": "old"},
            },
            "anthropic",
            "f9",
        ),
        (  # a map entry wins over an id of unknown issuer
            {"type": "file", "file_id": "x", "file_ids": {"openai": "file-1"}},
            "openai",
            "file-1",
        ),
    ],
)
def test_the_id_a_source_has_at_a_provider(
    source: dict[str, Any], provider: str, expected: str | None
) -> None:
    assert file_id_for(source, provider) == expected


def test_reading_a_file_id_binds_it_to_its_provider() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10,
        "messages": [
            {
                "role": "user",
                "content": [{"type": "image", "source": {"type": "file", "file_id": "file_1"}}],
            }
        ],
    }
    part = convert(body, "anthropic", "canonical").output["messages"][0]["content"][0]
    assert part["source"] == {"type": "file", "file_id": "file_1", "provider": "anthropic"}


def test_an_id_at_the_target_provider_replaces_the_bytes() -> None:
    part = {
        "type": "document",
        "title": "a.pdf",
        "source": {
            "type": "base64",
            "media_type": "application/pdf",
            "data": PDF,
            "file_ids": {"anthropic": "file_7"},
        },
    }
    result = convert(_doc(part), "canonical", "anthropic")
    block = result.output["messages"][0]["content"][0]
    assert block == {
        "type": "document",
        "source": {"type": "file", "file_id": "file_7"},
        "title": "a.pdf",
    }
    # what the wire has no room for is reported; the bytes, sent by reference, are not
    assert _losses(result) == {
        ("/messages/0/content/0/source/file_ids", "field_dropped"),
        ("/messages/0/content/0/source/media_type", "field_dropped"),
    }


def test_without_a_file_reference_for_the_part_its_bytes_go() -> None:
    """OpenAI Chat has no image by file id: the image goes as its data URL."""
    part = {
        "type": "image",
        "source": {
            "type": "base64",
            "media_type": "image/png",
            "data": "iVBO",
            "file_ids": {"openai": "file-1"},
        },
    }
    result = convert(_doc(part), "canonical", "openai-chat")
    block = result.output["messages"][0]["content"][0]
    assert block == {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBO"}}
    assert _losses(result) == {("/messages/0/content/0/source/file_ids", "field_dropped")}


def test_another_providers_file_is_left_out_and_reported() -> None:
    part = {
        "type": "document",
        "source": {"type": "file", "file_id": "file-1", "provider": "openai"},
    }
    result = convert(_doc({"type": "text", "text": "read"}, part), "canonical", "anthropic")
    assert result.output["messages"][0]["content"] == "read"
    assert _losses(result) == {("/messages/0/content/1/source/file_id", "file_not_portable")}


def test_a_file_of_unknown_issuer_goes_as_it_is() -> None:
    part = {"type": "document", "source": {"type": "file", "file_id": "file-1"}}
    result = convert(_doc(part), "canonical", "openai-responses")
    assert result.output["input"][0]["content"] == [{"type": "input_file", "file_id": "file-1"}]
    assert _losses(result) == set()


def test_a_format_of_no_provider_takes_the_source_as_it_is() -> None:
    """OpenTelemetry is no provider's API: the file source is written as it stands, the fields
    its part has no room for reported."""
    part = {
        "type": "image",
        "source": {"type": "file", "file_id": "f1", "provider": "openai", "sha256": "0" * 64},
    }
    result = convert(_doc(part), "canonical", "otel")
    assert _losses(result) == {
        ("/messages/0/content/0/source/provider", "field_dropped"),
        ("/messages/0/content/0/source/sha256", "field_dropped"),
    }


def test_a_gemini_files_api_uri_goes_as_file_data() -> None:
    part = {
        "type": "video",
        "source": {
            "type": "url",
            "url": "https://x/v.mp4",
            "media_type": "video/mp4",
            "file_ids": {"google": "https://generativelanguage.googleapis.com/v1beta/files/v1"},
        },
    }
    result = convert(_doc(part), "canonical", "gemini")
    assert result.output["contents"][0]["parts"][0] == {
        "fileData": {
            "mimeType": "video/mp4",
            "fileUri": "https://generativelanguage.googleapis.com/v1beta/files/v1",
        }
    }


def _otel_file(**fields: Any) -> dict[str, Any]:
    part = {"type": "file", "file_id": "provider_fileid_123", **fields}
    text = {"type": "text", "content": "What is this?"}
    return {"gen_ai.input.messages": [{"role": "user", "parts": [text, part]}]}


def test_an_otel_file_without_its_modality_is_kept_not_refused() -> None:
    """OpenTelemetry's own example names a file by id with no `modality`: the kind of media is
    unknown, so the part is kept verbatim (an unknown part), given back by the round trip and
    reported where it cannot go; it used to refuse the body (`missing_field`)."""
    body = _otel_file()
    assert convert(body, "otel", "otel").output == body
    document = convert(body, "otel", "canonical").output
    assert document["messages"][0]["content"][1]["type"] == "otel.file"
    crossed = convert(body, "otel", "openai-chat")
    assert [(loss.pointer, loss.code) for loss in crossed.losses][-1] == (
        "/messages/0/content/1",
        "part_dropped",
    )


def test_an_otel_file_with_its_modality_is_that_media() -> None:
    document = convert(_otel_file(modality="image"), "otel", "canonical").output
    assert document["messages"][0]["content"][1] == {
        "type": "image",
        "source": {"type": "file", "file_id": "provider_fileid_123"},
    }

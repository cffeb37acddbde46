"""The seed 000 review findings that belong to the schema layer, each pinned by a test.

Each test is named after its finding (`test_review_NN_<what>`) and fails if the defect returns.
"""

import typing

import pydantic
import pytest

import interlingua
from interlingua.generated import models


def _codes(document: object, type_name: str | None = None) -> list[tuple[str, str]]:
    return [(f.code, f.path) for f in interlingua.validate(document, type_name)]


def test_review_04_extensions_are_typed() -> None:
    hints = typing.get_type_hints(models.Message)
    assert hints["extensions"] == models.Extensions | None
    # Typed all the way down: a wrongly shaped extension is refused by the model...
    bad = {
        "role": "user",
        "content": [{"type": "text", "text": "x"}],
        "extensions": {"security": {"labels": "PII"}},
    }
    with pytest.raises(pydantic.ValidationError):
        models.Message.model_validate(bad)
    # ...and by the validator, with a pointer to the field.
    assert ("wrong_type", "/extensions/security/labels") in _codes(bad)
    loaded = models.Message.model_validate(
        {
            "role": "user",
            "content": [{"type": "text", "text": "x"}],
            "extensions": {"security": {"labels": ["PII"]}},
        }
    )
    assert loaded.extensions is not None and loaded.extensions.security is not None
    assert loaded.extensions.security.labels == ["PII"]


def test_review_05_discriminators_are_literals() -> None:
    with pytest.raises(pydantic.ValidationError):
        models.TextPart(type="tool_call", text="hello")  # type: ignore[arg-type]
    assert typing.get_type_hints(models.TextPart)["type"] == typing.Literal["text"]
    # Every part's tag is a single-value Literal.
    for member in typing.get_args(typing.get_args(models.Part.__value__)[0]):
        part = typing.get_args(member)[0]
        if part is not models.UnknownPart:
            assert typing.get_origin(typing.get_type_hints(part)["type"]) is typing.Literal


def test_review_06_prompt_result_messages_are_messages() -> None:
    assert typing.get_type_hints(models.PromptResultPart)["messages"] == list[models.Message]
    part = models.PromptResultPart.model_validate(
        {
            "type": "prompt_result",
            "prompt_request_id": "pr1",
            "name": "summarise",
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "Summarise this."}]}
            ],
        }
    )
    assert isinstance(part.messages[0], models.Message)
    with pytest.raises(pydantic.ValidationError):
        models.PromptResultPart.model_validate(
            {
                "type": "prompt_result",
                "prompt_request_id": "pr1",
                "name": "s",
                "messages": [{"text": "not a message"}],
            }
        )


def test_review_07_media_source_type_is_a_literal() -> None:
    for source in (models.UrlSource, models.Base64Source, models.FileSource):
        assert typing.get_origin(typing.get_type_hints(source)["type"]) is typing.Literal
    with pytest.raises(pydantic.ValidationError):
        models.UrlSource(type="ftp", url="ftp://example.com/a.png")  # type: ignore[arg-type]
    image = {
        "role": "user",
        "content": [{"type": "image", "source": {"type": "ftp", "url": "ftp://x/a.png"}}],
    }
    assert _codes(image) == [("unknown_variant", "/content/0/source/type")]


def test_review_08_malformed_known_part_is_an_error_not_text() -> None:
    message = {"role": "assistant", "content": [{"type": "tool_call", "name": "execute_sql"}]}
    assert sorted(_codes(message)) == [
        ("missing_field", "/content/0/arguments"),
        ("missing_field", "/content/0/id"),
    ]
    with pytest.raises(pydantic.ValidationError):
        models.Message.model_validate(message)
    # A tool_call is never coerced into text, nor into the opaque fallback.
    with pytest.raises(interlingua.DocumentError):
        interlingua.load(message)


def test_review_08_unknown_part_is_kept_not_coerced() -> None:
    part = {"type": "citation", "url": "https://example.com", "quote": "…"}
    message = {"role": "assistant", "content": [part]}
    findings = interlingua.validate(message)
    assert [(f.code, f.path, f.severity) for f in findings] == [
        ("unknown_part_type", "/content/0/type", "warning")
    ]
    loaded = interlingua.load(message)
    assert isinstance(loaded, models.Message)
    assert isinstance(loaded.content[0], models.UnknownPart)
    assert interlingua.dump(loaded) == message


def _resource(**fields: object) -> dict[str, object]:
    return {
        "role": "tool",
        "content": [
            {"type": "resource", "uri": "file:///a.txt", "resource_type": "file", **fields}
        ],
    }


def test_review_09_resource_content_xor_blob() -> None:
    both = _resource(content="text", blob="aGVsbG8=")
    assert _codes(both) == [("resource_content_xor_blob", "/content/0")]
    assert _codes(_resource()) == [("resource_content_xor_blob", "/content/0")]
    assert _codes(_resource(content="text")) == []
    assert _codes(_resource(blob="aGVsbG8=")) == []


def _ref(**fields: object) -> dict[str, object]:
    return {
        "role": "user",
        "content": [
            {"type": "resource_ref", "uri": "file:///a.py", "resource_type": "file", **fields}
        ],
    }


def test_review_10_resource_reference_range_is_ordered() -> None:
    assert _codes(_ref(range_start=100, range_end=5)) == [
        ("range_reversed", "/content/0/range_end")
    ]
    assert _codes(_ref(range_start=5, range_end=5)) == []
    assert _codes(_ref(range_start=5)) == []
    assert _codes(_ref(range_start=-1)) == [("below_minimum", "/content/0/range_start")]


def test_unknown_part_keeps_explicit_nulls_and_aliased_fields_dump_by_schema_name() -> None:
    message = {
        "role": "user",
        "content": [{"type": "poll", "closes_at": None, "options": [None, "a"]}],
    }
    assert interlingua.dump(interlingua.load(message)) == message
    response_format = {"type": "json_schema", "name": "answer", "schema": {"type": "object"}}
    model = models.ResponseFormatJsonSchema.model_validate(response_format)
    assert model.model_dump(mode="json", exclude_none=True) == response_format


def test_provider_raw_takes_no_part_in_equality() -> None:
    plain = {"role": "assistant", "content": [{"type": "text", "text": "hi"}]}
    raw = {**plain, "provider_raw": {"anthropic": {"stop_reason": "end_turn"}}}
    assert models.Message.model_validate(plain) == models.Message.model_validate(raw)
    other = {**plain, "content": [{"type": "text", "text": "bye"}]}
    assert models.Message.model_validate(other) != models.Message.model_validate(raw)
    assert models.Message.model_validate(plain) != models.TextPart(type="text", text="hi")
    # Nested messages compare the same way, and other types keep pydantic's equality.
    assert models.TextPart(type="text", text="a") == models.TextPart(type="text", text="a")


# --- findings that belong to the view and pipeline layer --------------------------------

CMF_EXAMPLE = {
    "role": "assistant",
    "content": [
        {"type": "thinking", "text": "The user wants admin users. I'll query the database..."},
        {"type": "text", "text": "Let me look that up for you."},
        {
            "type": "tool_call",
            "id": "c1",
            "name": "execute_sql",
            "namespace": "db-server",
            "arguments": {"query": "SELECT * FROM users WHERE role='admin'"},
        },
        {
            "type": "tool_call",
            "id": "c2",
            "name": "send_email",
            "namespace": "email-server",
            "arguments": {"to": "boss@company.com", "body": "..."},
        },
    ],
}


def _view(
    part: dict[str, object], role: str = "assistant", **extensions: object
) -> interlingua.MessageView:
    message = {"role": role, "content": [part], "extensions": extensions}
    return next(interlingua.views(message, ["read_headers", "read_roles"]))


def test_review_01_glob_escaping() -> None:
    view = _view(
        {
            "type": "tool_call",
            "id": "c",
            "name": "tool",
            "namespace": "my.namespace",
            "arguments": {},
        }
    )
    assert view.uri == "tool://my.namespace/tool"
    assert view.matches_uri_pattern("tool://my.namespace/tool")
    assert view.matches_uri_pattern("tool://my.namespace/*")
    assert view.matches_uri_pattern("tool://**")
    lookalike = _view(
        {
            "type": "tool_call",
            "id": "c",
            "name": "tool",
            "namespace": "myXnamespace",
            "arguments": {},
        }
    )
    assert not lookalike.matches_uri_pattern("tool://my.namespace/tool")
    assert not view.matches_uri_pattern("tool://*")  # * stays within one segment
    for meta in ("(", "+", "[", "?", "$", "^", "|", "\\\\"):
        assert not view.matches_uri_pattern("tool://my" + meta + "namespace/tool")


def test_review_02_no_part_is_skipped() -> None:
    message = {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "a"},
            {"type": "poll", "q": "?"},
            {"type": "tool_call", "id": "c", "name": "t", "arguments": {}},
        ],
    }
    found = list(interlingua.views(message))
    assert [v.kind for v in found] == ["text", "unknown", "tool_call"]
    assert found[1].content == '{"type": "poll", "q": "?"}'  # scannable, so policies can deny it


def test_review_03_coverage_floor_is_enforced() -> None:
    from generator.paths import ROOT

    assert "--cov-fail-under=96" in (ROOT / "Makefile").read_text()


def test_review_11_tool_role_text_is_post() -> None:
    tool_text = _view({"type": "text", "text": "result"}, role="tool")
    assert (tool_text.is_pre, tool_text.is_post, tool_text.action) == (False, True, "receive")
    user_text = _view({"type": "text", "text": "question"}, role="user")
    assert (user_text.is_pre, user_text.is_post) == (True, False)


def test_review_12_action_table_is_a_module_constant(monkeypatch: pytest.MonkeyPatch) -> None:
    from types import MappingProxyType

    from interlingua.generated.view_tables import ACTIONS

    assert isinstance(ACTIONS, MappingProxyType)
    lookups: list[tuple[str, str]] = []

    class Counting(dict[tuple[str, str], str]):
        def __getitem__(self, key: tuple[str, str]) -> str:
            lookups.append(key)
            return super().__getitem__(key)

    monkeypatch.setattr("interlingua.documents.view.ACTIONS", Counting(ACTIONS))
    view = _view({"type": "tool_call", "id": "c", "name": "t", "arguments": {}})
    assert view.action == "execute"
    assert lookups == [
        ("tool_call", "assistant")
    ]  # one lookup in the shared table, nothing rebuilt


def test_review_13_content_is_computed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    calls: list[object] = []
    real_dumps = json.dumps

    def counting_dumps(value: object, **kwargs: typing.Any) -> str:
        calls.append(value)
        text: str = real_dumps(value, **kwargs)
        return text

    monkeypatch.setattr(json, "dumps", counting_dumps)
    view = _view({"type": "tool_call", "id": "c", "name": "t", "arguments": {"q": 1}})
    assert view.content == '{"q": 1}'
    assert view.size_bytes == 8
    view.to_dict()
    view.to_opa_input()
    assert len(calls) == 1


def test_review_14_headers_read_only() -> None:
    headers = {"Authorization": "Bearer secret", "X-Trace": "t1"}
    message = models.Message.model_validate(
        {
            "role": "user",
            "content": [{"type": "text", "text": "hi"}],
            "extensions": {"http": {"headers": headers}},
        }
    )
    view = next(message.iter_views(["read_headers"]))
    assert view.headers is not None
    with pytest.raises(TypeError):
        view.headers["Authorization"] = "Bearer forged"  # type: ignore[index]
    with pytest.raises(AttributeError):
        view.headers = {}  # type: ignore[misc]
    assert message.extensions is not None and message.extensions.http is not None
    assert message.extensions.http.headers == headers  # the message is untouched
    assert "Authorization" not in view.to_dict()["extensions"]["http"]["headers"]
    assert view.get_header("x-trace") == "t1"

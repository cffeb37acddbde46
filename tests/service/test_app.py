"""Each operation in-process, against the same function the Python API and the CLI call: the
same answers, the same codes, and every refusal a problem document of a documented status."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import interlingua
from interlingua.service.limits import Limits
from tests.bodies import SIGNED_GEMINI
from tests.service.conftest import CheckedClient, body

ROOT = Path(__file__).resolve().parents[2]
JSON = {"content-type": "application/json"}
CHAT = {
    "model": "gpt-4o",
    "messages": [
        {"role": "developer", "content": "be brief"},
        {"role": "user", "content": "hi"},
    ],
    "max_completion_tokens": 50,
}


def _case(fmt: str, group: str, name: str) -> dict[str, Any]:
    cases = json.loads((ROOT / "conformance" / "cases" / fmt / f"{group}.json").read_text())
    found: dict[str, Any] = next(c for c in cases["cases"] if c["id"].endswith(name))
    return found


def _example(kind: str, name: str) -> Any:
    return json.loads((ROOT / "schemas" / "examples" / kind / f"{name}.json").read_text())


TOOLS = _case("openai-chat", "roundtrip", "parallel_tool_calls")["wire"]


# --- convert ----------------------------------------------------------------------------------


def test_convert_answers_what_convert_returns(client: CheckedClient) -> None:
    answer = client.post("/v1/convert?from=openai-chat&to=anthropic", json=CHAT)
    expected = interlingua.convert(CHAT, "openai-chat", "anthropic")
    assert answer.status_code == 200
    assert answer.json() == {"output": expected.output, "report": expected.report()}


def test_convert_detects_the_format_and_kind(client: CheckedClient) -> None:
    answer = client.post("/v1/convert?from=auto&to=gemini", json=CHAT)
    assert answer.status_code == 200
    assert answer.json()["report"]["source"] == "openai-chat"


@pytest.mark.parametrize("query", ["from=auto&to=gemini", "from=openai-chat&to=gemini"])
def test_convert_asks_detection_for_its_verdict_only(
    client: CheckedClient, monkeypatch: pytest.MonkeyPatch, query: str
) -> None:
    """Regression: detection explained its verdict by walking the body through every other
    schema of its kind, 25 times the cost of the conversion, for a reason nobody was shown."""
    from interlingua.conversion import detector

    walks: list[tuple[str, str]] = []
    real = detector._evidence

    def counted(fmt: str, kind: str, payload: Any) -> Any:
        walks.append((fmt, kind))
        return real(fmt, kind, payload)

    monkeypatch.setattr(detector, "_evidence", counted)
    answer = client.post(f"/v1/convert?{query}", json=CHAT)
    assert answer.status_code == 200
    assert answer.json()["report"]["source"] == "openai-chat"
    assert walks == []


def test_a_body_read_by_the_service_is_not_checked_as_data_again(
    client: CheckedClient, data_checks: list[Any]
) -> None:
    """The service read the body with `read_json`, which refused all that `convert`'s data
    check refuses: the body is not walked again (detection, conversion), and the answer is
    the same."""
    checked = data_checks
    answer = client.post("/v1/convert?from=gemini&to=anthropic", json=SIGNED_GEMINI)
    assert (answer.status_code, checked) == (200, [])
    expected = interlingua.convert(SIGNED_GEMINI, "gemini", "anthropic")
    assert answer.json() == {"output": expected.output, "report": expected.report()}
    assert checked == [SIGNED_GEMINI]


def test_convert_keeps_the_id_map(client: CheckedClient) -> None:
    answer = client.post("/v1/convert?from=openai-chat&to=gemini&kind=request", json=TOOLS)
    expected = interlingua.convert(TOOLS, "openai-chat", "gemini")
    assert answer.json()["report"] == expected.report()


def test_a_body_detection_cannot_place_is_422_unknown_format(client: CheckedClient) -> None:
    answer = client.post("/v1/convert?from=auto&to=gemini", json={"hello": "world"})
    assert answer.status_code == 422
    assert answer.json()["code"] == "unknown_format"


def test_an_invalid_body_is_422_with_the_converters_code_and_pointer(client: CheckedClient) -> None:
    bad = {"model": "m", "messages": [{"role": "user", "content": 5}]}
    answer = client.post("/v1/convert?from=openai-chat&to=anthropic&kind=request", json=bad)
    with pytest.raises(interlingua.ConversionError) as raised:
        interlingua.convert(bad, "openai-chat", "anthropic")
    problem = answer.json()
    assert answer.status_code == 422
    assert (problem["code"], problem["pointer"]) == (raised.value.code, raised.value.pointer)


def test_strict_refuses_a_lossy_conversion_with_every_loss(client: CheckedClient) -> None:
    answer = client.post("/v1/convert?from=openai-chat&to=anthropic&strict=true", json=CHAT)
    problem = answer.json()
    assert answer.status_code == 422
    assert problem["code"] == "lossy_conversion"
    assert problem["losses"] == [
        loss.as_json() for loss in interlingua.convert(CHAT, "openai-chat", "anthropic").losses
    ]


def test_text_formats_travel_as_text(client: CheckedClient) -> None:
    chatml = client.post("/v1/convert?from=openai-chat&to=chatml", json=CHAT).json()["output"]
    assert isinstance(chatml, str)
    back = client.post(
        "/v1/convert?from=chatml&to=canonical",
        content=chatml.encode(),
        headers={"content-type": "text/plain"},
    )
    assert back.status_code == 200
    assert back.json()["output"]["messages"][-1]["content"] == [{"type": "text", "text": "hi"}]


def test_text_plain_json_is_read_as_json(client: CheckedClient) -> None:
    answer = client.post(
        "/v1/convert?from=openai-chat&to=anthropic",
        content=body(CHAT),
        headers={"content-type": "text/plain; charset=utf-8"},
    )
    assert answer.status_code == 200


@pytest.mark.parametrize(
    ("query", "code", "parameter"),
    [
        ("from=openai&to=gemini", "not_in_enum", "from"),
        ("from=openai-chat", "missing_field", "to"),
        ("from=openai-chat&to=gemini&strict=yes", "wrong_type", "strict"),
        ("from=openai-chat&to=gemini&thinking=keep", "not_in_enum", "thinking"),
        ("from=openai-chat&to=gemini&kind=reply", "not_in_enum", "kind"),
        (
            "from=openai-chat&to=gemini&target_endpoint=Vertex%20AI",
            "pattern_mismatch",
            "target_endpoint",
        ),
    ],
)
def test_a_bad_query_is_400_naming_the_parameter(
    client: CheckedClient, query: str, code: str, parameter: str
) -> None:
    answer = client.post(f"/v1/convert?{query}", json=CHAT)
    problem = answer.json()
    assert answer.status_code == 400
    assert (problem["code"], problem["parameter"]) == (code, parameter)


def test_the_endpoints_bind_and_place_reasoning(client: CheckedClient) -> None:
    """Reasoning read from Vertex is not replayed to the Gemini API: the endpoints travel as
    query parameters, as `convert`'s keywords."""
    answer = client.post(
        "/v1/convert?from=gemini&to=gemini&source_endpoint=vertex&target_endpoint=gemini-api",
        json=SIGNED_GEMINI,
    ).json()
    assert [x["code"] for x in answer["report"]["losses"]] == ["thinking_not_replayable"]
    same = "/v1/convert?from=gemini&to=gemini&source_endpoint=vertex&target_endpoint=vertex"
    assert client.post(same, json=SIGNED_GEMINI).json()["output"] == SIGNED_GEMINI


def test_an_unknown_name_gets_the_closest_known_one(client: CheckedClient) -> None:
    detail = client.post("/v1/convert?from=openai&to=gemini", json=CHAT).json()["detail"]
    assert "did you mean openai-chat?" in detail


@pytest.mark.parametrize(
    ("data", "code", "pointer"),
    [
        (b'{"model": "m", "messages": [', "invalid_json", ""),
        (b'{"a": 1, "a": 2}', "duplicate_key", "/a"),
        (b'{"a": NaN}', "non_finite_number", "/a"),
        (b"\xff", "invalid_unicode", ""),
    ],
)
def test_an_unreadable_body_is_400_with_the_readers_code(
    client: CheckedClient, data: bytes, code: str, pointer: str
) -> None:
    answer = client.post("/v1/convert?from=openai-chat&to=gemini", content=data, headers=JSON)
    problem = answer.json()
    assert answer.status_code == 400
    assert (problem["code"], problem["pointer"]) == (code, pointer)
    assert problem["type"].endswith("#" + code)


# --- limits, media types, routing, token ------------------------------------------------------


def test_a_body_past_the_limit_is_413(make_client: Any) -> None:
    small = make_client(limits=Limits(max_bytes=64))
    answer = small.post("/v1/detect", content=body(CHAT), headers=JSON)
    assert answer.status_code == 413
    assert answer.json()["code"] == "input_too_large"


def test_a_body_without_a_length_is_counted_as_it_arrives(make_client: Any) -> None:
    small = make_client(limits=Limits(max_bytes=64))
    pieces = iter([b'{"model": "m", ', b'"messages": []', b" " * 100, b"}"])
    answer = small.post("/v1/detect", content=pieces, headers=JSON)
    assert answer.status_code == 413


def test_the_default_limit_is_the_clis() -> None:
    assert Limits().max_bytes == 32 * 1024 * 1024


def test_a_declared_length_past_the_limit_is_refused_unread(make_client: Any) -> None:
    small = make_client(limits=Limits(max_bytes=64))
    headers = {**JSON, "content-length": str(10**9)}
    answer = small.post("/v1/detect", content=b"{}", headers=headers)
    assert answer.status_code == 413


@pytest.mark.parametrize("headers", [{"content-type": "application/xml"}, {}])
def test_a_media_type_the_operation_does_not_read_is_415(
    client: CheckedClient, headers: dict[str, str]
) -> None:
    answer = client.post("/v1/validate", content=body(CHAT), headers=headers)
    assert answer.status_code == 415
    assert answer.json()["code"] == "unsupported_media_type"


def test_an_unknown_path_is_404_unknown_operation(client: CheckedClient) -> None:
    answer = client.post("/v1/translate", json=CHAT)
    assert (answer.status_code, answer.json()["code"]) == (404, "unknown_operation")


def test_a_wrong_method_is_405_with_allow(client: CheckedClient) -> None:
    answer = client.get("/v1/convert")
    assert (answer.status_code, answer.json()["code"]) == (405, "method_not_allowed")
    assert answer.headers["allow"] == "POST"


def test_a_slow_request_is_408(make_client: Any) -> None:
    hurried = make_client(limits=Limits(timeout=0))
    answer = hurried.post("/v1/detect", json=CHAT)
    assert (answer.status_code, answer.json()["code"]) == (408, "request_timeout")


def test_with_a_token_every_operation_but_health_needs_it(make_client: Any) -> None:
    guarded = make_client(token="s3cret")
    refused = guarded.post("/v1/detect", json=CHAT)
    assert (refused.status_code, refused.json()["code"]) == (401, "unauthorized")
    assert refused.headers["www-authenticate"].startswith("Bearer")
    wrong = guarded.post("/v1/detect", json=CHAT, headers={"authorization": "Basic s3cret"})
    assert wrong.status_code == 401
    allowed = guarded.post("/v1/detect", json=CHAT, headers={"authorization": "Bearer s3cret"})
    assert allowed.status_code == 200
    assert guarded.get("/healthz").status_code == 200
    assert guarded.get("/openapi.json").status_code == 401


# --- validate, detect, views, pairs -----------------------------------------------------------


def test_validate_answers_every_finding(client: CheckedClient) -> None:
    document = {"role": "user", "content": []}
    answer = client.post("/v1/validate", json=document).json()
    findings = interlingua.validate(document)
    assert answer == {
        "valid": False,
        "findings": [f.model_dump(mode="json", exclude_none=True) for f in findings],
    }


def test_validate_a_clean_document_and_a_named_type(client: CheckedClient) -> None:
    message = {"role": "user", "content": [{"type": "text", "text": "hi"}]}
    assert client.post("/v1/validate", json=message).json() == {"valid": True, "findings": []}
    usage = client.post("/v1/validate?type=Usage", json={"input_tokens": -1}).json()
    assert usage["valid"] is False


def test_validate_reads_a_format_body_first(client: CheckedClient) -> None:
    assert client.post("/v1/validate?from=openai-chat", json=CHAT).json()["valid"] is True
    assert client.post("/v1/validate?from=auto", json=TOOLS).json()["valid"] is True
    unplaced = client.post("/v1/validate?from=auto", json=[1])
    assert unplaced.status_code == 422
    unread = client.post("/v1/validate?from=openai-chat", json={"model": "m", "messages": 1})
    assert unread.status_code == 422


def test_detect_answers_what_detect_returns(client: CheckedClient) -> None:
    answer = client.post("/v1/detect", json=CHAT)
    assert answer.json() == interlingua.detect(CHAT).as_json()
    only = client.post("/v1/detect?kind=response", json=CHAT).json()
    assert only["status"] == "unknown"


def test_detect_reads_text(client: CheckedClient) -> None:
    text = "<|im_start|>user\nhi<|im_end|>\n"
    answer = client.post(
        "/v1/detect", content=text.encode(), headers={"content-type": "text/plain"}
    )
    assert answer.json() == interlingua.detect(text).as_json()


def test_views_are_the_message_views(client: CheckedClient) -> None:
    conversation = _example("Conversation", "parallel_tool_calls")
    answer = client.post("/v1/views?capabilities=read_roles,read_headers", json=conversation)
    expected = [
        {"message": n, "view": v.to_dict()}
        for n, message in enumerate(conversation["messages"])
        for v in interlingua.views(message, ["read_roles", "read_headers"])
    ]
    assert answer.json() == {"views": expected}


def test_views_as_opa_inputs_of_any_format(client: CheckedClient) -> None:
    answer = client.post(
        "/v1/views?from=openai-chat&opa=true&capabilities=read_roles&capabilities=read_labels",
        json=TOOLS,
    )
    views = answer.json()["views"]
    assert views and all(set(v) == {"message", "input"} for v in views)
    assert {v["input"]["kind"] for v in views} >= {"tool_call", "tool_result"}


def test_views_of_a_list_of_messages(client: CheckedClient) -> None:
    message = {"role": "user", "content": [{"type": "text", "text": "hi"}]}
    assert len(client.post("/v1/views", json=[message, message]).json()["views"]) == 2


def test_views_of_an_invalid_document_are_refused_with_every_error(client: CheckedClient) -> None:
    answer = client.post("/v1/views", json={"role": "user", "content": [{"type": "text"}]})
    problem = answer.json()
    assert answer.status_code == 422
    assert problem["errors"] and problem["code"] == problem["errors"][0]["code"]


def test_an_unknown_capability_is_400(client: CheckedClient) -> None:
    answer = client.post("/v1/views?capabilities=read_everything", json=CHAT)
    assert (answer.status_code, answer.json()["parameter"]) == (400, "capabilities")


def test_pairs_answers_each_exchange(client: CheckedClient) -> None:
    answer = client.post("/v1/pairs", json=TOOLS).json()
    assert answer["paired"] is True
    assert [x["status"] for x in answer["exchanges"]] == ["answered", "answered"]
    named = client.post("/v1/pairs?from=openai-chat&kind=request", json=TOOLS).json()
    assert named["exchanges"] == answer["exchanges"]


def test_pairs_reports_an_unanswered_call(client: CheckedClient) -> None:
    cut = {**TOOLS, "messages": TOOLS["messages"][:3]}
    answer = client.post("/v1/pairs?from=openai-chat", json=cut).json()
    assert answer["paired"] is False


def test_pairs_of_what_no_format_reads_is_422(client: CheckedClient) -> None:
    assert client.post("/v1/pairs", json={"hello": 1}).status_code == 422
    named = client.post("/v1/pairs?from=openai-chat&kind=request", json={"messages": 1})
    assert named.status_code == 422


# --- the gateway ------------------------------------------------------------------------------


def test_tool_ids_derive_the_canonical_id(client: CheckedClient) -> None:
    request = {"name": "github.create_issue", "input_schema": {"type": "object"}}
    answer = client.post("/v1/tool-ids", json={**request, "version": "1.4.0"})
    assert answer.json() == {"tool_id": "github:create_issue@1.4.0"}
    hashed = client.post("/v1/tool-ids", json={**request, "server": "gh"}).json()["tool_id"]
    assert hashed == interlingua.gateway.derive_tool_id(
        "github.create_issue", {"type": "object"}, None, "gh"
    )


@pytest.mark.parametrize(
    ("request_body", "code"),
    [
        ({"name": "x"}, "ARGS_INVALID"),
        ({"name": "", "input_schema": {}}, "TOOL_ID_INVALID"),
        ({"name": "x", "input_schema": {"type": "string", "pattern": "(?=a)"}}, "SCHEMA_INVALID"),
    ],
)
def test_tool_ids_refusals_carry_the_gateway_code(
    client: CheckedClient, request_body: Any, code: str
) -> None:
    answer = client.post("/v1/tool-ids", json=request_body)
    problem = answer.json()
    assert (answer.status_code, problem["code"], problem["retryable"]) == (422, code, False)


def test_cards_build_the_choice_card(client: CheckedClient) -> None:
    tool = _example("GatewayTool", "github_versioned_network")
    answer = client.post("/v1/cards?score=0.5", json=tool)
    assert answer.status_code == 200
    assert answer.json()["id"] == "github:create_issue@1.4.0"


def test_cards_refuse_what_is_not_a_gateway_tool(client: CheckedClient) -> None:
    answer = client.post("/v1/cards", json={"definition": {}})
    assert (answer.status_code, answer.json()["code"]) == (422, "ARGS_INVALID")


# --- schemas, the document, health ------------------------------------------------------------


def test_schemas_are_served_at_their_id_paths(client: CheckedClient) -> None:
    answer = client.get("/schemas/v1/message.json")
    assert answer.headers["content-type"] == "application/schema+json"
    assert answer.content == (ROOT / "docs" / "schemas" / "v1" / "message.json").read_bytes()
    assert json.loads(answer.content)["$id"] == "https://interlingua.dev/schemas/v1/message.json"


@pytest.mark.parametrize("path", ["/schemas/v1/nope.json", "/schemas/../pyproject.toml"])
def test_no_request_reads_a_file(client: CheckedClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_the_document_is_the_generated_one(client: CheckedClient) -> None:
    answer = client.get("/openapi.json")
    assert answer.content == (ROOT / "generated" / "openapi.json").read_bytes()


def test_health(client: CheckedClient) -> None:
    answer = client.get("/healthz").json()
    assert answer == {
        "status": "ok",
        "version": interlingua.__version__,
        "schema_version": interlingua.SCHEMA_VERSION,
    }


@pytest.mark.parametrize("score", ["high", "inf", "nan"])
def test_a_number_parameter_must_be_a_finite_number(client: CheckedClient, score: str) -> None:
    tool = _example("GatewayTool", "github_versioned_network")
    answer = client.post(f"/v1/cards?score={score}", json=tool)
    assert (answer.status_code, answer.json()["code"], answer.json()["parameter"]) == (
        400,
        "wrong_type",
        "score",
    )


def test_text_that_is_not_utf8_is_400(client: CheckedClient) -> None:
    answer = client.post("/v1/detect", content=b"\xff\xfe", headers={"content-type": "text/plain"})
    assert (answer.status_code, answer.json()["code"]) == (400, "invalid_unicode")


def test_views_of_a_body_detected_as_canonical(client: CheckedClient) -> None:
    conversation = _example("Conversation", "minimal")
    answer = client.post("/v1/views?from=auto", json=conversation)
    assert answer.status_code == 200
    assert answer.json() == client.post("/v1/views", json=conversation).json()


def test_views_of_a_response_are_its_messages(client: CheckedClient) -> None:
    response = _example("Response", "refusal")
    views = client.post("/v1/views", json=response).json()["views"]
    assert [v["view"] for v in views] == [
        v.to_dict() for v in interlingua.views(response["message"])
    ]


def test_views_of_one_message(client: CheckedClient) -> None:
    message = {"role": "user", "content": [{"type": "text", "text": "hi"}]}
    views = client.post("/v1/views", json=message).json()["views"]
    assert views == [{"message": 0, "view": v.to_dict()} for v in interlingua.views(message)]


@pytest.mark.parametrize("query", ["capabilities=", "capabilities=read_roles,", "capabilities=,"])
def test_an_empty_capability_is_400(client: CheckedClient, query: str) -> None:
    # Found by schemathesis: `capabilities=` was read as no capability at all.
    answer = client.post(f"/v1/views?{query}", json=[])
    assert (answer.status_code, answer.json()["code"]) == (400, "not_in_enum")


@pytest.mark.parametrize("text", ["-Infinity", "NaN", '{"a": 1, "a": 2}', "not json at all"])
def test_text_the_json_reader_refuses_is_read_as_text(client: CheckedClient, text: str) -> None:
    # Found by schemathesis: `-Infinity` as text/plain (a valid string body) was a 400.
    answer = client.post(
        "/v1/detect", content=text.encode(), headers={"content-type": "text/plain"}
    )
    assert answer.json() == interlingua.detect(text).as_json()

"""MessageView: one view per part, the schema's tables, gating, serialisation."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import interlingua
from generator.examples import iter_examples
from interlingua.documents.view import NotViewable, freeze, thaw, views

EXTENSIONS: dict[str, Any] = {
    "request": {"environment": "production", "request_id": "req-1"},
    "agent": {
        "input": "find admins",
        "session_id": "s1",
        "conversation_id": "c1",
        "turn": 3,
        "agent_id": "a1",
        "parent_agent_id": "a0",
    },
    "http": {
        "headers": {
            "authorization": "Bearer x",
            "COOKIE": "k=v",
            "X-Api-Key": "secret",
            "X-Trace": "t1",
        }
    },
    "security": {
        "labels": ["PII"],
        "subject": {
            "id": "u1",
            "type": "user",
            "roles": ["admin"],
            "permissions": ["db.read"],
            "teams": ["ops"],
            "claims": {"iss": "idp"},
        },
        "objects": {"execute_sql": {"managed_by": "host", "permissions": ["db.read"]}},
        "data": {"execute_sql": {"apply_labels": ["financial"], "denied_actions": ["export"]}},
    },
}
ALL = [
    "read_subject",
    "read_roles",
    "read_permissions",
    "read_teams",
    "read_claims",
    "read_headers",
    "read_labels",
    "read_agent",
    "read_objects",
    "read_data",
]
CALL = {
    "type": "tool_call",
    "id": "c1",
    "name": "execute_sql",
    "namespace": "db-server",
    "arguments": {"query": "SELECT 1", "limit": [1, 2]},
}


def view_of(
    part: dict[str, Any], role: str = "assistant", capabilities: list[str] = ALL
) -> interlingua.MessageView:
    return next(
        interlingua.views({"role": role, "content": [part], "extensions": EXTENSIONS}, capabilities)
    )


def test_every_example_message_has_one_view_per_part_and_valid_records() -> None:
    checked = 0
    for type_name, path in iter_examples():
        if type_name != "Message":
            continue
        message = interlingua.load(path.read_bytes())
        assert isinstance(message, interlingua.Message)
        found = list(message.iter_views(ALL))
        assert len(found) == len(message.content)
        for view in found:
            record = view.to_dict()
            assert [f.code for f in interlingua.validate(record, "View")] == [], record
            assert record == json.loads(json.dumps(record))  # plain JSON, nothing live
        checked += 1
    assert checked >= 15


def test_the_seed_table_for_the_cmf_example() -> None:
    path = next(p for _, p in iter_examples() if p.name == "cmf_four_part_assistant.json")
    message = json.loads(path.read_text())
    rows = [(v.kind, v.name, v.action, v.is_pre, v.uri) for v in interlingua.views(message)]
    assert rows == [
        ("thinking", None, "generate", False, None),
        ("text", None, "send", False, None),
        ("tool_call", "execute_sql", "execute", True, "tool://db-server/execute_sql"),
        ("tool_call", "send_email", "execute", True, "tool://email-server/send_email"),
    ]
    contents = [v.content for v in interlingua.views(message)]
    assert contents[2] == '{"query": "SELECT * FROM users WHERE role=\'admin\'"}'


@pytest.mark.parametrize(
    ("part", "role", "kind", "action", "is_pre", "uri"),
    [
        ({"type": "text", "text": "q"}, "user", "text", "send", True, None),
        ({"type": "refusal", "text": "no"}, "assistant", "text", "send", False, None),
        (
            {"type": "redacted_thinking", "data": "xyz"},
            "assistant",
            "thinking",
            "generate",
            False,
            None,
        ),
        (
            {"type": "tool_result", "tool_call_id": "c1", "name": "execute_sql", "content": []},
            "tool",
            "tool_result",
            "receive",
            False,
            "tool_result://execute_sql",
        ),
        (
            {"type": "tool_call", "id": "c", "name": "t", "arguments": {}},
            "assistant",
            "tool_call",
            "execute",
            True,
            "tool://t",
        ),
        (
            {
                "type": "prompt_request",
                "prompt_request_id": "p",
                "name": "review",
                "server_id": "srv",
                "arguments": {},
            },
            "user",
            "prompt_request",
            "invoke",
            True,
            "prompt://srv/review",
        ),
        (
            {"type": "prompt_result", "prompt_request_id": "p", "name": "review", "messages": []},
            "tool",
            "prompt_result",
            "receive",
            False,
            "prompt://review",
        ),
        (
            {
                "type": "resource",
                "uri": "file:///a.txt",
                "resource_type": "file",
                "content": "hello",
            },
            "tool",
            "resource",
            "read",
            False,
            "file:///a.txt",
        ),
        (
            {"type": "resource_ref", "uri": "db://t/1", "resource_type": "database"},
            "assistant",
            "resource_ref",
            "read",
            True,
            "db://t/1",
        ),
        (
            {"type": "image", "source": {"type": "url", "url": "https://x/a.png"}},
            "user",
            "image",
            "send",
            True,
            "https://x/a.png",
        ),
        (
            {"type": "audio", "source": {"type": "file", "file_id": "f"}},
            "assistant",
            "audio",
            "generate",
            False,
            None,
        ),
        (
            {"type": "video", "source": {"type": "file", "file_id": "f"}},
            "tool",
            "video",
            "receive",
            False,
            None,
        ),
        (
            {"type": "document", "source": {"type": "file", "file_id": "f"}, "title": "r.pdf"},
            "developer",
            "document",
            "send",
            True,
            None,
        ),
        ({"type": "citation"}, "tool", "unknown", "receive", False, None),
    ],
)
def test_kinds_actions_directions_and_uris(
    part: dict[str, Any], role: str, kind: str, action: str, is_pre: bool, uri: str | None
) -> None:
    view = view_of(part, role)
    assert (view.kind, view.action, view.is_pre, view.is_post, view.uri) == (
        kind,
        action,
        is_pre,
        not is_pre,
        uri,
    )
    flags = (view.is_tool, view.is_prompt, view.is_resource, view.is_text, view.is_media)
    assert sum(flags) == (0 if kind == "unknown" else 1)


def test_type_specific_properties_and_sizes() -> None:
    result = view_of(
        {
            "type": "tool_result",
            "tool_call_id": "c1",
            "name": "t",
            "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
            "structured_content": {"n": 1},
        },
        "tool",
    )
    assert dict(result.properties) == {"is_error": False, "tool_name": "t", "tool_call_id": "c1"}
    assert result.content == 'a\nb\n{"n": 1}'
    prompt = view_of(
        {
            "type": "prompt_result",
            "prompt_request_id": "p",
            "name": "r",
            "messages": [{"role": "user", "content": [{"type": "text", "text": "x"}]}],
            "is_error": True,
        },
        "tool",
    )
    assert prompt.get_property("message_count") == 1 and prompt.get_property("is_error") is True
    blob = view_of(
        {
            "type": "resource",
            "uri": "file:///b",
            "resource_type": "blob",
            "blob": "aGVsbG8=",
            "mime_type": "text/plain",
        },
        "tool",
    )
    assert (blob.size_bytes, blob.mime_type, blob.content) == (5, "text/plain", None)
    sized = view_of(
        {
            "type": "resource",
            "uri": "file:///b",
            "resource_type": "file",
            "content": "héllo",
            "size_bytes": 99,
        },
        "tool",
    )
    assert sized.size_bytes == 99
    image = view_of(
        {
            "type": "image",
            "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0K"},
        },
        "user",
    )
    assert (image.size_bytes, image.mime_type) == (6, "image/png")
    broken = view_of(
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "abc"}},
        "user",
    )
    assert broken.size_bytes is None
    assert view_of({"type": "text", "text": "héllo"}).size_bytes == 6
    assert view_of({"type": "redacted_thinking", "data": "x"}).size_bytes is None
    assert view_of({"type": "thinking", "text": "t", "signature": "s"}).properties == {
        "signed": True
    }
    call = view_of(CALL)
    assert call.get_property("namespace") == "db-server" and call.get_property("tool_id") == "c1"


def test_accessors_are_gated_by_capabilities() -> None:
    view = view_of(CALL)
    assert view.environment == "production" and view.request_id == "req-1"
    assert (
        view.agent_input,
        view.session_id,
        view.conversation_id,
        view.turn,
        view.agent_id,
        view.parent_agent_id,
    ) == ("find admins", "s1", "c1", 3, "a1", "a0")
    assert (
        view.roles == frozenset({"admin"})
        and view.permissions == frozenset({"db.read"})
        and view.teams == frozenset({"ops"})
    )
    assert (
        view.labels == frozenset({"PII"})
        and view.subject is not None
        and view.subject["id"] == "u1"
    )
    assert view.object is not None and view.object["managed_by"] == "host"
    assert view.data_policy is not None and view.data_policy["denied_actions"] == ("export",)
    assert view.has_role("admin") and view.has_permission("db.read") and view.has_label("PII")
    assert view.capabilities == frozenset(ALL)
    bare = view_of(CALL, capabilities=[])
    gated = (
        "roles",
        "permissions",
        "teams",
        "labels",
        "subject",
        "headers",
        "agent_input",
        "session_id",
        "turn",
        "objects",
        "data_policies",
        "object",
        "data_policy",
    )
    assert all(getattr(bare, name) is None for name in gated)
    assert bare.environment == "production"  # the request extension is readable by everyone
    assert (
        not bare.has_role("admin")
        and not bare.has_permission("db.read")
        and not bare.has_label("PII")
    )
    assert not bare.has_header("X-Trace") and bare.get_header("X-Trace") is None
    assert view_of({"type": "text", "text": "x"}).object is None  # no entity, no profile


def test_arguments_and_helpers() -> None:
    view = view_of(CALL)
    assert view.get_arg("query") == "SELECT 1" and view.get_arg("missing", 7) == 7
    assert view.has_arg("limit") and not view.has_arg("nope")
    assert view.args == {"query": "SELECT 1", "limit": (1, 2)}
    with pytest.raises(TypeError):
        view.args["query"] = "DROP"  # type: ignore[index]
    text = view_of({"type": "text", "text": ""})
    assert (
        text.args is None
        and text.get_arg("x") is None
        and not text.has_arg("x")
        and not text.has_content()
    )
    assert not text.matches_uri_pattern("**")
    assert view.has_content() and view.has_header("x-api-key")


def test_views_are_read_only() -> None:
    view = view_of(CALL)
    with pytest.raises(AttributeError):
        view.kind = "text"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        view._part = {}
    with pytest.raises(AttributeError):
        del view.kind
    assert (
        repr(view) == "MessageView(kind='tool_call', role='assistant', name='execute_sql', index=0)"
    )


def test_serialisation_strips_secrets_and_ungranted_context() -> None:
    record = view_of(CALL, capabilities=["read_headers", "read_roles"]).to_dict()
    assert record["extensions"]["http"]["headers"] == {"X-Trace": "t1"}
    assert record["extensions"]["security"] == {"subject": {"roles": ["admin"]}}
    assert "agent" not in record["extensions"]
    assert record["args"] == {"query": "SELECT 1", "limit": [1, 2]}
    slim = view_of(CALL).to_dict(include_content=False, include_context=False)
    assert "content" not in slim and "extensions" not in slim
    assert view_of(CALL).to_opa_input()["input"]["uri"] == "tool://db-server/execute_sql"


def test_freeze_and_thaw() -> None:
    frozen = freeze({"a": [1, {"b": [2]}]})
    assert frozen == {"a": (1, {"b": (2,)})}
    assert thaw(frozen) == {"a": [1, {"b": [2]}]}
    assert thaw(frozenset({"b", "a"})) == ["a", "b"]


def test_views_cli(tmp_path: Any) -> None:
    path = tmp_path / "c.json"
    path.write_text(
        json.dumps(
            {
                "schema_version": 1,
                "messages": [
                    {"role": "user", "content": [{"type": "text", "text": "hi\nthere"}]},
                    {"role": "assistant", "content": [CALL]},
                ],
            }
        )
    )
    table = subprocess.run(
        [sys.executable, "-m", "interlingua", "views", str(path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert table.splitlines()[0].split() == [
        "part",
        "role",
        "kind",
        "action",
        "dir",
        "name",
        "uri",
        "content",
    ]
    assert "tool://db-server/execute_sql" in table and "hi there" in table
    lines = subprocess.run(
        [
            sys.executable,
            "-m",
            "interlingua",
            "views",
            "--opa",
            "--capabilities",
            "read_roles",
            str(path),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert [json.loads(line)["input"]["kind"] for line in lines] == ["text", "tool_call"]
    response = tmp_path / "r.json"
    response.write_text(
        json.dumps(
            {
                "schema_version": 1,
                "model": "m",
                "stop_reason": "end",
                "message": {"role": "assistant", "content": [{"type": "text", "text": "ok"}]},
            }
        )
    )
    assert (
        "ok"
        in subprocess.run(
            [sys.executable, "-m", "interlingua", "views", str(response)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )
    bad = tmp_path / "bad.json"
    bad.write_text('{"role": "user", "content": []}')
    done = subprocess.run(
        [sys.executable, "-m", "interlingua", "views", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1 and "empty_content" in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "interlingua", "views", "--json", "-"],
        input="{",
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and json.loads(done.stderr)["error"]["code"] == "invalid_json"


DODGES = [" Authorization", "authorization:", "Cookie\t", "\ufeffX-API-Key", "X-API-Key\x00"]
SECRETS: dict[str, Any] = {
    "http": {"headers": {**dict.fromkeys(DODGES, "secret"), "X-Trace": "t1"}},
    "custom": {
        "Authorization": "secret",
        "upstream": {"headers": {"cookie:": "secret", "accept": "*/*"}},
        "raw": [["X_API_KEY", "secret"], ["Accept", "*/*"]],
    },
    "framework": {
        "framework": "langgraph",
        "metadata": {"request": {"HTTP_AUTHORIZATION": "secret", "path": "/"}},
    },
    "security": {"subject": {"id": "u", "type": "user", "claims": {"cookie": "secret"}}},
    "mcp": {
        "metadata": {
            "tool": {"name": "t", "annotations": {"headers": [{"name": "Cookie", "value": "s"}]}}
        }
    },
}


def test_sensitive_headers_cannot_hide_behind_spelling_or_nesting() -> None:
    """Regression (issue 22): names with whitespace, a tab, `:`, NUL or a BOM, and the same
    headers under `extensions.custom` or framework metadata, reached the OPA input."""
    message = {"role": "assistant", "content": [CALL], "extensions": SECRETS}
    record = next(interlingua.views(message, ALL)).to_opa_input()["input"]
    assert "secret" not in json.dumps(record)
    extensions = record["extensions"]
    assert extensions["http"]["headers"] == {"X-Trace": "t1"}
    assert extensions["custom"] == {
        "upstream": {"headers": {"accept": "*/*"}},
        "raw": [["Accept", "*/*"]],
    }
    assert extensions["framework"]["metadata"] == {"request": {"path": "/"}}
    assert extensions["security"]["subject"]["claims"] == {}
    assert extensions["mcp"]["metadata"]["tool"]["annotations"] == {"headers": []}
    view = next(interlingua.views(message, ALL))
    assert view.get_header("authorization") == "secret"  # in-process, with read_headers
    assert view.get_header("x-trace:") == "t1"
    assert SECRETS["custom"]["Authorization"] == "secret"  # the message itself is intact


def test_views_cli_opa_strips_dodged_headers(tmp_path: Any) -> None:
    path = tmp_path / "c.json"
    message = {"role": "assistant", "content": [CALL], "extensions": SECRETS}
    path.write_text(json.dumps({"schema_version": 1, "messages": [message]}))
    output = subprocess.run(
        [
            sys.executable,
            "-m",
            "interlingua",
            "views",
            "--opa",
            "--capabilities",
            "read_headers",
            str(path),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "secret" not in output and "X-Trace" in output


def test_every_open_map_in_extensions_is_scrubbed_or_a_schema() -> None:
    """Every open map under extensions could carry a header map: it declares
    `x-sensitive-nested`, unless it is a JSON Schema (whose property names are no headers)."""
    from interlingua.generated.view_tables import SENSITIVE_NESTED

    path = Path(__file__).resolve().parents[2] / "schemas/v1/extensions.json"
    definitions = json.loads(path.read_text())["$defs"]
    open_maps: dict[str, bool] = {}
    for def_name, definition in definitions.items():
        if "x-open" in definition:
            open_maps[def_name] = definition.get("x-sensitive-nested", False)
        for name, sub in definition.get("properties", {}).items():
            if "x-open" in sub:
                open_maps[f"{def_name}.{name}"] = sub.get("x-sensitive-nested", False)
    unscrubbed = {name for name, scrubbed in open_maps.items() if not scrubbed}
    assert unscrubbed == {"ToolMetadata.input_schema", "ToolMetadata.output_schema"}
    assert len(SENSITIVE_NESTED) == len(open_maps) - len(unscrubbed)


def test_lone_surrogates_never_raise() -> None:
    """Regression (issue 22): a lone surrogate in a Python string raised UnicodeEncodeError
    from `size_bytes` (so from `to_dict` and `to_opa_input`)."""
    message = {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "a\ud800"},
            {"type": "tool_call", "id": "c", "name": "t\udcff", "arguments": {"k\ud800": "v"}},
        ],
        "extensions": {"http": {"headers": {"\ud800": "x", "Cookie\udcff": "y"}}},
    }
    text, call = interlingua.views(message, ["read_headers"])
    assert text.size_bytes == 4  # a lone surrogate counts 3 bytes, as U+FFFD would
    assert text.to_opa_input()["input"]["size_bytes"] == 4
    record = call.to_dict()
    assert record["uri"] == "tool://t\udcff" and call.matches_uri_pattern("tool://t*")
    assert record["extensions"]["http"]["headers"] == {"\ud800": "x", "Cookie\udcff": "y"}


@pytest.mark.parametrize(
    ("message", "code", "path"),
    [
        ({"content": []}, "missing_field", "/role"),
        ({"role": "user", "content": [5]}, "wrong_type", "/content/0"),
        ({"role": "user", "content": "hi"}, "wrong_type", "/content"),
        ({"role": "user", "content": [], "extensions": []}, "wrong_type", "/extensions"),
        (5, "wrong_type", ""),
    ],
)
def test_a_message_views_cannot_read_is_refused_with_its_coded_finding(
    message: Any, code: str, path: str
) -> None:
    # Regression: a message without a role raised KeyError, a non-object part AttributeError.
    with pytest.raises(NotViewable) as refused:
        list(views(message))
    assert (refused.value.code, refused.value.path) == (code, path)
    assert refused.value.findings[0][:2] == (code, path)

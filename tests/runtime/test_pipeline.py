"""The processing pipeline enforces the tiers the schema declares, and never touches its input."""

from typing import Any

import pytest

from interlingua import DocumentError
from interlingua.documents.pipeline import (
    Draft,
    TierViolation,
    apply,
    apply_data_policies,
    declassify,
)
from interlingua.generated.models import Message

BASE: dict[str, Any] = {
    "role": "tool",
    "id": "01HZ0010000000000000000000",
    "content": [
        {
            "type": "tool_result",
            "tool_call_id": "c1",
            "name": "get_salary",
            "content": [{"type": "text", "text": "100k"}],
        }
    ],
    "extensions": {
        "request": {"environment": "prod"},
        "http": {"headers": {"X-Trace": "t1", "X-Old": "o"}},
        "security": {
            "labels": ["internal"],
            "subject": {"id": "u1", "type": "user", "roles": ["analyst"]},
            "data": {"get_salary": {"apply_labels": ["PII", "financial"]}},
        },
        "custom": {"note": "free"},
    },
}


def message() -> Message:
    return Message.model_validate(BASE)


def violation(step: Any, capabilities: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    original = message()
    snapshot = original.model_dump(mode="json")
    with pytest.raises(TierViolation) as caught:
        apply(original, step, capabilities)
    assert original.model_dump(mode="json") == snapshot  # the input is untouched
    return [(e.code, e.path) for e in caught.value.errors]


def test_mutable_fields_change_freely() -> None:
    def redact(draft: Draft) -> None:
        draft["content"][0]["content"][0]["text"] = "[redacted]"
        draft["extensions"]["custom"]["note"] = "changed"
        draft["extensions"]["security"]["labels"].append("PII")

    result = apply(message(), redact)
    assert result.message.model_dump()["content"][0]["content"][0]["text"] == "[redacted]"
    assert result.audit == ()


def test_a_step_may_return_a_replacement() -> None:
    result = apply(message(), lambda draft: {**draft, "channel": "final"})
    assert result.message.channel == "final"


def test_immutable_fields_cannot_change() -> None:
    assert violation(lambda d: d.update(role="user")) == [("immutable_changed", "/role")]

    def drop_id(draft: Draft) -> None:
        del draft["id"]

    assert violation(drop_id) == [("immutable_changed", "/id")]
    assert violation(lambda d: d["extensions"]["security"]["subject"]["roles"].append("admin")) == [
        ("immutable_changed", "/extensions/security/subject")
    ]
    assert violation(lambda d: d["extensions"]["request"].update(environment="dev")) == [
        ("immutable_changed", "/extensions/request")
    ]


def test_labels_only_grow() -> None:
    assert violation(lambda d: d["extensions"]["security"].update(labels=[])) == [
        ("label_removed", "/extensions/security/labels")
    ]


def test_headers_need_the_write_capability_and_are_audited() -> None:
    def edit(draft: Draft) -> None:
        headers = draft["extensions"]["http"]["headers"]
        headers["Authorization"] = "Bearer downstream"
        del headers["X-Old"]

    assert violation(edit) == [("write_not_permitted", "/extensions/http/headers")]
    result = apply(message(), edit, ["write_headers"])
    assert [(a.action, a.path, a.before, a.after) for a in result.audit] == [
        ("header_set", "/extensions/http/headers/Authorization", None, "Bearer downstream"),
        ("header_removed", "/extensions/http/headers/X-Old", "o", None),
    ]


def test_an_invalid_result_is_refused() -> None:
    with pytest.raises(DocumentError):
        apply(message(), lambda d: d.update(content=[]))


def test_declassify_is_the_audited_way_to_remove_labels() -> None:
    result = declassify(message(), ["internal"], actor="dpo@corp", reason="published")
    assert result.message.extensions is not None and result.message.extensions.security is not None
    assert result.message.extensions.security.labels == []
    (entry,) = result.audit
    assert (entry.action, entry.before, entry.after) == ("declassify", ["internal"], [])
    assert "dpo@corp" in entry.detail and "published" in entry.detail
    unlabelled = Message.model_validate(
        {"role": "user", "content": [{"type": "text", "text": "x"}]}
    )
    assert declassify(unlabelled, ["PII"], actor="a", reason="r").audit[0].before == []


def test_data_policies_stamp_labels_from_post_views() -> None:
    result = apply_data_policies(message())
    assert result.message.extensions is not None and result.message.extensions.security is not None
    assert result.message.extensions.security.labels == ["internal", "PII", "financial"]
    assert result.audit[-1].action == "label_stamped"
    plain = Message.model_validate({"role": "user", "content": [{"type": "text", "text": "x"}]})
    assert apply_data_policies(plain).message is plain

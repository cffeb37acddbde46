"""Property tests: the generated validator agrees with itself, with jsonschema, and with the models."""

import copy
import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

import interlingua
from generator.paths import ROOT
from interlingua.documents.synthetic import conversation
from interlingua.generated.codes import INVARIANT_CODES as SEMANTIC
from interlingua.generated.codes import SEVERITY
from interlingua.generated.models import Conversation
from interlingua.generated.validators import VALIDATORS

BUNDLE = json.loads((ROOT / "generated/schemas/interlingua-v1.json").read_text())
REFERENCE = {
    name: Draft202012Validator({**BUNDLE, "oneOf": [{"$ref": f"#/$defs/{name}"}]})
    for name in ("Conversation", "Message")
}
POINTER = re.compile(r"^(/([^~/]|~[01])*)*$")
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def structurally_valid(findings: list[interlingua.ValidationError]) -> bool:
    return not any(SEVERITY[f.code] == "error" and f.code not in SEMANTIC for f in findings)


def assert_consistent(document: Any, type_name: str) -> list[interlingua.ValidationError]:
    findings = interlingua.validate(document, type_name)
    fast, _ = VALIDATORS[type_name]
    assert fast(document) == (findings == [])
    for finding in findings:
        assert finding.code in SEVERITY
        assert POINTER.match(finding.path), finding.path
    assert REFERENCE[type_name].is_valid(document) == structurally_valid(findings), findings
    return findings


@SETTINGS
@given(st.integers(0, 2**32), st.integers(1, 3))
def test_synthetic_conversations_are_valid_and_round_trip(seed: int, turns: int) -> None:
    document = conversation(seed, turns)
    assert assert_consistent(document, "Conversation") == []
    assert interlingua.dump(Conversation.model_validate(document)) == document


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, sub in value.items():
            found += _nodes(sub, (*path, key))
    elif isinstance(value, list):
        for index, sub in enumerate(value):
            found += _nodes(sub, (*path, index))
    return found


REPLACEMENTS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    # Within I-JSON's exact range (RFC 7493): a float such as 9.2e18 is an integer to JSON
    # Schema but no interoperable number, and pydantic refuses it as an int (known limit).
    st.floats(allow_nan=False, allow_infinity=False, min_value=-(2.0**53), max_value=2.0**53),
    st.sampled_from(
        ["", "x", "text", "tool_call", "poll", "assistant", "01HZ0010000000000000000000"]
    ),
    # Fresh containers: `st.just({})` would hand every example the same dict, which a later
    # mutation (add_key) changes, making the strategy flaky.
    st.builds(list),
    st.builds(dict),
)


@SETTINGS
@given(st.integers(0, 2**32), st.data())
def test_mutated_conversations_agree_with_jsonschema(seed: int, data: st.DataObject) -> None:
    document = conversation(seed, 2)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_nodes(document)[1:]))
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        action = data.draw(st.sampled_from(["replace", "delete", "add_key", "duplicate"]))
        if action == "replace":
            parent[path[-1]] = data.draw(REPLACEMENTS)
        elif action == "delete":
            del parent[path[-1]]
        elif action == "add_key" and isinstance(parent[path[-1]], dict):
            parent[path[-1]]["unexpected"] = 1
        elif action == "duplicate" and isinstance(parent, list):
            parent.insert(path[-1], copy.deepcopy(parent[path[-1]]))
    findings = assert_consistent(document, "Conversation")
    if not any(SEVERITY[f.code] == "error" for f in findings):
        assert interlingua.dump(Conversation.model_validate(document)) == document


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["role", "content", "type", "text", "id", "x"]), inner, max_size=4
        )
    ),
    max_leaves=20,
)


@SETTINGS
@given(JSON)
def test_arbitrary_json_never_crashes_the_validator(document: Any) -> None:
    assert_consistent(document, "Message")
    interlingua.validate(document)  # auto-detection too

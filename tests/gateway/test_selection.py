"""The selection contract (seed 002 §2.6)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interlingua.documents.validation import validate
from interlingua.gateway.errors import GatewayError
from interlingua.gateway.selection import selection_schema, validate_selection

CANDIDATES = ["github:create_issue@1", "github:list_issues@1", "slack:post#0badf00d"]


@given(st.one_of(st.none(), st.integers(), st.text(max_size=30), st.sampled_from(CANDIDATES)))
def test_a_selection_resolves_to_an_offered_id_or_is_rejected(value: object) -> None:
    result = validate_selection(value, CANDIDATES)
    assert validate(result.model_dump(mode="json", exclude_unset=True), "SelectionValidation") == []
    assert (result.selected_id is None) is (result.status == "rejected")
    assert (result.reason is None) is (result.status != "rejected")
    assert (result.repair is None) is (result.status != "repaired")
    if result.selected_id is not None:
        assert result.selected_id in CANDIDATES


def test_the_schema_admits_only_candidates() -> None:
    schema = selection_schema(CANDIDATES)
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(schema)
    assert validator.is_valid({"selection": CANDIDATES[0]})
    assert not validator.is_valid({"selection": "gitlab:x@1"})
    assert not validator.is_valid({"selection": CANDIDATES[0], "extra": 1})


@pytest.mark.parametrize("candidates", [[""], [None], [1]])
def test_candidates_are_non_empty_strings(candidates: list[object]) -> None:
    with pytest.raises(GatewayError) as raised:
        selection_schema(candidates)
    assert raised.value.code == "ARGS_INVALID"


def test_unknown_variant() -> None:
    with pytest.raises(GatewayError) as raised:
        selection_schema(CANDIDATES, "gemini")  # type: ignore[arg-type]
    assert raised.value.code == "ARGS_INVALID"

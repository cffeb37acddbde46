"""The helpers the generated migrations call: each changes only the dict it is given, and
whatever cannot be placed is a loss."""

from typing import Any

from interlingua.conversion import Loss
from interlingua.documents.migration_runtime import (
    drop,
    each,
    emptied,
    move,
    prune,
    respell,
    same,
    values,
)


def _upper(node: Any, at: str, losses: list[Loss]) -> Any:
    losses.append(Loss(at, "moved", "seen"))
    return node.upper()


def test_lists_and_maps_go_through_the_step_with_their_pointers() -> None:
    losses: list[Loss] = []
    assert each(["a", "b"], "/x", losses, _upper) == ["A", "B"]
    assert values({"a/b": "c", "~": "d"}, "/m", losses, _upper) == {"a/b": "C", "~": "D"}
    assert [loss.pointer for loss in losses] == ["/x/0", "/x/1", "/m/a~1b", "/m/~0"]
    assert each("not a list", "", losses, _upper) == "not a list"
    assert values(["not a map"], "", losses, _upper) == ["not a map"]
    assert same(losses, "", []) is losses


def test_respell_keeps_the_key_in_its_place() -> None:
    assert list(respell({"a": 1, "type": "x", "b": 2}, "type", "y").items()) == [
        ("a", 1),
        ("type", "y"),
        ("b", 2),
    ]


def test_a_move_makes_the_objects_on_its_way_and_copies_nested_ones() -> None:
    inner = {"agent": {"session_id": "s", "turn": 1}}
    node: dict[str, Any] = {"extensions": inner}
    move(node, ("extensions", "agent", "session_id"), ("where", "session"), "", [])
    assert node == {"extensions": {"agent": {"turn": 1}}, "where": {"session": "s"}}
    assert inner == {"agent": {"session_id": "s", "turn": 1}}, "the nested input is not changed"


def test_a_move_of_nothing_does_nothing() -> None:
    node: dict[str, Any] = {"a": 1, "b": "text"}
    move(node, ("missing",), ("x",), "", [])
    move(node, ("b", "c"), ("x",), "", [])  # through a value that is no object
    assert node == {"a": 1, "b": "text"}


def test_a_value_that_cannot_be_placed_is_a_loss() -> None:
    losses: list[Loss] = []
    taken = {"a": 1, "b": 2}
    move(taken, ("a",), ("b",), "/p", losses)
    blocked = {"a": 1, "b": "text"}
    move(blocked, ("a",), ("b", "c"), "/q", losses)
    assert taken == {"b": 2} and blocked == {"b": "text"}
    assert [(loss.pointer, loss.code) for loss in losses] == [
        ("/p/a", "field_dropped"),
        ("/q/a", "field_dropped"),
    ]


def test_an_emptied_object_is_pruned_and_an_empty_one_reported() -> None:
    losses: list[Loss] = []
    nested: dict[str, Any] = {"range": {}}
    node: dict[str, Any] = {"part": nested, "range": {}}
    assert emptied(node, ("range",)) and not emptied(node, ("nothing", "here"))
    prune(node, ("part", "range"), "", losses, was_empty=False)
    prune(node, ("range",), "/c", losses, was_empty=True)
    assert node == {"part": {}} and nested == {"range": {}}
    assert [(loss.pointer, loss.code) for loss in losses] == [("/c/range", "field_dropped")]
    prune(node, ("part", "x", "y"), "", losses, was_empty=True)  # nothing there
    kept = {"range": {"start": 1}}
    prune(kept, ("range",), "", losses, was_empty=False)
    assert kept == {"range": {"start": 1}} and len(losses) == 1


def test_a_dropped_field_is_a_loss_unless_it_held_the_default() -> None:
    losses: list[Loss] = []
    node: dict[str, Any] = {"a": False, "b": True, "c": 0}
    drop(node, "a", False, "", losses)
    drop(node, "b", False, "", losses)
    drop(node, "c", False, "", losses)  # 0 == False, but not the same value
    drop(node, "d", False, "", losses)
    assert node == {}
    assert [loss.pointer for loss in losses] == ["/b", "/c"]

"""The records every conversion makes (a result, its losses) and the adapters' own records are
small and fixed: slotted (no per-object dict) and frozen."""

from __future__ import annotations

import pickle

import pytest

from interlingua.conversion import ConversionResult, Loss
from interlingua.conversion.adapters.runtime import Adapter, Marker
from interlingua.generated.adapters import ADAPTERS


@pytest.mark.parametrize("record", [Loss, ConversionResult, Adapter, Marker])
def test_records_have_slots_and_no_dict(record: type) -> None:
    assert "__slots__" in vars(record)
    assert "__dict__" not in dir(record)


def test_a_loss_is_frozen_and_survives_pickling() -> None:
    """Results cross process boundaries (worker pools): slots must not break pickling."""
    loss = Loss("/messages/0", "part_dropped", "no place", "image")
    with pytest.raises(AttributeError):  # named tuples: no field can be set
        loss.code = "other"  # type: ignore[misc]
    result = ConversionResult({"a": 1}, (loss,), "openai-chat", "anthropic", "request")
    with pytest.raises(AttributeError):
        result.output = {}  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(result)) == result


def test_every_adapter_is_slotted() -> None:
    for adapter in ADAPTERS.values():
        assert not hasattr(adapter, "__dict__"), adapter.format

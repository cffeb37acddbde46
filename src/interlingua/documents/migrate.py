"""Documents from one version of the canonical format to another: :func:`migrate`.

The changes between versions are declared in ``schemas/migrations/`` and the code that applies
them is generated (``interlingua.generated.migrations``); this module picks the steps, one
version at a time, up or down. A document says its version in ``schema_version``
(Conversation, Response); a Message on its own has none and is read as ``source`` says.
Migrating never changes its input, and never drops silently: what the target version cannot
hold is a loss in the result, as a conversion reports it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from interlingua.conversion import ConversionError, Loss
from interlingua.generated import SCHEMA_VERSION


@dataclass(frozen=True)
class Migrated:
    """A migrated document and what it lost on the way."""

    output: Any
    losses: tuple[Loss, ...]
    source: int
    target: int


def versions() -> tuple[int, ...]:
    """Every version documents can be migrated between, oldest first."""
    from interlingua.generated.migrations import VERSIONS  # noqa: PLC0415 - loaded on use

    return VERSIONS


def _known(version: Any, pointer: str, what: str) -> int:
    known = versions()
    if type(version) is not int or version not in known:
        listed = ", ".join(map(str, known))
        raise ConversionError(
            "const_mismatch", pointer, f"{what} {version!r} is not a version; known: {listed}"
        )
    return version


def _document_type(document: Any) -> str:
    from interlingua.generated.migrations import STEPS  # noqa: PLC0415

    if not isinstance(document, dict):
        raise ConversionError("wrong_type", "", "a document is a JSON object")
    keys: dict[str, str] = next(iter(STEPS.values())).DOCUMENT_KEYS
    for key, name in keys.items():
        if key in document:
            return name
    kinds = ", ".join(f"{name} (has {key!r})" for key, name in keys.items())
    raise ConversionError("unknown_document", "", f"not a document of any version: {kinds}")


def migrate(document: Any, to: int, *, source: int | None = None) -> Migrated:
    """``document`` in version ``to``, with the losses of every step.

    ``source`` is the version of a document without ``schema_version`` (a Message; default
    the version this package implements); for one with it, it must agree. Bad input raises
    :class:`~interlingua.conversion.ConversionError` with a code and a pointer.
    """
    from interlingua.generated.migrations import STEPS  # noqa: PLC0415

    target = _known(to, "", "target")
    kind = _document_type(document)
    module = next(iter(STEPS.values()))
    if kind in module.VERSIONED:
        if "schema_version" not in document:
            raise ConversionError("missing_field", "/schema_version", "the document has no version")
        version = _known(document["schema_version"], "/schema_version", "schema_version")
        if source is not None and source != version:
            why = f"the document says version {version}, not {source}"
            raise ConversionError("const_mismatch", "/schema_version", why)
    else:
        version = _known(SCHEMA_VERSION if source is None else source, "", "source")
    losses: list[Loss] = []
    output = copy.deepcopy(document)
    for step in range(version, target):
        output = STEPS[(step, step + 1)].UP[kind](output, "", losses)
    for step in range(version, target, -1):
        output = STEPS[(step - 1, step)].DOWN[kind](output, "", losses)
    return Migrated(output, tuple(losses), version, target)

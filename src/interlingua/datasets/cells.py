"""Cells of a column of bodies converted: what an Arrow batch, a Parquet row group and a Ray
batch share (pure Python, no pyarrow here; a worker process runs :func:`convert_cells`)."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from interlingua.conversion.reading import DEFAULT_MAX_BYTES, InputError, read_json
from interlingua.datasets.body import Options, convert_body, failed


class Cell(NamedTuple):
    """One converted cell: the output (JSON text when the column holds text, else the body),
    None when it failed; its losses (Loss JSON); its coded error, or None."""

    output: Any
    losses: list[dict[str, str]]
    error: dict[str, str] | None


def without_nulls(value: Any) -> Any:
    """A body read from an Arrow struct: every key whose value is null dropped (a struct
    column has every field of every row, null where a row had none; Arrow cannot tell an
    absent key from a null one)."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


def convert_cell(value: Any, options: Options, text: bool, max_bytes: int) -> Cell:
    """Convert one cell: JSON text (``text``) or a body read from Arrow values."""
    if text and isinstance(value, str | bytes):
        try:
            body = read_json(value, max_bytes=max_bytes)
        except InputError as exc:
            done = failed(exc.code, exc.path, exc.message)
            return Cell(None, [], done.error)
    else:
        body = without_nulls(value)
    done = convert_body(body, options)
    report = done.report or {}
    if done.status != "converted":
        return Cell(None, list(report.get("losses", [])), done.error)
    output = json.dumps(done.output, ensure_ascii=False) if text else done.output
    return Cell(output, list(report["losses"]), None)


def convert_cells(
    values: list[Any], options: Options, text: bool, max_bytes: int = DEFAULT_MAX_BYTES
) -> list[Cell]:
    """Convert a column's cells in order (the function a worker process runs)."""
    return [convert_cell(value, options, text, max_bytes) for value in values]

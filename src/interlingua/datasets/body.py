"""One body converted with every problem kept as data, never printed or raised.

What the batch paths (the command's JSON Lines, the worker pool, Arrow tables, Ray batches)
share: a body in, a :class:`Converted` out, with the coded error or the losses a caller
reports. The command prints :attr:`Converted.problems` in order; a library caller reads
:attr:`Converted.output`, :attr:`Converted.report` and :attr:`Converted.error`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

if TYPE_CHECKING:
    from interlingua.conversion.detection import Detection

AUTO = "auto"

#: converted; refused (strict mode: it would have lost something); failed (a coded error).
Status = Literal["converted", "refused", "failed"]


@dataclass(frozen=True)
class Options:
    """How every body of a batch is converted (picklable: it travels to the workers)."""

    source: str  # a format, or auto to detect each body's
    target: str
    kind: str | None = None  # None: detected (with a named source, once per batch)
    strict: bool = False
    thinking: str = "drop"
    #: Losses of a converted body become problems (the command prints them when it writes
    #: no report file); a refused body's losses always do.
    loss_problems: bool = True
    #: Where the bodies came from and where the output goes, for a provider serving its format
    #: at several endpoints (see `interlingua.convert`).
    source_endpoint: str | None = None
    target_endpoint: str | None = None


class Problem(NamedTuple):
    """An error or a loss to report, where and why; ``detail`` adds lines for a person."""

    what: Literal["error", "loss"]
    code: str
    path: str
    message: str
    detail: tuple[str, ...] = ()


class Converted(NamedTuple):
    """What became of one body."""

    status: Status
    output: Any = None
    #: The ConversionReport (also for a refused body: its losses).
    report: dict[str, Any] | None = None
    #: The coded error that stopped it: {"code", "path", "message"}.
    error: dict[str, str] | None = None
    problems: tuple[Problem, ...] = ()
    #: The (source, target) formats, once the source is known.
    pair: tuple[str, str] | None = None


def failed(code: str, path: str, message: str, *, detail: tuple[str, ...] = ()) -> Converted:
    """The outcome of a body stopped by a coded error."""
    error = {"code": code, "path": path, "message": message}
    problem = Problem("error", code, path, message, detail)
    return Converted("failed", error=error, problems=(problem,))


def undetected(found: Detection) -> Converted:
    """The coded error for a body whose format detection cannot tell, with each schema's
    reason as detail."""
    why = found.summary if found.status == "unknown" else found.reason
    hint = "; name the format with --from" if found.status == "ambiguous" else ""
    detail = tuple(f"  {rejection}" for rejection in found.rejections)
    return failed("unknown_format", "", f"cannot tell the format: {why}{hint}", detail=detail)


def convert_body(payload: Any, options: Options, *, read: bool = False) -> Converted:
    """Convert one parsed body (or a text format's text) as ``options`` say. ``read``: the
    payload came from `reading.read_json` or `reading.read_text`, which refused all that
    `convert`'s data check refuses, so that check is not made again."""
    from interlingua.conversion import (  # noqa: PLC0415  # loads the adapters
        ConversionError,
        ConversionResult,
        LossyConversionError,
    )
    from interlingua.conversion.converter import convert  # noqa: PLC0415
    from interlingua.conversion.detector import detect  # noqa: PLC0415

    source, kind, checked = options.source, options.kind, False
    try:
        if source == AUTO:
            # explain=False: the verdict is what counts
            found = detect(payload, kind=kind, explain=False, _data_checked=read)
            if not found.detected:
                return undetected(found)
            assert found.format is not None and found.kind is not None
            source, kind, checked = found.format, found.kind, True
        elif kind is None:
            found = detect(payload, among=[source], explain=False, _data_checked=read)
            kind, checked = (found.kind, True) if found.detected else ("request", False)
        assert kind is not None
        pair = (source, options.target)
        result = convert(
            payload,
            source,
            options.target,
            kind,
            strict=options.strict,
            thinking=options.thinking,
            source_endpoint=options.source_endpoint,
            target_endpoint=options.target_endpoint,
            validate_input=not checked,  # detection has just validated it against that schema
            _data_checked=read,
        )
    except LossyConversionError as exc:
        assert kind is not None  # set before anything is converted
        report = ConversionResult(None, tuple(exc.losses), source, options.target, kind).report()
        losses = tuple(Problem("loss", x.code, x.pointer, x.reason) for x in exc.losses)
        error = Problem("error", exc.code, exc.pointer, exc.message)
        return Converted("refused", None, report, exc.as_json(), (*losses, error), pair)
    except ConversionError as exc:
        return failed(exc.code, exc.pointer, exc.message)
    problems = (
        tuple(Problem("loss", x.code, x.pointer, x.reason) for x in result.losses)
        if options.loss_problems
        else ()
    )
    return Converted("converted", result.output, result.report(), None, problems, pair)

"""The `interlingua` command line.

``validate`` and ``views`` work on canonical documents, or on any format's body read through
its adapter (``--from``); ``convert``, ``detect`` and ``formats`` on request and response bodies
of every format (see :mod:`interlingua.conversion.converter`).
Exit codes: 0 done, 1 invalid document (``validate``) or a loss in strict mode
(``convert --strict``), 2 input that cannot be read or used (a coded error on stderr).

Every command reports a problem with its input the same way, on stderr: a stable code, a JSON
pointer and a message, ``error: CODE at POINTER: MESSAGE``, or with ``--json`` one JSON object
per line, ``{"error": {"code": ..., "path": ..., "message": ...}}`` (``"line": N`` added for
JSON Lines input). Losses take the same two shapes (``loss: ...`` / ``{"loss": {...}}``). The
human form is the default whether or not stderr is a terminal: it is stable, one line per
problem, and ``--json`` is there for programs. The gateway's ``tool-id`` and ``card`` are the
exception: they answer with the gateway's error envelope (seed 002 §3.4), as its callers read it.

The commands import what they use when they run: ``interlingua --help`` loads no adapter,
validator or model.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import stat
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any, BinaryIO, NamedTuple

from interlingua import __version__
from interlingua.cli import migrate as migrate_cli
from interlingua.conversion.reading import (
    DEFAULT_MAX_BYTES,
    InputError,
    looks_like_json,
    read_json,
    read_text,
)
from interlingua.gateway import cli as gateway_cli
from interlingua.generated import SCHEMA_VERSION
from interlingua.service import serve as service_cli
from interlingua.store import cli as store_cli

if TYPE_CHECKING:
    from interlingua.conversion import Loss
    from interlingua.conversion.detection import Detection
    from interlingua.datasets.body import Problem

# Adapters, validators and models load when a command needs them (imported inside it), so
# `interlingua --help` and `--version` start fast; so do the modules that use dataclasses
# (importing `dataclasses` loads `inspect` and `ast`). These names need no import.
CANONICAL = "canonical"
AUTO = "auto"

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2
EXIT_LOSSY = 1  # convert --strict: the conversion would lose something


def _read_limited(stream: BinaryIO, limit: int) -> bytes:
    """Read at most ``limit + 1`` bytes, so an endless input is refused without reading it all."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise InputError("input_too_large", f"input is larger than the limit of {limit} bytes")
    return data


def _read_source(source: str, limit: int) -> bytes:
    if source == "-":
        return _read_limited(sys.stdin.buffer, limit)
    try:
        with open(source, "rb") as stream:
            return _read_limited(stream, limit)
    except OSError as exc:
        raise InputError(
            "unreadable_input", f"cannot read {source}: {exc.strerror or exc}"
        ) from None


_UNREADABLE: Any = object()


def _canonical_document(args: argparse.Namespace) -> Any:
    """The input as a canonical document: as it is with ``--from canonical``, else read through
    its format's adapter (``auto``: the detected one); _UNREADABLE after its coded error."""
    if not _check_format(args.source, auto=True):
        return _UNREADABLE
    canonical = args.source == CANONICAL  # canonical documents are JSON, never text
    payload = _read_payload(args.file, args.max_bytes, json_only=canonical)
    if payload is _UNREADABLE or canonical:
        return payload
    from interlingua.conversion import ConversionError  # noqa: PLC0415
    from interlingua.conversion.converter import to_canonical  # noqa: PLC0415
    from interlingua.conversion.detector import detect  # noqa: PLC0415

    source, kind = args.source, None
    found = detect(payload, among=None if source == AUTO else [source], explain=False)
    if found.detected:
        source, kind = found.format, found.kind
    elif source == AUTO:
        _undetected(found)
        return _UNREADABLE
    if source == CANONICAL:
        return payload
    _quiet_library()
    try:
        return to_canonical(payload, source, kind or "request").output
    except ConversionError as exc:
        _error(exc.code, exc.pointer, exc.message)
        return _UNREADABLE


def _closest(name: str, known: Iterable[str]) -> str:
    """`` (did you mean X?)`` for the known name closest to ``name``, or nothing."""
    import difflib  # noqa: PLC0415  # only when a name is wrong

    known = list(known)
    close = [k for k in known if k.startswith(name)] or difflib.get_close_matches(
        name, known, n=1, cutoff=0.5
    )
    return f" (did you mean {close[0]}?)" if close else ""


def _check_choice(what: str, name: str | None, known: Iterable[str]) -> bool:
    """Whether ``name`` is one of ``known``; else its coded error (not_in_enum), with the
    closest name and the list."""
    known = sorted(known)
    if name is None or name in known:
        return True
    _error(
        "not_in_enum",
        "",
        f"unknown {what} {name!r}{_closest(name, known)}; known: {', '.join(known)}",
    )
    return False


def cmd_validate(args: argparse.Namespace) -> int:
    from interlingua.documents.validation import is_error, validate  # noqa: PLC0415
    from interlingua.generated.validators import VALIDATORS  # noqa: PLC0415

    if not _check_choice("type", args.type, VALIDATORS):
        return EXIT_UNREADABLE
    document = _canonical_document(args)
    if document is _UNREADABLE:
        return EXIT_UNREADABLE
    findings = validate(document, args.type)
    print(
        json.dumps(
            [f.model_dump(mode="json", exclude_none=True) for f in findings],
            indent=2,
            ensure_ascii=False,
        )
    )
    return EXIT_INVALID if any(is_error(f) for f in findings) else EXIT_VALID


def _capabilities() -> tuple[str, ...]:
    """Every capability name the schemas define."""
    from typing import get_args  # noqa: PLC0415

    from interlingua.generated.models import Capability  # noqa: PLC0415

    names: tuple[str, ...] = get_args(get_args(Capability.__value__)[0])
    return names


def cmd_views(args: argparse.Namespace) -> int:
    from interlingua.documents.validation import document_messages, is_error, validate  # noqa: PLC0415
    from interlingua.documents.view import views  # noqa: PLC0415

    capabilities = [c.strip() for c in args.capabilities.split(",") if c.strip()]
    known = _capabilities()
    if not all(_check_choice("capability", c, known) for c in capabilities):
        return EXIT_UNREADABLE
    document = _canonical_document(args)
    if document is _UNREADABLE:
        return EXIT_UNREADABLE
    errors = [
        f
        for message in (document if isinstance(document, list) else [document])
        for f in validate(message)
        if is_error(f)
    ]
    if errors:
        for finding in errors:
            _error(finding.code, finding.path, finding.message)
        return EXIT_INVALID
    rows = []
    for number, message in enumerate(document_messages(document)):
        for view in views(message, capabilities):
            if args.opa:
                print(json.dumps(view.to_opa_input(), ensure_ascii=False, sort_keys=True))
            else:
                content = (view.content or "").replace("\n", " ")
                direction = "pre" if view.is_pre else "post"
                rows.append(
                    (
                        f"{number}.{view.index}",
                        view.role,
                        view.kind,
                        view.action,
                        direction,
                        view.name or "",
                        view.uri or "",
                        content[:60],
                    )
                )
    if rows:
        header = ("part", "role", "kind", "action", "dir", "name", "uri", "content")
        widths = [max(len(str(r[i])) for r in (header, *rows)) for i in range(len(header))]
        for row in (header, *rows):
            print(
                "  ".join(
                    str(cell).ljust(width) for cell, width in zip(row, widths, strict=True)
                ).rstrip()
            )
    return EXIT_VALID


# --- convert, detect, formats -----------------------------------------------------------------


def _where(line: int | None) -> str:
    return "" if line is None else f"line {line}: "


class _Stderr:
    """How problems are written to stderr: human lines, or with --json JSON objects."""

    json = False


def _record(code: str, path: str, message: str, line: int | None = None) -> dict[str, Any]:
    record: dict[str, Any] = {"code": code, "path": path, "message": message}
    if line is not None:
        record["line"] = line
    return record


def _problem_text(
    what: str, code: str, path: str, message: str, line: int | None, *, as_json: bool | None = None
) -> str:
    if _Stderr.json if as_json is None else as_json:
        return json.dumps({what: _record(code, path, message, line)}, ensure_ascii=False)
    return f"{what}: {_where(line)}{code} at {path or '/'}: {message}"


def _problem(what: str, code: str, path: str, message: str, line: int | None) -> None:
    print(_problem_text(what, code, path, message, line), file=sys.stderr)


def _error(code: str, path: str, message: str, line: int | None = None) -> None:
    _problem("error", code, path, message, line)


def _losses(losses: tuple[Loss, ...] | list[Loss], line: int | None = None) -> None:
    for loss in losses:
        _problem("loss", loss.code, loss.pointer, loss.reason, line)


def _undetected(found: Detection, line: int | None = None) -> None:
    """The coded error for a body ``--from auto`` cannot place, with each schema's reason."""
    from interlingua.datasets.body import undetected  # noqa: PLC0415

    _problems(undetected(found).problems, line)


def _problem_lines(
    problems: Iterable[Problem], line: int | None, as_json: bool | None = None
) -> Iterator[str]:
    as_json = _Stderr.json if as_json is None else as_json
    for each in problems:
        yield _problem_text(each.what, each.code, each.path, each.message, line, as_json=as_json)
        if not as_json:
            yield from each.detail


def _problem_block(as_json: bool, problems: Iterable[tuple[int, Iterable[Problem]]]) -> str:
    """The stderr lines of a chunk's (line, problems): the --jobs workers write them."""
    return "".join(f"{x}\n" for n, found in problems for x in _problem_lines(found, n, as_json))


def _problems(problems: Iterable[Problem], line: int | None) -> None:
    for text in _problem_lines(problems, line):
        print(text, file=sys.stderr)


_STATUS = {"converted": EXIT_VALID, "refused": EXIT_LOSSY, "failed": EXIT_UNREADABLE}


class _Outcome(NamedTuple):
    status: int
    output: Any = None
    report: dict[str, Any] | None = None
    #: The coded error that stopped it: (code, pointer, message).
    error: tuple[str, str, str] | None = None


def _convert_one(payload: Any, args: argparse.Namespace, line: int | None = None) -> _Outcome:
    """Convert one body (as `_read_payload` read it: `read_json` or `read_text`); every
    problem is reported on stderr, never raised."""
    from interlingua.datasets.body import Options, convert_body  # noqa: PLC0415

    losses = args.report is None  # else they go to the report file
    options = Options(
        args.source,
        args.target,
        args.kind,
        args.strict,
        args.thinking,
        losses,
        args.source_endpoint,
        args.target_endpoint,
    )
    done = convert_body(payload, options, read=True)  # read by `_read_payload`
    _problems(done.problems, line)
    error = None
    if done.error is not None:
        error = (done.error["code"], done.error["path"], done.error["message"])
    return _Outcome(_STATUS[done.status], done.output, done.report, error)


def _read_lines(stream: BinaryIO, limit: int) -> Iterator[tuple[int, bytes | InputError]]:
    """Number and bytes of each line as it arrives; a line past ``limit`` is an error, and
    is skipped without being held in memory."""
    number = 0
    while True:
        data = stream.readline(limit + 1)
        if not data:
            return
        number += 1
        if len(data) > limit and not data.endswith(b"\n"):
            while data and not data.endswith(b"\n"):
                data = stream.readline(limit + 1)
            yield number, InputError("input_too_large", f"line is longer than {limit} bytes")
            continue
        yield number, data


def _open_input(source: str) -> BinaryIO:
    if source == "-":
        return sys.stdin.buffer
    try:
        return open(source, "rb")  # closed by the caller
    except OSError as exc:
        raise InputError(
            "unreadable_input", f"cannot read {source}: {exc.strerror or exc}"
        ) from None


def _progress(stream: BinaryIO) -> Any:
    """A progress bar over the input's bytes on a terminal (tqdm), else None."""
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm  # type: ignore[import-untyped]  # noqa: PLC0415  # ships no types

    try:
        total: int | None = os.fstat(stream.fileno()).st_size or None
    except (OSError, ValueError):
        total = None
    tqdm.monitor_interval = 0  # no monitor thread: the --jobs workers can be forked
    return tqdm(total=total, unit="B", unit_scale=True, leave=False, file=sys.stderr)


def _live(stream: BinaryIO) -> bool:
    """Whether the input is a pipe or a terminal (a line may wait for its answer), not a file."""
    try:
        return not stat.S_ISREG(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError):
        return True


def _convert_stream(args: argparse.Namespace, report: IO[str] | None) -> int:
    """JSON Lines: output line N answers input line N, flushed as it is written.

    A line that cannot be read or converted gets, in its place, the error record
    ``{"error": {"code", "path", "message", "line"}}`` (and the coded error on stderr, with its
    line number); a blank line stays blank. The exit status is the worst seen: 2 for any bad
    line, else 1 for any loss in strict mode. With ``--report`` the file gets one line per
    output line, in step: the ConversionReport, or the same error record. A summary (lines,
    converted, failed, losses by code and by format pair) ends stderr; on a terminal a
    progress bar runs. ``--jobs`` processes convert (:mod:`interlingua.datasets`).
    """
    from functools import partial  # noqa: PLC0415

    from interlingua.datasets.body import Options  # noqa: PLC0415
    from interlingua.datasets.command import write_lines  # noqa: PLC0415

    try:
        stream = _open_input(args.input)
    except InputError as exc:
        _error(exc.code, exc.path, exc.message)
        return EXIT_UNREADABLE
    bar = _progress(stream)
    options = Options(
        args.source,
        args.target,
        args.kind,
        args.strict,
        args.thinking,
        report is None,  # the losses go to stderr unless a report file gets them
        args.source_endpoint,
        args.target_endpoint,
    )
    try:
        tally = write_lines(
            stream,
            options,
            sys.stdout,
            report=report,
            problems=sys.stderr,
            jobs=args.jobs,
            max_bytes=args.max_bytes,
            live=_live(stream),
            render=partial(_problem_block, _Stderr.json),
            progress=None if bar is None else lambda done: bar.update(done - bar.n),
        )
    finally:
        if bar is not None:
            bar.close()
        if stream is not sys.stdin.buffer:
            stream.close()
    print(tally.summary.line(_Stderr.json), file=sys.stderr)
    return max([EXIT_VALID, *(_STATUS[done] for done in tally.statuses)])


def _unwritable(path: str, exc: OSError) -> int:
    # Not a coded error: the input was fine, the report file is what cannot be written.
    print(f"error: cannot write the report to {path}: {exc.strerror or exc}", file=sys.stderr)
    return EXIT_UNREADABLE


def _write_report(path: str, report: dict[str, Any]) -> bool:
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    except OSError as exc:
        _unwritable(path, exc)
        return False
    return True


def _check_format(name: str, auto: bool = False, known: Iterable[str] | None = None) -> bool:
    """Whether ``name`` is a format (of ``known``, default every format); else the coded error
    unknown_format, with the closest name."""
    if (auto and name == AUTO) or name == CANONICAL:
        return True
    if known is None:
        from interlingua.conversion.converter import formats  # noqa: PLC0415

        known = formats()
    known = list(known)
    if name in known:
        return True
    _error(
        "unknown_format",
        "",
        f"no format {name!r}{_closest(name, known)}; known: {', '.join(known)}",
    )
    return False


def _quiet_library() -> None:
    """Every loss is reported by the command itself; keep the library's log lines off stderr."""
    quiet = logging.getLogger("interlingua.conversion.converter")
    if not any(isinstance(h, logging.NullHandler) for h in quiet.handlers):
        quiet.addHandler(logging.NullHandler())


def cmd_convert(args: argparse.Namespace) -> int:
    from interlingua.conversion.converter import KINDS, text_format  # noqa: PLC0415

    if not (
        _check_format(args.source, auto=True)
        and _check_format(args.target)
        and _check_choice("kind", args.kind, KINDS)
    ):
        return EXIT_UNREADABLE
    _quiet_library()
    if args.jsonl or args.input.endswith(".jsonl"):
        if args.report is None:
            return _convert_stream(args, None)
        try:
            report = open(args.report, "w", encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            return _unwritable(args.report, exc)
        with report:
            return _convert_stream(args, report)
    text = args.source != AUTO and text_format(args.source)
    payload = _read_payload(args.input, args.max_bytes, text=text)
    if payload is _UNREADABLE:
        return EXIT_UNREADABLE
    outcome = _convert_one(payload, args)
    if outcome.status == EXIT_VALID and isinstance(outcome.output, str):
        sys.stdout.write(outcome.output)  # a text format's document, as it is
    elif outcome.status == EXIT_VALID:
        print(json.dumps(outcome.output, indent=2, ensure_ascii=False))
    if (
        outcome.report is not None
        and args.report is not None
        and not _write_report(args.report, outcome.report)
    ):
        return EXIT_UNREADABLE
    return outcome.status


def _read_payload(
    source: str, max_bytes: int, *, text: bool = False, json_only: bool = False
) -> Any:
    """The parsed body, or _UNREADABLE after printing its coded error on stderr.

    ``text``: the input is a text format's document, read as a string. Otherwise an input
    that is not JSON and does not open like JSON is read as text too (a ChatML text, say:
    detection and the text formats tell whether it is one), unless ``json_only``."""
    try:
        data = _read_source(source, max_bytes)
        if text:
            return read_text(data, max_bytes=max_bytes)
        try:
            return read_json(data, max_bytes=max_bytes)
        except InputError as exc:
            if json_only or exc.code != "invalid_json" or looks_like_json(data):
                raise
            return read_text(data, max_bytes=max_bytes)
    except InputError as exc:
        _error(exc.code, exc.path, exc.message)
        return _UNREADABLE


def cmd_detect(args: argparse.Namespace) -> int:
    from interlingua.conversion.converter import KINDS  # noqa: PLC0415

    if not _check_choice("kind", args.kind, KINDS):
        return EXIT_UNREADABLE
    if args.jsonl or args.input.endswith(".jsonl"):
        lines: list[Any] = []
        worst, unreadable = _each_line(
            args, lambda payload, n: _print_detection(payload, args, n), lines
        )
        if unreadable:
            return worst
        if len(lines) > 1:
            # A memory kept one turn per line: the lines together are one list of turns,
            # and telling their format is enough, whatever single lines could be.
            together = _print_detection(lines, args, None, kind="messages", label="all lines: ")
            return min(worst, together)
        return worst
    payload = _read_payload(args.input, args.max_bytes)
    if payload is _UNREADABLE:
        return EXIT_UNREADABLE
    return _print_detection(payload, args, None)


def _print_detection(
    payload: Any,
    args: argparse.Namespace,
    line: int | None,
    *,
    kind: str | None = None,
    label: str | None = None,
) -> int:
    from interlingua.conversion.detector import detect  # noqa: PLC0415

    found = detect(payload, kind=kind or args.kind)
    if args.json and (line is not None or label is not None):
        where = {"line": line} if line is not None else {"lines": "all"}
        print(json.dumps({**where, **found.as_json()}, ensure_ascii=False))
    elif args.json:
        print(json.dumps(found.as_json(), indent=2, ensure_ascii=False))
    else:
        print(f"{label or _where(line)}{found.line()}")
        for rejection in found.rejections:
            print(f"  {rejection}")
    return EXIT_VALID if found.detected else EXIT_UNREADABLE


def cmd_formats(args: argparse.Namespace) -> int:
    from interlingua.conversion.converter import adapter, formats  # noqa: PLC0415

    rows = [(CANONICAL, "interlingua canonical documents (Conversation, Response)")]
    rows += [(name, adapter(name).title) for name in formats() if name != CANONICAL]
    if args.json:
        print(json.dumps([{"name": n, "title": t} for n, t in rows], indent=2, ensure_ascii=False))
    else:
        width = max(len(name) for name, _ in rows)
        for name, title in rows:
            print(f"{name.ljust(width)}  {title}")
    return EXIT_VALID


def cmd_stream(args: argparse.Namespace) -> int:
    from interlingua.streams.engine import StreamTranslator, stream_formats  # noqa: PLC0415
    from interlingua.streams.framing import lines as bounded_lines  # noqa: PLC0415

    known = stream_formats()
    for name in (args.source, args.target):
        if not _check_format(name, known=known[1:]):
            return EXIT_UNREADABLE
    try:
        raw = _open_input(args.input)
    except InputError as exc:
        _error(exc.code, exc.path, exc.message)
        return EXIT_UNREADABLE
    _quiet_library()
    translator = StreamTranslator(
        args.source,
        args.target,
        max_bytes=args.max_bytes,
        source_endpoint=args.source_endpoint,
        target_endpoint=args.target_endpoint,
    )
    shown = 0
    with raw:
        for line in bounded_lines(raw, args.max_bytes):  # bounded: a line with no end is refused
            text = translator.feed(line)
            if text:
                sys.stdout.write(text)
                sys.stdout.flush()
            if len(translator.losses) > shown:
                _losses(translator.losses[shown:])
                shown = len(translator.losses)
            if translator.ended:
                break  # what follows an error is not read (it may never end)
        sys.stdout.write(translator.close())
        sys.stdout.flush()
    _losses(translator.losses[shown:])
    if args.report:
        report = {
            "source": args.source,
            "target": args.target,
            "kind": "response",
            "losses": [loss.as_json() for loss in translator.losses],
        }
        if not _write_report(args.report, report):
            return EXIT_UNREADABLE
    return EXIT_INVALID if translator.failed else EXIT_VALID


def _pairs_one(payload: Any, args: argparse.Namespace, line: int | None = None) -> _Outcome:
    """One document's exchanges as JSON (`output`), its status, after the coded errors.

    Unless --from and --kind say it, each reading the payload validates as is tried in turn
    (best first): pairing needs one that reads all of it."""
    from interlingua.conversion import ConversionError  # noqa: PLC0415
    from interlingua.conversion.converter import to_canonical  # noqa: PLC0415
    from interlingua.conversion.detector import detect, readings  # noqa: PLC0415
    from interlingua.documents.exchanges import PAIRED, tool_exchanges  # noqa: PLC0415

    source, kind = args.source, args.kind
    among = None if source == AUTO else [source]
    tries = (
        [(source, kind)] if source != AUTO and kind else readings(payload, kind=kind, among=among)
    )
    if not tries:
        _undetected(detect(payload, kind=kind, among=among), line)
        return _Outcome(EXIT_UNREADABLE)
    first: ConversionError | None = None
    for source, kind in tries:
        try:
            document = to_canonical(payload, source, kind).output
            break
        except ConversionError as exc:
            first = first or exc
    else:
        assert first is not None
        _error(first.code, first.pointer, first.message, line)
        return _Outcome(EXIT_UNREADABLE)
    exchanges = tool_exchanges(document)
    status = EXIT_VALID if all(x.status in PAIRED for x in exchanges) else EXIT_INVALID
    output = {"format": source, "kind": kind, "exchanges": [x.as_json() for x in exchanges]}
    return _Outcome(status, output)


def _print_pairs(output: dict[str, Any], label: str) -> None:
    exchanges = output["exchanges"]
    counts = Counter(x["status"] for x in exchanges)
    summary = ", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "no tool calls"
    print(f"{label}{output['format']} {output['kind']}: {summary}")
    for x in exchanges:
        call = x.get("call", "-")
        result = x.get("result", "-")
        print(
            f"  {x['status']:<10} {x['id']}  {x.get('name') or '?'}  call {call}  result {result}"
        )


def cmd_pairs(args: argparse.Namespace) -> int:
    from interlingua.conversion.converter import KINDS  # noqa: PLC0415

    if not (_check_format(args.source, auto=True) and _check_choice("kind", args.kind, KINDS)):
        return EXIT_UNREADABLE
    _quiet_library()
    if args.memory:
        # One memory kept a turn per line: the lines together are its list of turns.
        turns: list[Any] = []
        worst, unreadable = _each_line(args, lambda payload, n: EXIT_VALID, turns)
        if unreadable:
            return worst
        args.kind = args.kind or "messages"
        return _print_pairs_one(turns, args, None)
    if args.jsonl or args.input.endswith(".jsonl"):
        worst, _ = _each_line(args, lambda payload, n: _print_pairs_one(payload, args, n))
        return worst
    payload = _read_payload(args.input, args.max_bytes)
    if payload is _UNREADABLE:
        return EXIT_UNREADABLE
    return _print_pairs_one(payload, args, None)


def _print_pairs_one(payload: Any, args: argparse.Namespace, line: int | None) -> int:
    outcome = _pairs_one(payload, args, line)
    if outcome.output is not None:
        if args.json and line is not None:
            print(json.dumps({"line": line, **outcome.output}, ensure_ascii=False))
        elif args.json:
            print(json.dumps(outcome.output, indent=2, ensure_ascii=False))
        else:
            _print_pairs(outcome.output, _where(line))
    return outcome.status


def _each_line(
    args: argparse.Namespace,
    one: Callable[[Any, int], int],
    parsed: list[Any] | None = None,
) -> tuple[int, bool]:
    """Run ``one`` on each JSON line of the input as it arrives (blank lines skipped, each
    bad line a coded error on stderr), flushing after each: the worst exit status, and
    whether some line (or the input) could not be read. The documents read are appended to
    ``parsed`` when given."""
    worst, unreadable = EXIT_VALID, False
    try:
        stream = _open_input(args.input)
    except InputError as exc:
        _error(exc.code, exc.path, exc.message)
        return EXIT_UNREADABLE, True
    with stream:
        for number, item in _read_lines(stream, args.max_bytes):
            if isinstance(item, InputError):
                _error(item.code, item.path, item.message, number)
                worst, unreadable = EXIT_UNREADABLE, True
                continue
            if not item.strip():
                continue
            try:
                payload = read_json(item, max_bytes=args.max_bytes)
            except InputError as exc:
                _error(exc.code, exc.path, exc.message, number)
                worst, unreadable = EXIT_UNREADABLE, True
                continue
            if parsed is not None:
                parsed.append(payload)
            worst = max(worst, one(payload, number))
            sys.stdout.flush()
    return worst, unreadable


def _register_pairs(commands: Any) -> None:
    audit = commands.add_parser(
        "pairs",
        help="list each tool call with its result, in any format",
        description="List every tool call of a document with the result that answers it, or "
        "`unanswered`; results that answer no call are `orphan`, second results `duplicate`. "
        "The document may be in any format (detected unless --from names it): a request or "
        "response body, or stored messages (one turn, a list of turns, or an object holding "
        "them, as agents keep their memories). With --jsonl, or an input named *.jsonl, every "
        "line is a document. Exit 0 when every call is answered and every result answers one, "
        "1 when not, 2 when an input cannot be read or placed.",
    )
    audit.add_argument("input", nargs="?", default="-", help="a JSON file, or - for stdin")
    audit.add_argument(
        "--from", dest="source", default="auto", metavar="FMT", help="format (default: auto)"
    )
    audit.add_argument("--kind", metavar="KIND", help=_KIND_HELP)
    audit.add_argument(
        "--json", action="store_true", help="print the exchanges, and any error, as JSON"
    )
    audit.add_argument("--jsonl", action="store_true", help="read one document per line")
    audit.add_argument(
        "--memory",
        action="store_true",
        help="JSON Lines of one memory, a turn per line: pair calls and results across lines",
    )
    audit.add_argument(
        "--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="refuse larger inputs"
    )
    audit.set_defaults(run=cmd_pairs)


def _register_stream(commands: Any) -> None:
    flow = commands.add_parser(
        "stream",
        help="translate a streamed response between formats",
        description="Read a raw streamed response (SSE or NDJSON, as the source format streams: "
        "an unknown format is refused with the list of those that stream) and write it in the "
        "target format's stream, each piece as soon as "
        "its input arrives. `canonical` streams are canonical events, one JSON object per line. "
        "Every loss goes to stderr as `loss: CODE at POINTER: REASON` (pointers are "
        "/<chunk>/...), or with --report to FILE. Exit 0 when the stream completed, 1 when it "
        "ended with an error (a provider error, a chunk that is not JSON, a truncated stream: "
        "written as the target's error chunk), 2 when the formats or the input are unusable.",
    )
    flow.add_argument("input", nargs="?", default="-", help="a stream file, or - for stdin")
    flow.add_argument("--from", dest="source", required=True, metavar="FMT", help="source format")
    flow.add_argument("--to", dest="target", required=True, metavar="FMT", help="target format")
    flow.add_argument("--report", metavar="FILE", help="write the losses as JSON to FILE")
    flow.add_argument("--json", action="store_true", help=_JSON_ERRORS_HELP)
    flow.add_argument(
        "--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="refuse longer lines and chunks"
    )
    for side, what in (("source", "the stream came from"), ("target", "the output goes to")):
        flow.add_argument(
            f"--{side}-endpoint",
            metavar="NAME",
            help=f"the provider endpoint {what} (e.g. vertex, gemini-api), where signatures differ",
        )
    flow.set_defaults(run=cmd_stream)


def _register_conversion(commands: Any) -> None:
    change = commands.add_parser(
        "convert",
        help="convert a request or response body between formats",
        description="Convert a request or response body from one format to another "
        "(`interlingua formats` lists them). The output goes to stdout (a text format such as "
        "chatml is read and written as text); every loss to stderr as `loss: CODE at POINTER: "
        "REASON`, or with --report to FILE as a ConversionReport. Exit 0 when converted, 1 when "
        "--strict refused a lossy conversion (its losses on stderr), 2 when the input cannot be "
        "read or is not a valid body (`error: CODE at PATH: MESSAGE` on stderr). With --jsonl, "
        "or an input named *.jsonl, every line is a body: output line N answers input line N, "
        "flushed as it is written; a bad line gets the record "
        '`{"error": {"code", "path", "message", "line"}}` in its place (and its coded error on '
        "stderr); a summary (lines, converted, failed, losses by code) ends stderr, a progress "
        "bar runs on a terminal, and the exit status is the worst seen. With --from, the first "
        "line's kind (or --kind) holds for every line: no line is run through detection. "
        "--jobs N converts the lines on N processes (default: every core), with the same "
        "output for any N.",
    )
    change.add_argument(
        "input",
        nargs="?",
        default="-",
        help="a JSON file (a text file for a text format such as chatml), or - for stdin",
    )
    change.add_argument(
        "--from",
        dest="source",
        required=True,
        metavar="FORMAT",
        help="format of the input, or auto to detect it",
    )
    change.add_argument(
        "--to", dest="target", required=True, metavar="FORMAT", help="format of the output"
    )
    change.add_argument(
        "--kind",
        metavar="KIND",
        help=f"{_KINDS} (default: what detection says, else request)",
    )
    change.add_argument(
        "--strict", action="store_true", help="fail (exit 1) rather than lose anything"
    )
    change.add_argument(
        "--thinking",
        choices=("drop", "text"),
        default="drop",
        help="what becomes of reasoning another provider issued (default: drop)",
    )
    for side, what in (("source", "the input came from"), ("target", "the output goes to")):
        change.add_argument(
            f"--{side}-endpoint",
            metavar="NAME",
            help=f"the provider endpoint {what} (e.g. vertex, gemini-api), where signatures differ",
        )
    change.add_argument("--report", metavar="FILE", help="write the ConversionReport JSON to FILE")
    change.add_argument(
        "--jsonl", action="store_true", help="the input is JSON Lines: convert each line"
    )
    change.add_argument("--json", action="store_true", help=_JSON_ERRORS_HELP)
    change.add_argument(
        "--max-bytes",
        type=int,
        default=DEFAULT_MAX_BYTES,
        help="refuse larger inputs (per line with --jsonl)",
    )
    change.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="JSON Lines: convert on N processes (default: every core); the output is the same",
    )
    change.set_defaults(run=cmd_convert)
    find = commands.add_parser(
        "detect",
        help="tell which format and kind a body is",
        description="Print `FORMAT KIND: REASON`, `ambiguous: A, B: REASON` or `unknown: REASON` "
        "(then each schema's first error). Exit 0 when detected, 2 otherwise. JSON Lines: one "
        "such line per input line (`line N: …`), then `all lines: …` for the lines taken "
        "together as one list of stored turns (an agent memory kept a turn per line); exit 0 "
        "when that, or every line, is detected.",
    )
    find.add_argument(
        "input", nargs="?", default="-", help="a JSON (or ChatML text) file, or - for stdin"
    )
    find.add_argument("--kind", metavar="KIND", help=f"only consider this kind ({_KINDS})")
    find.add_argument(
        "--json", action="store_true", help="print the detection, and any error, as JSON"
    )
    find.add_argument(
        "--jsonl",
        action="store_true",
        help="read one document per line (also for an input named *.jsonl): a detection per "
        "line, then one for all the lines taken as one list of stored turns",
    )
    find.add_argument(
        "--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="refuse larger inputs"
    )
    find.set_defaults(run=cmd_detect)
    listing = commands.add_parser("formats", help="list the formats convert knows")
    listing.add_argument("--json", action="store_true", help="print a JSON list")
    listing.set_defaults(run=cmd_formats)


_KINDS = "request, response or messages"
_KIND_HELP = f"which document: {_KINDS} (default: detected)"
_JSON_ERRORS_HELP = "write errors and losses to stderr as JSON objects, one per line"


def _add_reading(command: argparse.ArgumentParser) -> None:
    """--from, --max-bytes and --json of the commands that read a canonical document."""
    command.add_argument(
        "--from",
        dest="source",
        default=CANONICAL,
        metavar="FMT",
        help="format of the input: canonical (default), any format `interlingua formats` "
        "lists (read through its adapter), or auto to detect it",
    )
    command.add_argument(
        "--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="refuse larger inputs"
    )
    command.add_argument("--json", action="store_true", help=_JSON_ERRORS_HELP)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="interlingua", description="Work with interlingua documents."
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"interlingua {__version__} (schema v{SCHEMA_VERSION})",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser(
        "validate",
        help="validate a document",
        description="Validate a Conversation, Response or Message (or any named type); with "
        "--from, a body of any format read into its canonical document first. Exit 0 when "
        "valid, 1 when invalid (findings as a JSON list on stdout), 2 when the input cannot be "
        "read or used (a coded error on stderr).",
    )
    check.add_argument("file", help="path to a JSON file, or - for standard input")
    check.add_argument(
        "--type", metavar="TYPE", help="schema type (default: recognise the document)"
    )
    _add_reading(check)
    check.set_defaults(run=cmd_validate)
    show = commands.add_parser(
        "views",
        help="show the policy views of a document",
        description="Print one view per content part of a Conversation, Response or Message "
        "(with --from, a body of any format read into its canonical document first): a table, "
        "or with --opa one OPA input document per line. An unknown capability is refused.",
    )
    show.add_argument("file", help="path to a JSON file, or - for standard input")
    show.add_argument(
        "--capabilities", default="", help="comma-separated capabilities to grant (read_roles,…)"
    )
    _add_reading(show)
    show.add_argument("--opa", action="store_true", help="print OPA inputs as JSON lines")
    show.set_defaults(run=cmd_views)
    _register_conversion(commands)
    _register_stream(commands)
    _register_pairs(commands)
    gateway_cli.register(commands)
    service_cli.register(commands)
    store_cli.register(commands)
    migrate_cli.register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    _Stderr.json = bool(getattr(args, "json", False))
    try:
        code: int = args.run(args)
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_VALID
    return code

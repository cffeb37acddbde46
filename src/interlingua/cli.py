"""The `interlingua` command line.

``validate`` and ``views`` work on canonical documents; ``convert``, ``detect`` and
``formats`` on request and response bodies of every format (see :mod:`interlingua.converter`).
Exit codes: 0 done, 1 invalid document (``validate``) or a loss in strict mode
(``convert --strict``), 2 input that cannot be read or used (a coded error on stderr).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any, BinaryIO

from interlingua.conversion import ConversionError, ConversionResult, Loss, LossyConversionError
from interlingua.converter import (
    CANONICAL,
    KINDS,
    adapter,
    convert,
    formats,
    text_format,
    to_canonical,
)
from interlingua.detector import Detection, detect, readings
from interlingua.exchanges import PAIRED, tool_exchanges
from interlingua.framing import lines
from interlingua.gateway import cli as gateway_cli
from interlingua.generated.validators import VALIDATORS
from interlingua.reading import (
    DEFAULT_MAX_BYTES,
    InputError,
    looks_like_json,
    read_json,
    read_text,
)
from interlingua.streams import StreamTranslator, stream_formats
from interlingua.validation import detect_document, is_error, validate
from interlingua.view import views

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


def _read_document(source: str, max_bytes: int) -> Any:
    """The parsed document, or _UNREADABLE after printing its coded error on stderr."""
    try:
        return read_json(_read_source(source, max_bytes), max_bytes=max_bytes)
    except InputError as exc:
        print(json.dumps(exc.as_dict(), ensure_ascii=False), file=sys.stderr)
        return _UNREADABLE


def cmd_validate(args: argparse.Namespace) -> int:
    document = _read_document(args.file, args.max_bytes)
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


def _messages(document: Any) -> list[Any]:
    """The messages of a Conversation, Response or Message document."""
    kind = detect_document(document)
    if kind == "Conversation":
        return list(document["messages"])
    if kind == "Response":
        return [document["message"]]
    return [document]


def cmd_views(args: argparse.Namespace) -> int:
    document = _read_document(args.file, DEFAULT_MAX_BYTES)
    if document is _UNREADABLE:
        return EXIT_UNREADABLE
    errors = [f for f in validate(document) if is_error(f)]
    if errors:
        print(
            json.dumps([f.model_dump(mode="json", exclude_none=True) for f in errors], indent=2),
            file=sys.stderr,
        )
        return EXIT_INVALID
    capabilities = [c.strip() for c in args.capabilities.split(",") if c.strip()]
    rows = []
    for number, message in enumerate(_messages(document)):
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


def _error(code: str, path: str, message: str, line: int | None = None) -> None:
    print(f"error: {_where(line)}{code} at {path or '/'}: {message}", file=sys.stderr)


def _losses(losses: tuple[Loss, ...] | list[Loss], line: int | None = None) -> None:
    for loss in losses:
        print(
            f"loss: {_where(line)}{loss.code} at {loss.pointer or '/'}: {loss.reason}",
            file=sys.stderr,
        )


def _undetected(found: Detection, line: int | None = None) -> None:
    """The coded error for a body ``--from auto`` cannot place, with each schema's reason."""
    why = found.summary if found.status == "unknown" else found.reason
    _error("unknown_format", "", f"cannot tell the format: {why}", line)
    for rejection in found.rejections:
        print(f"  {rejection}", file=sys.stderr)
    if found.status == "ambiguous":
        print("  name the format with --from", file=sys.stderr)


@dataclass
class _Outcome:
    status: int
    output: Any = None
    report: dict[str, Any] | None = None


def _convert_one(payload: Any, args: argparse.Namespace, line: int | None = None) -> _Outcome:
    """Convert one body; every problem is reported on stderr, never raised."""
    source, kind, checked = args.source, args.kind, False
    if source == "auto":
        found = detect(payload, kind=kind)
        if not found.detected:
            _undetected(found, line)
            return _Outcome(EXIT_UNREADABLE)
        source, kind, checked = found.format, found.kind, True
    elif kind is None:
        found = detect(payload, among=[source])
        kind, checked = (found.kind, True) if found.detected else ("request", False)
    try:
        result = convert(
            payload,
            source,
            args.target,
            kind,
            strict=args.strict,
            thinking=args.thinking,
            validate_input=not checked,  # detection has just validated it against that schema
        )
    except LossyConversionError as exc:
        _losses(exc.losses, line)
        _error(exc.code, exc.pointer, exc.message, line)
        failed = ConversionResult(None, tuple(exc.losses), source, args.target, kind)
        return _Outcome(EXIT_LOSSY, report=failed.report())
    except ConversionError as exc:
        _error(exc.code, exc.pointer, exc.message, line)
        return _Outcome(EXIT_UNREADABLE)
    if args.report is None:
        _losses(result.losses, line)
    return _Outcome(EXIT_VALID, result.output, result.report())


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


def _convert_stream(args: argparse.Namespace, report: IO[str] | None) -> int:
    """JSON Lines: one output line per converted input line, flushed as it is written.

    A line that cannot be read or converted is reported on stderr with its number and
    skipped (no output line), and the stream goes on; blank lines are skipped silently.
    The exit status is the worst seen: 2 for any bad line, else 1 for any loss in strict
    mode. With ``--report`` the file gets one ConversionReport per output line, in step.
    """
    status = EXIT_VALID
    try:
        stream = _open_input(args.input)
    except InputError as exc:
        _error(exc.code, exc.path, exc.message)
        return EXIT_UNREADABLE
    try:
        for number, data in _read_lines(stream, args.max_bytes):
            if isinstance(data, bytes) and not data.strip():
                continue
            try:
                if isinstance(data, InputError):
                    raise data
                payload = read_json(data.rstrip(b"\r\n"), max_bytes=args.max_bytes)
            except InputError as exc:
                _error(exc.code, exc.path, exc.message, number)
                status = EXIT_UNREADABLE
                continue
            outcome = _convert_one(payload, args, number)
            status = max(status, outcome.status)
            if outcome.status == EXIT_VALID:
                print(json.dumps(outcome.output, ensure_ascii=False), flush=True)
                if report is not None:
                    print(json.dumps(outcome.report, ensure_ascii=False), file=report, flush=True)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    return status


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


def _check_format(name: str, auto: bool = False) -> bool:
    if (auto and name == "auto") or name == CANONICAL:
        return True
    try:
        adapter(name)
    except ConversionError as exc:
        _error(exc.code, exc.pointer, exc.message)
        return False
    return True


def _quiet_library() -> None:
    """Every loss is reported by the command itself; keep the library's WARN lines off stderr."""
    quiet = logging.getLogger("interlingua.converter")
    if not any(isinstance(h, logging.NullHandler) for h in quiet.handlers):
        quiet.addHandler(logging.NullHandler())


def cmd_convert(args: argparse.Namespace) -> int:
    if not (_check_format(args.source, auto=True) and _check_format(args.target)):
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
    text = args.source != "auto" and text_format(args.source)
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


def _read_payload(source: str, max_bytes: int, *, text: bool = False) -> Any:
    """The parsed body, or _UNREADABLE after printing its coded error on stderr.

    ``text``: the input is a text format's document, read as a string. Otherwise an input
    that is not JSON and does not open like JSON is read as text too (a ChatML text, say:
    detection and the text formats tell whether it is one)."""
    try:
        data = _read_source(source, max_bytes)
        if text:
            return read_text(data, max_bytes=max_bytes)
        try:
            return read_json(data, max_bytes=max_bytes)
        except InputError as exc:
            if exc.code != "invalid_json" or looks_like_json(data):
                raise
            return read_text(data, max_bytes=max_bytes)
    except InputError as exc:
        _error(exc.code, exc.path, exc.message)
        return _UNREADABLE


def cmd_detect(args: argparse.Namespace) -> int:
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
    known = stream_formats()
    for name in (args.source, args.target):
        if name not in known:
            _error(
                "unknown_format", "", f"no streaming format {name!r} (known: {', '.join(known)})"
            )
            return EXIT_UNREADABLE
    try:
        raw = _open_input(args.input)
    except InputError as exc:
        _error(exc.code, "", exc.message)
        return EXIT_UNREADABLE
    _quiet_library()
    translator = StreamTranslator(args.source, args.target, max_bytes=args.max_bytes)
    shown = 0
    with raw:
        for line in lines(raw, args.max_bytes):  # bounded: a line with no end is refused
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
    source, kind = args.source, args.kind
    among = None if source == "auto" else [source]
    tries = (
        [(source, kind)] if source != "auto" and kind else readings(payload, kind=kind, among=among)
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
    if not _check_format(args.source, auto=True):
        return EXIT_UNREADABLE
    _quiet_library()
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
    audit.add_argument("--kind", choices=KINDS, help="which document (default: detected)")
    audit.add_argument("--json", action="store_true", help="print the exchanges as JSON")
    audit.add_argument("--jsonl", action="store_true", help="read one document per line")
    audit.add_argument(
        "--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="refuse larger inputs"
    )
    audit.set_defaults(run=cmd_pairs)


def _register_stream(commands: Any) -> None:
    names = ", ".join(stream_formats())
    flow = commands.add_parser(
        "stream",
        help="translate a streamed response between formats",
        description=f"Read a raw streamed response (SSE or NDJSON, as the source format streams; "
        f"formats: {names}) and write it in the target format's stream, each piece as soon as "
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
    flow.add_argument(
        "--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="refuse longer lines and chunks"
    )
    flow.set_defaults(run=cmd_stream)


def _register_conversion(commands: Any) -> None:
    names = ", ".join(formats())
    change = commands.add_parser(
        "convert",
        help="convert a request or response body between formats",
        description=f"Convert a request or response body from one format to another (formats: "
        f"{names}). The output goes to stdout (a text format such as chatml is read and "
        "written as text); every loss to stderr as `loss: CODE at POINTER: "
        "REASON`, or with --report to FILE as a ConversionReport. Exit 0 when converted, 1 when "
        "--strict refused a lossy conversion (its losses on stderr), 2 when the input cannot be "
        "read or is not a valid body (`error: CODE at PATH: MESSAGE` on stderr). With --jsonl, "
        "or an input named *.jsonl, every line is a body: one output line per line, flushed as "
        "it is written; a bad line is reported with its number and skipped, and the exit status "
        "is the worst seen.",
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
        choices=KINDS,
        help="request or response (default: what detection says, else request)",
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
    change.add_argument("--report", metavar="FILE", help="write the ConversionReport JSON to FILE")
    change.add_argument(
        "--jsonl", action="store_true", help="the input is JSON Lines: convert each line"
    )
    change.add_argument(
        "--max-bytes",
        type=int,
        default=DEFAULT_MAX_BYTES,
        help="refuse larger inputs (per line with --jsonl)",
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
    find.add_argument("--kind", choices=KINDS, help="only consider requests or responses")
    find.add_argument("--json", action="store_true", help="print the detection as a JSON object")
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="interlingua", description="Work with interlingua documents."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser(
        "validate",
        help="validate a document",
        description="Validate a Conversation, Response or Message (or any named type). Exit 0 when "
        "valid, 1 when invalid (findings as a JSON list on stdout), 2 when the input cannot be "
        "read as JSON (a coded error on stderr).",
    )
    check.add_argument("file", help="path to a JSON file, or - for standard input")
    check.add_argument(
        "--type", choices=sorted(VALIDATORS), help="schema type (default: recognise the document)"
    )
    check.add_argument(
        "--max-bytes", type=int, default=DEFAULT_MAX_BYTES, help="refuse larger inputs"
    )
    check.set_defaults(run=cmd_validate)
    show = commands.add_parser(
        "views",
        help="show the policy views of a document",
        description="Print one view per content part of a Conversation, Response or Message: "
        "a table, or with --opa one OPA input document per line.",
    )
    show.add_argument("file", help="path to a JSON file, or - for standard input")
    show.add_argument(
        "--capabilities", default="", help="comma-separated capabilities to grant (read_roles,…)"
    )
    show.add_argument("--opa", action="store_true", help="print OPA inputs as JSON lines")
    show.set_defaults(run=cmd_views)
    _register_conversion(commands)
    _register_stream(commands)
    _register_pairs(commands)
    gateway_cli.register(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as Unix tools do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_VALID
    return code

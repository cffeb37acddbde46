"""The real-traffic corpus (`conformance/real/`): bodies recorded or published by others, each
checked by cases of its own.

A request, response or stored-messages body is checked three ways: it reads (`read`), it
comes back exactly from a round trip to its own format (`roundtrip`), and it converts to every
other format that has its kind, each output valid against the target's wire schema (`cross`).
A raw stream transcript reads (`read`: translated to canonical events without an error) and
translates to every streaming format, each chunk written valid for the target (`stream`).

Case ids are `real.<format>.<kind>.<name>.<check>`, one check each, so a body listed as an
expected failure for one check is still held to the others: a body that reads today and stops
reading fails the run.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from conformance.cases import Case, CaseFileError
from conformance.compare import same
from conformance.protocol import Outcome

REAL = Path(__file__).resolve().parent / "real"
MANIFEST_SCHEMA = Path(__file__).resolve().parent / "cases" / "real-manifest.schema.json"
CHECKS = {
    "request": ("read", "roundtrip", "cross"),
    "response": ("read", "roundtrip", "cross"),
    "messages": ("read", "roundtrip", "cross"),
    "stream": ("read", "stream"),
}


@dataclass(frozen=True)
class Body:
    """One body of the corpus and where it came from."""

    file: str
    format: str
    kind: str
    source: dict[str, str]
    licence: str
    notes: str

    @property
    def name(self) -> str:
        return self.file.rsplit("/", 1)[1].rsplit(".", 1)[0]

    @property
    def ext(self) -> str:
        return self.file.rsplit(".", 1)[1]

    @property
    def document(self) -> str:
        """The kind of document `convert` takes for it (a stream reassembles a response)."""
        return "response" if self.kind == "stream" else self.kind


def quiet_losses() -> None:
    """Keep the loss log off the console: a run reports losses in its results, and the corpus
    alone would print tens of thousands of them."""
    logging.getLogger("interlingua").addHandler(logging.NullHandler())


def load_manifest(root: Path = REAL) -> list[Body]:
    """The manifest's entries, checked against its schema and against the files: one entry per
    file and one file per entry, each under the directories its format and kind name."""
    try:
        manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CaseFileError(f"{root / 'manifest.json'}: {exc}") from None
    schema = json.loads(MANIFEST_SCHEMA.read_text(encoding="utf-8"))
    problems = list(Draft202012Validator(schema).iter_errors(manifest))
    if problems:
        where = "/".join(str(p) for p in problems[0].absolute_path)
        raise CaseFileError(f"{root / 'manifest.json'} at /{where}: {problems[0].message}")
    bodies = [Body(**entry) for entry in manifest["bodies"]]
    listed = [body.file for body in bodies]
    on_disk = sorted(str(p.relative_to(root)) for p in root.glob("*/*/*") if p.is_file())
    if len(set(listed)) != len(listed):
        raise CaseFileError(f"{root / 'manifest.json'}: a file is listed twice")
    unlisted, missing = sorted(set(on_disk) - set(listed)), sorted(set(listed) - set(on_disk))
    if unlisted or missing:
        raise CaseFileError(
            f"{root}: files without a manifest entry {unlisted[:5]}, "
            f"entries without a file {missing[:5]}"
        )
    for body in bodies:
        if body.file.split("/")[:2] != [body.format, body.kind]:
            raise CaseFileError(f"{body.file}: format and kind must match its directories")
    return bodies


def payload(body: Body, root: Path = REAL) -> Any:
    """The body as the functions take it: parsed JSON, or the text of a text format or a
    stream."""
    text = (root / body.file).read_text(encoding="utf-8")
    return json.loads(text) if body.ext == "json" else text


def load_real_cases(root: Path = REAL) -> list[Case]:
    """Every check of every body, as cases of kind `real` (group `real/<format>/<kind>`)."""
    from interlingua.conversion.converter import formats, kinds  # noqa: PLC0415 - the runner's own use

    cases = []
    for body in load_manifest(root):
        wire = payload(body, root)
        others = [f for f in formats() if f != "canonical" and body.document in kinds(f)]
        others.remove(body.format)
        for check in CHECKS[body.kind]:
            function, arguments = _call(body, check, wire, others)
            cases.append(
                Case(
                    id=f"real.{body.format}.{body.kind}.{body.name}.{check}",
                    kind="real",
                    group=f"real/{body.format}/{body.kind}",
                    level="required",
                    description=f"{check}: {body.file} ({body.source.get('repository', '')})",
                    function=function,
                    input=arguments,
                    expected=wire if check == "roundtrip" else None,
                    format=body.format,
                    check=check,
                )
            )
    return cases


def _call(body: Body, check: str, wire: Any, others: list[str]) -> tuple[str, dict[str, Any]]:
    """The function one check calls, and its input."""
    from interlingua.streams.engine import stream_formats  # noqa: PLC0415

    if check == "roundtrip":
        return "roundtrip", {"format": body.format, "kind": body.kind, "wire": wire}
    if body.kind == "stream":
        framing = "sse" if body.ext == "sse" else "ndjson"
        targets = ["canonical"] if check == "read" else stream_formats()[1:]
        return "translate_stream", {
            "source": body.format,
            "targets": targets,
            "text": wire,
            "framing": framing,
        }
    targets = ["canonical"] if check == "read" else others
    return "convert_many", {
        "source": body.format,
        "targets": targets,
        "kind": body.document,
        "payload": wire,
    }


def judge(case: Case, outcome: Outcome) -> tuple[bool, str]:
    """Whether one check of a real body passed, and if not, why (coded, one line)."""
    if outcome.broken or outcome.skipped or outcome.error is not None:
        if outcome.error is not None:
            return False, _error(outcome.error)
        return False, f"implementation error: {outcome.broken or outcome.skipped}"
    output: Any = outcome.output
    if case.check == "roundtrip":
        if same(output.get("wire"), case.expected):
            return True, ""
        return False, "not_exact: the round trip to its own format changed the body"
    problems: dict[str, list[str]] = {}  # problem -> the targets that have it
    for target, answer in output.items():
        problem = (
            _stream_problem(answer, target)
            if case.function == "translate_stream"
            else _convert_problem(answer, target, case.input["kind"])
        )
        if problem:
            problems.setdefault(problem, []).append(target)
    if not problems:
        return True, ""
    if case.check == "read":  # one target, canonical
        return False, "; ".join(problems)
    if len(problems) == 1 and len(next(iter(problems.values()))) == len(output):
        return False, f"every target: {next(iter(problems))}"  # the body itself is the problem
    return False, "; ".join(f"{', '.join(t)}: {p}" for p, t in problems.items())


def _error(error: dict[str, Any]) -> str:
    details = error.get("details") or {}
    message = str(details.get("message", ""))[:160]
    return f"{error.get('code')} at {details.get('path', '') or '/'}" + (
        f" ({message})" if message else ""
    )


def _convert_problem(answer: dict[str, Any], target: str, kind: str) -> str:
    """A conversion's problem: its coded error, or an output the target's wire schema refuses
    (the schema itself, not the reading schema's tolerance: an output is held to what the
    provider takes)."""
    from interlingua.conversion import ConversionError  # noqa: PLC0415
    from interlingua.conversion.converter import check_wire  # noqa: PLC0415

    if "error" in answer:
        return _error(answer["error"])
    if target == "canonical":
        return ""
    try:
        check_wire(answer["output"], target, kind, strict=True)  # what we write: its contract
    except ConversionError as exc:
        return f"invalid_output: {exc.code} at {exc.pointer or '/'} ({exc.message[:160]})"
    return ""


def _stream_problem(answer: dict[str, Any], target: str) -> str:
    """A translated stream's problem: it failed (ended with an error), or a chunk the target's
    wire schema refuses."""
    from interlingua.streams.engine import spec  # noqa: PLC0415
    from interlingua.streams.framing import parser  # noqa: PLC0415

    text = answer["text"]
    done = None if target == "canonical" else spec(target).done
    chunks = parser("ndjson" if target == "canonical" else spec(target).framing)
    payloads = [p for line in text.splitlines(keepends=True) for p in chunks.feed(line)]
    payloads = [p for p in [*payloads, *chunks.close()] if p != done]
    if answer["failed"]:
        problem = _error(answer["error"]) if "error" in answer else _stream_error(target, payloads)
        # The provider's own failure (a recorded stream that ends with the provider's error
        # event), relayed as an error: the translation did its job; what it wrote is checked.
        if not problem.startswith("provider_error "):
            return problem
    if target == "canonical":
        return ""
    accepts, validator = _chunk_checker(target), _chunk_validator(target)
    for index, raw in enumerate(payloads):
        chunk = json.loads(raw)
        if accepts(chunk):
            continue
        error = best_match(validator.iter_errors(chunk))
        if error is not None:
            where = "".join(f"/{p}" for p in error.absolute_path) or "/"
            return f"invalid_output: chunk {index}: {error.validator} at {where}"
    return ""


def _stream_error(target: str, payloads: list[str]) -> str:
    """The coded error a failed translation ended with (canonical: its error event)."""
    if target == "canonical":
        for raw in payloads:
            event = json.loads(raw)
            if event.get("type") == "error":
                return _error({"code": event["error"].get("code"), "details": event["error"]})
    return f"failed, ending {payloads[-1][:160] if payloads else ''!r}"


@cache
def _chunk_checker(target: str) -> Callable[[Any], bool]:
    """Whether a chunk is valid, by jsonschema-rs: a corpus run checks some twenty thousand
    chunks, and python-jsonschema's reading of each took most of it (57 of 68 s, profiled).
    That one says where a chunk is invalid."""
    schemas = _chunk_schemas(target)
    registry = jsonschema_rs.Registry(
        [(schema.get("$id", name), schema) for name, schema in schemas.items()]
    )
    is_valid: Callable[[Any], bool] = jsonschema_rs.validator_for(
        schemas[_chunk_schema_name(schemas)], registry=registry
    ).is_valid
    return is_valid


@cache
def _chunk_schemas(target: str) -> dict[str, Any]:
    """``target``'s wire schemas by file name (a chunk's refers to its response's)."""
    folder = files("interlingua.generated").joinpath("wire_schemas", target)
    return {
        item.name: json.loads(item.read_text(encoding="utf-8"))
        for item in folder.iterdir()
        if item.name.endswith(".json")
    }


def _chunk_schema_name(schemas: dict[str, Any]) -> str:
    """The schema of one chunk (Gemini streams whole responses)."""
    return "stream.json" if "stream.json" in schemas else "response.json"


@cache
def _chunk_validator(target: str) -> Draft202012Validator:
    """The wire schema of one chunk of ``target``'s stream, to locate a chunk's error."""
    schemas = _chunk_schemas(target)
    registry: Registry[Any] = Registry().with_resources(
        (schema.get("$id", name), DRAFT202012.create_resource(schema))
        for name, schema in schemas.items()
    )
    return Draft202012Validator(schemas[_chunk_schema_name(schemas)], registry=registry)

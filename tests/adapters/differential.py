"""Two conversion paths, the same answers: the differential check.

A *path* is any callable converting ``(payload, source, target, kind)`` the way
``interlingua.convert`` does (a result with ``output``, ``losses``, ``id_map``, ``name_map``, or
a ``ConversionError``). :func:`outcomes` runs one path over a corpus of bodies, every body to
every target that has its kind (its own format and canonical included, so round-trip data is
written and applied), and every canonical result on to every format again; :func:`differences`
compares two such runs: output (its keys' order too), losses (pointer, code, reason, part
type, in order), ``id_map``
and ``name_map``, or the error's code, pointer and message.

The corpus: every conformance case's body (``conformance/cases/**``), every body of the
real-traffic corpus (``conformance/real/**``), generated conversations
(``interlingua.documents.synthetic``) and any extra bodies given (property-generated ones, saved).

Two implementations living side by side in one tree (a fused pair converter beside the
two-step path) compare in-process (``tests/adapters/test_differential.py``). Two trees (an old
engine against its replacement) compare through files:

    PYTHONPATH=<old>/src:<old> python -m tests.adapters.differential dump old.pickle
    PYTHONPATH=<new>/src:<new> python -m tests.adapters.differential dump new.pickle
    python -m tests.adapters.differential compare old.pickle new.pickle
"""

from __future__ import annotations

import json
import pickle
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from interlingua.conversion import ConversionError
from interlingua.conversion.converter import convert, formats, kinds

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "conformance" / "cases"
REAL = ROOT / "conformance" / "real"

Body = tuple[str, Any, str, str]  # label, payload, source format, kind
ConvertPath = Callable[[Any, str, str, str], Any]
Outcome = tuple[Any, ...]


def conformance_bodies(root: Path = CASES) -> Iterator[Body]:
    """The body of every conversion case (the wire or canonical input it starts from)."""
    for path in sorted(root.glob("*/*.json")):
        if path.name.endswith("schema.json"):
            continue
        document = json.loads(path.read_text(encoding="utf-8"))
        fmt = document["format"]
        for case in document["cases"]:
            kind = case.get("document")
            if case["kind"] == "roundtrip":
                yield case["id"], case["wire"], fmt, kind
            elif case["kind"] != "stream" and "input" in case:
                yield case["id"], case["input"], case.get("source", fmt), kind


def real_bodies(root: Path = REAL) -> Iterator[Body]:
    """Every request and response body of the real-traffic corpus (streams are left to the
    conformance run: they do not go through the turn layout as a whole body)."""
    manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    for entry in manifest["bodies"]:
        if entry["kind"] == "stream":
            continue
        text = (root / entry["file"]).read_text(encoding="utf-8")
        payload = json.loads(text) if entry["file"].endswith(".json") else text
        yield entry["file"], payload, entry["format"], entry["kind"]


def synthetic_bodies(count: int, seed: int = 0) -> Iterator[Body]:
    """Generated canonical conversations (tools, parallel calls, images, long histories)."""
    from interlingua.documents.synthetic import corpus

    for i, conversation in enumerate(corpus(count, seed)):
        yield f"synthetic/{seed}/{i}", conversation, "canonical", "request"


def in_order(value: Any) -> Any:
    """``value`` with each object a tuple of its members in order, so that two outputs
    compare equal only with their keys in the same order: a body's bytes, and so what a
    provider's prompt cache matches, depend on it."""
    if isinstance(value, dict):
        return ("{}", tuple((key, in_order(item)) for key, item in value.items()))
    if isinstance(value, list):
        return [in_order(item) for item in value]
    return value


def outcome(path: ConvertPath, payload: Any, source: str, target: str, kind: str) -> Outcome:
    """What one conversion gives, as plain data: everything the two paths must agree on."""
    return _outcome_and_output(path, payload, source, target, kind)[0]


def _outcome_and_output(
    path: ConvertPath, payload: Any, source: str, target: str, kind: str
) -> tuple[Outcome, Any]:
    try:
        result = path(payload, source, target, kind)
    except ConversionError as exc:
        return ("error", exc.code, exc.pointer, exc.message), None
    losses = [(x.pointer, x.code, x.reason, x.part_type) for x in result.losses]
    found = ("ok", in_order(result.output), losses, dict(result.id_map), dict(result.name_map))
    return found, result.output


def outcomes(path: ConvertPath, bodies: Iterable[Body]) -> dict[str, Outcome]:
    """Every body through ``path`` to every target of its kind; each canonical result (round-trip
    data included) on to every format again."""
    out: dict[str, Outcome] = {}
    every = formats()
    for label, payload, source, kind in bodies:
        if kind not in kinds(source):
            continue
        for target in every:
            if kind not in kinds(target):
                continue
            got, output = _outcome_and_output(path, payload, source, target, kind)
            out[f"{label} {source}->{target}"] = got
            if target != "canonical" or got[0] != "ok":
                continue
            for onward in every:
                if onward != "canonical" and kind in kinds(onward):
                    key = f"{label} {source}->canonical->{onward}"
                    out[key] = outcome(path, output, "canonical", onward, kind)
    return out


def differences(a: dict[str, Outcome], b: dict[str, Outcome]) -> list[str]:
    """Where two runs disagree (a conversion only one of them made counts)."""
    found = [f"only in one run: {key}" for key in sorted(a.keys() ^ b.keys())]
    for key in sorted(a.keys() & b.keys()):
        if a[key] != b[key]:
            found.append(f"{key}:\n  a: {repr(a[key])[:600]}\n  b: {repr(b[key])[:600]}")
    return found


def default_bodies(synthetic: int = 200, extra: Path | None = None) -> list[Body]:
    bodies = [*conformance_bodies(), *real_bodies(), *synthetic_bodies(synthetic)]
    if extra is not None:
        for i, (payload, source, kind) in enumerate(json.loads(extra.read_text())):
            bodies.append((f"extra/{i}", payload, source, kind))
    return bodies


def _convert(payload: Any, source: str, target: str, kind: str) -> Any:
    return convert(payload, source, target, kind)


def main(argv: list[str]) -> int:
    import logging

    logging.getLogger("interlingua").addHandler(logging.NullHandler())
    logging.getLogger("interlingua").propagate = False
    if argv[:1] == ["dump"]:
        extra = Path(argv[2]) if len(argv) > 2 else None
        bodies = default_bodies(extra=extra)
        result = outcomes(_convert, bodies)
        Path(argv[1]).write_bytes(pickle.dumps(result))
        errors = sum(1 for v in result.values() if v[0] == "error")
        print(f"{len(bodies)} bodies, {len(result)} conversions ({errors} coded errors)")
        return 0
    if argv[:1] == ["compare"]:
        a = pickle.loads(Path(argv[1]).read_bytes())
        b = pickle.loads(Path(argv[2]).read_bytes())
        found = differences(a, b)
        print("\n".join(found[:20]))
        print(f"{len(a)} / {len(b)} conversions, {len(found)} differences")
        return 1 if found else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

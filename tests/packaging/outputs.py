"""Every conversion of every conformance body, in full: each body of the conversion cases and
of the real-traffic corpus converted from its format to the canonical form and to every format
that has its kind of body,
with the output, the losses (pointer, code, reason, part type, in order), ``id_map`` and
``name_map``, or the coded error. And every detection of those bodies: the answer with its
reason (``detect``'s walks through the schemas) and the verdict alone (``explain=False``).

test_compiled.py runs this file with the compiled wheel's interpreter, outside the checkout,
and compares with what the pure-Python source gives in-process: the two must be equal. It
imports only what an installed wheel holds.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from conformance.cases import load_cases
from conformance.real import load_real_cases, quiet_losses
from interlingua.conversion import ConversionError
from interlingua.conversion.converter import convert, kinds
from interlingua.conversion.detector import detect
from interlingua.generated.adapters import ADAPTERS


def one(payload: Any, source: str, target: str, kind: str, options: dict[str, Any]) -> Any:
    try:
        result = convert(payload, source, target, kind, **options)
    except ConversionError as exc:
        return {"error": exc.as_json()}
    return {
        "output": result.output,
        "losses": [loss.as_json() for loss in result.losses],
        "id_map": dict(result.id_map),
        "name_map": dict(result.name_map),
        # the path taken: a compiled fused pair that fails where the pure one runs would
        # still answer the same (through the two-step path), only slower
        "fused": result.fused,
    }


def bodies() -> dict[str, tuple[Any, str, str, dict[str, Any]]]:
    """Case id → (body, its format, its kind, conversion options), each body once."""
    found: dict[str, tuple[Any, str, str, dict[str, Any]]] = {}
    seen: set[str] = set()
    for case in [*load_cases(), *load_real_cases()]:
        given = case.input
        if case.function in ("convert", "convert_many"):
            body = (given["payload"], given["source"], given["kind"], given.get("options", {}))
        elif case.function == "roundtrip":
            body = (given["wire"], given["format"], given["kind"], {})
        else:
            continue
        key = json.dumps(body, sort_keys=True)
        if key not in seen:
            seen.add(key)
            found[case.id] = body
    return found


def outputs() -> dict[str, Any]:
    """Case id → target → what the conversion gave."""
    quiet_losses()
    answers: dict[str, Any] = {}
    for case_id, (payload, source, kind, options) in bodies().items():
        targets = ["canonical", *(name for name in ADAPTERS if kind in kinds(name))]
        answers[case_id] = {
            target: one(payload, source, target, kind, options) for target in targets
        }
    return answers


def found(payload: Any, *, explain: bool) -> Any:
    try:
        return detect(payload, explain=explain).as_json()
    except ConversionError as exc:
        return {"error": exc.as_json()}


def detections() -> dict[str, Any]:
    """Case id → what ``detect`` answers of its body, explained and not."""
    return {
        case_id: {
            "explained": found(payload, explain=True),
            "verdict": found(payload, explain=False),
        }
        for case_id, (payload, *_) in bodies().items()
    }


if __name__ == "__main__":
    answer = detections() if sys.argv[1:] == ["detections"] else outputs()
    json.dump(answer, sys.stdout, sort_keys=True, default=str)

"""Examples: `schemas/examples/<Type>/<case>.json`, each valid against `$defs/<Type>`.

The generator checks them with `jsonschema` (an independent validator, so the bundle itself is
tested) before it writes anything; the tests check them again with the generated validators
and models.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from generator.lint import Finding
from generator.paths import EXAMPLES


def iter_examples(root: Path = EXAMPLES) -> Iterator[tuple[str, Path]]:
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        for path in sorted(folder.glob("*.json")):
            yield folder.name, path


def check_examples(bundle: dict[str, Any], root: Path = EXAMPLES) -> list[Finding]:
    findings = []
    for type_name, path in iter_examples(root):
        where = path.relative_to(root.parent).as_posix()
        if type_name not in bundle["$defs"]:
            findings.append(Finding(where, "IL015", "violation", f"no type named {type_name}"))
            continue
        schema = {**bundle, "$ref": f"#/$defs/{type_name}"}
        schema.pop("oneOf", None)
        try:
            instance = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            findings.append(Finding(where, "IL015", "violation", f"not JSON: {exc}"))
            continue
        for error in Draft202012Validator(schema).iter_errors(instance):
            pointer = "/" + "/".join(str(p) for p in error.absolute_path)
            findings.append(Finding(f"{where}#{pointer}", "IL015", "violation", error.message[:200]))
    return findings

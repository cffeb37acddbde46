"""Examples: `schemas/examples/<Type>/<case>.json`, each valid against `$defs/<Type>`.

The generator checks them with `jsonschema` (an independent validator, so the bundle itself is
tested) before it writes anything; the tests check them again with the generated validators
and models.
"""

from __future__ import annotations

import json
import sys
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
            findings.append(
                Finding(f"{where}#{pointer}", "IL015", "violation", error.message[:200])
            )
    return findings


def check_with_runtime(root: Path = EXAMPLES) -> list[str]:
    """Check every example with the generated validator and the generated model (round trip).

    Runs after generation, on the freshly generated code. Warnings are allowed (an example may
    show an unknown part being kept); errors and round-trip differences are not.
    """
    # Imported here: the generated package does not exist until the first generation.
    from pydantic import TypeAdapter  # noqa: PLC0415

    from interlingua.documents.validation import is_error, validate  # noqa: PLC0415
    from interlingua.generated import models  # noqa: PLC0415

    problems = []
    for type_name, path in iter_examples(root):
        where = path.relative_to(root.parent).as_posix()
        instance = json.loads(path.read_text(encoding="utf-8"))
        errors = [
            f"{where}: {f.code} at {f.path}: {f.message}"
            for f in validate(instance, type_name)
            if is_error(f)
        ]
        if errors:  # the model would refuse it too; its round trip says nothing more
            problems += errors
            continue
        adapter: TypeAdapter[Any] = TypeAdapter(getattr(models, type_name))
        dumped = adapter.dump_python(
            adapter.validate_python(instance), mode="json", exclude_none=True
        )
        if dumped != instance:
            problems.append(f"{where}: model round trip changed the document")
    return problems


def main() -> int:
    problems = check_with_runtime()
    for problem in problems:
        print(problem, file=sys.stderr)
    count = sum(1 for _ in iter_examples())
    print(
        f"{count} examples checked with the generated validators and models: "
        f"{len({p.split(':')[0] for p in problems})} with problems"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""`python -m generator [--check]`: regenerate everything from schemas/, or verify it is current."""

from __future__ import annotations

import argparse
import difflib
import shutil
import sys
import tempfile
from pathlib import Path

from generator.adapters import load_mappings
from generator.bundle import build_bundle
from generator.compat import check_release, check_versions
from generator.environment import COMMAND, header
from generator.examples import check_examples
from generator.lint import lint
from generator.load import SchemaLoadError, load
from generator.manifest import render_all
from generator.only_lists import lint_only_lists
from generator.paths import OWNED_DIRS, ROOT, SCHEMAS, SEED_COVERAGE, VERSIONS
from generator.reading import lint_formats


def generate(root: Path) -> list[Path]:
    """Load, lint, bundle and render every version into ``root``. Raises on violations."""
    written: list[Path] = []
    for version in VERSIONS:
        sources = load(version)
        bundle = build_bundle(sources, header(sources.digest, "").replace("\n ", " ").strip())
        findings = lint(sources, bundle) + check_examples(bundle) + lint_formats(SCHEMAS)
        findings += check_release(version, bundle) + check_versions(version, bundle)
        findings += lint_only_lists(SCHEMAS, [(m.format, m.data) for m in load_mappings()])
        for finding in findings:
            print(finding, file=sys.stderr)
        if any(f.level == "violation" for f in findings):
            raise SchemaLoadError(
                f"{sum(f.level == 'violation' for f in findings)} lint violation(s)"
            )
        written += render_all(sources, bundle, root)
    return written


def _owned_files(root: Path) -> set[Path]:
    files = {Path(SEED_COVERAGE)} if (root / SEED_COVERAGE).exists() else set()
    for folder in OWNED_DIRS:
        files |= {
            p.relative_to(root)
            for p in (root / folder).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts
        }
    return files


def write(root: Path) -> list[Path]:
    """Generate into a scratch tree, then replace the outputs under ``root`` in one step.

    Nothing under ``root`` changes when generation fails, and files the generator no longer
    writes do not linger.
    """
    with tempfile.TemporaryDirectory() as tmp:
        written = generate(Path(tmp))
        for stale in _owned_files(root):
            (root / stale).unlink()
        for rel in written:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(Path(tmp) / rel, root / rel)
    return written


def check(root: Path = ROOT) -> int:
    """Regenerate into a temporary tree and diff it against ``root`` (the repository)."""
    with tempfile.TemporaryDirectory() as tmp:
        generate(Path(tmp))
        return report_drift(Path(tmp), root)


def report_drift(fresh: Path, root: Path) -> int:
    """Print how the generated files under ``root`` differ from the ``fresh`` ones, as a
    unified diff; 1 when any does (with the command that fixes it), else 0."""
    drift = []
    for rel in sorted(_owned_files(fresh) | _owned_files(root)):
        new, old = fresh / rel, root / rel
        new_text = new.read_text(encoding="utf-8").splitlines(keepends=True) if new.exists() else []
        old_text = old.read_text(encoding="utf-8").splitlines(keepends=True) if old.exists() else []
        if new_text != old_text:
            drift.append(rel)
            sys.stdout.writelines(
                difflib.unified_diff(old_text, new_text, f"a/{rel}", f"b/{rel}", n=2)
            )
    if drift:
        print(f"\n{len(drift)} generated file(s) out of date. Fix with: {COMMAND}", file=sys.stderr)
        return 1
    print("generated files are up to date")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__)
    parser.add_argument("--check", action="store_true", help="fail (exit 1) if generated/ is stale")
    args = parser.parse_args(argv)
    try:
        if args.check:
            return check()
        written = write(ROOT)
    except SchemaLoadError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {len(written)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())

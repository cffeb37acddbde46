"""The manifest (generator/manifest.py): one list says every file the generator writes, from
which template, to which path."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

import pytest

from generator import manifest
from generator.bundle import build_bundle
from generator.environment import environment
from generator.load import Sources, load
from generator.manifest import MANIFEST, Output
from generator.paths import OWNED_DIRS, SEED_COVERAGE, TEMPLATES
from generator.render import Files, Inputs


def test_every_template_named_exists() -> None:
    for output in MANIFEST:
        if output.template is not None:
            assert (TEMPLATES / output.template).is_file(), output


def test_every_python_template_is_in_the_manifest() -> None:
    """A template no entry names (nor includes or imports macros from: the turn code an
    adapter module includes) is dead code; one named twice would be ambiguous."""
    named = [o.template for o in MANIFEST if o.template and o.template.startswith("python/")]
    included = {
        name
        for template in set(named)
        for name in re.findall(
            r"{%-? (?:include|from|import) \"([^\"]+)\"", (TEMPLATES / template).read_text()
        )
    }
    assert len(named) == len(set(named))
    on_disk = sorted(p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.glob("python/*.j2"))
    assert sorted({*named, *included}) == on_disk


def test_every_output_lands_where_the_generator_owns_files() -> None:
    """`--check` compares, and regeneration removes stale files, only in the owned places: an
    output elsewhere would go unchecked."""
    inputs = Inputs(load("v1"), build_bundle(load("v1"), ""), environment())
    for output in MANIFEST:
        fixed = re.sub(r"\{[a-z]+\}.*", "", output.path)
        if fixed:
            owned = any(fixed.startswith(folder + "/") for folder in OWNED_DIRS)
            assert owned or output.path == SEED_COVERAGE, output.path
            continue
        # A path its producer gives whole (`{page}`, `{file}`): every file it gives.
        for fields, _ in output.files(inputs):
            path = output.path.format(**fields)
            owned = any(path.startswith(folder + "/") for folder in OWNED_DIRS)
            assert owned or path == SEED_COVERAGE, (output.source, path)


def _texts(*pairs: tuple[dict[str, str], str]) -> Any:
    def files(_: Inputs) -> Files:
        yield from pairs

    return files


def test_two_different_files_at_one_path_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    same = ({"name": "x"}, "one\n")
    monkeypatch.setattr(
        manifest,
        "MANIFEST",
        (
            Output("generated/{name}.txt", "a test", _texts(same)),
            Output("generated/{name}.txt", "a test", _texts(same)),  # the same file: one file
        ),
    )
    rendered = manifest.rendered(cast(Sources, None), {})
    assert rendered == {Path("generated/x.txt"): "one\n"}
    monkeypatch.setattr(
        manifest,
        "MANIFEST",
        (
            Output("generated/{name}.txt", "a test", _texts(same)),
            Output("generated/{name}.txt", "a test", _texts(({"name": "x"}, "two\n"))),
        ),
    )
    with pytest.raises(ValueError, match="two different files would be written at"):
        manifest.rendered(cast(Sources, None), {})

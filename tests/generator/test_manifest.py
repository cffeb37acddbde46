"""The manifest (generator/manifest.py): one list says every file the generator writes, from
which template, to which path."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

import pytest

from generator import manifest
from generator.load import Sources
from generator.manifest import MANIFEST, Output
from generator.paths import OWNED_DIRS, SEED_COVERAGE, TEMPLATES
from generator.render import Files, Inputs


def test_every_template_named_exists() -> None:
    for output in MANIFEST:
        if output.template is not None:
            assert (TEMPLATES / output.template).is_file(), output


def test_every_python_template_is_in_the_manifest() -> None:
    """A template no entry names is dead code; one named twice would be ambiguous."""
    named = [o.template for o in MANIFEST if o.template and o.template.startswith("python/")]
    on_disk = sorted(p.relative_to(TEMPLATES).as_posix() for p in TEMPLATES.glob("python/*.j2"))
    assert sorted(named) == on_disk


def test_every_output_lands_where_the_generator_owns_files() -> None:
    """`--check` compares, and regeneration removes stale files, only in the owned places: an
    output elsewhere would go unchecked."""
    for output in MANIFEST:
        fixed = re.sub(r"\{[a-z]+\}.*", "", output.path)
        # `{page}`: the docs pages, whose paths (docs/reference, docs/schemas) docs.py gives.
        owned = any(fixed.startswith(folder + "/") for folder in OWNED_DIRS)
        assert owned or output.path in (SEED_COVERAGE, "{page}"), output.path


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

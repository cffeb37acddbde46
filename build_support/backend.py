"""The build backend: setuptools', asking for mypyc (and what it type-checks against) only
when the wheel will be compiled.

A pure build (``INTERLINGUA_PURE_PYTHON=1``, or no C compiler) needs setuptools alone; a
compiled one needs mypy at the version the project pins, and the runtime dependencies, so that
mypyc sees the same types as ``mypy --strict`` does.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import (  # noqa: F401 (the rest of the backend interface, as is)
    build_editable,
    build_sdist,
    build_wheel,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

from build_support.compiled import ROOT, compiler_missing, forced_pure


def compile_requires() -> list[str]:
    """mypy as the dev extra pins it, and the runtime dependencies, from pyproject.toml."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    mypy = [r for r in project["optional-dependencies"]["dev"] if re.match(r"mypy\b", r)]
    return [*mypy, *project["dependencies"]]


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    base = list(build_meta.get_requires_for_build_wheel(config_settings))
    if forced_pure() or compiler_missing() is not None:
        return base
    return [*base, *compile_requires()]

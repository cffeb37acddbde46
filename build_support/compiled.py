"""Which modules the wheel compiles with mypyc, and whether it compiles at all.

The list is derived, never kept by hand: every generated Python module (the generator's
output under ``src/interlingua/generated``) except those that define pydantic models (mypyc
cannot compile classes whose metaclass is pydantic's, and validation there is pydantic's own
compiled core anyway), plus the hand-written modules on the conversion hot path.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sysconfig
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = Path("src") / "interlingua"
#: ``INTERLINGUA_PURE_PYTHON=1``: build the pure-Python wheel even where a compiler exists.
PURE_ENV = "INTERLINGUA_PURE_PYTHON"
#: The C optimisation level of the shipped wheel (mypyc's ``opt_level``: ``-O3``).
OPT_LEVEL = "3"
#: ``INTERLINGUA_OPT_LEVEL=0|1|2|3``: build the mypyc modules at another level. The test that
#: builds a compiled wheel (tests/packaging/test_compiled.py) asks for 1: it checks what mypyc
#: translated, which is the same C at every level, and gcc takes about half the time of -O3 on
#: it (46 MB of C: most of the suite's longest test). The hand-written C stays at -O3.
OPT_ENV = "INTERLINGUA_OPT_LEVEL"
#: Added to mypyc's C flags (gcc and clang). Warnings only: the machine code is the same.
#: gcc's -Wmisleading-indentation (in -Wall) costs time quadratic in the size of a file; on the
#: 18 MB of C of generated/validators.py it took 135 of 160 s at -O0 (gcc 12, -ftime-report),
#: and mypyc writes the indentation itself, so the warning has nothing to find.
EXTRA_CFLAGS = ("-Wno-misleading-indentation",)
#: Generated modules that stay Python: the pydantic models (see the module docstring).
STAY_PYTHON = frozenset({"models.py"})
#: Hand-written modules that stay Python (paths under src/interlingua), each with its reason.
#: conversion/adapters/fidelity.py and items.py: their annotations say `dict` where a list also
#: arrives (compiled code checks annotations at run time). documents.py beside them unpacks
#: what the turn code returns by its annotations (a request's turns may come back as a string).
#: All three compile once their annotations say what really arrives; the generated turn code
#: compiles.
RUNTIME_STAYS_PYTHON = frozenset(
    {
        "conversion/adapters/fidelity.py",
        "conversion/adapters/items.py",
        "conversion/adapters/documents.py",
    }
)
#: Hand-written modules on the conversion and stream hot paths (globs under src/interlingua):
#: the engine the generated code calls, the transforms, what reading leaves (leftovers), reading,
#: the stream engine, and the detector's walk of a body through the schemas (its answer types,
#: conversion/detection.py, stay Python so an answer pickles: a compiled frozen dataclass
#: cannot be unpickled).
HOT_RUNTIME = (
    "conversion/adapters/*.py",
    "conversion/transforms/*.py",
    "conversion/__init__.py",
    "conversion/converter.py",
    "conversion/detector.py",
    "conversion/leftovers.py",
    "conversion/reading.py",
    "streams/engine.py",
    "streams/framing.py",
)


def forced_pure() -> bool:
    return os.environ.get(PURE_ENV, "").strip().lower() not in ("", "0", "false", "no")


def opt_level() -> str:
    """The C optimisation level of the mypyc modules: `OPT_LEVEL` unless `OPT_ENV` names
    another."""
    asked = os.environ.get(OPT_ENV, "").strip()
    if not asked:
        return OPT_LEVEL
    if asked not in ("0", "1", "2", "3"):
        raise ValueError(f"{OPT_ENV}={asked!r}: the level is 0, 1, 2 or 3")
    return asked


def compiler_missing() -> str | None:
    """Why no C extension can be built here, or None when one can."""
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    executable = shlex.split(command)[0] if command.strip() else "cc"
    if shutil.which(executable) is None:
        return f"no C compiler ({executable!r} not found)"
    include = sysconfig.get_paths().get("include", "")
    if not (Path(include) / "Python.h").is_file():
        return f"no Python headers (Python.h not in {include!r})"
    return None


def modules(root: Path = ROOT) -> list[str]:
    """The source files to compile, relative to ``root``, sorted."""
    generated = root / PACKAGE / "generated"
    found = {
        path
        for path in generated.rglob("*.py")
        if path.name not in STAY_PYTHON and "__pycache__" not in path.parts
    }
    for pattern in HOT_RUNTIME:
        found.update(
            path
            for path in (root / PACKAGE).glob(pattern)
            if path.relative_to(root / PACKAGE).as_posix() not in RUNTIME_STAYS_PYTHON
        )
    return sorted(path.relative_to(root).as_posix() for path in found)


#: setup.py commands that build code; any other (metadata, sdist, the editable install, which
#: stays pure Python so coverage sees the source) must not pay for mypyc's type check.
BUILDS = frozenset({"bdist_wheel", "build", "build_ext", "install", "bdist"})


def wanted(commands: list[str]) -> bool:
    """Whether a setup.py run with these arguments should compile."""
    return bool(BUILDS.intersection(commands)) and not forced_pure()


def extensions(commands: list[str]) -> list[Any]:
    """The C extensions for setup(), or [] for the pure-Python build."""
    if not wanted(commands):
        return []
    why = compiler_missing()
    if why is None:
        try:
            from mypyc.build import mypycify  # noqa: PLC0415 (optional: pure build without it)
        except ImportError:
            why = "mypyc is not installed"
    if why is not None:
        warnings.warn(f"interlingua: building pure Python: {why}", stacklevel=1)
        return []
    built = list(
        mypycify(
            ["--config-file", str(ROOT / "build_support" / "mypyc.ini"), *modules()],
            opt_level=opt_level(),
            multi_file=True,
        )
    )
    if os.name == "posix":  # gcc or clang (mypyc's flags for MSVC are of another syntax)
        for extension in built:
            extension.extra_compile_args = [*extension.extra_compile_args, *EXTRA_CFLAGS]
    return [*built, *c_extensions()]


def c_extensions() -> list[Any]:
    """The hand-written C extensions (each `.c` file under src/interlingua, named after it),
    built beside the mypyc modules; the code that calls one falls back to Python without it."""
    from setuptools import Extension  # noqa: PLC0415 (only a build asks)

    return [
        Extension(
            ".".join(path.relative_to(ROOT / "src").with_suffix("").parts),
            [path.relative_to(ROOT).as_posix()],
            extra_compile_args=["-O3"] if os.name == "posix" else [],
        )
        for path in sorted((ROOT / PACKAGE).rglob("*.c"))
    ]

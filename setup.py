"""The wheel's compiled half: mypyc builds the generated converters and validators (and the hot
hand-written runtime) into C extensions when it can; otherwise the wheel is pure Python.

Everything else about the package is in pyproject.toml. Which modules compile is not a list
kept by hand: :mod:`build_support.compiled` derives it from the files, so a module the
generator adds compiles too. ``INTERLINGUA_PURE_PYTHON=1`` forces the pure build; so does a
missing C compiler or a missing mypyc (a warning says which).
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools import setup

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_support.compiled import extensions

setup(ext_modules=extensions(sys.argv[1:]))

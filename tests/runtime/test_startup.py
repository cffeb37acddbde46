"""`import interlingua` and `interlingua --help` load only what they use: no pydantic model,
validator, adapter or wire schema until a command or a name asks for one (what
benchmarks/startup.py measures). Names still resolve on first use, to the same objects."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import interlingua

#: Modules that take most of the start-up time: none may load before it is used.
HEAVY = (
    "pydantic",
    "jsonschema",
    "jsonschema_rs",
    "interlingua.generated.models",
    "interlingua.generated.validators",
    "interlingua.generated.adapters",
    "interlingua.generated.streams",
    "interlingua.conversion.converter",
    "interlingua.conversion.detector",
    "interlingua.gateway.cards",
)


def _loaded_after(code: str) -> list[str]:
    script = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    loaded: list[str] = json.loads(done.stdout.splitlines()[-1])
    return loaded


@pytest.mark.parametrize(
    "code",
    [
        "import interlingua",
        "import interlingua.gateway",
        "from interlingua.cli.commands import build_parser; build_parser().format_help()",
    ],
)
def test_nothing_heavy_is_imported_up_front(code: str) -> None:
    loaded = set(_loaded_after(code))
    assert not [name for name in HEAVY if name in loaded]


def test_help_and_version_exit_0_without_the_heavy_modules() -> None:
    for flag in ("--help", "--version"):
        code = f"import sys\nfrom interlingua.cli.commands import main\ntry:\n    main([{flag!r}])\nexcept SystemExit:\n    pass"
        assert not [name for name in HEAVY if name in _loaded_after(code)], flag


def test_every_exported_name_resolves_on_first_use() -> None:
    from interlingua.conversion.converter import convert
    from interlingua.generated.models import Message

    assert interlingua.convert is convert
    assert interlingua.Message is Message
    assert set(interlingua.__all__) <= set(dir(interlingua))
    for name in interlingua.__all__:
        assert getattr(interlingua, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        _ = interlingua.nothing


def test_the_command_lines_names_are_the_libraries() -> None:
    from interlingua.cli import commands as cli
    from interlingua.conversion import converter

    assert cli.CANONICAL == converter.CANONICAL  # cli names it to stay light at start-up


def test_the_package_logger_has_a_null_handler() -> None:
    import logging

    handlers = logging.getLogger("interlingua").handlers
    assert any(isinstance(h, logging.NullHandler) for h in handlers)


def test_the_version_is_the_packages() -> None:
    from importlib.metadata import version

    assert interlingua.__version__ == version("interlingua")

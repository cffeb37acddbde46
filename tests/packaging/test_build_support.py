"""Which modules the wheel compiles, and when it compiles at all (build_support/): derived from
the files, never a list kept by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from build_support import backend, compiled
from tests.packaging.wheels import ROOT


def test_every_generated_module_but_the_models_compiles() -> None:
    names = compiled.modules()
    generated = ROOT / "generated" / "python"
    expected = {
        f"src/interlingua/generated/{p.relative_to(generated).as_posix()}"
        for p in generated.rglob("*.py")
        if p.name != "models.py"
    }
    assert expected <= set(names)
    assert "src/interlingua/generated/models.py" not in names
    assert "src/interlingua/conversion/adapters/runtime.py" in names


def test_a_new_generated_module_is_compiled_too(tmp_path: Path) -> None:
    """A module the generator adds tomorrow needs no edit here."""
    package = tmp_path / "src" / "interlingua"
    (package / "generated" / "streams").mkdir(parents=True)
    (package / "conversion" / "adapters").mkdir(parents=True)
    for rel in (
        "generated/streams/newformat.py",
        "generated/models.py",
        "conversion/adapters/runtime.py",
    ):
        (package / rel).write_text("")
    assert compiled.modules(tmp_path) == [
        "src/interlingua/conversion/adapters/runtime.py",
        "src/interlingua/generated/streams/newformat.py",
    ]


@pytest.mark.parametrize(
    ("value", "pure"), [("", False), ("0", False), ("no", False), ("1", True), ("yes", True)]
)
def test_the_environment_forces_the_pure_build(
    monkeypatch: pytest.MonkeyPatch, value: str, pure: bool
) -> None:
    monkeypatch.setenv(compiled.PURE_ENV, value)
    assert compiled.forced_pure() is pure
    assert compiled.wanted(["bdist_wheel"]) is not pure
    if pure:  # (the compiled case runs mypyc: test_compiled.py builds it)
        assert compiled.extensions(["bdist_wheel"]) == []


def test_the_shipped_wheel_is_built_at_o3_unless_the_environment_asks_another_level(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(compiled.OPT_ENV, raising=False)
    assert compiled.opt_level() == compiled.OPT_LEVEL == "3"
    monkeypatch.setenv(compiled.OPT_ENV, " 1 ")
    assert compiled.opt_level() == "1"
    monkeypatch.setenv(compiled.OPT_ENV, "-O2")
    with pytest.raises(ValueError, match="the level is 0, 1, 2 or 3"):
        compiled.opt_level()


def test_only_building_commands_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    """Metadata, the sdist and the editable install (coverage measures the source) stay pure."""
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    for command in ("egg_info", "dist_info", "sdist", "editable_wheel"):
        assert not compiled.wanted([command])
        assert compiled.extensions([command]) == []
    assert compiled.wanted(["bdist_wheel", "--dist-dir", "x"])


def test_without_a_compiler_the_build_is_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    monkeypatch.setenv("CC", "no-such-compiler-here")
    assert compiled.compiler_missing() == "no C compiler ('no-such-compiler-here' not found)"
    with pytest.warns(UserWarning, match="building pure Python: no C compiler"):
        assert compiled.extensions(["bdist_wheel"]) == []
    assert not any(r.startswith("mypy") for r in backend.get_requires_for_build_wheel())


def test_a_compiled_build_asks_for_mypy_and_the_runtime_dependencies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    monkeypatch.delenv("CC", raising=False)
    if compiled.compiler_missing() is not None:
        pytest.skip(compiled.compiler_missing() or "")
    requires = backend.get_requires_for_build_wheel()
    assert "mypy==2.4.1" in requires
    assert any(r.startswith("pydantic") for r in requires)
    monkeypatch.setenv(compiled.PURE_ENV, "1")
    assert not any(r.startswith("mypy") for r in backend.get_requires_for_build_wheel())


def test_the_shipped_build_compiles_at_o3_with_only_a_warning_turned_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What setup.py hands setuptools for a wheel that ships: mypyc at -O3 (the speed the docs
    measure), every module, and one warning off. (mypyc itself is faked here: test_compiled.py
    builds for real.)"""
    import mypyc.build
    from setuptools import Extension

    monkeypatch.delenv(compiled.PURE_ENV, raising=False)
    monkeypatch.delenv("CC", raising=False)
    if compiled.compiler_missing() is not None:
        pytest.skip(compiled.compiler_missing() or "")
    calls: list[tuple[list[str], dict[str, object]]] = []

    def mypycify(paths: list[str], **options: object) -> list[Extension]:
        calls.append((paths, options))
        return [Extension("x", ["x.c"], extra_compile_args=["-O3", "-Werror"])]

    monkeypatch.setattr(mypyc.build, "mypycify", mypycify)
    extension, *hand_written = compiled.extensions(["bdist_wheel"])
    assert [e.name for e in hand_written] == [e.name for e in compiled.c_extensions()]
    ((paths, options),) = calls
    assert options == {"opt_level": "3", "multi_file": True}
    assert paths[2:] == compiled.modules()
    assert extension.extra_compile_args == ["-O3", "-Werror", "-Wno-misleading-indentation"]


def test_each_c_file_of_the_package_is_an_extension_named_after_it() -> None:
    (extension,) = compiled.c_extensions()
    assert extension.name == "interlingua.conversion._checks"
    assert extension.sources == ["src/interlingua/conversion/_checks.c"]
    assert (ROOT / "src" / "interlingua" / "conversion" / "_checks.pyi").is_file()

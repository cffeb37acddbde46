"""conversion/_checks.c against its Python twins: the string check (`fused_checks._python_clean`),
the word rule (`fused_checks._python_word`), the walk of a carried value
(`fused_checks._python_plain`), `read_json`'s repeated-key test (`reading._undoubted`) and the
loss record (`fused_checks._python_add_loss`).
The C file is compiled here, beside the test (skipped without a compiler), so the checkout's
suite holds both builds to one answer; tests/packaging/test_compiled.py checks the wheel's."""

from __future__ import annotations

import importlib.util
import json
import math
import shlex
import subprocess
import sysconfig
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from build_support.compiled import ROOT, compiler_missing
from interlingua.conversion import Loss, reading
from interlingua.conversion.adapters import fused_checks

SOURCE = ROOT / "src" / "interlingua" / "conversion" / "_checks.c"


@pytest.fixture(scope="module")
def c_checks(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The extension, built from SOURCE as the wheel builds it (-O3, warnings as errors)."""
    missing = compiler_missing()
    if missing is not None:
        pytest.skip(missing)
    out: Path = (
        tmp_path_factory.mktemp("c_checks") / f"_checks{sysconfig.get_config_var('EXT_SUFFIX')}"
    )
    command = [
        *shlex.split(sysconfig.get_config_var("CC") or "cc"),
        *shlex.split(sysconfig.get_config_var("CCSHARED") or "-fPIC"),
        "-shared",
        "-O3",
        "-Wall",
        "-Werror",
        f"-I{sysconfig.get_paths()['include']}",
        str(SOURCE),
        "-o",
        str(out),
    ]
    subprocess.run(command, check=True, capture_output=True, timeout=120)
    spec = importlib.util.spec_from_file_location("interlingua.conversion._checks", out)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Code points of every string width CPython stores (1, 2 and 4 bytes a unit), surrogates too,
# and the characters the quote counts look at.
CODE_POINTS = st.one_of(
    st.integers(0, 0x7F),
    st.sampled_from([ord('"'), ord("\\"), ord("u"), ord("0"), ord("2")]),
    st.integers(0x80, 0xFF),
    st.integers(0x100, 0xD7FF),
    st.integers(0xD800, 0xDFFF),
    st.integers(0xE000, 0xFFFF),
    st.integers(0x10000, 0x10FFFF),
)
TEXTS = st.lists(CODE_POINTS, max_size=30).map(lambda points: "".join(map(chr, points)))
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([2**63 - 1, -(2**63) + 1, 2**63, -(2**63), 2**64]),
    st.floats(),
    st.sampled_from([2.0**63, -(2.0**63), 2.0**63 - 1024, 1e300]),
    TEXTS,
)
# JSON-like values, with what plain JSON is not: tuples, non-str keys, subclasses of dict.
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(TEXTS, inner, max_size=4),
        st.dictionaries(st.one_of(TEXTS, st.integers()), inner, max_size=2),
        st.tuples(inner),
    ),
    max_leaves=12,
)


@given(TEXTS)
def test_the_string_check_answers_as_encoding(c_checks: ModuleType, text: str) -> None:
    assert c_checks.clean(text) is fused_checks._encodes(text)
    assert fused_checks._python_clean(text) is fused_checks._encodes(text)


RULE_TEXTS = st.text(alphabet=st.sampled_from("aZ09_-.:/ +é٣Ωx\u00b2\ud800"), max_size=8)


@pytest.mark.parametrize("marks", ["_-", "_.:-", "", "_", "é"])
@pytest.mark.parametrize("most", [1, 3, 64])
def test_the_word_rule_answers_as_its_twin(c_checks: ModuleType, marks: str, most: int) -> None:
    @given(RULE_TEXTS)
    @settings(max_examples=60)
    def check(text: str) -> None:
        assert c_checks.word(text, marks, most) is fused_checks._python_word(text, marks, most)

    check()
    for text in ("", "a" * most, "a" * (most + 1), "_" * most, "é", "a b"):
        assert c_checks.word(text, marks, most) is fused_checks._python_word(text, marks, most)


class _Dict(dict[str, Any]):
    pass


@given(VALUES, st.integers(0, 4), st.integers(0, 5))
def test_the_walk_of_a_carried_value_answers_as_its_twin(
    c_checks: ModuleType, value: Any, depth: int, limit: int
) -> None:
    assert c_checks.plain(value, depth, limit) is fused_checks._python_plain(value, depth, limit)


def test_the_walk_refuses_what_plain_json_is_not(c_checks: ModuleType) -> None:
    for value in (
        _Dict(a=1),
        {1: "a"},
        ("a",),
        math.inf,
        math.nan,
        2**63,
        -(2**63),
        "\udfff",
        {"\ud800": 1},
        [[[["a"]]]],
    ):
        assert c_checks.plain(value, 0, 3) is False, value
        assert fused_checks._python_plain(value, 0, 3) is False, value
    taken: tuple[Any, ...] = (True, None, 2**63 - 1, -(2**63) + 1, 1.5, "é😀", {"a": [{"b": None}]})
    for good in taken:
        assert c_checks.plain(good, 0, 3) is True, good


# JSON texts whose keys may repeat (objects written by hand from pairs) and whose strings
# hold quotes, backslashes and `\u0022` as escapes or as characters.
KEYS = st.sampled_from(["a", "b", 'q"', "\\", "é"])


def _write(value: Any, ascii_only: bool) -> str:
    if type(value) is list:
        return "[" + ",".join(_write(item, ascii_only) for item in value) + "]"
    if type(value) is tuple:  # an object as its pairs: a key may repeat
        return (
            "{"
            + ",".join(
                f"{json.dumps(key, ensure_ascii=ascii_only)}:{_write(item, ascii_only)}"
                for key, item in value
            )
            + "}"
        )
    return json.dumps(value, ensure_ascii=ascii_only)


DOCUMENTS = st.recursive(
    st.one_of(
        st.none(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        TEXTS,
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(st.tuples(KEYS, inner), max_size=3).map(tuple),
    ),
    max_leaves=10,
)


@given(DOCUMENTS, st.booleans(), st.integers(1, 6))
def test_the_repeated_key_test_answers_as_its_twin(
    c_checks: ModuleType, document: Any, ascii_only: bool, limit: int
) -> None:
    text = _write(document, ascii_only)
    try:
        value = reading._loads(text)
    except reading._REFUSED:  # a lone surrogate: read_json never asks
        return
    for data in (text, text.encode("utf-8")):
        assert c_checks.undoubted(value, data, limit) is reading._undoubted(value, data, limit)


def test_the_repeated_key_test_sees_escapes_and_repeats(c_checks: ModuleType) -> None:
    for text in (
        '{"a": 1, "a": 2}',
        '{"a": "x", "a": "y"}',
        '{"a": "\\u0022", "b": 1}',
        '{"a\\"": "\\\\", "a\\"": 1}',
        '{"a": "\\\\\\"", "b": "\\""}',
        '["\\\\", {"k": "v", "k": "w"}]',
        '{"a": [1, 2], "b": {"c": "d"}}',
        '{"a": 1e300}',
        '{"a": 9223372036854775808}',
        '{"a": [18446744073709551616]}',
        '["\\\\u0022", "\\u0022"]',
        '"' + 'a\\"' * 1_000 + '"',
        '{"r": "' + '{\\"k\\": \\"v\\"} ' * 500 + '", "r": "\\\\"}',
        '{"a": -9223372036854775809, "b": "\\\\"}',
    ):
        value = reading._loads(text)
        for data in (text, text.encode("utf-8")):
            want = reading._undoubted(value, data, 64)
            assert c_checks.undoubted(value, data, 64) is want, text
    assert c_checks.undoubted({"a": 1}, '{"a": 1, "a": 1}', 64) is False
    # A long text of escaped quotes (tool results as JSON text) with a key given twice.
    results = '"' + '{\\"k\\": 1} ' * 500 + '"'
    once = '{"r": ' + results + ', "s": "\\\\"}'
    twice = '{"r": ' + results + ', "r": "\\\\"}'
    assert c_checks.undoubted(reading._loads(once), once, 64) is True
    assert c_checks.undoubted(reading._loads(twice), twice, 64) is False
    assert c_checks.undoubted({"a": 1}, '{"a": 1}', 64) is True


@given(TEXTS, st.sampled_from(["field_dropped", "turns_merged"]), TEXTS, st.none() | TEXTS)
def test_the_loss_record_is_its_twins(
    c_checks: ModuleType, pointer: str, code: str, reason: str, part_type: str | None
) -> None:
    made: list[Loss] = []
    twin: list[Loss] = []
    c_checks.add_loss(made, Loss, pointer, code, reason, part_type)
    fused_checks._python_add_loss(twin, Loss, pointer, code, reason, part_type)
    assert made == twin == [Loss(pointer, code, reason, part_type)]
    assert type(made[0]) is Loss
    assert made[0].part_type == part_type  # the named tuple's fields read it


def test_the_loss_record_refuses_what_is_not_a_list_and_a_tuple_type(
    c_checks: ModuleType,
) -> None:
    refused: tuple[tuple[Any, ...], ...] = (
        ((), Loss, "", "c", "r", None),
        ([], dict, "", "c", "r", None),
        ([], Loss, "", "c", "r"),
    )
    for args in refused:
        with pytest.raises(TypeError):
            c_checks.add_loss(*args)

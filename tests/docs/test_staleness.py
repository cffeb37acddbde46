"""What the hand-written pages show about the project is what the code says today.

- Shown output: a fenced `text` block right after a `sh` block whose first command is an
  `interlingua` command on example files is what that command prints (stdout, or stderr when
  the page shows that), line for line; `…` on the page stands for any text (an elided tail).
- The conformance quick start runs as written: each `python -m conformance run` command of
  the page runs (from a scratch directory, as a reader would), exits 0, and prints the summary
  the page shows after it.
- Counts and lists in prose: the formats the README and the home page name, and how many.
"""

from __future__ import annotations

import itertools
import re
import sys
from pathlib import Path

import pytest

from conformance.__main__ import main as conformance_main
from generator.paths import ROOT
from interlingua.cli import commands as cli
from interlingua.conversion.converter import formats
from interlingua.streams.engine import stream_formats
from tests.docs.test_snippets import (
    DOCS,
    NOT_RUN,
    SHELL,
    Block,
    blocks,
    commands,
    hand_written_pages,
    runnable,
    scratch,
)

__all__ = ["scratch"]  # the fixture, shared with test_snippets

#: How many lines may separate a command block from the output block that shows it.
_GAP = 4
_NUMBERS = "zero one two three four five six seven eight nine ten eleven twelve thirteen".split()


def _end(block: Block) -> int:
    return block.line + block.code.count("\n") + 1


def shown_outputs(page: Path) -> list[tuple[Block, Block]]:
    """(command block, output block) pairs of a page."""
    found = list(blocks(page.read_text(encoding="utf-8")))
    return [
        (command, shown)
        for command, shown in itertools.pairwise(found)
        if command.lang in SHELL
        and shown.lang == "text"
        and NOT_RUN not in command.markers
        and NOT_RUN not in shown.markers
        and shown.line - _end(command) <= _GAP
    ]


def matches(shown: str, printed: str) -> bool:
    """Whether ``printed`` is ``shown`` line for line, `…` standing for any text."""
    pattern = "\n".join(
        ".*?".join(re.escape(part) for part in line.split("…"))
        for line in shown.rstrip("\n").splitlines()
    )
    return re.fullmatch(pattern, printed.rstrip("\n")) is not None


def _interlingua_pairs() -> list[tuple[Path, Block, Block]]:
    pairs = []
    for page in hand_written_pages():
        for command, shown in shown_outputs(page):
            first = next(commands(command), None)
            if first is not None and first[0][0] == "interlingua" and runnable(first[0][1:]):
                pairs.append((page, command, shown))
    return pairs


PAIRS = _interlingua_pairs()


@pytest.mark.parametrize(
    ("page", "command", "shown"),
    PAIRS,
    ids=[f"{p.relative_to(DOCS)}:{c.line}" for p, c, _ in PAIRS],
)
def test_shown_command_output_is_what_the_command_prints(
    page: Path, command: Block, shown: Block, scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv, _ = next(commands(command))
    cli.main(argv[1:])
    printed = capsys.readouterr()
    out, err = printed.out, printed.err
    assert matches(shown.code, out) or matches(shown.code, err), (
        f"{page.relative_to(DOCS)}:{shown.line} shows\n{shown.code}\nbut the command prints\n"
        f"{out}{err}"
    )


def test_the_check_finds_the_pages_outputs() -> None:
    named = {f"{p.relative_to(DOCS)}:{c.line}" for p, c, _ in PAIRS}
    assert {n.split(":")[0] for n in named} >= {
        "quickstart/convert.md",
        "quickstart/audit.md",
        "quickstart/policy.md",
    }


def test_the_wildcard_matches_only_what_it_elides() -> None:
    assert matches("a … c\nd\n", "a b b c\nd")
    assert not matches("a … c\n", "a b c\nd")
    assert not matches("a b\n", "a c")


QUICK_START = DOCS / "quickstart" / "conformance.md"


def _conformance_runs() -> list[tuple[list[str], str | None]]:
    """Each `python -m conformance run` command of the quick start, with the summary the page
    shows for it (an inline `… cases against …` sentence, or the text block after it)."""
    text = QUICK_START.read_text(encoding="utf-8")
    found = list(blocks(text))
    runs: list[tuple[list[str], str | None]] = []
    for index, block in enumerate(found):
        if block.lang not in SHELL:
            continue
        after = found[index + 1] if index + 1 < len(found) else None
        shown = (
            after.code
            if after is not None and after.lang == "text" and after.line - _end(block) <= _GAP
            else None
        )
        runs += [
            (argv, shown)
            for argv, _ in commands(block)
            if argv[:4] == ["python", "-m", "conformance", "run"]
        ]
    return runs


RUNS = _conformance_runs()


def test_the_quick_start_shows_its_runs() -> None:
    assert len(RUNS) == 4
    assert [shown is not None for _, shown in RUNS] == [False, False, True, True]


@pytest.mark.slow
@pytest.mark.untraced
@pytest.mark.parametrize(
    ("argv", "shown"), RUNS, ids=[" ".join(a[4:]) or "in-process" for a, _ in RUNS]
)
def test_the_conformance_quick_start_runs_as_written(
    argv: list[str], shown: str | None, scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = [
        a.replace("python ", f"{sys.executable} ", 1) if a.startswith("python ") else a
        for a in argv[3:]
    ]
    code = conformance_main(arguments)
    printed = capsys.readouterr().out
    assert code == 0, printed
    summary = [line for line in printed.splitlines() if " cases against " in line]
    assert len(summary) == 1
    if shown is None:  # the page's sentence: every case passes or is a listed known failure
        every = re.fullmatch(r"(\d+) cases against .+: (\d+) pass(?:, (\d+) xfail)?", summary[0])
        assert every is not None, summary[0]
        assert int(every[1]) == int(every[2]) + int(every[3] or 0), summary[0]
    else:
        assert matches(shown, summary[0]), (
            f"the page shows {shown!r}, the run printed {summary[0]!r}"
        )
    assert (scratch / "build" / "conformance" / "report.json").is_file()


def _paragraph(text: str, start: str) -> str:
    return text[text.index(start) :].split("\n\n", 1)[0]


def test_the_readme_names_every_format() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    sentence = _paragraph(readme, "The formats: ").split("`interlingua formats`")[0]
    assert set(re.findall(r"`([a-z-]+)`", sentence)) == set(formats()) - {"canonical"}
    streaming = _paragraph(readme, "Every format whose mapping file has a `stream` section")
    named = re.search(r"\(([^)]*)\)", streaming)
    assert named is not None
    assert {n.strip() for n in named[1].split(",")} == set(stream_formats()) - {"canonical"}


def test_the_home_page_counts_the_formats() -> None:
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    adapters = re.search(r"Adapters for (\w+) \[wire formats\]", home)
    assert adapters is not None
    assert adapters[1] == _NUMBERS[len(formats()) - 1]  # every format but canonical
    streams = re.search(r"Stream translation for (\w+) provider formats \(([^)]*)\)", home)
    assert streams is not None
    streaming = stream_formats()[1:]
    assert streams[1] == _NUMBERS[len(streaming)]
    assert len(streams[2].split(", ")) == len(streaming)

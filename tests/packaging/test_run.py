"""`wheels.run`, which runs the builds: a run the test stops takes its whole process tree
with it (a wheel build's compilers are pip's grandchildren)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.packaging.wheels import run


def _alive(pid: int) -> bool:
    """Whether ``pid`` is a process that still runs (a zombie has stopped)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return "\nState:\tZ" not in status


def test_a_run_stopped_by_its_timeout_leaves_no_grandchild_running(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    sleeper = [sys.executable, "-c", "import time; time.sleep(300)"]
    parent = (
        f"import subprocess; p = subprocess.Popen({sleeper!r}); "
        f"open({str(pid_file)!r}, 'w').write(str(p.pid)); p.wait()"
    )
    with pytest.raises(subprocess.TimeoutExpired):
        run([sys.executable, "-c", parent], tmp_path, timeout=15)
    grandchild = int(pid_file.read_text())
    deadline = time.monotonic() + 30
    while _alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(grandchild)


def test_a_run_gives_the_output_and_the_exit_status(tmp_path: Path) -> None:
    echo = "import sys; data = sys.stdin.read(); print(data.upper()); sys.exit(3)"
    done = run([sys.executable, "-c", echo], tmp_path, stdin=b"built")
    assert (done.returncode, done.stdout) == (3, "BUILT\n")

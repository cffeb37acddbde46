"""The store tests run twice: on SQLite (a file in the test's temp dir) and on a real
PostgreSQL server started here.

One throwaway cluster per pytest process (each xdist worker starts its own, on a Unix socket
in its own temp dir, no TCP port), a fresh database per test, stopped at the end. initdb
refuses to run as root, so as root the cluster belongs to the ``postgres`` system user
(runuser), in a temp dir that user owns. CI installs Debian's `postgresql` when missing
(`.ci/run`); without its binaries the PostgreSQL half fails rather than being skipped.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

_counter = itertools.count()


def _bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _as_owner(command: list[str], user: str | None) -> list[str]:
    return ["runuser", "-u", user, "--", *command] if user else command


class Cluster:
    """A PostgreSQL cluster in a temp dir, listening only on a socket there."""

    def __init__(self) -> None:
        initdb, pg_ctl = _bin("initdb"), _bin("pg_ctl")
        if not initdb or not pg_ctl:
            pytest.fail("PostgreSQL is not installed (apt-get install postgresql)")
        self.pg_ctl = pg_ctl
        self.user = "postgres" if os.geteuid() == 0 else None
        self.root = Path(tempfile.mkdtemp(prefix="interlingua-pg-"))
        if self.user:
            entry = pwd.getpwnam(self.user)
            os.chown(self.root, entry.pw_uid, entry.pw_gid)
        self.data = self.root / "data"
        subprocess.run(
            _as_owner(
                [initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8"],
                self.user,
            ),
            check=True,
            capture_output=True,
        )
        options = f"-c listen_addresses='' -k {self.root} -c fsync=off -c shared_buffers=16MB"
        subprocess.run(
            _as_owner(
                [
                    pg_ctl,
                    "-D",
                    str(self.data),
                    "-o",
                    options,
                    "-w",
                    "-l",
                    str(self.root / "log"),
                    "start",
                ],
                self.user,
            ),
            check=True,
            capture_output=True,
        )

    def url(self, database: str) -> str:
        return f"postgresql://postgres@/{database}?host={self.root}"

    def create_database(self) -> str:
        import psycopg

        name = f"t{os.getpid()}_{next(_counter)}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        subprocess.run(
            _as_owner([self.pg_ctl, "-D", str(self.data), "-m", "immediate", "stop"], self.user),
            check=False,
            capture_output=True,
        )
        shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    cluster = Cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database: a SQLite file path, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "store.db")
    cluster: Cluster = request.getfixturevalue("postgres")
    return cluster.create_database()

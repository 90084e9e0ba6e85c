"""A throwaway PostgreSQL server a test may stop, start and restart (what
``scripts/with-postgres`` starts, but owned by the test): the outage tests need a server of
their own, not the suite's ``DATABASE_URL``.

As root, ``initdb`` and ``pg_ctl`` run as the ``postgres`` user (they refuse root).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

PGBIN = Path(os.environ.get("PGBIN", "/usr/lib/postgresql/15/bin"))


def available() -> bool:
    return (PGBIN / "initdb").is_file() and (os.geteuid() != 0 or shutil.which("runuser"))


class PostgresServer:
    """``initdb`` in a new folder, on a free loopback port, with one database ``anotador``."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="anotador-pg-"))
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        self.run(
            "initdb", "-D", str(self.folder / "data"), "-U", "postgres", "--auth=trust",
            "-E", "UTF8", "--locale=C.UTF-8",
        )  # fmt: skip
        self.start()
        subprocess.run(
            [str(PGBIN / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
             "anotador"],
            check=True, capture_output=True,
        )  # fmt: skip
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/anotador"

    def run(self, tool: str, *args: str) -> None:
        command = [str(PGBIN / tool), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True)

    def pg_ctl(self, action: str, *args: str) -> None:
        self.run("pg_ctl", "-D", str(self.folder / "data"), "-w", *args, action)

    def start(self) -> None:
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off"
        self.pg_ctl("start", "-l", str(self.folder / "log"), "-o", options)

    def stop(self) -> None:
        """A fast shutdown: every open connection is terminated, as an administrator's
        ``systemctl stop`` or a restart does."""
        self.pg_ctl("stop", "-m", "fast")

    def restart(self) -> None:
        self.stop()
        self.start()

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

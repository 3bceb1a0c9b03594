"""A throw-away PostgreSQL cluster for the tests and benchmarks: ``initdb`` into a temp dir, ``pg_ctl start`` on a
free loopback port (unix socket in the temp dir too), one fresh database per test, fast stop and removal at the
end.

Root may not run PostgreSQL, so as root every server command runs as the ``postgres`` OS user (``runuser``).
Nothing here skips: a missing or broken PostgreSQL is an error the test run must show.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

START_TIMEOUT = 30  # seconds for pg_ctl start/stop to finish; initdb gets twice that
# Speed only: a test cluster needs no crash safety of its own (the server restarts in the tests, PostgreSQL does not).
SERVER_OPTIONS = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300"


class PostgresError(RuntimeError):
    pass


def pg_bindir() -> Path:
    """The directory holding ``initdb``/``pg_ctl``: on PATH, else Debian's newest /usr/lib/postgresql/*/bin."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    cands = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if not cands:
        raise PostgresError(
            "PostgreSQL is not installed (no initdb on PATH or in /usr/lib/postgresql/*/bin); run `make system-deps`"
        )
    return Path(cands[-1]).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """Use as a context manager; ``new_database()`` returns a SQLAlchemy URL of a fresh, empty database."""

    def __init__(self) -> None:
        self.bindir = pg_bindir()
        self.as_root = os.geteuid() == 0
        # As root the cluster's directory must be reachable by the postgres user (not under a private $TMPDIR);
        # /tmp also keeps the socket path under its ~107-byte limit.
        parent = "/tmp" if self.as_root and Path("/tmp").is_dir() else None
        self.root = Path(tempfile.mkdtemp(prefix="dicehall-pg-", dir=parent))
        self.data = self.root / "data"
        self.sock = self.root / "sock"
        self.log = self.root / "server.log"
        self.port = 0
        self.started = False
        self._n = 0

    # -- running commands as the cluster's owner --------------------------------------------------------------
    def _cmd(self, *args: str) -> list[str]:
        exe = [str(self.bindir / args[0]), *args[1:]]
        return ["runuser", "-u", "postgres", "--", *exe] if self.as_root else exe

    def _run(self, *args: str, timeout: float) -> None:
        try:
            r = subprocess.run(
                self._cmd(*args), capture_output=True, text=True, timeout=timeout, cwd=self.root
            )
        except subprocess.TimeoutExpired as exc:
            raise PostgresError(f"{args[0]} did not finish in {timeout} s; log:\n{self._log_tail()}") from exc
        if r.returncode != 0:
            raise PostgresError(
                f"{' '.join(args[:2])} failed ({r.returncode}): {r.stdout[-1500:]}{r.stderr[-1500:]}\n{self._log_tail()}"
            )

    def _log_tail(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-2000:]
        except OSError:
            return "(no server log)"

    # -- life cycle ---------------------------------------------------------------------------------------------
    def start(self) -> None:
        self.sock.mkdir()
        if self.as_root:
            for p in (self.root, self.sock):
                shutil.chown(p, "postgres", "postgres")
        self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C",
            "--no-sync", timeout=2 * START_TIMEOUT,
        )  # fmt: skip
        last: Exception | None = None
        for _ in range(3):  # a free port can be taken between probing and binding: try another one
            self.port = free_port()
            try:
                self._run(
                    "pg_ctl", "start", "-D", str(self.data), "-l", str(self.log), "-w", "-t", str(START_TIMEOUT),
                    "-o", self._options(), timeout=START_TIMEOUT + 10,
                )  # fmt: skip
                self.started = True
                return
            except PostgresError as exc:
                last = exc
                self._kill_postmaster()
        raise PostgresError(f"PostgreSQL did not start: {last}")

    def restart(self) -> None:
        """Fast restart: every client connection is dropped, as in a production restart or failover."""
        self._run(
            "pg_ctl", "restart", "-D", str(self.data), "-l", str(self.log), "-m", "fast", "-w", "-t",
            str(START_TIMEOUT), "-o", self._options(), timeout=START_TIMEOUT + 10,
        )  # fmt: skip

    def _options(self) -> str:
        return f"-p {self.port} -k {self.sock} -c listen_addresses=127.0.0.1 {SERVER_OPTIONS}"

    def stop(self) -> None:
        """Fast shutdown (clients are disconnected), then immediate, then SIGKILL; finally remove everything."""
        try:
            if self.started:
                for mode in ("fast", "immediate"):
                    try:
                        self._run(
                            "pg_ctl", "stop", "-D", str(self.data), "-m", mode, "-w", "-t", "15", timeout=25
                        )
                        break
                    except PostgresError:
                        continue
                self._kill_postmaster()
        finally:
            self.started = False
            shutil.rmtree(self.root, ignore_errors=True)

    def _kill_postmaster(self) -> None:
        pidfile = self.data / "postmaster.pid"
        try:
            pid = int(pidfile.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.05)

    def __enter__(self) -> Cluster:
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- databases ----------------------------------------------------------------------------------------------
    def url(self, dbname: str, driver: str = "postgresql+psycopg") -> str:
        return f"{driver}://postgres@127.0.0.1:{self.port}/{dbname}"

    def new_database(self) -> str:
        import psycopg

        self._n += 1
        name = f"t{self._n}"
        with psycopg.connect(
            host=str(self.sock), port=self.port, user="postgres", dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

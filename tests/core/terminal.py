"""The real ``dicehall`` command on a pseudo-terminal of 80×40, as a person at a keyboard drives it: what is
typed goes through the terminal's line discipline (and readline, when the command loads it), Ctrl-C is a real
SIGINT from the terminal, and the output is read as the screen gets it."""

from __future__ import annotations

import codecs
import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

EXE = Path(sys.executable).parent / "dicehall"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]|\r")


class Terminal:
    """``dicehall ARGS`` on its own pseudo-terminal; :meth:`expect` waits for text on the screen."""

    def __init__(
        self, *args: str, columns: int = 80, rows: int = 40, env: dict[str, str] | None = None
    ) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        environ = {**os.environ, "TERM": "xterm", "COLUMNS": str(columns), "LINES": str(rows), **(env or {})}
        self.proc = subprocess.Popen(
            [str(EXE), *args], stdin=slave, stdout=slave, stderr=slave, env=environ, start_new_session=True,
            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),
        )  # fmt: skip
        os.close(slave)
        self.fd = master
        self.raw = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")  # a character split by a read
        self.seen = 0  # how much of the screen text expect() has matched so far

    @property
    def text(self) -> str:
        """Everything shown so far, without colours and cursor moves."""
        return ANSI.sub("", self.raw)

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # the command ended: its side of the terminal is closed
            return False
        if not chunk:
            return False
        self.raw += self._decoder.decode(chunk)
        return True

    def expect(self, pattern: str, timeout: float = 30.0) -> str:
        """Wait until ``pattern`` (a regular expression) appears after what was matched before; the text up to
        and including it."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while True:
            found = regex.search(self.text, self.seen)
            if found:
                said = self.text[self.seen : found.end()]
                self.seen = found.end()
                return said
            left = deadline - time.monotonic()
            got = left > 0 and self._read(min(left, 0.5))
            if not got and (left <= 0 or self.proc.poll() is not None):
                if regex.search(self.text, self.seen):
                    continue
                raise AssertionError(
                    f"{pattern!r} did not appear; the screen ends with:\n{self.text[-3000:]}"
                )

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def line(self, text: str) -> None:
        self.send(text + "\r")

    def interrupt(self) -> None:
        """Ctrl-C as the terminal sends it: SIGINT to the foreground process group."""
        self.send("\x03")

    def wait(self, timeout: float = 30.0) -> int:
        """The exit code once the command ends (reading the screen meanwhile)."""
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._read(0.2)
        while self._read(0.05):
            pass
        return self.proc.wait(timeout=max(0.1, deadline - time.monotonic()))

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        os.close(self.fd)

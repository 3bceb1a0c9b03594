"""``dicehall serve`` as a subprocess configured by its environment alone (as the container and the systemd unit
run it), its output in a file: the log, deployment and proxy tests."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tools.server import free_port

EXE = Path(sys.executable).parent / "dicehall"


def clean_env(**extra: str) -> dict[str, str]:
    """This environment without DICEHALL_ variables, no warm-up or analyst (test speed), plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DICEHALL_")}
    env.update(DICEHALL_WARM_UP="0", DICEHALL_ANALYST="0", **extra)
    return env


@contextmanager
def serving(env: dict[str, str], log: Path, args: tuple[str, ...] = ("serve",)) -> Iterator[str]:
    """Starts ``dicehall ARGS`` with ``env`` (a free port unless it names one), waits for /healthz, yields
    the base URL, stops it with SIGTERM."""
    env = {"DICEHALL_PORT": str(free_port()), **env}
    with log.open("wb") as out:  # a file, never a pipe that could fill
        proc = subprocess.Popen([str(EXE), *args], env=env, stdout=out, stderr=out)
    base = f"http://127.0.0.1:{env['DICEHALL_PORT']}"
    try:
        for _ in range(1200):
            assert proc.poll() is None, log.read_text(encoding="utf-8")[-3000:]
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            threading.Event().wait(0.05)
        else:
            raise AssertionError(f"no answer in 60 s: {log.read_text(encoding='utf-8')[-3000:]}")
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

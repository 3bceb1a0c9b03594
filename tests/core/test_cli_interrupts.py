"""Ctrl-C in ``dicehall simulate`` (issue 29): the first one stops within a second, the expert bot's long games
and worker processes included, and prints the report of the games finished; a second one exits with one line."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.core.terminal import Terminal


def _session_processes(sid: int) -> list[int]:
    """The processes still alive in session ``sid`` (the command and any worker it left behind)."""
    alive = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == sid and fields[0] != "Z":
                alive.append(int(entry.name))
    return alive


def _stop(term: Terminal) -> tuple[int, float]:
    started = time.monotonic()
    term.interrupt()
    code = term.wait(timeout=20)
    return code, time.monotonic() - started


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_first_ctrl_c_stops_the_expert_at_once_with_the_report(lang: str, tmp_path: Path) -> None:
    term = Terminal("--lang", lang, "simulate", "clever", "--players", "bot:expert", "--games", "100000")
    try:
        term.expect(r"\b[1-9]\d*/100000", timeout=60)  # a game or more finished (each takes about a second)
        code, seconds = _stop(term)
    finally:
        term.close()
    assert code == 130 and seconds < 1.0, (code, seconds, term.text[-2000:])
    words = {
        "en": ("interrupted: the report covers", "per seat"),
        "ru": ("прервано: отчёт охватывает", "по местам"),
    }
    for said in words[lang]:
        assert said in term.text, term.text[-2000:]


def test_the_first_ctrl_c_stops_worker_processes_too() -> None:
    term = Terminal("simulate", "clever", "--players", "bot:expert", "--games", "100000", "--jobs", "2")
    try:
        term.expect("simulating", timeout=60)
        term.expect(r"0/100000", timeout=10)
        code, seconds = _stop(term)
        assert code == 130 and seconds < 1.0, (code, seconds, term.text[-2000:])
        assert "interrupted before any game finished" in term.text  # no chunk of 100 expert games was done
        assert _session_processes(term.proc.pid) == []  # the workers were stopped, not left playing
    finally:
        term.close()


def test_a_second_ctrl_c_exits_with_one_line() -> None:
    script = (
        "import os, signal, time\n"
        "from dicehall.core.cli_support import _StopOnInterrupt\n"
        "with _StopOnInterrupt() as stop:\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    assert stop.requested()\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(30)\n"
        "print('not reached')\n"
    )
    env = {**os.environ, "LANG": "ru_RU.UTF-8", "COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=20)
    assert done.returncode == 130 and "not reached" not in done.stdout
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines[-1] == "остановлено без отчёта" and "Traceback" not in done.stderr, done.stderr

"""Every command starts without the compiled kernels: Numba (≈ 0.3 s and SciPy with it) loads only when a command
plays, solves or reads a compiled table, never for the help or the registration of the games' commands."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
import dicehall.cli as cli
sys.argv = ["dicehall", "--help"]
try:
    cli.main()
except SystemExit:
    pass
print("numba" in sys.modules, file=sys.stderr)
"""


def test_help_and_every_command_start_without_numba() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert "solve" in done.stdout and "strategy" in done.stdout  # every game's commands registered
    assert done.stderr.strip().splitlines()[-1] == "False"


def test_a_command_that_plays_still_loads_the_kernels() -> None:
    """The probe can fail: the commands that need the compiled code load it."""
    probe = PROBE.replace('["dicehall", "--help"]', '["dicehall", "strategy", "thousand", "--dice", "5"]')
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stderr.strip().splitlines()[-1] == "True"


def test_a_random_clever_simulation_plays_without_numba() -> None:
    """Its block kernel is compiled ahead of time (make kernels), so the whole run loads no Numba."""
    argv = '["dicehall", "simulate", "clever", "--players", "bot:random,bot:random", "--games", "30"]'
    probe = PROBE.replace('["dicehall", "--help"]', argv)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert "30 games" in done.stdout.replace(",", "")
    assert done.stderr.strip().splitlines()[-1] == "False"


def test_a_command_of_one_game_registers_that_games_commands_only() -> None:
    probe = PROBE.replace('["dicehall", "--help"]', '["dicehall", "simulate", "wurf", "--help"]').replace(
        'print("numba" in sys.modules, file=sys.stderr)',
        'print(*sorted(m for m in sys.modules if m.endswith(".cli")), file=sys.stderr)',
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert "--players" in done.stdout  # the command's own help
    loaded = done.stderr.split()
    assert "dicehall.wurf.cli" in loaded
    assert "dicehall.thousand.cli" not in loaded and "dicehall.clever.cli" not in loaded


def test_a_simulation_loads_none_of_the_other_groups_commands() -> None:
    """``simulate clever`` registers the game's play and simulate commands, not its puzzles, strategy or hints."""
    argv = '["dicehall", "simulate", "clever", "--players", "bot:random", "--games", "3"]'
    probe = PROBE.replace('["dicehall", "--help"]', argv).replace(
        'print("numba" in sys.modules, file=sys.stderr)',
        'print(*sorted(m for m in sys.modules if m.startswith("dicehall.")), file=sys.stderr)',
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert "3 games" in done.stdout
    loaded = done.stderr.split()
    assert "dicehall.clever.cli" in loaded
    for other in ("dicehall.clever.puzzle_cli", "dicehall.clever.strategy_cli", "dicehall.core.analysis_cli"):
        assert other not in loaded
    probe = probe.replace(
        '"simulate", "clever", "--players", "bot:random", "--games", "3"', '"puzzle", "clever", "--help"'
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert "dicehall.clever.puzzle_cli" in done.stderr.split()  # the probe can fail

"""``dicehall solve thousand`` through typer's CliRunner, the cached table and resuming from a checkpoint."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.thousand.solver.solve import solve

from .test_solver import FLOOR, SMALL

_register_games()
runner = CliRunner()
SMALL_ARGS = [
    "--set", "target=30", "--set", "barrel=none", "--set", "pits=[[15,20]]", "--set", "open_min=10",
    "--set", "bolts_count=2", "--set", "bolt_penalty=10", "--set", "overtake_penalty=5",
    "--set", "dump_truck_score=10", "--floor", str(FLOOR),
]  # fmt: skip


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path) -> Iterator[None]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(tmp_path))
        yield


def test_solve_json_then_the_cached_table(tmp_path: Path) -> None:
    first = runner.invoke(app, ["solve", "thousand", *SMALL_ARGS, "--json"])
    assert first.exit_code == 0, first.output
    out = json.loads(first.output)
    for key in ("win_probability_first", "states", "sweeps", "max_change", "seconds", "peak_memory_mb"):
        assert key in out
    assert out["states"] == 529 and out["exact"] and out["max_change"] < 1e-9 and out["gap"] <= 1e-9
    assert Path(out["table"]).exists()
    png = tmp_path / "t.png"
    again = runner.invoke(app, ["solve", "thousand", *SMALL_ARGS, "--json", "--plot", str(png)])
    assert again.exit_code == 0, again.output
    cached = json.loads(again.output)
    assert cached["cached"] and cached["win_probability_first"] == out["win_probability_first"]
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_solve_refuses_rules_it_does_not_model() -> None:
    # yard is solved by its own model (test_solver_yard_table.py); with a free set-aside it is not
    result = runner.invoke(app, ["solve", "thousand", "--preset", "yard", "--set", "free_set_aside=true"])
    assert result.exit_code == 2
    assert "does not cover" in result.output and "max_rolls" in result.output
    assert "13525911 positions" in result.output and "hours of one processor core" in result.output
    assert "step" not in result.output  # refused before any progress bar
    result = runner.invoke(app, ["solve", "thousand", "--preset", "classic-open", "--lang", "pl"])
    assert result.exit_code == 2
    assert "barrel = open" in result.output and "22\u00a0127\u00a0616 pozycji" in result.output
    for preset in ("yard", "classic"):  # a floor the table cannot have is said first
        result = runner.invoke(app, ["solve", "thousand", "--preset", preset, "--floor", "3"])
        assert result.exit_code == 2 and "must be a multiple of 5 at or below 0, got 3" in result.output


def test_an_interrupted_run_resumes_to_the_same_values(tmp_path: Path) -> None:
    ckpt = tmp_path / "run.checkpoint.npz"
    # one thread: two threads may interleave differently from run to run (same bounds, other last bits)
    part = solve(SMALL, floor=FLOOR, max_sweeps=3, checkpoint=ckpt, checkpoint_seconds=0, threads=1)
    assert not part.converged and part.sweeps == 3 and ckpt.exists()
    assert part.summary()["win_probability_first"] is None  # never a value from a cut iteration
    resumed = solve(SMALL, floor=FLOOR, checkpoint=ckpt, threads=1)
    fresh = solve(SMALL, floor=FLOOR, threads=1)
    assert resumed.converged and resumed.sweeps == fresh.sweeps and not ckpt.exists()
    assert np.array_equal(resumed.lower, fresh.lower) and np.array_equal(resumed.upper, fresh.upper)


def test_policy_in_words_matches_the_tables_decisions() -> None:
    from dicehall.thousand.solver.policy import TurnValues
    from dicehall.thousand.solver.space import PlayerState
    from dicehall.thousand.solver.words import bank_from, policy_table

    result = runner.invoke(app, ["solve", "thousand", *SMALL_ARGS, "--policy"])
    assert result.exit_code == 0, result.output
    assert "Opening turn" in result.output and "own    0 vs    0" in result.output
    solution = solve(SMALL, floor=FLOOR, threads=1)
    values = (solution.lower + solution.upper) / 2
    space = solution.space
    rows = policy_table(space, values)
    assert rows[0]["own"] == 0 and len(rows) > 4
    for row in rows[1:]:
        m = space.index[space.canonical(PlayerState(row["own"], True))]
        o = space.index[space.canonical(PlayerState(row["opponent"], True))]
        tv = TurnValues(space, values, m, o)
        for n in range(1, 6):
            first, _ = bank_from(tv, n)
            assert row[f"dice{n}"] == first
            bankable = [t * 5 for t in range(tv.top + 1) if tv.bank(t * 5) is not None]
            below = [t for t in bankable if first is None or t < first]
            assert all(tv.should_roll(t, n) for t in below)
            if first is not None:
                assert not tv.should_roll(first, n)


def test_solve_by_policy_iteration_reports_its_residual() -> None:
    result = runner.invoke(app, ["solve", "thousand", *SMALL_ARGS, "--method", "pi", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["method"] == "policy iteration" and out["residual"] <= 1e-9 and out["exact"]
    assert out["win_probability_first_bounds"] is None and "draw" in out["endless_play"]
    assert out["levels"][0]["residual"] == out["residual"] and out["levels"][0]["q_entries"] > 0
    vi = solve(SMALL, floor=FLOOR)
    assert abs(out["win_probability_first"] - vi.value(vi.space.start, vi.space.start)) < 1e-8
    bad = runner.invoke(app, ["solve", "thousand", *SMALL_ARGS, "--method", "newton"])
    assert bad.exit_code != 0 and "unknown method" in bad.output


def test_export_compact_writes_the_shipped_format(tmp_path: Path) -> None:
    from dicehall.thousand.rules import ThousandRules
    from dicehall.thousand.solver import compact
    from dicehall.thousand.solver.solve import load_table

    path = tmp_path / "small.npz"
    result = runner.invoke(app, ["solve", "thousand", *SMALL_ARGS, "--export-compact", str(path)])
    assert result.exit_code == 0, result.output
    assert "compact table:" in result.output and "values within ±" in result.output
    cached = runner.invoke(app, ["solve", "thousand", *SMALL_ARGS, "--json", "--export-compact", str(path)])
    out = json.loads(cached.output)
    assert out["cached"] and out["compact"]["bytes"] == path.stat().st_size and out["compact"]["bits"] == 16
    rules = ThousandRules.from_preset("classic", compact.read_header(path)["rules"])
    table = load_table(rules, FLOOR)
    assert table is not None
    values, header = compact.decode(path, table.space)
    assert header["solved"]["win_probability_first"] == out["win_probability_first"]
    assert np.abs(values - table.values).max() <= 2.0**-17 + 1e-7

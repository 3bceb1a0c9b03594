"""``play --seed`` reproduces the dice for every game; simulation results stream in bounded memory."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dicehall.clever.rules import CleverRules
from dicehall.cli import _register_games, app
from dicehall.core.agents import parse_players
from dicehall.core.record import GameRecord
from dicehall.core.simulate import RunSummary, SimulationJob, run_games, simulate, summarize
from dicehall.core.stats import RunningStats, describe, histogram
from dicehall.thousand.rules import ThousandRules

_register_games()
runner = CliRunner()


@pytest.mark.parametrize("game", ["thousand", "clever", "wurf"])
def test_play_seed_gives_the_same_dice(game: str, tmp_path: Path) -> None:
    def events(seed: int, name: str) -> list[str]:
        path = tmp_path / name
        res = runner.invoke(
            app,
            ["play", game, "--players", "bot:random,bot:random", "--seed", str(seed), "--save", str(path)],
        )
        assert res.exit_code == 0, res.output
        record = GameRecord.load(path)
        assert record.seed == seed
        return [e.move for e in record.events]

    first = events(11, "a.json")
    assert events(11, "b.json") == first
    assert events(12, "c.json") != first


@pytest.mark.parametrize("limit", [50_000, 40])
def test_running_stats_match_the_whole_sample_while_exact(limit: int) -> None:
    rng = np.random.default_rng(5)
    values = rng.integers(0, 30, size=3000).astype(float).tolist()
    rs = RunningStats(limit=limit)
    rs.add_all(values)
    assert rs.exact
    got, want = rs.describe(), describe(values)
    assert got.keys() == want.keys()
    for key in want:
        assert got[key] == pytest.approx(want[key], rel=1e-12, abs=1e-12), key
    assert rs.histogram() == histogram(values)


def test_running_stats_estimate_past_the_limit_in_bounded_memory() -> None:
    rng = np.random.default_rng(9)
    values = rng.normal(100, 15, size=60_000)
    rs = RunningStats(limit=2000)
    early, late = values[:10_000].tolist(), values[10_000:].tolist()
    tracemalloc.start()
    rs.add_all(early)
    held_early, _ = tracemalloc.get_traced_memory()
    rs.add_all(late)
    held_late, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert not rs.exact and len(rs._sample) == 2000
    assert held_late < held_early * 1.2  # six times the values, no more memory held
    d = rs.describe()
    assert d["exact"] is False and d["n"] == 60_000
    assert d["mean"] == pytest.approx(float(values.mean()), rel=1e-9)  # exact moments
    assert d["sd"] == pytest.approx(float(values.std(ddof=1)), rel=1e-6)
    assert d["min"] == values.min() and d["max"] == values.max()
    for q, key in ((5, "p5"), (50, "median"), (95, "p95")):
        assert d[key] == pytest.approx(float(np.percentile(values, q)), abs=2.0)  # a sample's estimate
    assert sum(b["count"] for b in rs.histogram()) == pytest.approx(60_000, abs=10)


def test_streamed_summary_equals_the_report_of_the_whole_list() -> None:
    job = SimulationJob(
        "thousand", ThousandRules.from_preset("classic"), tuple(parse_players("bot:random,bot:bold")), 3
    )
    outcomes = run_games(job, range(40))
    report, summary = simulate(job, 40)
    assert isinstance(summary, RunSummary) and summary.games == 40
    assert report == summarize(job, list(reversed(outcomes)))
    assert report["seats"][0]["score"] == pytest.approx(describe([o.scores[0] for o in outcomes]), rel=1e-12)
    assert report["stats"]["turns"] == pytest.approx(
        describe([o.stats["turns"] for o in outcomes]), rel=1e-12
    )


def test_simulate_help_documents_streaming() -> None:
    res = runner.invoke(app, ["simulate", "clever", "--help"], terminal_width=200)
    assert "streamed" in res.output and "10**12" in res.output


def test_simulate_json_report_unchanged_in_shape(tmp_path: Path) -> None:
    res = runner.invoke(app, ["simulate", "clever", "--players", "bot:random", "--games", "5", "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["games"] == 5 and set(report["seats"][0]["score"]) >= {"mean", "sd", "p5", "median", "p95"}


def test_a_stop_request_ends_the_run_between_games() -> None:
    job = SimulationJob("clever", CleverRules.from_preset("standard"), tuple(parse_players("bot:random")), 1)
    counted = [0]

    def progress(games: int) -> None:
        counted[0] += games

    report, summary = simulate(job, 1000, progress=progress, should_stop=lambda: counted[0] > 0)
    assert 0 < summary.games == counted[0] <= 100  # the first batch, and not a game more
    assert report["games"] == summary.games == report["seats"][0]["score"]["n"]
    # the games kept are the first ones, as a run of that many gives them
    assert simulate(job, summary.games)[0]["seats"] == report["seats"]


def test_ctrl_c_reports_the_games_finished(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "dicehall.cli", "simulate", "clever", "--players", "bot:random"]
    records = tmp_path / "records"
    proc = subprocess.Popen(
        [*cmd, "--games", "10000000", "--json", "--save-records", str(records)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])},
    )
    deadline = time.monotonic() + 120
    while not (records.exists() and any(records.iterdir())):  # the run has started: Ctrl-C is handled
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted: the report covers" in err
    report = json.loads(out)
    assert report["games"] > 0 and report["games"] == len(
        list(records.iterdir())
    )  # every game counted is saved

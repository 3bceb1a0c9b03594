"""Clever's strategy figures (dicehall/clever/strategy.py, ``data/strategy.json``) and ``dicehall strategy
clever``: the shipped sample games are played again from their seeds and give the same numbers; those games are
the ones ``dicehall simulate`` plays (the kernel's fast path); the summaries add up; the terminal prints the
shipped numbers within 80 columns in the four languages."""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from dicehall.clever import sheet as S
from dicehall.clever import strategy as st
from dicehall.clever.game import CleverGame
from dicehall.clever.master import MasterAgent
from dicehall.clever.rules import CleverRules
from dicehall.cli import _register_games, app
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game

_register_games()
runner = CliRunner()


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return st.shipped()


@pytest.fixture(scope="module")
def agent() -> MasterAgent:
    return MasterAgent()


def test_the_sample_games_are_played_again_from_their_seeds(data: dict[str, Any], agent: MasterAgent) -> None:
    assert len(data["sample"]) == st.SAMPLE_GAMES
    for game in data["sample"]:
        again = st.observe_game(data["seed"], game["index"], 1, agent)
        assert json.loads(json.dumps(again)) == game


def test_the_games_are_those_the_simulator_plays(data: dict[str, Any], agent: MasterAgent) -> None:
    """Played step by step (every decision looked at) or by the kernel's fast path, the same seed is the same
    game: the figures describe ``dicehall simulate clever --players bot:master``'s games."""
    for game in data["sample"][:3]:
        s = game_seed(data["seed"], game["index"])
        state = CleverGame().new_initial_state(CleverRules.from_preset(), 1)
        play_game(state, [agent], seeded_rng(s), agent_rng(s))
        assert [int(x) for x in state.scores()] == game["scores"]
    table = st.observe_game(data["seed"], 0, 3, agent)
    s = game_seed(data["seed"], 0)
    state = CleverGame().new_initial_state(CleverRules.from_preset(), 3)
    play_game(state, [agent] * 3, seeded_rng(s), agent_rng(s))
    assert [int(x) for x in state.scores()] == table["scores"]


def test_a_games_rows_add_up_and_round_bonuses_fall_in_their_round(data: dict[str, Any]) -> None:
    for game in data["sample"]:
        rounds = np.array(game["rounds"])  # round, seat, column
        assert rounds.shape[:2] == (S.ROUNDS_BY_PLAYERS[1], 1)
        last = rounds[-1, 0]
        assert last[:6].sum() == game["scores"][0]  # five areas and the foxes' points are the score
        assert (np.diff(rounds[:, 0, :6], axis=0) >= 0).all()  # a sheet's points never go down
        p1 = np.diff(np.concatenate([[0], rounds[:, 0, st.P1_GAIN]]))
        rr = np.diff(np.concatenate([[0], rounds[:, 0, st.RR_GAIN]]))
        assert rr[0] >= 1 and p1[1] >= 1 and rr[2] >= 1  # the start bonuses of rounds 1 (re-roll), 2 (+1), 3
        assert len(game["actions"]) == S.ROUNDS_BY_PLAYERS[1]


def test_the_summary_of_the_sample_is_the_summarys_arithmetic(data: dict[str, Any]) -> None:
    games = data["sample"]
    part = st.table_summary(games)
    scores = np.array([g["scores"][0] for g in games], dtype=float)
    assert part["areas"]["total"]["mean"] == round(float(scores.mean()), 2)
    assert part["rounds"]["total"][-1] == pytest.approx(scores.mean(), abs=0.01)
    assert sum(part["rounds"]["areas"][r][5] for r in range(6)) == pytest.approx(
        part["areas"]["fox_points"]["mean"], abs=0.05
    )
    colours = st.colour_summary(games)
    c = np.array([g["colours"] for g in games])
    assert colours[0]["die"] == "white"
    assert colours[0]["edge"]["mean"] == round(float(c[:, 0, 2].sum() / c[:, 0, 0].sum()), 2)
    assert sum(x["pick_share"] for x in colours) == pytest.approx(1, abs=0.01)


def test_the_shipped_figures_hold_together(data: dict[str, Any]) -> None:
    raw = (resources.files("dicehall.clever") / "data" / "strategy.json").read_bytes()
    assert len(raw) <= 100_000
    assert set(data["tables"]) == {"1", "2", "3", "4"} and data["tables"]["1"]["games"] >= 1000
    for n, part in data["tables"].items():
        a = part["areas"]
        parts = sum(a[k]["mean"] for k in (*S.AREA_NAMES, "fox_points"))
        assert parts == pytest.approx(a["total"]["mean"], abs=0.05), n
        assert part["rounds"]["total"][-1] == pytest.approx(a["total"]["mean"], abs=0.05), n
        assert len(part["rounds"]["gained"]) == S.ROUNDS_BY_PLAYERS[int(n)]
        for e in a.values():
            assert e["low"] <= e["mean"] <= e["high"]
    assert data["tables"]["1"]["areas"]["total"]["mean"] > 250  # bot:master's documented solo level
    f = data["first_round"]
    assert 0 < len(f["choices"]) <= st.SHOWN_CHOICES and all(c["margin"] >= f["cut"] for c in f["choices"])
    assert data["command"].startswith("python scripts/clever_strategy.py --games")


def cli(lang: str) -> list[str]:
    out = runner.invoke(app, ["--lang", lang, "strategy", "clever"], env={"COLUMNS": "80"})
    assert out.exit_code == 0, out.output
    return out.output.splitlines()


@pytest.mark.parametrize(
    ("lang", "total", "foxes"),
    [
        ("en", "Total", "Foxes (points)"),
        ("ru", "Итого", "Лисы (очки)"),
        ("uk", "Разом", "Лисиці (очки)"),
        ("pl", "Razem", "Lisy (punkty)"),
    ],
)
def test_the_cli_prints_the_shipped_figures_within_80_columns(
    data: dict[str, Any], lang: str, total: str, foxes: str
) -> None:
    lines = cli(lang)
    assert max(len(line) for line in lines) <= 80
    for label, key in ((total, "total"), (foxes, "fox_points")):
        row = next(line for line in lines if line.strip("│ ").startswith(label))
        e = data["tables"]["1"]["areas"][key]
        mean, half = (float(x.replace(",", ".")) for x in re.findall(r"\d+[.,]\d", row)[:2])
        assert abs(mean - e["mean"]) <= 0.051 and abs(half - (e["high"] - e["low"]) / 2) <= 0.051
    text = "\n".join(lines)
    assert "pick:" not in text and "reroll" not in text  # the choices in words
    assert data["command"].split()[-1] in text


def test_the_cli_json_is_the_shipped_file(data: dict[str, Any]) -> None:
    out = runner.invoke(app, ["strategy", "clever", "--json"])
    assert out.exit_code == 0 and json.loads(out.output) == data

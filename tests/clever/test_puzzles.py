"""Clever puzzles: the shipped batch re-valued by the evaluator, the position kept as data, a deterministic and
resumable miner, its command, and the verdict (clever/puzzles.py, clever/puzzle_play.py)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dicehall.clever import puzzles
from dicehall.clever.puzzle_play import PuzzleSet, check, position, why
from dicehall.clever.puzzles import (
    FIRST,
    MARGIN,
    MAX_OPTIONS,
    ROLLOUTS,
    SCREEN,
    SHIPPED,
    THEMES,
    Miner,
    Puzzle,
    PuzzleEvaluator,
    Z,
    is_decision,
    load_puzzles,
    mine,
    position_json,
    position_key,
    rollout_values,
    state_from,
    theme,
    valuation,
)
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import CleverState
from dicehall.clever.view import public_view
from dicehall.cli import _register_games, app
from dicehall.core.puzzles import PuzzleAnswerError

_register_games()
runner = CliRunner()


@pytest.fixture(scope="module")
def miner() -> Miner:
    return Miner()


@pytest.fixture(scope="module")
def shipped() -> list[Puzzle]:
    return load_puzzles()


def test_the_shipped_batch_is_small_distinct_and_covers_every_theme(shipped: list[Puzzle]) -> None:
    assert SHIPPED.stat().st_size <= 1_000_000
    header, _ = puzzles.read_file(SHIPPED)
    assert header == {
        "format": puzzles.FORMAT, "game": "clever", "rules": "standard", "players": [1], "seed": 0,
        "margin": MARGIN, "rollouts": [FIRST, ROLLOUTS], "z": Z, "screen": SCREEN,
    }  # fmt: skip
    assert len(shipped) >= 2000
    assert len({p.key for p in shipped}) == len(shipped)
    assert {p.theme for p in shipped} == set(THEMES)
    assert {p.position["n"] for p in shipped} == {1}
    # (margin and se are kept to two decimals: three times a rounded se may pass the margin by 0.015)
    assert all(p.margin >= max(MARGIN, Z * p.se - 0.015) and p.best in p.options for p in shipped)


def test_every_sampled_puzzle_is_the_evaluators_best_by_its_margin(
    shipped: list[Puzzle], miner: Miner
) -> None:
    """Rebuilt from its position, each sampled puzzle has the stated legal choices; played on again (the same
    seeded games) every option has the stated value, the stated best is best by the stated margin, at least
    MARGIN and Z standard errors; the network (the analysis's values) agrees on the best by at least SCREEN;
    the theme and the judges' misses are as stated."""
    evaluator = PuzzleEvaluator()
    for p in random.Random(7).sample(shipped, 30):
        s = p.state()
        assert is_decision(s) and position_key(p.position) == p.key
        net = evaluator.values(s)
        ranked = sorted(net, key=lambda a: -net[a])
        v = valuation(rollout_values(s, ranked[0]))
        values = {s.action_to_string(a): x for a, x in v.values.items()}
        assert set(values) == set(p.options) and 2 <= len(values) <= MAX_OPTIONS
        assert all(values[k] == pytest.approx(x, abs=0.006) for k, x in p.options.items())
        assert s.action_to_string(v.best) == p.best
        assert v.margin == pytest.approx(p.margin, abs=0.01) and v.se == pytest.approx(p.se, abs=0.006)
        assert v.margin >= max(MARGIN, Z * v.se)
        assert ranked[0] == v.best and net[ranked[0]] - net[ranked[1]] >= SCREEN
        assert theme(s, v.best) == p.theme
        assert miner.missed_by(s, p.best) == p.missed_by


def test_a_position_kept_as_data_is_the_same_decision() -> None:
    """Every decision of a few bot games (solo and at tables): rebuilt from its JSON, the same legal moves, the
    same view for the mover and the same values as the real position."""
    evaluator = PuzzleEvaluator(lookahead=False)
    rng = np.random.default_rng(3)
    seen = 0
    for n in (1, 2, 4):
        s = CleverState(CleverRules(), n)
        bots = Miner(evaluator=evaluator).bots
        while not s.is_terminal():
            if s.is_chance_node():
                s.apply_action(s.sample_chance(rng))
                continue
            if is_decision(s):
                d = position_json(s)
                again = state_from(json.loads(json.dumps(d)))
                mover = s.current_player()
                assert again.current_player() == mover and again.legal_actions() == s.legal_actions()
                assert position_json(again) == d
                if not s.hidden_from(mover):  # (the last move's bonuses are not part of a position)
                    assert {**public_view(again, mover), "bonuses": []} == {
                        **public_view(s, mover),
                        "bonuses": [],
                    }
                assert evaluator.values(again) == pytest.approx(evaluator.values(s))
                seen += 1
            s.apply_action(bots["expert"].choose(s, rng))
    assert seen > 100


def test_mining_is_deterministic_and_a_killed_run_resumes_to_the_same_file(
    tmp_path: Path, miner: Miner
) -> None:
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    assert mine(whole, 3, seed=5, miner=miner) == 3
    header, first, second = whole.read_text(encoding="utf-8").splitlines(keepends=True)[:3]
    cut.write_text(header + first + second[:40], encoding="utf-8")  # killed while writing the second
    assert mine(cut, 3, seed=5, miner=miner) == 3
    assert cut.read_bytes() == whole.read_bytes()
    parallel = tmp_path / "parallel.jsonl"  # two worker processes write the same file
    assert mine(parallel, 3, seed=5, jobs=2) == 3
    assert parallel.read_bytes() == whole.read_bytes()
    with pytest.raises(puzzles.PuzzleFileError):
        mine(whole, 20, seed=6, miner=miner)


def test_the_mine_command_resumes_and_says_so(tmp_path: Path) -> None:
    out = tmp_path / "p.jsonl"
    # (seed 4: its first game meets two puzzles in its first rounds, 4 s in; seed 2's took 12 s)
    res = runner.invoke(app, ["puzzle", "mine", "clever", "--count", "1", "--seed", "4", "--out", str(out)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["puzzle", "mine", "clever", "--count", "2", "--seed", "4", "--out", str(out)])
    assert res.exit_code == 0 and "already there: 1." in res.output
    assert len(load_puzzles(out)) == 2
    res = runner.invoke(app, ["puzzle", "mine", "clever", "--count", "4", "--seed", "9", "--out", str(out)])
    assert res.exit_code == 2


def test_the_verdict_ranks_every_option_and_refuses_other_moves(shipped: list[Puzzle]) -> None:
    p = next(x for x in shipped if len(x.options) >= 4)
    wrong = next(k for k in p.options if k != p.best)
    v = check(p, wrong)
    assert not v.correct and v.best == p.best and v.options[0]["move"] == p.best
    assert [o["value"] for o in v.options] == sorted(p.options.values(), reverse=True)
    assert v.options[-1]["loss"] == pytest.approx(max(p.options.values()) - min(p.options.values()), abs=1e-3)
    assert check(p, p.best).correct
    with pytest.raises(PuzzleAnswerError) as err:
        check(p, "bank")
    assert err.value.msgid == "puzzle.refusal.choice_clever"
    said = why(p)
    assert said.msgid == f"puzzle.clever.why.{p.theme.replace(' ', '_')}"
    assert said.params["margin"] == pytest.approx(said.params["best"] - said.params["other"], abs=0.051)


def test_the_page_is_sent_the_position_never_the_answer(shipped: list[Puzzle]) -> None:
    p = shipped[0]
    sent = position(p)
    text = json.dumps(sent)
    assert set(sent) == {"theme", "mover", "view"}
    assert sorted(sent["view"]["legal_actions"]) == sorted(p.options)
    assert str(p.options[p.best]) not in text and "best" not in sent


def test_the_set_keeps_to_a_theme_and_near_a_rating(shipped: list[Puzzle]) -> None:
    ps = PuzzleSet(shipped)
    rng = np.random.default_rng(1)
    for th in THEMES:
        pid = ps.pick(1500, th, set(), rng)
        assert pid is not None and ps.get(pid).theme == th
    ratings = sorted(ps.rating.values())
    assert ratings[0] >= 1050 and ratings[-1] <= 1875
    by = {
        d: [ps.rating[i] for i, p in ps.by_id.items() if p.difficulty == d]
        for d in ("easy", "medium", "hard")
    }
    assert max(by["easy"]) < min(by["medium"]) and max(by["medium"]) < min(by["hard"])

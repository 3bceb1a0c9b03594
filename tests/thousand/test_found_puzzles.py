"""Puzzles found in played games: a recorded game gives exactly the puzzles the miner finds playing it."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.core.history import keep
from dicehall.core.record import GameRecord, replay
from dicehall.core.rng import game_rng
from dicehall.thousand.found_puzzles import FOUND, history_puzzles, puzzles_in_record, qualifies
from dicehall.thousand.puzzles import Miner, Puzzle, position_key
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import ThousandState

SEED = 11
_register_games()
runner = CliRunner()


@pytest.fixture(scope="module")
def miner() -> Miner:
    return Miner()


def _recorded(
    miner: Miner, game: int, rules: ThousandRules | None = None, resign_at: int | None = None
) -> GameRecord:
    """Game ``game`` of the miner's seed played as the miner plays it, written down as a table writes it."""
    rules = rules or miner.rules
    seats = miner.seats(SEED, game)
    dice = game_rng(SEED, game)
    bots = np.random.default_rng(np.random.SeedSequence(SEED, spawn_key=(game, 1)))
    record = GameRecord.start("thousand", rules, ["Ann", "Bob"])
    s = ThousandState(rules, 2)
    while not s.is_terminal():
        if resign_at is not None and len(record.events) == resign_at:
            record.add_resign(1)
            break
        a: Any = s.sample_chance(dice) if s.is_chance_node() else miner.choose(seats[s.player], s, bots)
        record.add(s, a)
        s.apply_action(a)
    return record


def _as_found(p: Puzzle) -> Puzzle:
    return dataclasses.replace(p, game=FOUND)


def test_a_recorded_game_gives_the_puzzles_the_miner_finds_in_it(miner: Miner) -> None:
    met = 0
    for game in range(6):
        mined = [_as_found(p) for p in miner.game(SEED, game)]
        unique = list({p.key: p for p in reversed(mined)}.values())[::-1]
        record = _recorded(miner, game)
        found = puzzles_in_record(record, (0, 1), miner)
        assert [f.puzzle for f in found] == unique
        for f in found:  # the step is where the position stands in the record
            assert position_key(replay(record, f.step)) == f.puzzle.key
        met += len(unique)
    assert met >= 5  # the games hold puzzles: the comparison is not of two empty lists


def _puzzles(record: GameRecord, seats: tuple[int, ...], miner: Miner) -> list[Puzzle]:
    return [f.puzzle for f in puzzles_in_record(record, seats, miner)]


def test_only_the_named_seats_decisions_count(miner: Miner) -> None:
    record = _recorded(miner, 2)
    both = _puzzles(record, (0, 1), miner)
    ann = _puzzles(record, (0,), miner)
    bob = _puzzles(record, (1,), miner)
    assert ann and bob
    assert {p.key for p in ann} | {p.key for p in bob} == {p.key for p in both}
    assert {p.start["to_move"] for p in ann} == {0} and {p.start["to_move"] for p in bob} == {1}


def test_a_resigned_game_gives_the_puzzles_before_the_resignation(miner: Miner) -> None:
    split = 0
    for game in range(6):
        whole = _recorded(miner, game)
        all_of_it = _puzzles(whole, (0, 1), miner)
        before = _puzzles(_recorded(miner, game, resign_at=len(whole.events) // 2), (0, 1), miner)
        assert before == all_of_it[: len(before)]
        split += 0 < len(before) < len(all_of_it)
        assert _puzzles(_recorded(miner, game, resign_at=0), (0, 1), miner) == []
    assert split  # some game has puzzles on both sides of its resignation


def test_other_rules_and_other_games_give_none(miner: Miner) -> None:
    record = _recorded(miner, 1)
    assert qualifies(record)
    other = _recorded(miner, 1, rules=ThousandRules.from_preset("classic", {"dump_truck": False}))
    assert not qualifies(other) and puzzles_in_record(other, (0, 1), miner) == []
    clever = dataclasses.replace(record, game="clever", preset="standard", overrides={})
    assert not qualifies(clever)
    three = dataclasses.replace(record, players=[*record.players, {"name": "Cy"}])
    assert not qualifies(three)


def _kept(record: GameRecord, names: list[str]) -> None:
    record.players = [{"name": n} for n in names]
    keep(record)


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "pl"])
def test_the_terminal_offers_the_puzzles_of_your_own_games(
    lang: str, miner: Miner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    none = runner.invoke(app, ["--lang", lang, "puzzle", "thousand", "--from-my-games"], input="q\n")
    assert none.exit_code == 0 and "dicehall play thousand" in none.output and "0" in none.output
    _kept(_recorded(miner, 2), ["Ann", "bot:expert"])
    _kept(_recorded(miner, 3), ["bot:bold", "bot:expert"])  # no person at the table: no puzzle of anyone's
    _kept(
        _recorded(miner, 1, rules=ThousandRules.from_preset("classic", {"dump_truck": False})), ["Ann", "Bob"]
    )
    mine, games = history_puzzles(miner)
    ann = _puzzles(_recorded(miner, 2), (0,), miner)
    assert games == 2 and mine == ann and ann
    res = runner.invoke(
        app,
        ["--lang", lang, "puzzle", "thousand", "--from-my-games", "--count", "1", "--seed", "1"],
        input="q\n",
    )
    assert res.exit_code == 0, res.output
    first = res.output.splitlines()[0]
    assert str(len(ann)) in first and "2" in first
    assert all(len(line) <= 80 for line in res.output.splitlines() if " > " not in line), res.output

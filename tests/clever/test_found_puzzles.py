"""Clever puzzles found in played games: a recorded solo game gives exactly the puzzles the miner's own judging
finds at the person's decisions (clever/found_puzzles.py)."""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dicehall.clever.found_puzzles import (
    history_puzzles,
    judge_fingerprint,
    mover,
    puzzles_in_record,
    qualifies,
    standard,
)
from dicehall.clever.puzzles import (
    MINED_PLAYERS,
    SHIPPED,
    Miner,
    Puzzle,
    position_json,
    position_key,
    read_file,
)
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import CleverState
from dicehall.cli import _register_games, app
from dicehall.core.found_puzzles import FOUND, Found
from dicehall.core.history import keep
from dicehall.core.record import GameRecord, replay
from dicehall.core.rng import game_rng
from dicehall.i18n import translator

SEED = 11
GAMES = (1, 3)  # the games mined; game 2 is kept only as a table's and another rule set's game
"""Seeded solo games of 1 to 3 puzzles (bot:master twice, bot:random once): a few seconds each."""
_register_games()
runner = CliRunner()


@pytest.fixture(scope="module")
def miner() -> Miner:
    return Miner()


def _recorded(
    miner: Miner, game: int, rules: CleverRules | None = None, resign_at: int | None = None
) -> GameRecord:
    """Game ``game`` of the miner's seed played as the miner plays it, written down as a table writes it."""
    rules = rules or standard()
    seats = miner.table(SEED, game, MINED_PLAYERS)
    dice = game_rng(SEED, game)
    bots = np.random.default_rng(np.random.SeedSequence(SEED, spawn_key=(game, 1)))
    record = GameRecord.start("clever", rules, ["Ann"] * len(seats))
    s = CleverState(rules, len(seats))
    while not s.is_terminal():
        if resign_at is not None and len(record.events) == resign_at:
            record.add_resign(0)
            break
        a = s.sample_chance(dice) if s.is_chance_node() else miner.bots[seats[0]].choose(s, bots)
        record.add(s, a)
        s.apply_action(a)
    return record


def _as_found(p: Puzzle) -> Puzzle:
    return dataclasses.replace(p, game=FOUND)


@pytest.fixture(scope="module")
def recorded(miner: Miner) -> dict[int, GameRecord]:
    return {g: _recorded(miner, g) for g in (1, 2, 3)}


@pytest.fixture(scope="module")
def found(miner: Miner, recorded: dict[int, GameRecord]) -> dict[int, list[Found[Puzzle]]]:
    return {g: puzzles_in_record(recorded[g], (0,), miner) for g in GAMES}


def test_a_recorded_solo_game_gives_the_puzzles_the_miner_finds_in_it(
    miner: Miner, recorded: dict[int, GameRecord], found: dict[int, list[Found[Puzzle]]]
) -> None:
    met = 0
    for game in GAMES:
        mined = [_as_found(p) for p in miner.game(SEED, game)]
        unique = list({p.key: p for p in reversed(mined)}.values())[::-1]
        assert [f.puzzle for f in found[game]] == unique
        for f in found[game]:  # the step is where the position stands in the record, the person's decision
            s = replay(recorded[game], f.step)
            assert isinstance(s, CleverState)
            assert position_key(position_json(s)) == f.puzzle.key
            assert mover(f.puzzle) == 0 and s.current_player() == 0
        met += len(unique)
    assert met >= 3  # the games hold puzzles: the comparison is not of two empty lists


def test_a_resigned_game_gives_the_puzzles_before_the_resignation(
    miner: Miner, found: dict[int, list[Found[Puzzle]]]
) -> None:
    whole = found[1]
    assert len(whole) >= 2
    cut = _recorded(miner, 1, resign_at=whole[0].step + 1)
    assert puzzles_in_record(cut, (0,), miner) == whole[:1]
    assert puzzles_in_record(_recorded(miner, 1, resign_at=0), (0,), miner) == []


def test_only_solo_standard_games_and_the_persons_seat_give_puzzles(
    miner: Miner, recorded: dict[int, GameRecord]
) -> None:
    record = recorded[3]
    assert qualifies(record)
    assert puzzles_in_record(record, (), miner) == []  # a bot's game: nobody's decisions
    other = _recorded(miner, 3, rules=CleverRules.from_preset("no-fallback", {}))
    rules = other.rules()
    assert isinstance(rules, CleverRules) and not rules.passive_fallback and not qualifies(other)
    assert puzzles_in_record(other, (0,), miner) == []
    table = dataclasses.replace(record, players=[*record.players, {"name": "Bob"}])
    assert not qualifies(table)  # tables of 2–4: the judging is solo's
    assert not qualifies(dataclasses.replace(record, game="thousand", preset="classic"))


def test_the_miner_walking_its_games_through_play_still_finds_the_shipped_batchs_first_puzzles(
    miner: Miner,
) -> None:
    header, shipped = read_file(SHIPPED)
    assert header is not None and header["seed"] == 0 and shipped[0].game == 0
    first = [p for p in shipped if p.game == 0]
    assert first and list(miner.game(0, 0)) == first


# -- at the terminal: dicehall puzzle clever --from-my-games -----------------------------------------------------
def _kept(record: GameRecord, name: str) -> GameRecord:
    record = dataclasses.replace(record, players=[{"name": name} for _ in record.players])
    keep(record)
    return record


def _never() -> Miner:
    raise AssertionError("a game already judged was judged again")


@pytest.fixture(scope="module")
def kept_games(
    miner: Miner, recorded: dict[int, GameRecord], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Path, list[Puzzle]]]:
    """A data directory whose history keeps Ann's solo game 1, a bot's solo game, Ann's game at a table and Ann's
    game under other rules, judged once (the cache filled); and the puzzles of Ann's decisions in game 1."""
    data = tmp_path_factory.mktemp("data")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(data))
        _kept(recorded[1], "Ann")
        _kept(recorded[3], "bot:master")  # no person at the table: no puzzle of anyone's
        _kept(dataclasses.replace(recorded[2], players=[{"name": "Ann"}, {"name": "bot:expert"}]), "Ann")
        _kept(_recorded(miner, 2, rules=CleverRules.from_preset("no-fallback", {})), "Ann")
        judged: list[tuple[int, int]] = []
        mine, games = history_puzzles(lambda: miner, lambda done, total: judged.append((done, total)))
        assert judged == [(0, 2), (1, 2), (2, 2)]  # the two standard solo games, each judged once
        yield data, mine
    assert games == 2


def test_the_kept_solo_games_give_the_persons_puzzles_judged_once(
    kept_games: tuple[Path, list[Puzzle]],
    found: dict[int, list[Found[Puzzle]]],
    miner: Miner,
    recorded: dict[int, GameRecord],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data, mine = kept_games
    ann = [f.puzzle for f in found[1]]
    assert ann and mine == ann
    shutil.copytree(data, tmp_path / "data")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    judged: list[tuple[int, int]] = []
    assert history_puzzles(_never, lambda d, t: judged.append((d, t))) == (ann, 2) and not judged
    # a kept game that changes (here: resigned after its first puzzle) is judged again, the old entry forgotten
    cut = _recorded(miner, 1, resign_at=found[1][0].step + 1)
    _kept(dataclasses.replace(cut, game_id=recorded[1].game_id), "Ann")  # the same game, kept in its file
    assert history_puzzles(lambda: miner, lambda d, t: judged.append((d, t))) == (ann[:1], 2)
    assert judged == [(0, 1), (1, 1)]
    cache = json.loads((tmp_path / "data" / "dicehall" / "found-puzzles-clever.json").read_text())
    assert len(cache["games"]) == 2 and cache["judge"] == judge_fingerprint()
    assert sorted(len(v) for v in cache["games"].values()) == [0, 1]


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "pl"])
def test_the_terminal_offers_the_puzzles_of_your_own_solo_games(
    lang: str, kept_games: tuple[Path, list[Puzzle]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "empty"))
    none = runner.invoke(app, ["--lang", lang, "puzzle", "clever", "--from-my-games"], input="q\n")
    assert none.exit_code == 0, none.output
    assert " ".join(none.output.split()) == translator(lang)("puzzle.cli.clever.from_games_none", games=0)
    assert all(len(line) <= 80 for line in none.output.splitlines()), none.output
    data, mine = kept_games
    shutil.copytree(data, tmp_path / "data")  # judged already: the command reads what was found
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    res = runner.invoke(
        app,
        ["--lang", lang, "puzzle", "clever", "--from-my-games", "--count", "1", "--seed", "1"],
        input="q\n",
    )
    assert res.exit_code == 0, res.output
    said = translator(lang)("puzzle.cli.clever.from_games", n=len(mine), games=2)
    assert " ".join(res.output.split()).startswith(said), res.output  # (the line wrapped at 80 columns)
    assert all(len(line) <= 80 for line in res.output.splitlines() if " > " not in line), res.output

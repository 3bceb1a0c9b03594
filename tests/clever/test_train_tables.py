"""Multi-seat training (issue 28): the table features are silent solo, a warm start for the lead objective keeps
every solo value, the lead is the own total minus the best other, self-play records every seat at 2–4, and a
mixed-seat run is reproducible from its seed whatever the process count and across a resume."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from dicehall.clever import sheet as S
from dicehall.clever import train as T
from dicehall.clever.kernel import net
from dicehall.clever.kernel import rules as K
from dicehall.clever.kernel.features import NAMES, features
from dicehall.clever.master import load_weights
from dicehall.core.game import CHANCE, TERMINAL

TABLE = NAMES.index("seats 2")
TINY = T.TrainConfig(
    episodes=16,
    seed=3,
    hidden=(8, 8),
    shards=2,
    sync=4,
    eval_every=8,
    eval_games=2,
    seats=(1, 2, 4),
    table_games=2,
)


def _decisions(players: int, seed: int) -> list[np.ndarray]:
    """Every afterstate-to-be of one random game: (the array, the player to move) pairs, copied."""
    rng = np.random.default_rng(seed)
    g = K.new_game(players, S.ROUNDS_BY_PLAYERS[players], True, True)
    out = np.empty(K.MAX_LEGAL, np.int64)
    seen = []
    while K.current_player(g) != TERMINAL:
        if K.current_player(g) == CHANCE:
            K.apply(g, K.sample_chance(g, rng))
            continue
        seen.append(g.copy())
        K.apply(g, out[rng.integers(0, K.legal(g, out))])
    seen.append(g.copy())
    return seen


def test_table_features_are_silent_solo_and_speak_at_a_table() -> None:
    x = np.zeros(len(NAMES))
    for g in _decisions(1, 1):
        features(g, 0, x)
        assert not x[TABLE:].any()
    lit = np.zeros(len(NAMES) - TABLE)
    for g in _decisions(3, 2):
        for p in range(3):
            features(g, p, x)
            assert x[TABLE + 1] == 1.0 and x[TABLE] == x[TABLE + 2] == 0.0  # seats 3
            lit += x[TABLE:] != 0
    quiet = {
        "seats 2",
        "seats 4",
        "active is 3 seats after me",
        "best opponent foxes",
    }  # (no fox: random play)
    assert all(lit[i] > 0 for i, name in enumerate(NAMES[TABLE:]) if name not in quiet)


def test_the_lead_is_own_total_minus_the_best_other() -> None:
    end = _decisions(3, 5)[-1]
    totals = [K.total(end, p) for p in range(3)]
    for p in range(3):
        assert net.lead(end, p) == totals[p] - max(t for q, t in enumerate(totals) if q != p)
    solo = _decisions(1, 5)[-1]
    assert net.lead(solo, 0) == K.total(solo, 0)


def test_a_warm_start_for_tables_keeps_solo_values_and_shifts_table_values() -> None:
    shipped = load_weights()[0]
    run = T.new_run(dataclasses.replace(TINY, hidden=(shipped[1].size, shipped[3].size)), shipped)
    grown = run.weights
    assert (
        run.config.hidden == (grown[1].size, grown[3].size) == (shipped[1].size + 2, shipped[3].size + 1)
    )  # seats 2 and 4
    x = np.zeros(len(NAMES))
    for players in (1, 2, 4):
        par = T.OPPONENTS_TO_COME.get(players, [0.0] * 7)
        for g in _decisions(players, 8)[:-1]:
            p = K.current_player(g)
            features(g, p, x)
            old = net.forward(x, *shipped, np.empty(shipped[1].size), np.empty(shipped[3].size))
            new = net.forward(x, *grown, np.empty(grown[1].size), np.empty(grown[3].size))
            left = int(g[K.ROUNDS] - g[K.ROUND] + 1)
            assert new == pytest.approx(old - par[left] / net.SCALE, abs=1e-12)


def test_self_play_records_every_seat_with_lead_targets() -> None:
    weights = load_weights()[0]
    xs, ys, scores = T.record_shard(weights, 9, 0, 0, 3, 0.8, 0.0, (1, 4), True)
    assert len(scores) == 3 and xs.shape[0] == ys.shape[0] > 3 * 40
    assert xs[:, TABLE + 2].sum() > 0 and (xs[:, TABLE:] == 0).all(axis=1).sum() > 40  # 4-seat and solo rows
    with pytest.raises(ValueError, match="table sizes"):
        T.TrainConfig(seats=(5,))
    with pytest.raises(ValueError, match="adam"):
        T.TrainConfig(seats=(2,), method="sgd")


def test_a_mixed_seat_run_is_reproducible(tmp_path: Path) -> None:
    one = T.train(T.new_run(TINY), tmp_path / "one", jobs=1)
    two = T.train(T.new_run(TINY), tmp_path / "two", jobs=2)
    assert all(np.array_equal(a, b) for a, b in zip(one.weights, two.weights, strict=True))
    assert set(one.history[-1]["table"]) == {"2", "3", "4"}
    half = T.train(T.new_run(dataclasses.replace(TINY, episodes=8)), tmp_path / "half", jobs=1)
    resumed = T.Run.load(tmp_path / "half")
    assert resumed.config.seats == (1, 2, 4) and resumed.config.objective == "margin"
    resumed.config = dataclasses.replace(resumed.config, episodes=16)
    T.train(resumed, tmp_path / "half", jobs=1)
    assert all(np.array_equal(a, b) for a, b in zip(one.weights, resumed.weights, strict=True))
    assert half.history[0]["table"]["4"]["win_lo"] <= half.history[0]["table"]["4"]["win"]


def test_bot_master_plays_the_table_network_at_tables_and_the_solo_one_alone() -> None:
    from dicehall.clever.game import CleverGame
    from dicehall.clever.master import TABLE_FILE, MasterAgent
    from dicehall.clever.rules import CleverRules
    from dicehall.core.rng import seeded_rng

    solo, table = load_weights()[0], load_weights(shipped=TABLE_FILE)[0]
    assert table[0].shape[0] == len(NAMES)  # the shipped table network sees the table features
    agent = MasterAgent(lookahead=None)
    assert agent.weights_for(1) is solo and all(agent.weights_for(n) is table for n in (2, 3, 4))
    rules = CleverRules.from_preset()
    for players, want in ((1, solo), (2, table), (4, table)):
        state = CleverGame().new_initial_state(rules, players)
        rng = seeded_rng(5)
        while state.is_chance_node() or len(state.legal_actions()) < 3:
            state.apply_action(
                state.sample_chance(rng) if state.is_chance_node() else state.legal_actions()[0]
            )
        by = {w is solo: MasterAgent(weights=w, lookahead=None).values(state) for w in (solo, table)}
        assert by[True] != by[False]  # the two networks value this decision differently
        assert agent.values(state) == by[want is solo]
    # given weights alone, a caller's network plays at every size (the evaluation scripts, the analysis)
    mine = MasterAgent(weights=solo)
    assert mine.weights_for(3) is solo

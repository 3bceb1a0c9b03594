"""Whole games: random-simulation invariants, bots, and exact record replay for both arena models."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from dicehall.core.agents import make_bot, parse_players
from dicehall.core.game import CHANCE, TERMINAL, get_game
from dicehall.core.record import GameRecord, replay
from dicehall.core.simulate import SimulationJob, play_game, simulate
from dicehall.wurf.rules import WurfRules
from dicehall.wurf.state import WurfState


def run(
    bots: list[str], seed: int, preset: str = "standard", check: Any = None
) -> tuple[WurfState, GameRecord]:
    rules = WurfRules.from_preset(preset)
    state = get_game("wurf").new_initial_state(rules, len(bots))
    assert isinstance(state, WurfState)
    agents = [make_bot("wurf", b, rules) for b in bots]
    record = GameRecord.start("wurf", rules, bots, seed)
    dice, bot_rng = np.random.default_rng(seed), np.random.default_rng(seed + 1)
    while (p := state.current_player()) != TERMINAL:
        action = state.sample_chance(dice) if p == CHANCE else agents[p].choose(state, bot_rng)
        if p != CHANCE:
            legal_texts = {state.action_to_string(a) for a in state.legal_actions()}
            text = state.action_to_string(action)
            assert text in legal_texts or text.startswith(("throw", "move")), text
        record.add(state, action)
        state.apply_action(action)
        if check:
            check(state)
    record.finish(state)
    return state, record


def invariants(s: WurfState) -> None:
    assert sum(s.supply) + len(s.arena) + s.out_of_game + s.box() == 31
    assert all(v >= 0 for v in s.supply) and s.box() >= 0
    for i in range(s.num_players):
        if not s.alive[i] and not s.is_terminal():
            assert s.supply[i] == 0
    if not s.is_terminal() and s.phase in ("throw", "choice"):
        assert s.alive[s.current] and s.supply[s.current] > 0
        faces = [d.face for d in s.arena]
        assert 1 not in faces
        if s.phase == "choice":
            assert len(set(faces)) == len(faces)  # all differ, or the turn would have ended


@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_games_keep_invariants(players: int) -> None:
    for seed in range(15):
        state, _ = run(["random"] * players, seed, check=invariants)
        assert state.is_terminal() and sum(state.alive) == 1
        assert sorted(state.returns()) == [0.0] * (players - 1) + [1.0]


def test_match_mode_games_keep_invariants_and_score() -> None:
    for seed in range(6):
        state, _ = run(["random", "cautious", "expert"], seed, "match", check=invariants)
        assert state.game_index == 3 and len(state.elimination_log) == 3
        # Each game: first out scores 2, second 1, winner 0 → 3 points per game.
        assert sum(state.match_points) == 9
        for log in state.elimination_log:
            assert sorted(log) == [0, 1, 2]
        best = min(state.match_points)
        winners = [i for i, p in enumerate(state.match_points) if p == best]
        assert state.winners() == winners and sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("preset", ["standard", "physics"])
def test_record_replays_exactly(preset: str) -> None:
    state, record = run(["expert", "cautious"], 5 if preset == "physics" else 9, preset)
    again = replay(GameRecord.loads(record.dumps()))
    assert again.is_terminal() and again.scores() == state.scores() and again.returns() == state.returns()
    assert isinstance(again, WurfState)
    assert [(d.face, d.x, d.y) for d in again.arena] == [(d.face, d.x, d.y) for d in state.arena]
    assert any(e.move.startswith("lands") and "@" in e.move for e in record.events)


@pytest.mark.parametrize("preset", ["standard", "physics"])
def test_same_seed_same_game(preset: str) -> None:
    a = run(["random", "expert"], 3, preset)[1]
    b = run(["random", "expert"], 3, preset)[1]
    assert [e.move for e in a.events] == [e.move for e in b.events]


def test_tampered_record_is_refused() -> None:
    from dicehall.core.errors import RecordError

    _, record = run(["cautious", "cautious"], 2)
    for i, e in enumerate(record.events):
        if e.move.startswith("lands"):
            record.events[i].move = e.move + " 3"
            break
    with pytest.raises(RecordError, match="outcome-count"):
        replay(record)


def test_expert_beats_random_and_cautious_bot_ends_early() -> None:
    job = SimulationJob("wurf", WurfRules.from_preset(), tuple(parse_players("bot:expert,bot:random")), 4)
    report, _ = simulate(job, 60)
    assert (
        report["seats"][0]["win_rate"] > 0.6
    )  # a dice game: luck is large, but the expert clearly wins more
    # cautious ends its turn after the mandatory throw when few numbers are in the arena
    state = WurfState(WurfRules.from_preset(), 2)
    for m in ("start 2", "throw 100,80 p0.50 s0.50", "lands 2@100,100,0 4@60,60,0"):
        state.apply_action(state.string_to_action(m))
    bot = make_bot("wurf", "cautious", state.rules)
    assert state.action_to_string(bot.choose(state, np.random.default_rng(0))) == "end"
    for m in ("throw 100,80 p0.50 s0.50", "lands 2@100,100,0 4@60,60,0 5@20,20,0"):
        state.apply_action(state.string_to_action(m))
    state.apply_action(state.string_to_action("throw 100,80 p0.50 s0.50"))
    state.apply_action(state.string_to_action("lands 2@100,100,0 4@60,60,0 5@20,20,0 6@150,150,0"))
    # four different numbers: the thrown die alone matches with 4/6 — cautious goes on
    assert state.action_to_string(bot.choose(state, np.random.default_rng(0))).startswith("throw")


def test_expert_ends_turn_when_throwing_is_bad_and_never_plays_illegal() -> None:
    state = WurfState(WurfRules.from_preset(), 2)
    for m in ("start 2", "throw 100,80 p0.50 s0.50", "lands 2@100,100,0 4@60,60,0"):
        state.apply_action(state.string_to_action(m))
    expert = make_bot("wurf", "expert", state.rules)
    choice = expert.choose(state, np.random.default_rng(1))
    state.clone().apply_action(choice)  # legal
    # Five different numbers in the arena: any new number repeats one — the expert throws.
    for m in ("throw 100,80 p0.50 s0.50", "lands 2@100,100,0 4@60,60,0 5@20,20,0"):
        state.apply_action(state.string_to_action(m))
    for m in ("throw 100,80 p0.50 s0.50", "lands 2@100,100,0 4@60,60,0 5@20,20,0 6@150,150,0"):
        state.apply_action(state.string_to_action(m))
    for m in ("throw 100,80 p0.50 s0.50", "lands 2@100,100,0 4@60,60,0 5@20,20,0 6@150,150,0 3@100,40,0"):
        state.apply_action(state.string_to_action(m))
    assert state.phase == "choice"
    assert state.action_to_string(expert.choose(state, np.random.default_rng(1))) != "end"


def test_simulation_stats_and_parallel_jobs_agree() -> None:
    job = SimulationJob(
        "wurf", WurfRules.from_preset(), tuple(parse_players("bot:cautious,bot:random,bot:random")), 1
    )
    one, _ = simulate(job, 20, jobs=1)
    two, _ = simulate(job, 20, jobs=2)
    assert one["seats"] == two["seats"]
    assert {"throws", "turns", "big_throws", "dice_taken"} <= set(one["stats"])


def test_play_game_helper_runs_physics_arena() -> None:
    rules = WurfRules.from_preset("physics")
    state = get_game("wurf").new_initial_state(rules, 2)
    agents = [make_bot("wurf", "cautious", rules), make_bot("wurf", "cautious", rules)]
    play_game(state, agents, np.random.default_rng(1), np.random.default_rng(2))
    assert state.is_terminal()

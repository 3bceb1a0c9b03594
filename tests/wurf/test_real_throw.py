"""``throw real``: a throw made with real dice (referee mode). Its outcome is typed in, never sampled."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from dicehall.core.agents import Agent, make_bot
from dicehall.core.errors import IllegalActionError, NotationError, RecordError
from dicehall.core.game import CHANCE, TERMINAL, ChanceNotEnumerable, State
from dicehall.core.record import Event, GameRecord, replay
from dicehall.core.simulate import play_game
from dicehall.wurf.actions import Outcome, RealThrow, Setup, face_name, from_string, to_string
from dicehall.wurf.rules import WurfRules
from dicehall.wurf.state import CHOICE, REAL_THROW_RULE, ROLLING, THROW, WurfState

from .helpers import make, play, snapshot


def test_notation() -> None:
    assert from_string("throw real") == RealThrow() == from_string("  THROW Real ")
    assert to_string(RealThrow()) == "throw real"
    with pytest.raises(NotationError, match="takes nothing more"):
        from_string("throw real p0.5")  # a real throw has no parameters to record
    # A die placed by hand has no known place; a modelled setup keeps its place.
    assert from_string("start 4") == Setup(4, None, None)
    assert to_string(Setup(4, None, None)) == "start 4"
    assert from_string("start 4@100,100,0") == Setup(4, 100.0, 100.0, 0.0)


def test_real_throw_is_a_decision_then_a_typed_outcome() -> None:
    s = play(make(3), "start 4", "throw real")
    assert s.phase == ROLLING and s.current_player() == CHANCE and s.pending == RealThrow()
    assert s.arena[0].x is None  # the hand-placed die has no invented position
    assert s.public_view()["pending_throw"] == "throw real"
    play(s, "lands 4 2")
    assert s.phase == CHOICE and [d.face for d in s.arena] == [4, 2] and s.supply[0] == 7
    play(s, "throw real", "lands 4 2 2")  # a repeat is taken as after any throw
    assert s.supply[0] == 8 and s.current == 1 and s.phase == THROW


def test_the_arena_model_never_samples_after_a_real_throw() -> None:
    s = play(make(3), "start 4", "throw real")
    before = snapshot(s)
    with pytest.raises(IllegalActionError) as err:
        s.sample_chance(np.random.default_rng(1))
    assert err.value.rule == REAL_THROW_RULE and "real dice" in str(err.value)
    with pytest.raises(ChanceNotEnumerable):
        s.chance_outcomes()
    assert snapshot(s) == before


def test_an_arena_sampled_outcome_is_refused_after_a_real_throw() -> None:
    rng = np.random.default_rng(5)
    modelled = play(make(3), "start 4@100,100,0", "throw 100,80 p0.30 s0.50")
    sampled = modelled.sample_chance(rng)
    assert isinstance(sampled, Outcome) and any(d.x is not None for d in sampled.dice)
    modelled.clone().apply_action(sampled)  # fine after the modelled throw it was drawn for
    real = play(make(3), "start 4@100,100,0", "throw real")
    before = snapshot(real)
    with pytest.raises(IllegalActionError) as err:
        real.apply_action(sampled)
    assert err.value.rule == REAL_THROW_RULE and snapshot(real) == before
    # The same dice without the model's positions are what a referee types: accepted.
    typed = " ".join(d.status if d.status in ("out", "rim") else face_name(d.face) for d in sampled.dice)
    play(real, "lands " + typed)
    assert real.phase != ROLLING


def test_a_record_with_a_sampled_outcome_after_throw_real_does_not_replay() -> None:
    rules = WurfRules.from_preset()
    rec = GameRecord.start("wurf", rules, ["Ann", "Bob"])
    s = WurfState(rules, 2)
    for move in ("start 4", "throw real", "lands 4 5"):
        rec.add(s, s.string_to_action(move))
        play(s, move)
    assert replay(rec).phase == CHOICE
    rec.events[2].move = "lands 4@100,100,0 5@60,60,12"
    with pytest.raises(RecordError) as err:
        replay(rec)
    assert err.value.event == 3 and REAL_THROW_RULE in str(err.value)


class _Cheat(Agent):
    """A bot that (wrongly) claims a real throw."""

    def choose(self, state: State[Any], rng: np.random.Generator) -> Any:
        return RealThrow()


def test_bots_and_simulation_never_produce_a_real_throw() -> None:
    rules = WurfRules.from_preset()
    s = WurfState(rules, 3)
    bots = [make_bot("wurf", name, rules) for name in ("random", "cautious", "expert")]
    record = GameRecord.start("wurf", rules, ["r", "c", "e"], 7)
    play_game(s, bots, np.random.default_rng(7), np.random.default_rng(8), record)
    assert s.current_player() == TERMINAL
    moves = [e.move for e in record.events]
    assert "throw real" not in moves and all("@" in m for m in moves if m.startswith("start"))
    # Never listed as legal, so the random bot (and any front end listing legal actions) cannot pick it.
    probe = play(make(3), "start 4@100,100,0")
    assert RealThrow() not in probe.legal_actions()
    # A simulation whose bot claimed one stops at the dice: the model refuses to invent the outcome.
    cheat = WurfState(rules, 2)
    with pytest.raises(IllegalActionError) as err:
        play_game(cheat, [_Cheat(), _Cheat()], np.random.default_rng(1), np.random.default_rng(2))
    assert err.value.rule == REAL_THROW_RULE


def test_older_referee_records_still_replay() -> None:
    rules = WurfRules.from_preset()
    rec = GameRecord.start("wurf", rules, ["Ann", "Bob"])
    rec.events = [Event("chance", "start 4@100,100,0")]
    for actor, move in ((0, "throw 100,100 p0.50 s0.50"), ("chance", "lands 4 4")):
        rec.events.append(Event(actor, move))
    s = replay(rec)
    assert s.supply == [10, 9] and s.big_next and s.current == 1

"""Passive players choose without seeing each other's choice (and so does everybody's last +1): in the public view
a seat of such a phase sees its own choices at once, the other seats and spectators see them only when all have
chosen. Played here in turn, as the terminal and a replay do; the web's branches are in tests/web."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from dicehall.clever import actions as A
from dicehall.clever.state import AFTER_END, PH_PLUS, CleverState
from dicehall.clever.view import sheet_view
from dicehall.core.agents import RandomAgent
from dicehall.core.game import TERMINAL

from .helpers import do, legal, new


def seats_view(state: CleverState, viewer: int | None) -> list[dict[str, Any]]:
    return state.public_view(viewer)["sheets"]


def passive_turn(seed: int) -> CleverState:
    """A 3-player game played at random up to seat 1's first passive pick with a die it may take."""
    rng = np.random.default_rng(seed)
    s = new(3)
    while not (s.current_player() == 1 and s.phase_start is not None and legal(s) - {"pass"}):
        s.apply_action(s.sample_chance(rng) if s.is_chance_node() else RandomAgent().choose(s, rng))
    return s


def finish_choice(s: CleverState, seat: int) -> None:
    """Seat ``seat`` ends its part of the phase: no +1, the first option of any bonus."""
    while s.current_player() == seat:
        do(s, "stop" if "stop" in legal(s) else sorted(legal(s))[0])


def test_a_passive_choice_shows_to_the_others_only_when_all_have_chosen() -> None:
    s = passive_turn(7)
    assert s.active == 0 and s.phase_start is not None and s.phase_start.seats == (1, 2)
    before = s.public_view(None)
    do(s, sorted(legal(s) - {"pass"})[0])
    finish_choice(s, 1)
    assert s.current_player() == 2
    mine = sheet_view(s, 1)
    assert mine != before["sheets"][1], "seat 1 entered a value"
    for viewer in (None, 0, 2):
        view = s.public_view(viewer)
        assert view["sheets"][1] == before["sheets"][1], f"seat {viewer} sees seat 1's choice"
        assert view["scores"][1] == before["scores"][1]
        assert not [b for b in view["bonuses"] if b["player"] == 1]
    assert s.public_view(1)["sheets"][1] == mine, "seat 1 sees its own choice"
    assert set(s.public_view(2)["legal_actions"]) == legal(s), "seat 2 sees its own moves"
    do(s, "pass")
    finish_choice(s, 2)
    assert s.phase_start is None, "all have chosen: the phase is over"
    for viewer in (None, 0, 1, 2):
        assert s.public_view(viewer)["sheets"][1] == mine, "now everybody sees it"


def test_a_seat_halfway_through_its_choice_shows_nothing_of_it() -> None:
    """Seat 1 took a die and now decides on a bonus or its +1: the others see it choosing, not what or where."""
    rng = np.random.default_rng(5)
    s = new(3)
    found = 0
    while not s.is_terminal() and found < 5:
        if s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
            continue
        mover = s.current_player()
        if s.began_choosing(mover):
            found += 1
            spectator = s.public_view(None)
            assert spectator["current_player"] == mover
            assert spectator["legal_actions"] == [] and spectator["pending_bonus"] is None
            assert spectator["step"] == ("plus" if s.after == AFTER_END else "passive_pick")
            own = s.public_view(mover)
            assert own["legal_actions"] and own["sheets"][mover] == sheet_view(s, mover)
        s.apply_action(RandomAgent().choose(s, rng))
    assert found == 5


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_every_view_of_a_random_game_hides_exactly_the_others_choices_in_progress(
    players: int, seed: int
) -> None:
    """The rule, checked at every decision of a random game for every viewer: outside a simultaneous phase, and
    for a seat's own sheet, the view is the position; within one, another seat's sheet stays as the phase found
    it until the phase is over."""
    rng = np.random.default_rng(seed)
    s = new(players)
    viewers: list[int | None] = [None, *range(players)]
    opening: tuple[CleverState, tuple[int, ...], tuple[int, int, bool]] | None = None
    moved: set[int] = set()
    phases = 0
    while s.current_player() != TERMINAL:
        if s.is_chance_node():
            s.apply_action(s.sample_chance(rng))
            continue
        # a phase lasts from its group's first decision to the next turn (or, everybody's last +1, the end)
        when = (s.round, s.active, s.phase == PH_PLUS and s.after == AFTER_END)
        if opening is not None and when != opening[2]:
            opening = None
        group = s.simultaneous_seats()
        if opening is None and group:
            opening = (s.clone(), group, when)
            moved: set[int] = set()
            phases += 1
        for viewer in viewers:
            view = s.public_view(viewer)
            for p in range(players):
                if opening is not None and p in opening[1] and p != viewer:
                    assert view["sheets"][p] == sheet_view(opening[0], p), (viewer, p)
                else:
                    assert view["sheets"][p] == sheet_view(s, p), (viewer, p)
            mover = s.current_player()
            real = [s.action_to_string(a) for a in s.legal_actions()]
            if viewer == mover or opening is None:
                assert view["legal_actions"] == real
            else:  # another seat's moves would tell what it chose, once it has begun
                assert view["legal_actions"] == ([] if mover in moved else real)
        if opening is not None:
            moved.add(s.current_player())
        options = s.legal_actions()
        saving = [
            a for a in options if A.kind_of(a) != A.K_PLUS
        ]  # +1s kept (mostly) for the last +1 of the game
        s.apply_action(int(rng.choice(saving if saving and rng.random() < 0.9 else options)))
    end = s.public_view(None)
    assert [v["total"] for v in end["sheets"]] == [sh.total() for sh in s.sheets], "the game over shows all"
    # three or more players: every turn's passive players; two: only the last +1 of the game
    assert phases >= (s.rounds * players if players >= 3 else 1) and moved

"""Clever's simultaneous seats: the passive players (and everybody's last +1) may choose on their own branches in
any order; committed in the game's order, their choices give exactly the game played in turn."""

from __future__ import annotations

import numpy as np
import pytest

from dicehall.core.agents import RandomAgent
from dicehall.core.errors import IllegalActionError
from dicehall.core.game import CHANCE, get_game


def new(n: int):
    game = get_game("clever")
    return game.new_initial_state(game.rules_type.from_preset(None), n)


@pytest.mark.parametrize(
    ("players", "seed"),
    # (2, 2), (3, 3), (4, 4): plain games; the others once failed: the last seat's branch went on into the next
    # phase (the end-of-game +1 after the last turn) on the others' old sheets, where it was to move again, and
    # its extra move did not fit the committed position (a live four-player table refused the group's choices)
    [(2, 2), (3, 3), (4, 4), (3, 500), (3, 747), (4, 624), (4, 818)],
)
def test_branches_in_any_order_commit_to_the_game_played_in_turn(players: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    bot = RandomAgent()
    state = new(players)
    groups = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        group = state.simultaneous_seats()
        if not group:
            state.apply_action(bot.choose(state, rng))
            continue
        groups += 1
        assert group[0] == state.current_player() and len(set(group)) == len(group)
        chosen = {}
        for seat in rng.permutation(group):  # any order: nobody waits for another passive player
            branch = state.simultaneous_branch(int(seat))
            moves = []
            while branch.current_player() == seat:
                action = bot.choose(branch, rng)
                moves.append(action)
                branch.apply_action(action)
            chosen[int(seat)] = (moves, branch.sheets[int(seat)].total())
            if seat == group[-1]:  # nobody after it in the group: its branch waits for the others
                assert branch.current_player() == CHANCE and not branch.is_terminal()
                assert branch.describe_phase() == "waiting for the other players' choices"
                with pytest.raises(IllegalActionError) as refused:
                    branch.apply_action(moves[-1] if moves else 0)
                assert refused.value.rule == "turn-order"
        for seat in group:
            for action in chosen[seat][0]:
                assert state.current_player() == seat
                state.apply_action(action)
            assert state.sheets[seat].total() == chosen[seat][1], "the seat's sheet is the one it saw"
    # three or more players: two passive players or more on every turn (two players: one passive player, no group)
    assert (groups >= state.rounds * players) if players >= 3 else groups <= 1


def test_only_the_seats_of_the_group_branch() -> None:
    state = new(3)
    assert state.simultaneous_seats() == ()
    with pytest.raises(IllegalActionError) as exc:
        state.simultaneous_branch(1)
    assert exc.value.rule == "turn-order"
    assert new(1).simultaneous_seats() == (), "solo: one seat, nothing simultaneous"
    assert (
        get_game("thousand")
        .new_initial_state(get_game("thousand").rules_type.from_preset(None), 2)
        .simultaneous_seats()
        == ()
    )

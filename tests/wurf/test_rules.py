"""Scenario tests for the Der große Wurf rules engine: one rule each, built so a wrong rule fails them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicehall.core.errors import IllegalActionError, NotationError, PlayerSpecError, RuleConfigError
from dicehall.core.game import CHANCE, TERMINAL, ChanceNotEnumerable, get_game
from dicehall.wurf.actions import EndTurn, Landed, Outcome, Rearrange, Throw, from_string, to_string
from dicehall.wurf.rules import WurfRules
from dicehall.wurf.state import CHOICE, ROLLING, SETUP, THROW, WurfState

from .helpers import make, play

T = "throw 100,80 p0.50 s0.50"


def faces(s: WurfState) -> list[int]:
    return [d.face for d in s.arena]


def total_dice(s: WurfState) -> int:
    return sum(s.supply) + len(s.arena) + s.out_of_game + s.box()


# -- setup ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "dice"), [(2, 9), (3, 8), (4, 7), (5, 6)])
def test_dice_per_player_table(players: int, dice: int) -> None:
    s = make(players)
    assert s.supply == [dice] * players
    assert s.box() == 31 - players * dice


@pytest.mark.parametrize("n", [1, 6])
def test_two_to_five_players(n: int) -> None:
    game = get_game("wurf")
    with pytest.raises(PlayerSpecError):
        game.new_initial_state(WurfRules.from_preset(), n)


def test_dice_per_player_option_and_box_limit() -> None:
    assert make(2, dice_per_player=4).supply == [4, 4]
    with pytest.raises(RuleConfigError):
        make(5, dice_per_player=7)  # 35 dice do not fit a box of 31


def test_initial_arena_die_is_chance_and_never_x() -> None:
    s = make(3)
    assert s.phase == SETUP and s.current_player() == CHANCE
    assert [a.face for a in s.legal_actions()] == [2, 3, 4, 5, 6]  # type: ignore[union-attr]
    outcomes = s.chance_outcomes()
    assert sorted(o.face for o, _ in outcomes) == [2, 3, 4, 5, 6]  # type: ignore[union-attr]
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    with pytest.raises(IllegalActionError) as err:
        play(s, "start X")
    assert err.value.rule == "setup-no-x" and s.phase == SETUP
    play(s, "start 4@100,100,0")
    assert faces(s) == [4] and s.current_player() == 0 and s.box() == 31 - 24 - 1


# -- the turn ---------------------------------------------------------------------------------------------


def test_throw_is_mandatory() -> None:
    s = play(make(3), "start 4")
    assert EndTurn() not in s.legal_actions()
    with pytest.raises(IllegalActionError) as err:
        s.apply_action(EndTurn())
    assert err.value.rule == "mandatory-throw" and s.current == 0 and s.phase == THROW


def test_throw_then_outcome_is_chance_and_count_checked() -> None:
    s = play(make(3), "start 4", T)
    assert s.phase == ROLLING and s.current_player() == CHANCE
    with pytest.raises(ChanceNotEnumerable):
        s.chance_outcomes()  # a throw's outcome comes from the arena model
    with pytest.raises(IllegalActionError) as err:
        play(s, "lands 4 5 6")
    assert err.value.rule == "outcome-count" and s.phase == ROLLING and s.supply[0] == 8
    with pytest.raises(IllegalActionError):
        play(s, "end")  # nobody decides while the dice roll


def test_all_numbers_differ_player_may_go_on_or_end() -> None:
    s = play(make(3), "start 4", T, "lands 4@100,100,0 2@60,60,0")
    assert s.phase == CHOICE and s.current == 0 and s.supply[0] == 7 and faces(s) == [4, 2]
    assert EndTurn() in s.legal_actions()
    play(s, "end")
    assert s.current == 1 and s.phase == THROW and not s.big_next


def test_repeated_numbers_all_taken_and_turn_ends() -> None:
    # arena 3,5,6 + a thrown die; after the throw 3,3,5,5,6 → the thrower takes the four dice 3,3,5,5.
    s = play(make(3), "start 3", T, "lands 3@40,40,0 5@80,40,0", "end")
    play(s, T, "lands 3@40,40,0 5@80,40,0 6@120,40,0", "end")
    assert s.current == 2 and faces(s) == [3, 5, 6]
    play(s, T, "lands 3@40,40,0 5@80,40,0 6@120,40,0 3@160,40,0")
    # One die thrown, two 3s: takes both 3s, turn over
    assert s.supply[2] == 8 - 1 + 2 and faces(s) == [5, 6] and s.current == 0
    play(s, T, "lands 5@80,40,0 6@120,40,0 5@100,100,0")
    assert s.supply[0] == 7 - 1 + 2 and faces(s) == [6]


def test_rulebook_example_turn() -> None:
    # Arena 2,3,5. Throw → 2,3,4,6 (all differ); throw again → 3,3,5,5,6: takes four dice; next arena: the 6.
    s = play(make(3), "start 2@100,100,0", T, "lands 2@100,100,0 3@60,60,0", "end")
    play(s, T, "lands 2@100,100,0 3@60,60,0 5@140,60,0", "end")
    assert s.current == 2 and faces(s) == [2, 3, 5]
    before = s.supply[2]
    play(s, "move 0>100,100 1>117,100 2>100,117", T, "lands 2@100,100,0 3@117,100,0 4@100,117,0 6@80,80,0")
    assert s.phase == CHOICE and sorted(faces(s)) == [2, 3, 4, 6]
    play(s, T, "lands 3@100,100,0 3@117,100,0 5@100,117,0 6@80,80,0 5@60,60,0")
    assert s.supply[2] == before - 2 + 4
    assert faces(s) == [6] and s.current == 0 and s.phase == THROW and not s.big_next


def test_out_and_rim_dice_leave_the_game_without_ending_the_turn() -> None:
    s = play(make(3), "start 2", T, "lands out rim")
    assert s.out_of_game == 2 and s.arena == [] and s.phase == CHOICE and s.supply[0] == 7


def test_x_dice_are_removed_and_do_not_match_or_end_the_turn() -> None:
    s = play(make(3), "start 2", T, "lands X@100,100,0 X@60,60,0")
    assert s.arena == [] and s.out_of_game == 2 and s.phase == CHOICE and s.current == 0
    assert s.last is not None and s.last.taken == 0 and s.last.x_removed == 2


def test_cocked_die_rethrown_face_put_back_or_out_on_x() -> None:
    s = play(make(3), "start 2", T, "lands c5@100,100,0 4@60,60,0")
    assert sorted(faces(s)) == [4, 5] and s.out_of_game == 0
    play(s, T, "lands cX@100,100,0 4@60,60,0 6@140,140,0")
    assert sorted(faces(s)) == [4, 6] and s.out_of_game == 1 and s.last and s.last.cocked_lost == 1
    play(s, T, "lands c6@100,100,0 6@140,140,0 2@20,20,0")
    assert s.last and s.last.taken == 2 and s.last.taken_faces == (6,) and s.current == 1


def test_resolution_order_out_then_x_then_repeats() -> None:
    # The 5s: one leaves the arena, so only one 5 stays → no match; X never matches X.
    s = play(make(3), "start 5", T, "lands out 5@60,60,0")
    assert faces(s) == [5] and s.phase == CHOICE
    play(s, T, "lands 5@60,60,0 X@20,20,0")
    play(s, T, "lands 5@60,60,0 X@20,20,0")
    assert s.phase == CHOICE and s.supply[0] == 5


def test_big_throw_after_arena_emptied() -> None:
    s = play(make(3), "start 2", T, "lands 2@100,100,0 2@60,60,0")
    assert s.arena == [] and s.current == 1 and s.big_next and s.must_big_throw()
    assert s.throw_count() == 8
    play(s, T)
    assert s.pending_count == 8
    with pytest.raises(IllegalActionError):
        play(s, "lands 3 4")  # all eight dice must be accounted for
    play(s, "lands 3 3 4 5 6 X out 2")
    assert s.supply[1] == 0 + 2 and sorted(faces(s)) == [2, 4, 5, 6] and s.current == 2
    assert not s.big_next and s.stats()["big_throws"] == 1


def test_big_throw_also_after_x_empties_arena_at_turn_end() -> None:
    s = play(make(2), "start 2", T, "lands X@100,100,0 4@60,60,0", T, "lands X@60,60,0 out", "end")
    assert s.arena == [] and s.current == 1 and s.big_next and s.throw_count() == 9


def test_empty_arena_mid_turn_then_single_throw_allowed() -> None:
    s = play(make(2), "start 2", T, "lands X@100,100,0 X@60,60,0")
    assert s.arena == [] and s.phase == CHOICE and s.throw_count() == 1


# -- elimination and the winner ---------------------------------------------------------------------------


def test_player_without_dice_is_eliminated_and_last_player_wins() -> None:
    s = play(make(2, dice_per_player=1), "start 2", T, "lands 2@100,100,0 4@60,60,0")
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.alive == [False, True] and s.returns() == [0.0, 1.0] and s.winners() == [1]
    assert s.legal_actions() == []
    with pytest.raises(IllegalActionError):
        play(s, T)


def test_taking_dice_back_saves_from_elimination() -> None:
    s = play(make(2, dice_per_player=1), "start 2", T, "lands 2@100,100,0 2@60,60,0")
    assert s.alive == [True, True] and s.supply == [2, 1] and s.big_next


def test_eliminated_players_are_skipped() -> None:
    s = play(make(3, dice_per_player=1), "start 2", T, "lands 2@100,100,0 4@60,60,0")
    assert s.alive == [False, True, True] and s.current == 1 and not s.is_terminal()
    play(s, T, "lands 2@100,100,0 4@60,60,0 5@20,20,0")
    assert s.alive == [False, False, True] and s.is_terminal() and s.winners() == [2]


# -- rearranging ------------------------------------------------------------------------------------------


def test_rearrange_moves_dice_keeps_faces_once_per_throw() -> None:
    s = play(make(3), "start 2@100,100,0", T, "lands 2@100,100,33 4@60,60,12", "end")
    play(s, "move 0>50,50 1>67,50")
    assert [(d.face, d.x, d.y, d.yaw) for d in s.arena] == [(2, 50, 50, 0.0), (4, 67, 50, 0.0)]
    with pytest.raises(IllegalActionError) as err:
        play(s, "move 0>150,150")
    assert err.value.rule == "rearrange-once"
    play(s, T, "lands 2@50,50,0 4@67,50,0 5@100,100,0")
    play(s, "move 2>150,150")  # allowed again before the next throw


@pytest.mark.parametrize(
    ("move", "rule"),
    [
        ("move 0>60,60", "rearrange-no-stacking"),  # onto the other die
        ("move 0>70,60", "rearrange-no-stacking"),  # overlapping
        ("move 0>3,100", "rearrange-inside"),  # into the wall
        ("move 5>100,100", "rearrange"),  # no such die
        ("move 0>50,50 0>80,80", "rearrange"),
    ],
)
def test_bad_rearrangement_rejected_and_nothing_changes(move: str, rule: str) -> None:
    s = play(make(3), "start 2@100,100,0", T, "lands 2@100,100,0 4@60,60,0", "end")
    before = list(s.arena)
    with pytest.raises(IllegalActionError) as err:
        play(s, move)
    assert err.value.rule == rule and s.arena == before and not s.rearranged


def test_gather_pushes_dice_together_and_is_legal() -> None:
    s = play(make(3), "start 2@100,100,0", T, "lands 2@100,100,0 4@20,170,0", "end")
    g = s.gather_action()
    assert g is not None and g in s.legal_actions()
    play(s, to_string(g))
    (a, b) = s.arena
    assert a.x is not None and b.x is not None and a.y is not None and b.y is not None
    assert abs(a.x - b.x) + abs(a.y - b.y) == pytest.approx(17.0)
    assert not any(isinstance(a, Rearrange) for a in s.legal_actions())


# -- notation and bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "throw 100,80 p0.60 s0.50",
        "move 0>100,90 2>117,90",
        "end",
        "lands 3@102,88,45 X@40,51,0 out rim c4@60,60,0 cX",
        "start 4@100,100,0",
        "start 4",
        "lands 3 3 out",
        "throw real",
    ],
)
def test_notation_round_trip(text: str) -> None:
    assert to_string(from_string(text)) == text


def test_throw_cells_and_ranges() -> None:
    assert from_string("throw c3 p0.6") == Throw(100.0, 100.0, 0.6, 0.5)
    assert from_string("throw a1") == Throw(20.0, 20.0, 0.5, 0.5)
    for bad in ("throw", "throw z9", "throw 1,2 q3", "lands 7", "move x", "jump"):
        with pytest.raises(NotationError):
            from_string(bad)
    s = play(make(3), "start 2")
    for bad in ("throw 100,80 p1.5", "throw 250,80 p0.5", "throw 100,80 p0.5 s-1"):
        with pytest.raises(IllegalActionError) as err:
            play(s, bad)
        assert err.value.rule == "throw-range" and s.phase == THROW


def test_outcome_position_must_be_in_arena() -> None:
    s = play(make(3), "start 2", T)
    with pytest.raises(IllegalActionError) as err:
        play(s, "lands 2@100,100,0 3@400,100,0")
    assert err.value.rule == "outcome-position" and s.phase == ROLLING


def test_legal_actions_are_all_applicable() -> None:
    s = play(make(3), "start 2", T, "lands 2@100,100,0 4@60,60,0")
    acts = s.legal_actions()
    assert any(isinstance(a, Rearrange) for a in acts) and EndTurn() in acts
    for a in acts:
        s.child(a)  # none raises
    assert isinstance(from_string(s.action_to_string(acts[0])), Throw)


def test_public_view_contents() -> None:
    s = play(make(3), "start 2@100,100,0", T, "lands 2@100,100,0 4@60,60,0")
    v = s.public_view()
    for key in ("current_player", "legal_actions", "terminal", "scores", "winners", "arena", "supplies"):
        assert key in v
    assert v["arena"][1] == {"index": 1, "face": "4", "x": 60.0, "y": 60.0, "yaw": 0.0}
    assert "end" in v["legal_actions"] and v["current_player"] == 0 and v["supplies"] == [7, 8, 8]


def test_dice_are_conserved() -> None:
    s = play(make(4), "start 2", T, "lands 2@100,100,0 X@20,20,0", T, "lands out 3@20,20,0")
    assert total_dice(s) == 31 and s.box() == 31 - 28 - 1


# -- match mode -------------------------------------------------------------------------------------------


def test_match_scoring_three_players() -> None:
    s = make(3, "match", dice_per_player=1)
    assert s.games_total == 3 and s.scores() == [0.0, 0.0, 0.0]
    # Game 1 (seat 1 starts): seat 1 out first (2 players remain → 2 points), then seat 2 (1 point).
    play(s, "start 2", T, "lands 2@100,100,0 4@60,60,0")
    assert s.match_points == [2, 0, 0] and not s.is_terminal()
    play(s, T, "lands 2@100,100,0 4@60,60,0 5@20,20,0")
    assert s.match_points == [2, 1, 0] and s.elimination_log[0] == [0, 1, 2]
    # Game 2 starts afresh, started by seat 2, with full supplies and a new first die.
    assert s.phase == SETUP and s.game_index == 1 and s.supply == [1, 1, 1] and s.out_of_game == 0
    play(s, "start 3")
    assert s.current == 1
    play(s, T, "lands 3@100,100,0 4@60,60,0", T, "lands 3@100,100,0 4@60,60,0 5@20,20,0")
    assert s.match_points == [2 + 0, 1 + 2, 0 + 1]
    # Game 3 is started by seat 3, who takes both dice: seat 1 must make the big throw (its one die) and is out.
    play(s, "start 4")
    assert s.current == 2
    play(s, T, "lands 4@100,100,0 4@60,60,0")
    assert s.current == 0 and s.big_next and s.supply == [1, 1, 2]
    play(s, T, "lands 5@100,100,0")
    assert s.match_points == [4, 3, 1] and s.current == 1
    play(s, T, "lands 5@100,100,0 6@60,60,0")
    assert s.is_terminal() and s.match_points == [4, 4, 1]
    # Lowest total wins.
    assert s.winners() == [2] and s.returns() == [0.0, 0.0, 1.0] and s.scores() == [4.0, 4.0, 1.0]


def test_match_tie_is_a_shared_win() -> None:
    s = make(2, "match", dice_per_player=1)
    play(s, "start 2", T, "lands 2@100,100,0 4@60,60,0")  # game 1: seat 1 out → 1 point
    play(s, "start 2", T, "lands 2@100,100,0 4@60,60,0")  # game 2 (seat 2 starts): seat 2 out → 1 point
    assert s.is_terminal() and s.match_points == [1, 1]
    assert s.winners() == [0, 1] and s.returns() == [0.5, 0.5]


# -- notation properties ----------------------------------------------------------------------------------


_coord = st.floats(0, 200, allow_nan=False).map(lambda v: round(v, 1))
_landed = st.one_of(
    st.builds(Landed, st.sampled_from(["out", "rim"])),
    st.builds(
        Landed,
        st.sampled_from(["arena", "cocked"]),
        st.integers(1, 6),
        _coord,
        _coord,
        st.floats(0, 89.9, allow_nan=False).map(lambda v: round(v, 1)),
    ),
)


@given(st.lists(_landed, min_size=1, max_size=12))
def test_outcome_notation_round_trips(dice: list[Landed]) -> None:
    o = Outcome(tuple(dice))
    assert from_string(to_string(o)) == o


@given(_coord, _coord, st.floats(0, 1).map(lambda v: round(v, 2)), st.floats(0, 1).map(lambda v: round(v, 2)))
def test_throw_notation_round_trips(x: float, y: float, p: float, sp: float) -> None:
    t = Throw(x, y, p, sp)
    assert from_string(to_string(t)) == t


def test_every_statistic_a_game_counts_is_listed() -> None:
    import numpy as np

    from dicehall.core.agents import make_bot
    from dicehall.core.simulate import play_game
    from dicehall.wurf.state import STAT_KEYS

    rules = WurfRules.from_preset("match")
    bots = [make_bot("wurf", "random", rules)] * 2
    state = play_game(make(2, match=True), bots, np.random.default_rng(3), np.random.default_rng(4))
    assert state.is_terminal() and set(state.stats()) == set(STAT_KEYS)  # a match of two games has them all

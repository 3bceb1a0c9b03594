"""Real dice at the engine and record level: entered outcomes are checked by the engine (a refusal names the
rule and changes nothing), records mark them with ``entered_by``, and such records replay like any other."""

from __future__ import annotations

import json

import pytest

from dicehall.core.errors import IllegalActionError, NotationError, RecordError
from dicehall.core.game import get_game
from dicehall.core.realdice import entry_seats, read_entry, undoable_entry
from dicehall.core.record import GameRecord, replay


def thousand(n: int = 2):
    game = get_game("thousand")
    rules = game.rules_type.from_preset("classic")
    return rules, game.new_initial_state(rules, n)


def test_entered_outcomes_are_recorded_and_replay() -> None:
    rules, state = thousand()
    state.set_names(["Ann", "Bob"])
    record = GameRecord.start("thousand", rules, ["Ann", "Bob"])
    for text in ("1,1,5,5,2", "roll", "2", "2,3,4,6,6"):
        action = read_entry(state, text) if state.is_chance_node() else state.string_to_action(text)
        seat = state.roller() if state.is_chance_node() else None
        record.add(state, action, seat)
        state.apply_action(action)
    data = json.loads(record.dumps())
    assert [e.get("entered_by") for e in data["events"]] == [0, None, 0, 1]
    again = GameRecord.loads(record.dumps())
    assert [e.entered_by for e in again.events] == [0, None, 0, 1]
    assert replay(again).public_view() == state.public_view()
    assert state.roller() == 0, "two zero rolls: Ann's turn, then Bob's, are over"
    old = dict(data, events=[{k: v for k, v in e.items() if k != "entered_by"} for e in data["events"]])
    assert replay(GameRecord.from_json(old)).public_view() == state.public_view(), (
        "older records read unchanged"
    )


@pytest.mark.parametrize(
    ("text", "error", "rule"),
    [
        ("1,2,3", IllegalActionError, "dice-count"),
        ("9,1,1,1,1", NotationError, None),
        ("roll", IllegalActionError, "turn-order"),
        ("", NotationError, None),
        ("1 1 5 x 2", NotationError, None),
    ],
)
def test_impossible_entries_are_refused_and_change_nothing(text, error, rule) -> None:
    _, state = thousand()
    before = state.public_view()
    with pytest.raises(error) as exc:
        read_entry(state, text)
    if rule:
        assert exc.value.rule == rule
    assert state.public_view() == before


def test_no_entry_while_a_player_decides() -> None:
    _, state = thousand()
    state.apply_action(read_entry(state, "1,1,5,5,2"))
    assert not state.is_chance_node()
    with pytest.raises(IllegalActionError) as exc:
        read_entry(state, "1,1,5,5,2")
    assert exc.value.rule == "real-dice-entry"


def test_clever_entries_name_the_coloured_dice() -> None:
    game = get_game("clever")
    rules = game.rules_type.from_preset(None)
    state = game.new_initial_state(rules, 2)
    assert state.roller() == 0
    action = read_entry(state, "W3 Y5 B1 G6 O2 P4")
    state.apply_action(action)
    assert state.values == [3, 5, 1, 6, 2, 4]
    blue = next(a for a in state.legal_actions() if state.action_to_string(a).startswith("B:"))
    state.apply_action(blue)  # the blue 1: the other five dice are thrown again
    assert state.is_chance_node()
    with pytest.raises(IllegalActionError) as exc:
        read_entry(state, "W3 Y5 B1 G6 O2 P4")  # some of these dice are not thrown again
    assert exc.value.rule == "roll-dice"
    solo = game.new_initial_state(rules, 1)
    while not (solo.is_chance_node() and solo.phase == 4):  # PH_PASSIVE_ROLL
        if solo.is_chance_node():
            solo.apply_action(read_entry(solo, "W1 Y2 B3 G4 O5 P6" if solo.rolls == 0 else "W2"))
        else:
            solo.apply_action(solo.legal_actions()[-1] if solo.rolls == 0 else solo.legal_actions()[0])
    with pytest.raises(IllegalActionError) as exc:
        read_entry(solo, "W1 Y2 B3 G4 O5 P6 platter W,Y,P")
    assert exc.value.rule == "solo-platter"
    read_entry(solo, "W1 Y2 B3 G4 O5 P6 platter W,Y,B")


def test_who_enters_and_what_may_be_taken_back() -> None:
    _, state = thousand(3)
    assert entry_seats(state, [0, 1, 2]) == [0]
    assert entry_seats(state, [1, 2]) == [1, 2], "a bot's dice are entered by any human seat"
    assert undoable_entry([]) is None
    assert undoable_entry([("chance", 0), (0, None)]) is None
    assert undoable_entry([(0, None), ("chance", 1)]) == 1
    assert undoable_entry([("chance", None)]) is None


@pytest.mark.parametrize("mark", [True, "0", 5, -1])
def test_a_forged_entered_flag_is_refused(mark) -> None:
    rules, _ = thousand()
    record = GameRecord.start("thousand", rules, ["Ann", "Bob"])
    data = json.loads(record.dumps())
    data["events"] = [{"n": 1, "actor": "chance", "move": "1,1,5,5,2", "entered_by": mark}]
    with pytest.raises(RecordError, match="entered_by"):
        GameRecord.from_json(data)
    data["events"] = [{"n": 1, "actor": 0, "move": "roll", "entered_by": 0}]
    with pytest.raises(RecordError, match="entered_by"):
        GameRecord.from_json(data)

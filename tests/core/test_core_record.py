"""Game records: save/load round trip, malformed records and replay errors name the event and rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dicehall.core.errors import RecordError
from dicehall.core.record import GameRecord, replay
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import ThousandState


def sample_record() -> GameRecord:
    rules = ThousandRules.from_preset("classic", {"open_min": 100})
    record = GameRecord.start("thousand", rules, ["Ann", "Bob"], seed=42)
    state = ThousandState(rules, 2)
    for move in ["1,1,1,2,3", "bank", "2,2,3,4,6", "1,2,3,3,4"]:
        action = state.string_to_action(move)
        record.add(state, action)
        state.apply_action(action)
    return record


def data() -> dict[str, Any]:
    return sample_record().to_json()


def test_round_trip(tmp_path: Path) -> None:
    record = sample_record()
    path = record.save(tmp_path / "sub" / "game.json")
    loaded = GameRecord.load(path)
    assert loaded.events == record.events and loaded.seed == 42 and loaded.overrides == {"open_min": 100}
    state = replay(loaded)
    assert isinstance(state, ThousandState)
    assert state.score == [100, 0] and state.player == 0 and state.turn_total == 10
    assert replay(loaded, upto=2).score == [100, 0]
    assert replay(loaded, upto=1).score == [0, 0]
    assert [e["actor"] for e in record.to_json()["events"]] == ["chance", 0, "chance", "chance"]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(format="other/9"), "unsupported record format 'other/9'"),
        (lambda d: d.pop("game"), "missing field 'game'"),
        (lambda d: d.update(game=3), "field 'game' must be str"),
        (lambda d: d["rules"].update(overrides=[]), "rules.overrides must be an object"),
        (lambda d: d.update(players=[{"nom": "x"}]), "each player must be an object with a 'name'"),
        (lambda d: d["events"].__setitem__(1, "bank"), "event 2: an event must be an object"),
        (lambda d: d["events"][0].update(actor=True), "event 1: 'actor' must be a seat number"),
        (lambda d: d["events"][2].update(n=7), "event 3: events out of order: expected n=3, found 7"),
        (lambda d: d.update(seed="abc"), "seed must be an integer"),
    ],
)
def test_malformed_records(mutate: Any, message: str) -> None:
    d = data()
    mutate(d)
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(d)


def test_not_json_and_not_object(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        GameRecord.loads("{nope")
    with pytest.raises(RecordError, match="a record must be a JSON object"):
        GameRecord.loads("[1, 2]")
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "absent.json")


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(game="chess"), "unknown game 'chess'"),
        (lambda d: d["rules"].update(preset="house"), "bad rules in record: unknown preset 'house'"),
        (
            lambda d: d["rules"].update(overrides={"open_min": -1}),
            "bad rules in record: open_min must be between 0 and 300, got -1",
        ),
        (lambda d: d.update(players=[{"name": f"p{i}"} for i in range(9)]), "takes 1–8 players, not 9"),
        (
            lambda d: d["events"][0].update(actor=1),
            "event 1: it is chance's turn, but the event is by seat 1",
        ),
        (
            lambda d: d["events"][1].update(actor="chance"),
            "event 2: it is seat 0's turn, but the event is by chance",
        ),
        (lambda d: d["events"][1].update(move="jump"), "event 2: cannot read move 'jump'"),
        (
            lambda d: d["events"][0].update(move="1,1,5,2,3"),
            r"event 2: illegal move 'bank': not opened: bank at least 100 \[rule: opening\]",
        ),
        (
            lambda d: d["events"][2].update(move="1,2,3"),
            r"event 3: impossible dice outcome '1,2,3': 5 dice are to be rolled, got 3 values \[rule: dice-count\]",
        ),
    ],
)
def test_replay_errors_name_event_and_rule(mutate: Any, message: str) -> None:
    d = data()
    mutate(d)
    record = GameRecord.from_json(json.loads(json.dumps(d)))
    with pytest.raises((RecordError, ValueError), match=message):
        replay(record)


def test_events_after_the_end() -> None:
    rules = ThousandRules.from_preset("yard")
    record = GameRecord.start("thousand", rules, ["Ann"], seed=None)
    state = ThousandState(rules, 1)
    action = state.string_to_action("1,1,1,1,1")  # golden win
    record.add(state, action)
    state.apply_action(action)
    d = record.to_json()
    d["events"].append({"n": 2, "actor": 0, "move": "roll"})
    with pytest.raises(RecordError, match="event 2: the game is already over"):
        replay(GameRecord.from_json(d))

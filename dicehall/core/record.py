"""Game records: one JSON document per game, with every decision and every dice outcome in order.

A record names the game, its rules (preset plus overrides), the players, the seed (when there is one) and the
events. :func:`replay` re-applies the events and refuses a record that is malformed or holds an illegal move,
naming the event number and the rule broken.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dicehall.core.errors import DicehallError, IllegalActionError, RecordError
from dicehall.core.game import CHANCE, Game, State, get_game
from dicehall.core.rules import RuleSet

FORMAT = "dicehall-record/1"


@dataclasses.dataclass
class Event:
    """One step: ``actor`` is a seat number or ``"chance"``; ``move`` is in the game's notation."""

    actor: int | str
    move: str

    def to_json(self, number: int) -> dict[str, Any]:
        return {"n": number, "actor": self.actor, "move": self.move}


@dataclasses.dataclass
class GameRecord:
    game: str
    preset: str
    overrides: dict[str, Any]
    players: list[dict[str, str]]
    events: list[Event] = dataclasses.field(default_factory=list)
    seed: int | None = None
    game_id: str = dataclasses.field(default_factory=lambda: uuid.uuid4().hex)
    created: str = dataclasses.field(
        default_factory=lambda: dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    )
    result: dict[str, Any] | None = None

    @classmethod
    def start(cls, game: str, rules: RuleSet, players: Sequence[str], seed: int | None = None) -> GameRecord:
        return cls(
            game=game,
            preset=rules.preset,
            overrides=rules.overrides(),
            players=[{"name": p} for p in players],
            seed=seed,
        )

    def add(self, state: State[Any], action: Any) -> None:
        """Append ``action`` (about to be applied to ``state``) in notation."""
        actor: int | str = state.current_player()
        if actor == CHANCE:
            actor = "chance"
        self.events.append(Event(actor, state.action_to_string(action)))

    def finish(self, state: State[Any]) -> None:
        self.result = {"scores": state.scores(), "returns": state.returns(), "winners": state.winners()}

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game,
            "game_id": self.game_id,
            "created": self.created,
            "rules": {"preset": self.preset, "overrides": self.overrides},
            "players": self.players,
            "seed": None if self.seed is None else str(self.seed),
            "events": [e.to_json(i + 1) for i, e in enumerate(self.events)],
            "result": self.result,
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False)

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(self.dumps() + "\n", encoding="utf-8")
        tmp.replace(path)
        return path

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("a record must be a JSON object")
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError(f"unsupported record format {data.get('format')!r}; expected {FORMAT}")
        try:
            game = _req(data, "game", str)
            rules = _req(data, "rules", dict)
            preset = _req(rules, "preset", str)
            overrides = rules.get("overrides", {})
            if not isinstance(overrides, dict):
                raise RecordError("rules.overrides must be an object")
            players = _req(data, "players", list)
            if not all(isinstance(p, dict) and isinstance(p.get("name"), str) for p in players):
                raise RecordError("each player must be an object with a 'name'")
            raw_events = _req(data, "events", list)
        except KeyError as exc:
            raise RecordError(f"missing field {exc.args[0]!r}") from None
        events = []
        for i, ev in enumerate(raw_events, start=1):
            if not isinstance(ev, dict) or not isinstance(ev.get("move"), str):
                raise RecordError("an event must be an object with a 'move' string", event=i)
            actor = ev.get("actor")
            if not (actor == "chance" or (isinstance(actor, int) and not isinstance(actor, bool))):
                raise RecordError("'actor' must be a seat number or \"chance\"", event=i)
            if "n" in ev and ev["n"] != i:
                raise RecordError(f"events out of order: expected n={i}, found {ev['n']!r}", event=i)
            events.append(Event(actor, ev["move"]))
        seed = data.get("seed")
        try:
            seed_value = None if seed is None else int(seed)
        except (TypeError, ValueError):
            raise RecordError(f"seed must be an integer, got {seed!r}") from None
        return cls(
            game=game,
            preset=preset,
            overrides=overrides,
            players=players,
            events=events,
            seed=seed_value,
            game_id=str(data.get("game_id") or uuid.uuid4().hex),
            created=str(data.get("created", "")),
            result=data.get("result"),
        )

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON: {exc}") from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror}") from None
        return cls.loads(text)

    def rules(self) -> RuleSet:
        game = get_game(self.game)
        try:
            return game.rules_type.from_preset(self.preset, self.overrides)
        except DicehallError as exc:
            raise RecordError(f"bad rules in record: {exc}") from None


def _req(obj: dict[str, Any], key: str, kind: type) -> Any:
    if key not in obj:
        raise KeyError(key)
    value = obj[key]
    if not isinstance(value, kind):
        raise RecordError(f"field {key!r} must be {kind.__name__}")
    return value


def new_state(record: GameRecord) -> tuple[Game[Any], State[Any]]:
    game = get_game(record.game)
    try:
        game.check_player_count(len(record.players))
    except DicehallError as exc:
        raise RecordError(str(exc)) from None
    return game, game.new_initial_state(record.rules(), len(record.players))


def apply_event(state: State[Any], event: Event, number: int) -> None:
    """Apply one recorded event, or raise :class:`RecordError` naming the event and the rule broken."""
    if state.is_terminal():
        raise RecordError("the game is already over", event=number)
    expected = state.current_player()
    wanted: int | str = "chance" if expected == CHANCE else expected
    if event.actor != wanted:
        raise RecordError(
            f"it is {_who(wanted)}'s turn, but the event is by {_who(event.actor)}", event=number
        )
    try:
        action = state.string_to_action(event.move)
    except DicehallError as exc:
        raise RecordError(f"cannot read move {event.move!r}: {exc}", event=number) from None
    try:
        state.apply_action(action)
    except IllegalActionError as exc:
        rule = f" [rule: {exc.rule}]" if exc.rule else ""
        raise RecordError(f"illegal move {event.move!r}: {exc}{rule}", event=number) from None
    except DicehallError as exc:
        raise RecordError(f"illegal move {event.move!r}: {exc}", event=number) from None


def replay(record: GameRecord, upto: int | None = None) -> State[Any]:
    """The state after the first ``upto`` events (all by default)."""
    _, state = new_state(record)
    state.set_names([p["name"] for p in record.players])
    events = record.events if upto is None else record.events[:upto]
    for number, event in enumerate(events, start=1):
        apply_event(state, event, number)
    return state


def _who(actor: int | str) -> str:
    return "chance" if actor == "chance" else f"seat {actor}"

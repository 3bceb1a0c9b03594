"""Game records: one JSON document per game, with every decision and every dice outcome in order.

A record names the game, its rules (preset plus overrides), the players, the seed (when there is one), the
events and, once the game is over, its result. :func:`replay` re-applies the events and refuses a record that is
malformed, holds an illegal move or an impossible dice outcome (naming the event number and the rule broken), or
whose stored result differs from what the events give.

Every problem with a record, from an unreadable file to a forged winner, is a :class:`RecordError`:

>>> GameRecord.loads('{"game": "thousand"')
Traceback (most recent call last):
...
dicehall.core.errors.RecordError: not valid JSON (truncated or damaged?): Expecting ',' delimiter: line 1 column 20 (char 19)
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import os
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dicehall.core.errors import DicehallError, IllegalActionError, RecordError
from dicehall.core.game import CHANCE, Game, State, get_game
from dicehall.core.rules import RuleSet

FORMAT = "dicehall-record/1"
MAX_RECORD_BYTES = 64 * 1024 * 1024
"""Larger files are refused unread: a real record is a few kilobytes, the longest simulated games a few megabytes."""
MAX_SEED = 2**128 - 1
"""Seeds are 0 .. 2**128 - 1 (live play draws 128-bit seeds; :func:`~dicehall.core.rng.game_seed` gives 128 bits)."""
RESULT_KEYS = ("scores", "returns", "winners")


@dataclasses.dataclass
class Event:
    """One step: ``actor`` is a seat number or ``"chance"``; ``move`` is in the game's notation.

    ``entered_by`` marks a dice outcome that was typed in from real dice rather than drawn (the seat that entered
    it); records store it as ``"entered_by": seat`` on that event only, so older records read unchanged.
    """

    actor: int | str
    move: str
    entered_by: int | None = None

    def to_json(self, number: int) -> dict[str, Any]:
        out: dict[str, Any] = {"n": number, "actor": self.actor, "move": self.move}
        if self.entered_by is not None:
            out["entered_by"] = self.entered_by
        return out


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

    def add(self, state: State[Any], action: Any, entered_by: int | None = None) -> None:
        """Append ``action`` (about to be applied to ``state``) in notation; ``entered_by``: the seat that typed
        in this dice outcome from real dice (see :class:`Event`)."""
        actor: int | str = state.current_player()
        if actor == CHANCE:
            actor = "chance"
        elif entered_by is not None:
            raise RecordError(f"only dice outcomes are entered; seat {actor} is to move now")
        self.events.append(Event(actor, state.action_to_string(action), entered_by))

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
        """Write the record to ``path`` atomically (a temporary file, then a rename).

        A path that cannot be written (a directory, a parent that is a file, no permission) raises
        :class:`RecordError` and leaves nothing behind.
        """
        if not isinstance(path, str | Path):
            raise RecordError(f"a record path is a file name, not {type(path).__name__}")
        path = Path(path)
        problem = output_file_problem(path)
        if problem:
            raise RecordError(f"cannot save to {path}: {problem}")
        tmp = path.with_name(path.name + ".tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(self.dumps() + "\n", encoding="utf-8")
            tmp.replace(path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise RecordError(f"cannot save to {path}: {exc.strerror or exc}") from None
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
            entered_by = ev.get("entered_by")
            if entered_by is not None and (
                actor != "chance"
                or not isinstance(entered_by, int)
                or isinstance(entered_by, bool)
                or not 0 <= entered_by < len(players)
            ):
                raise RecordError(
                    "'entered_by' marks a dice outcome typed in from real dice: a seat number on a chance event",
                    event=i,
                )
            events.append(Event(actor, ev["move"], entered_by))
        seed = data.get("seed")
        try:
            seed_value = None if seed is None or isinstance(seed, bool | float) else int(seed)
        except (TypeError, ValueError):
            seed_value = -1
        if seed is not None and (seed_value is None or not 0 <= seed_value <= MAX_SEED):
            raise RecordError(f"seed must be an integer from 0 to 2**128-1, got {_short(seed)}")
        result = data.get("result")
        if result is not None:
            _check_result_shape(result, len(players))
        return cls(
            game=game,
            preset=preset,
            overrides=overrides,
            players=players,
            events=events,
            seed=seed_value,
            game_id=str(data.get("game_id") or uuid.uuid4().hex),
            created=str(data.get("created", "")),
            result=result,
        )

    @classmethod
    def loads(cls, text: str | bytes) -> GameRecord:
        if not isinstance(text, str | bytes):
            raise RecordError(f"a record is JSON text, not {type(text).__name__}")
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(f"a record is at most {MAX_RECORD_BYTES // 2**20} MiB; this one is larger")
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise RecordError(
                    f"not UTF-8 text (byte {exc.start} is {text[exc.start]:#04x}); records are UTF-8 JSON"
                ) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON (truncated or damaged?): {exc}") from None
        except RecursionError:
            raise RecordError("not a record: JSON nested too deeply") from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file; every problem (missing, a directory, too big, not UTF-8, malformed) is a
        :class:`RecordError`."""
        if not isinstance(path, str | Path):
            raise RecordError(f"a record path is a file name, not {type(path).__name__}")
        path = Path(path)
        try:
            if path.is_dir():
                raise RecordError(f"{path} is a directory; give the path of a record file (.json)")
            if path.stat().st_size > MAX_RECORD_BYTES:
                raise RecordError(f"a record is at most {MAX_RECORD_BYTES // 2**20} MiB; {path} is larger")
            raw = path.read_bytes()
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
        return cls.loads(raw)

    def rules(self) -> RuleSet:
        game = get_game(self.game)
        try:
            return game.rules_type.from_preset(self.preset, self.overrides)
        except DicehallError as exc:
            raise RecordError(f"bad rules in record: {exc}") from None


def output_file_problem(path: Path) -> str:
    """Why a file cannot be written at ``path`` (``""`` when it looks writable); creates and changes nothing."""
    if path.is_dir():
        return "it is a directory; give a file name"
    if path.name in ("", ".", ".."):
        return "give a file name"
    parent = path.parent
    while not parent.exists():
        if parent == parent.parent:
            break
        parent = parent.parent
    if not parent.is_dir():
        return f"{parent} is not a directory"
    if path.exists() and not os.access(path, os.W_OK):
        return "the file is not writable"
    if not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
        return f"the directory {parent} is not writable"
    return ""


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _check_result_shape(result: Any, seats: int) -> None:
    if not isinstance(result, dict):
        raise RecordError("'result' must be an object with scores, returns and winners (or null)")
    for key in RESULT_KEYS:
        value = result.get(key)
        if not isinstance(value, list) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in value
        ):
            raise RecordError(f"result.{key} must be a list of numbers")
    if len(result["scores"]) != seats or len(result["returns"]) != seats:
        raise RecordError(f"result.scores and result.returns must have one entry per player ({seats})")


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
    what = "impossible dice outcome" if wanted == "chance" else "illegal move"
    thing = "dice outcome" if wanted == "chance" else "move"
    try:
        action = state.string_to_action(event.move)
    except DicehallError as exc:
        raise RecordError(f"cannot read {thing} {event.move!r}: {exc}", event=number) from None
    except Exception as exc:  # an engine bug must still name the event, not crash the reader
        raise RecordError(
            f"cannot read {thing} {event.move!r}: {type(exc).__name__}: {exc}", event=number
        ) from None
    try:
        state.apply_action(action)
    except IllegalActionError as exc:
        rule = f" [rule: {exc.rule}]" if exc.rule else ""
        raise RecordError(f"{what} {event.move!r}: {exc}{rule}", event=number) from None
    except DicehallError as exc:
        raise RecordError(f"{what} {event.move!r}: {exc}", event=number) from None
    except Exception as exc:
        raise RecordError(f"{what} {event.move!r}: {type(exc).__name__}: {exc}", event=number) from None


def replay(record: GameRecord, upto: int | None = None) -> State[Any]:
    """The state after the first ``upto`` events (all by default).

    A full replay of a record that stores a result also checks that result (see :func:`check_result`).
    """
    if upto is not None and (isinstance(upto, bool) or not isinstance(upto, int) or upto < 0):
        raise RecordError(
            f"upto must be a number of events from 0 to {len(record.events)}, got {_short(upto)}"
        )
    if upto is not None and upto > len(record.events):
        raise RecordError(f"the record has {len(record.events)} events; cannot stop after {upto}")
    _, state = new_state(record)
    state.set_names([p["name"] for p in record.players])
    events = record.events if upto is None else record.events[:upto]
    for number, event in enumerate(events, start=1):
        apply_event(state, event, number)
    if upto is None or upto == len(record.events):
        check_result(record, state)
    return state


def check_result(record: GameRecord, state: State[Any]) -> None:
    """Refuse a record whose stored ``result`` is not what its events give (a forged winner or score).

    ``state`` is the position after all the record's events. A record without a result (an unfinished or older
    game) passes.
    """
    if record.result is None:
        return
    if not state.is_terminal():
        raise RecordError("the record stores a result, but its events do not finish the game")
    actual = json.loads(
        json.dumps({"scores": state.scores(), "returns": state.returns(), "winners": state.winners()})
    )
    for key in RESULT_KEYS:
        stored = record.result.get(key)
        if stored != actual[key]:
            raise RecordError(f"stored result.{key} {_short(stored)} differs from the replayed {actual[key]}")


def _who(actor: int | str) -> str:
    return "chance" if actor == "chance" else f"seat {actor}"

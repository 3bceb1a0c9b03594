"""Game records: one JSON document per game, with every decision and every dice outcome in order.

A record names the game, its rules (preset plus overrides), the players, the seed (when there is one: a terminal
game's or simulation's ``seed``; a web table's ``dice_commit`` and, once the game is over, ``dice_seed``, see
:mod:`dicehall.core.fairdice`), the events and, once the game is over, its result. :func:`replay` re-applies the events and refuses a record that is
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
from dicehall.core.game import CHANCE, RESIGN, TIMEOUT, Game, State, get_game
from dicehall.core.rules import RuleSet
from dicehall.i18n.message import Message

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
    dice_commit: str | None = None
    """A live table's dice fingerprint: SHA-256 of its secret seed, published at its creation (core/fairdice.py)."""
    dice_seed: str | None = None
    """That secret seed (64 hex digits), revealed once the game is over; every roll follows from it."""

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
            raise RecordError(Message("record.error.entered_not_chance", seat=actor))
        self.events.append(Event(actor, state.action_to_string(action), entered_by))

    def add_resign(self, seat: int) -> None:
        """Append ``seat``'s resignation (whoever is to move; see :meth:`State.resign`)."""
        self.events.append(Event(seat, RESIGN))

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
            **({"dice_commit": self.dice_commit} if self.dice_commit is not None else {}),
            **({"dice_seed": self.dice_seed} if self.dice_seed is not None else {}),
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
            raise RecordError(Message("record.error.path_type", type=type(path).__name__))
        path = Path(path)
        problem = output_file_problem(path)
        if problem:
            raise RecordError(Message("record.error.cannot_save", path=str(path), problem=problem))
        tmp = path.with_name(path.name + ".tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(self.dumps() + "\n", encoding="utf-8")
            tmp.replace(path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise RecordError(
                Message("record.error.cannot_save", path=str(path), problem=str(exc.strerror or exc))
            ) from None
        return path

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError(Message("record.error.not_object"))
        if data.get("format", FORMAT) != FORMAT:
            raise RecordError(Message("record.error.format", found=repr(data.get("format")), expected=FORMAT))
        try:
            game = _req(data, "game", str)
            rules = _req(data, "rules", dict)
            preset = _req(rules, "preset", str)
            overrides = rules.get("overrides", {})
            if not isinstance(overrides, dict):
                raise RecordError(Message("record.error.overrides"))
            players = _req(data, "players", list)
            if not all(isinstance(p, dict) and isinstance(p.get("name"), str) for p in players):
                raise RecordError(Message("record.error.players"))
            raw_events = _req(data, "events", list)
        except KeyError as exc:
            raise RecordError(Message("record.error.missing_field", field=repr(exc.args[0]))) from None
        events = []
        for i, ev in enumerate(raw_events, start=1):
            if not isinstance(ev, dict) or not isinstance(ev.get("move"), str):
                raise RecordError(Message("record.error.event_shape"), event=i)
            actor = ev.get("actor")
            if not (actor == "chance" or (isinstance(actor, int) and not isinstance(actor, bool))):
                raise RecordError(Message("record.error.actor"), event=i)
            if "n" in ev and ev["n"] != i:
                raise RecordError(Message("record.error.order", expected=i, found=repr(ev["n"])), event=i)
            entered_by = ev.get("entered_by")
            if entered_by is not None and (
                actor != "chance"
                or not isinstance(entered_by, int)
                or isinstance(entered_by, bool)
                or not 0 <= entered_by < len(players)
            ):
                raise RecordError(Message("record.error.entered_by"), event=i)
            events.append(Event(actor, ev["move"], entered_by))
        seed = data.get("seed")
        try:
            seed_value = None if seed is None or isinstance(seed, bool | float) else int(seed)
        except (TypeError, ValueError):
            seed_value = -1
        if seed is not None and (seed_value is None or not 0 <= seed_value <= MAX_SEED):
            raise RecordError(Message("record.error.seed", got=_short(seed)))
        result = data.get("result")
        if result is not None:
            _check_result_shape(result, len(players))
        dice = {key: _dice_hex(data, key) for key in ("dice_commit", "dice_seed")}
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
            **dice,
        )

    @classmethod
    def loads(cls, text: str | bytes) -> GameRecord:
        if not isinstance(text, str | bytes):
            raise RecordError(Message("record.error.text_type", type=type(text).__name__))
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(Message("record.error.too_large", mib=MAX_RECORD_BYTES // 2**20))
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise RecordError(
                    Message("record.error.not_utf8", position=exc.start, byte=f"{text[exc.start]:#04x}")
                ) from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(Message("record.error.json", detail=str(exc))) from None
        except RecursionError:
            raise RecordError(Message("record.error.nested")) from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file; every problem (missing, a directory, too big, not UTF-8, malformed) is a
        :class:`RecordError`."""
        if not isinstance(path, str | Path):
            raise RecordError(Message("record.error.path_type", type=type(path).__name__))
        path = Path(path)
        try:
            if path.is_dir():
                raise RecordError(Message("record.error.directory", path=str(path)))
            if path.stat().st_size > MAX_RECORD_BYTES:
                raise RecordError(
                    Message("record.error.file_too_large", mib=MAX_RECORD_BYTES // 2**20, path=str(path))
                )
            raw = path.read_bytes()
        except OSError as exc:
            raise RecordError(
                Message("record.error.cannot_read_file", path=str(path), reason=str(exc.strerror or exc))
            ) from None
        return cls.loads(raw)

    def rules(self) -> RuleSet:
        game = get_game(self.game)
        try:
            return game.rules_type.from_preset(self.preset, self.overrides)
        except DicehallError as exc:
            raise RecordError(Message("record.error.bad_rules", reason=_text(exc))) from None


def output_file_problem(path: Path) -> str:
    """Why a file cannot be written at ``path`` (``""`` when it looks writable); creates and changes nothing."""
    if path.is_dir():
        return Message("record.problem.directory")
    if path.name in ("", ".", ".."):
        return Message("record.problem.no_name")
    parent = path.parent
    while not parent.exists():
        if parent == parent.parent:
            break
        parent = parent.parent
    if not parent.is_dir():
        return Message("record.problem.parent_not_dir", path=str(parent))
    if path.exists() and not os.access(path, os.W_OK):
        return Message("record.problem.file_not_writable")
    if not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
        return Message("record.problem.dir_not_writable", path=str(parent))
    return ""


def _dice_hex(data: dict[str, Any], key: str) -> str | None:
    """A record's ``dice_commit`` / ``dice_seed``: absent (older records, real dice) or 64 hex digits."""
    value = data.get(key)
    if value is None:
        return None
    text = value.lower() if isinstance(value, str) else value
    if not isinstance(text, str) or len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise RecordError(Message("record.error.dice_hex", field=key, got=_short(value)))
    return text


def _short(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _check_result_shape(result: Any, seats: int) -> None:
    if not isinstance(result, dict):
        raise RecordError(Message("record.error.result_shape"))
    for key in RESULT_KEYS:
        value = result.get(key)
        if not isinstance(value, list) or not all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in value
        ):
            raise RecordError(Message("record.error.result_numbers", key=key))
    if len(result["scores"]) != seats or len(result["returns"]) != seats:
        raise RecordError(Message("record.error.result_seats", seats=seats))


def _req(obj: dict[str, Any], key: str, kind: type) -> Any:
    if key not in obj:
        raise KeyError(key)
    value = obj[key]
    if not isinstance(value, kind):
        raise RecordError(Message("record.error.field_type", field=repr(key), kind=kind.__name__))
    return value


def new_state(record: GameRecord) -> tuple[Game[Any], State[Any]]:
    game = get_game(record.game)
    try:
        game.check_player_count(len(record.players))
    except DicehallError as exc:
        raise RecordError(_text(exc)) from None
    return game, game.new_initial_state(record.rules(), len(record.players))


def apply_event(state: State[Any], event: Event, number: int) -> None:
    """Apply one recorded event, or raise :class:`RecordError` naming the event and the rule broken."""
    if state.is_terminal():
        raise RecordError(Message("record.error.over"), event=number)
    if is_resign(event):
        _apply_resign(state, event, number)
        return
    expected = state.current_player()
    wanted: int | str = "chance" if expected == CHANCE else expected
    if event.actor != wanted:
        raise RecordError(
            Message("record.error.turn", expected=_who(wanted), actual=_who(event.actor)), event=number
        )
    kind = "outcome" if wanted == "chance" else "move"
    move = repr(event.move)
    try:
        action = state.string_to_action(event.move)
    except DicehallError as exc:
        raise RecordError(
            Message(f"record.error.read_{kind}", move=move, reason=_text(exc)), event=number
        ) from None
    except Exception as exc:  # an engine bug must still name the event, not crash the reader
        raise RecordError(
            Message(f"record.error.read_{kind}", move=move, reason=f"{type(exc).__name__}: {exc}"),
            event=number,
        ) from None
    try:
        state.apply_action(action)
    except IllegalActionError as exc:
        reason = (
            Message("record.error.with_rule", reason=_text(exc), rule=exc.rule) if exc.rule else _text(exc)
        )
        raise RecordError(
            Message(f"record.error.illegal_{kind}", move=move, reason=reason), event=number
        ) from None
    except DicehallError as exc:
        raise RecordError(
            Message(f"record.error.illegal_{kind}", move=move, reason=_text(exc)), event=number
        ) from None
    except Exception as exc:
        raise RecordError(
            Message(f"record.error.illegal_{kind}", move=move, reason=f"{type(exc).__name__}: {exc}"),
            event=number,
        ) from None


def is_resign(event: Event) -> bool:
    """Whether ``event`` is a seat's resignation (a seat's move ``"resign"``, applied out of turn too) or its
    timeout (``"timeout"``: its time to move ran out, :meth:`State.time_out`)."""
    return (
        event.move in (RESIGN, TIMEOUT) and isinstance(event.actor, int) and not isinstance(event.actor, bool)
    )


def _apply_resign(state: State[Any], event: Event, number: int) -> None:
    """A seat gives up, or runs out of time: out of turn too, at a chance node or among simultaneous seats (no
    turn check)."""
    try:
        if event.move == TIMEOUT:
            state.time_out(int(event.actor))
        else:
            state.resign(int(event.actor))
    except IllegalActionError as exc:
        reason = Message("record.error.with_rule", reason=_text(exc), rule=exc.rule)
        raise RecordError(
            Message("record.error.illegal_move", move=repr(event.move), reason=reason), event=number
        ) from None
    except DicehallError as exc:
        raise RecordError(
            Message("record.error.illegal_move", move=repr(event.move), reason=_text(exc)), event=number
        ) from None


def replay(record: GameRecord, upto: int | None = None) -> State[Any]:
    """The state after the first ``upto`` events (all by default).

    A full replay of a record that stores a result also checks that result (see :func:`check_result`).
    """
    if upto is not None and (isinstance(upto, bool) or not isinstance(upto, int) or upto < 0):
        raise RecordError(Message("record.error.upto", n=len(record.events), got=_short(upto)))
    if upto is not None and upto > len(record.events):
        raise RecordError(Message("record.error.upto_past", n=len(record.events), upto=upto))
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
        raise RecordError(Message("record.error.unfinished"))
    actual = json.loads(
        json.dumps({"scores": state.scores(), "returns": state.returns(), "winners": state.winners()})
    )
    for key in RESULT_KEYS:
        stored = record.result.get(key)
        if stored != actual[key]:
            raise RecordError(
                Message(
                    "record.error.result_differs", key=key, stored=_short(stored), actual=str(actual[key])
                )
            )


def _who(actor: int | str) -> Message:
    return Message("record.who.chance") if actor == "chance" else Message("record.who.seat", seat=actor)


def _text(exc: DicehallError) -> str:
    """An error's text as raised (a :class:`Message` keeps its id, so the reason is translated with the rest)."""
    return exc.text or str(exc)

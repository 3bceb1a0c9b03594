"""Dice anyone can verify: a table's secret seed, its published fingerprint, and the check of a record's dice.

The encoding (docs/fair-dice.md gives the same recipe for a reader who wants to check by hand):

- the seed is 32 random bytes, written as 64 lowercase hex digits;
- the commitment ("dice fingerprint") is ``SHA-256(seed bytes)`` in hex, shown from the table's creation;
- chance event number ``n`` of the game (the record's event number, from 1) is drawn by the game's own
  ``sample_chance`` from ``numpy.random.default_rng(int.from_bytes(SHA-256(seed bytes ‖ n as 8 bytes
  big-endian), "big"))``: each event has its own generator, so a restarted server continues the same way.

Records of terminal play and of simulations carry a plain integer ``seed`` instead: their dice are one stream,
``seeded_rng(seed)``, drawn event after event (see :func:`dicehall.core.rng.seeded_rng`). :func:`verify_record`
checks either kind.

>>> seed = "00" * 32
>>> commitment(seed)
'66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925'
>>> event_rng(seed, 1).integers(1, 7, size=5).tolist() == event_rng(seed, 1).integers(1, 7, size=5).tolist()
True
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import secrets
from collections.abc import Callable
from typing import Any

import numpy as np

from dicehall.core.errors import DicehallError
from dicehall.core.game import CHANCE, State
from dicehall.core.record import GameRecord, apply_event, check_result, is_resign, new_state
from dicehall.core.rng import seeded_rng
from dicehall.i18n.message import Message

SEED_BYTES = 32
_HEX64 = re.compile(r"[0-9a-f]{64}")


class VerifyError(DicehallError):
    """A record whose dice cannot be checked (no seed, real dice, a seed its fingerprint does not match)."""


def new_seed() -> str:
    """A fresh secret seed from the operating system's secure source (64 hex digits)."""
    return secrets.token_hex(SEED_BYTES)


def is_hex64(text: object) -> bool:
    return isinstance(text, str) and _HEX64.fullmatch(text) is not None


def commitment(seed: str) -> str:
    """The fingerprint published before the game: SHA-256 of the seed's 32 bytes, in hex."""
    return hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def event_rng(seed: str, n: int) -> np.random.Generator:
    """The generator chance event number ``n`` (from 1) of a committed table is drawn from."""
    digest = hashlib.sha256(bytes.fromhex(seed) + n.to_bytes(8, "big")).digest()
    return np.random.default_rng(int.from_bytes(digest, "big"))


@dataclasses.dataclass(frozen=True)
class Mismatch:
    """The first chance event the seed does not give: its number, what the seed gives, what the record says."""

    event: int
    expected: str
    recorded: str


@dataclasses.dataclass(frozen=True)
class Verdict:
    rolls: int
    """Chance events checked (all of them when ``mismatch`` is None; else those up to and with the mismatch)."""
    committed: bool
    """True: a table's committed seed (``dice_seed``); False: a terminal game's or simulation's ``seed``."""
    mismatch: Mismatch | None = None

    @property
    def ok(self) -> bool:
        return self.mismatch is None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": self.ok, "rolls": self.rolls, "committed": self.committed}
        if self.mismatch is not None:
            out["mismatch"] = dataclasses.asdict(self.mismatch)
        return out


def chance_events(record: GameRecord) -> int:
    """How many of the record's events are dice outcomes."""
    return sum(1 for e in record.events if e.actor == "chance")


def verify_record(record: GameRecord, progress: Callable[[int, int], None] | None = None) -> Verdict:
    """Recompute every chance event of ``record`` from its seed and compare it with what the record says.

    Raises :class:`VerifyError` when there is nothing to check against (no revealed seed, dice typed in from real
    dice) or the revealed seed is not the one committed to, and :class:`~dicehall.core.errors.RecordError` when
    the record does not replay. ``progress(done, total)`` hears of each event.
    """
    draw = _drawer(record)
    _, state = new_state(record)
    total = len(record.events)
    rolls = 0
    for number, event in enumerate(record.events, start=1):
        if event.actor == "chance" and not is_resign(event) and state.current_player() == CHANCE:
            rolls += 1
            expected = state.action_to_string(state.sample_chance(draw(number)))
            if expected != _canonical(state, event.move):
                return Verdict(rolls, record.dice_commit is not None, Mismatch(number, expected, event.move))
        apply_event(state, event, number)
        if progress is not None:
            progress(number, total)
    check_result(record, state)
    return Verdict(rolls, record.dice_commit is not None)


def _drawer(record: GameRecord) -> Callable[[int], np.random.Generator]:
    """Event number → the generator its dice came from, by the record's kind of seed."""
    if any(e.entered_by is not None for e in record.events):
        raise VerifyError(Message("verify.error.real_dice"))
    if record.dice_seed is not None and record.dice_commit is None:
        raise VerifyError(Message("verify.error.no_commit"))
    if record.dice_commit is not None:
        seed = record.dice_seed
        if seed is None:
            raise VerifyError(Message("verify.error.not_revealed"))
        if commitment(seed) != record.dice_commit:
            raise VerifyError(Message("verify.error.commit", commit=record.dice_commit, got=commitment(seed)))
        return lambda n: event_rng(seed, n)
    if record.seed is not None:
        stream = seeded_rng(record.seed)
        return lambda _n: stream
    raise VerifyError(Message("verify.error.no_seed"))


def _canonical(state: State[Any], move: str) -> str:
    """The recorded outcome in the game's own spelling (a record may space or case it differently)."""
    try:
        return state.action_to_string(state.string_to_action(move))
    except DicehallError:
        return move  # unreadable: it differs from what the seed gives, and apply_event would say why

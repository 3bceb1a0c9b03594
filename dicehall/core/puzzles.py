"""Puzzles of any game: the id, the puzzle rating, the player's Glicko-2 rating and streak, the verdict, and
choosing the next puzzle near a player's rating (docs/puzzles.md).

A game supplies its puzzles through a :class:`PuzzleGame`: how to load them, its themes, the reason in words
(``why``), the position as the page draws it, and its rating scale (the margin that counts as clear, in the
game's unit). The puzzles themselves only need the fields of :class:`Puzzle` (a protocol): Dice 1000's
(``thousand/puzzles.py``) and Clever's (``clever/puzzles.py``) are mined from bot games; puzzles from stored
human games would be a third source of the same shape.
"""

from __future__ import annotations

import bisect
import dataclasses
import gzip
import hashlib
import json
import math
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

import numpy as np
from glicko2.math.algorithm import update_rating
from glicko2.math.conversions import mu_to_rating, phi_to_rd, rating_to_mu, rd_to_phi

from dicehall.core.errors import DicehallError
from dicehall.i18n.message import Message

START_RATING = 1500.0
START_RD = 350.0
START_VOL = 0.06
PUZZLE_RD = 80.0
"""A puzzle's rating deviation: its rating is set from its difficulty and margin and never moves."""
TAU = 0.5  # Glickman's system constant (his example's; lichess uses 0.75 for its puzzles)
PROVISIONAL_RD = 110.0
"""A player's puzzle rating is shown as provisional ("?") while its deviation is above this."""
BASE = {"easy": 1200.0, "medium": 1500.0, "hard": 1800.0}
NEAREST = 24
"""``next`` draws among this many unanswered puzzles nearest the player's rating."""


class PuzzleAnswerError(DicehallError):
    """An answer that is not one of the puzzle's choices, or a puzzle that does not exist."""


class Puzzle(Protocol):
    """What the shared layer reads of a game's puzzle."""

    @property
    def key(self) -> str: ...
    @property
    def theme(self) -> str: ...
    @property
    def best(self) -> str: ...
    @property
    def margin(self) -> float: ...
    @property
    def options(self) -> dict[str, float]: ...
    @property
    def difficulty(self) -> str: ...


P = TypeVar("P", bound=Puzzle)


@dataclasses.dataclass(frozen=True)
class PuzzleGame(Generic[P]):
    """One game's puzzles as the shared layer, the web and the terminal use them."""

    name: str
    themes: tuple[str, ...]
    load: Callable[[], Sequence[P]]
    why: Callable[[P], Message]
    position: Callable[[P], dict[str, Any]]
    """What the page draws (the table's public view as the solver sees it, the theme): never the answer."""
    clear_margin: float
    """The margin (in the game's unit) at the middle of the rating scale: :func:`puzzle_rating`."""
    verdict_extra: Callable[[P], dict[str, Any]] = lambda p: {}
    """Fields the game's verdict adds for the page's words (Dice 1000: the turn total and the dice in hand)."""
    choice_refusal: str = "puzzle.refusal.choice"
    """The message id refusing an answer that is none of the choices (in the game's words)."""

    def rating(self, p: P) -> float:
        return puzzle_rating(p, self.clear_margin)


def puzzle_rating(p: Puzzle, clear: float) -> float:
    """A puzzle's rating: its difficulty's base (easy 1200, medium 1500, hard 1800: how many of the game's
    heuristic bots choose wrong) moved by its margin: 150 points lower as the margin goes from ``clear`` to twice
    ``clear`` (a clear answer is easier), up to 150 higher below ``clear`` (the margin counted up to ``2 clear``)."""
    return BASE[p.difficulty] + 150.0 * (1.0 - min(p.margin, 2.0 * clear) / clear)


def puzzle_id(p: Puzzle) -> str:
    """A short id for links and the API (the position key may have slashes and commas)."""
    return hashlib.sha256(p.key.encode()).hexdigest()[:12]


@dataclasses.dataclass(frozen=True)
class Skill:
    rating: float = START_RATING
    rd: float = START_RD
    vol: float = START_VOL

    @property
    def provisional(self) -> bool:
        return self.rd > PROVISIONAL_RD


def update(player: Skill, games: Iterable[tuple[float, float, float]]) -> Skill:
    """Glickman's Glicko-2 update of one rating period: ``games`` are (opponent's rating, its RD, score)."""
    opponents = [(rating_to_mu(r), rd_to_phi(rd), score) for r, rd, score in games]
    new = update_rating(rating_to_mu(player.rating), rd_to_phi(player.rd), player.vol, opponents, tau=TAU)
    return Skill(mu_to_rating(new.mu), phi_to_rd(new.phi), new.sigma)


def rate(player: Skill, against: float, solved: bool) -> Skill:
    """The player's Glicko-2 rating after one puzzle (a game against the puzzle, one rating period)."""
    return update(player, [(against, PUZZLE_RD, 1.0 if solved else 0.0)])


@dataclasses.dataclass(frozen=True)
class Verdict:
    choice: str
    best: str
    correct: bool
    options: list[dict[str, Any]]
    """Every choice, best first: ``move``, ``value``, ``best``, ``loss`` (below the best, in the game's unit)."""
    why: Message


def tenths(v: float) -> float:
    """``v`` to one decimal exactly as the page shows it (``Math.round(v * 10) / 10``: halves up, on the
    double ``v * 10``), so a reason sentence and the list of values beside it never differ in the last digit."""
    return math.floor(v * 10 + 0.5) / 10


def check(p: Puzzle, choice: str, why: Message, refusal: str = "puzzle.refusal.choice") -> Verdict:
    """The verdict on ``choice``, one of the puzzle's options; anything else is refused (message ``refusal``)."""
    if choice not in p.options:
        raise PuzzleAnswerError(Message(refusal))
    top = p.options[p.best]
    ranked = sorted(p.options.items(), key=lambda kv: (kv[0] != p.best, -kv[1]))
    options = [{"move": m, "value": v, "best": m == p.best, "loss": round(top - v, 4)} for m, v in ranked]
    return Verdict(choice, p.best, choice == p.best, options, why)


class PuzzleSet(Generic[P]):
    """A game's puzzles by id, by theme and by rating, for choosing one near a player's rating."""

    def __init__(self, game: PuzzleGame[P], puzzles: Iterable[P] | None = None) -> None:
        self.game = game
        items = list(game.load() if puzzles is None else puzzles)
        self.by_id: dict[str, P] = {puzzle_id(p): p for p in items}
        if len(self.by_id) != len(items):
            raise ValueError("two puzzles share an id")
        self.rating = {i: game.rating(p) for i, p in self.by_id.items()}
        self._sorted: dict[str | None, list[tuple[float, str]]] = {None: []}
        for i, p in self.by_id.items():
            self._sorted[None].append((self.rating[i], i))
            self._sorted.setdefault(p.theme, []).append((self.rating[i], i))
        for rows in self._sorted.values():
            rows.sort()

    def copy(self) -> PuzzleSet[P]:
        """A set of the same puzzles that :meth:`add` extends without touching this one."""
        new = object.__new__(type(self))
        new.game, new.by_id, new.rating = self.game, dict(self.by_id), dict(self.rating)
        new._sorted = {k: list(v) for k, v in self._sorted.items()}
        return new

    def add(self, puzzles: Iterable[P]) -> list[str]:
        """Add puzzles found later (in games played here); one already held is left as it is. The ids added."""
        added = []
        for p in puzzles:
            pid = puzzle_id(p)
            if pid in self.by_id:
                continue
            self.by_id[pid] = p
            self.rating[pid] = self.game.rating(p)
            for key in (None, p.theme):
                bisect.insort(self._sorted.setdefault(key, []), (self.rating[pid], pid))
            added.append(pid)
        return added

    def get(self, pid: str) -> P:
        found = self.by_id.get(pid)
        if found is None:
            raise PuzzleAnswerError(Message("puzzle.refusal.unknown"))
        return found

    def check(self, pid: str, choice: str) -> Verdict:
        p = self.get(pid)
        return check(p, choice, self.game.why(p), self.game.choice_refusal)

    def pick(
        self, rating: float, theme: str | None, answered: set[str], rng: np.random.Generator
    ) -> str | None:
        """An unanswered puzzle (of ``theme``, if given) among the :data:`NEAREST` nearest ``rating``; None when
        every one is answered."""
        if theme is not None and theme not in self.game.themes:
            raise PuzzleAnswerError(Message("puzzle.refusal.theme"))
        rows = self._sorted.get(theme, [])
        at = bisect.bisect_left(rows, (rating, ""))
        lo, hi = at - 1, at
        near: list[str] = []
        while len(near) < NEAREST and (lo >= 0 or hi < len(rows)):
            below = rating - rows[lo][0] if lo >= 0 else float("inf")
            above = rows[hi][0] - rating if hi < len(rows) else float("inf")
            if below <= above:
                pid, lo = rows[lo][1], lo - 1
            else:
                pid, hi = rows[hi][1], hi + 1
            if pid not in answered:
                near.append(pid)
        return near[int(rng.integers(len(near)))] if near else None


# -- puzzle files: a header line, then one puzzle a line (both games' miners write them) --------------------------
FORMAT = "dicehall-puzzles/1"


class PuzzleFileError(DicehallError):
    """A puzzle file that cannot be read or continued (another seed or margin, not a puzzle file)."""


def read_puzzle_file(
    path: Path, game: str, parse: Callable[[dict[str, Any]], P]
) -> tuple[dict[str, Any] | None, list[P]]:
    """The header and puzzles of ``game``'s puzzle file (``.gz`` read as gzip); an unfinished last line is left
    out."""
    opener: Callable[..., Any] = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        text = f.read()
    lines = text.split("\n")
    if not text.endswith("\n"):
        lines = lines[:-1]  # cut while being written
    rows = [json.loads(line) for line in lines if line.strip()]
    if not rows:
        return None, []
    if rows[0].get("format") != FORMAT or rows[0].get("game") != game:
        raise PuzzleFileError(Message("puzzle.error.not_puzzles", path=str(path)))
    return rows[0], [parse(r) for r in rows[1:]]


def held_in_file(
    path: Path, game: str, parse: Callable[[dict[str, Any]], P], seed: int, margin: float
) -> list[P]:
    """The puzzles a file to be continued holds (none when it is new); refuses another run's file."""
    if not path.exists() or not path.stat().st_size:
        return []
    try:
        old, done = read_puzzle_file(path, game, parse)
    except PuzzleFileError:
        raise
    except (ValueError, KeyError, TypeError, UnicodeDecodeError, OSError):
        raise PuzzleFileError(Message("puzzle.error.unreadable", path=str(path))) from None
    if old is not None and (old["seed"], old["margin"]) != (seed, margin):
        raise PuzzleFileError(
            Message("puzzle.error.other_run", path=str(path), seed=old["seed"], margin=old["margin"])
        )
    return done


def cut_unfinished(path: Path) -> None:
    """Drop a last line left half-written by a killed run."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        path.write_bytes(data[: data.rfind(b"\n") + 1])

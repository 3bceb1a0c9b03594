"""Solving Dice 1000 puzzles: the answer checked, the reason in words, the puzzle ratings (Glicko-2).

Shared by the web (``dicehall/web/puzzles_api.py``) and the terminal (``dicehall puzzle thousand``); the
puzzles themselves are :mod:`dicehall.thousand.puzzles`. See docs/puzzles.md.
"""

from __future__ import annotations

import bisect
import dataclasses
import hashlib
from collections.abc import Iterable
from typing import Any

import numpy as np
from glicko2.math.algorithm import update_rating
from glicko2.math.conversions import mu_to_rating, phi_to_rd, rating_to_mu, rd_to_phi

from dicehall.core.errors import DicehallError
from dicehall.i18n.message import Message
from dicehall.thousand.puzzles import THEMES, Puzzle, load_puzzles

START_RATING = 1500.0
START_RD = 350.0
START_VOL = 0.06
PUZZLE_RD = 80.0
TAU = 0.5  # Glickman's system constant (his example's; lichess uses 0.75 for its puzzles)
"""A puzzle's rating deviation: its rating is set from its difficulty and margin and never moves."""
PROVISIONAL_RD = 110.0
"""A player's puzzle rating is shown as provisional ("?") while its deviation is above this."""
BASE = {"easy": 1200.0, "medium": 1500.0, "hard": 1800.0}
NEAREST = 24
"""``next`` draws among this many unanswered puzzles nearest the player's rating."""


class PuzzleAnswerError(DicehallError):
    """An answer that is not one of the puzzle's choices, or a puzzle that does not exist."""


def puzzle_rating(p: Puzzle) -> float:
    """A puzzle's rating: its difficulty's base (easy 1200, medium 1500, hard 1800: how many of the three
    heuristic bots choose wrong) moved by its margin: 25 points lower for each win-% point above 6 (a clear
    answer is easier), 25 higher for each below, the margin counted up to 12 (so 1050 … 1875)."""
    return BASE[p.difficulty] + 25.0 * (6.0 - min(p.margin, 12.0))


def puzzle_id(p: Puzzle) -> str:
    """A short id for links and the API (the position key has slashes and commas)."""
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
    """Every choice, best first: ``move``, ``value`` (win %), ``best``, ``loss`` (win-% points below the best)."""
    why: Message


def _pct(v: float) -> float:
    return round(v, 1)


def why(p: Puzzle) -> Message:
    """One sentence: why the best choice is best, from the theme and the numbers."""
    s = p.state()
    other = next(k for k in p.options if k != p.best)
    theme = p.theme.replace(" ", "_")
    return Message(
        f"puzzle.why.{theme}.{p.best}",
        total=s.turn_total,
        dice=s.in_hand,
        best=_pct(p.options[p.best]),
        other=_pct(p.options[other]),
    )


def check(p: Puzzle, choice: str) -> Verdict:
    """The verdict on ``choice`` (``bank`` or ``roll``); anything else is refused."""
    if choice not in p.options:
        raise PuzzleAnswerError(Message("puzzle.refusal.choice"))
    top = p.options[p.best]
    ranked = sorted(p.options.items(), key=lambda kv: -kv[1])
    options = [{"move": m, "value": v, "best": m == p.best, "loss": round(top - v, 4)} for m, v in ranked]
    return Verdict(choice, p.best, choice == p.best, options, why(p))


class PuzzleSet:
    """The shipped puzzles by id, by theme and by rating, for choosing one near a player's rating."""

    def __init__(self, puzzles: Iterable[Puzzle] | None = None) -> None:
        items = list(load_puzzles() if puzzles is None else puzzles)
        self.by_id: dict[str, Puzzle] = {puzzle_id(p): p for p in items}
        if len(self.by_id) != len(items):
            raise ValueError("two puzzles share an id")
        self.rating = {i: puzzle_rating(p) for i, p in self.by_id.items()}
        self._sorted: dict[str | None, list[tuple[float, str]]] = {None: []}
        for i, p in self.by_id.items():
            self._sorted[None].append((self.rating[i], i))
            self._sorted.setdefault(p.theme, []).append((self.rating[i], i))
        for rows in self._sorted.values():
            rows.sort()

    def get(self, pid: str) -> Puzzle:
        found = self.by_id.get(pid)
        if found is None:
            raise PuzzleAnswerError(Message("puzzle.refusal.unknown"))
        return found

    def pick(
        self, rating: float, theme: str | None, answered: set[str], rng: np.random.Generator
    ) -> str | None:
        """An unanswered puzzle (of ``theme``, if given) among the :data:`NEAREST` nearest ``rating``; None when
        every one is answered."""
        if theme is not None and theme not in THEMES:
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

"""Ganz schön clever puzzles: positions from bot games where one choice is clearly best by expected final points.

A puzzle is a decision of the solo player — a pick (or re-roll), a pick from the silver platter, or where a bonus
cross or the round-4 black X / 6 goes — where the best option's expected final points beat the second's by at
least :data:`MARGIN` and by :data:`Z` standard errors. ``bot:master``'s network with its look-ahead (the
analysis's values, :class:`PuzzleEvaluator`) screens the decisions; its error, measured by
``scripts/clever_puzzle_error.py`` against Monte-Carlo rollouts, is 7.7 points in solo (docs/puzzles.md), too large
to trust alone, so every option of a candidate is played on :data:`ROLLOUTS` times (:func:`rollout_values`): those
means are the puzzle's values, and the network must agree on the best.

A puzzle keeps the position itself (:func:`position_json`: every sheet as the mover sees it, the dice, the round,
the turn's step) so it is rebuilt without replaying its game. Mining (:func:`mine`) follows the conventions of
Dice 1000's (``dicehall/thousand/puzzles.py``): a header line, one puzzle a line, flushed as found,
deterministic by seed and resumable.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import itertools
import json
import multiprocessing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from dicehall.clever import actions as A
from dicehall.clever import sheet as S
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import PH_PASSIVE_PICK, PH_PICK, CleverState, Sheet
from dicehall.core.agents import Agent, make_bot
from dicehall.core.puzzles import FORMAT, PuzzleFileError, cut_unfinished, held_in_file, read_puzzle_file
from dicehall.core.rng import game_rng

MARGIN = 5.0
"""Points the best option must beat the second by, in play (:func:`rollout_values`); and by at least
:data:`Z` standard errors of that difference, so no answer is within the rollouts' own noise."""
Z = 3.0
ROLLOUTS = 200
FIRST = 40
"""Games played on from each option of a candidate position (the same dice seeds for every option): ``FIRST``
for all, ``ROLLOUTS`` for those that may be best or second (:func:`rollout_values`)."""
SCREEN = 3.0
"""A decision is played out only when the network's best beats its second by this many points (the network is
off by 7.7 points on average in solo, so it screens and the rollouts decide; docs/puzzles.md, "Clever")."""
MAX_OPTIONS = 30
"""Decisions with more legal options are left out: each option is a button on the page (the round-4 choice
early in a sheet can offer 26)."""
PLAYERS = (1, 2, 3, 4)
MINED_PLAYERS = (1,)
"""Puzzles come from solo games (tables of 2–4: not yet, docs/puzzles.md, "Clever")."""
BOTS = ("master", "expert", "greedy", "random")
"""The seats' bots, drawn per game and seat (weights :data:`BOT_WEIGHTS`): weaker play reaches positions strong
play avoids."""
BOT_WEIGHTS = (3, 3, 2, 1)
JUDGES = ("expert", "greedy")
"""The heuristic bots whose choices rate a puzzle's difficulty (how many of them choose wrong)."""
DIFFICULTY = ("easy", "medium", "hard")
THEMES = ("round 4", "opening", "foxes", "bonus chain", "passive pick", "which die")
SHIPPED = Path(__file__).parent / "data" / "puzzles.jsonl.gz"


# -- the position as data ------------------------------------------------------------------------------------
def _sheet_json(sh: Sheet) -> list[Any]:
    return [
        sh.ymask,
        sh.bmask,
        sh.gcount,
        list(sh.ovals),
        sh.osum,
        list(sh.pvals),
        sh.plast,
        sh.psum,
        sh.rr_gain,
        sh.rr_used,
        sh.p1_gain,
        sh.p1_used,
        sh.foxes,
    ]


def _sheet_from(row: list[Any]) -> Sheet:
    sh = Sheet()
    (sh.ymask, sh.bmask, sh.gcount, ovals, sh.osum, pvals, sh.plast, sh.psum) = row[:8]
    (sh.rr_gain, sh.rr_used, sh.p1_gain, sh.p1_used, sh.foxes) = row[8:]
    sh.ovals, sh.pvals = tuple(ovals), tuple(pvals)
    return sh


def position_json(s: CleverState) -> dict[str, Any]:
    """A decision's position as the mover sees it (others' hidden passive choices as the phase found them)."""
    seen = s.seen_by(s.current_player())
    return {
        "n": seen.n,
        "round": seen.round,
        "active": seen.active,
        "phase": seen.phase,
        "actor": seen.actor,
        "after": seen.after,
        "values": list(seen.values),
        "roll_mask": seen.roll_mask,
        "field": list(seen.field),
        "platter": seen.platter,
        "rolls": seen.rolls,
        "plus_used": list(seen.plus_used),
        "order": list(seen.passive_order),
        "queue": [[p, kind, o[0], o[1]] for p, kind, o in seen.queue],
        "choice": seen.choice_pending,
        "sheets": [_sheet_json(sh) for sh in seen.sheets],
    }


def state_from(d: dict[str, Any], rules: CleverRules | None = None) -> CleverState:
    """The position of :func:`position_json`, to show and to value (its simultaneous phase is not reopened)."""
    s = CleverState(rules or CleverRules(), d["n"])
    s.round, s.active, s.phase, s.actor, s.after = d["round"], d["active"], d["phase"], d["actor"], d["after"]
    s.values = list(d["values"])
    s.roll_mask, s.field, s.platter, s.rolls = d["roll_mask"], tuple(d["field"]), d["platter"], d["rolls"]
    s.plus_used = list(d["plus_used"])
    s.passive_order = tuple(d["order"])
    s.queue = [(p, kind, (area, i)) for p, kind, area, i in d["queue"]]
    s.choice_pending = d["choice"]
    s.sheets = [_sheet_from(row) for row in d["sheets"]]
    s.log, s.phase_start, s.phase_moved, s._legal = [], None, 0, None
    return s


def position_key(d: dict[str, Any]) -> str:
    """A position's identity (puzzles are distinct by it): its JSON, keys sorted, hashed."""
    text = json.dumps(d, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


# -- the puzzle ------------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Puzzle:
    key: str
    position: dict[str, Any]
    options: dict[str, float]
    """Every legal choice (notation) with the mover's expected final points after it (:func:`rollout_values`)."""
    best: str
    margin: float
    theme: str
    missed_by: tuple[str, ...]
    """The bots of :data:`JUDGES` that choose wrong here."""
    game: int
    se: float
    """The standard error of the margin (the rollouts' own noise)."""

    @property
    def difficulty(self) -> str:
        return DIFFICULTY[len(self.missed_by)]

    def state(self) -> CleverState:
        return state_from(self.position)

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["missed_by"] = list(self.missed_by)
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Puzzle:
        return cls(**{**d, "missed_by": tuple(d["missed_by"])})


def is_decision(s: CleverState) -> bool:
    """A decision puzzles are made of: a pick (active or from the platter) or where a bonus goes."""
    if s.is_chance_node() or s.is_terminal():
        return False
    return s.choice_pending or s.phase in (PH_PICK, PH_PASSIVE_PICK)


def theme(s: CleverState, best: int) -> str:
    """The position's theme, the first of :data:`THEMES` that applies."""
    if s.choice_pending and s.queue[0][1] == S.BLACK:
        return "round 4"
    if s.round <= 2:
        return "opening"
    mover = s.current_player()
    after = s.clone()
    after.apply_action(best)
    if after.sheets[mover].foxes > s.sheets[mover].foxes:
        return "foxes"
    if s.choice_pending or any(p == mover and ok for p, _, ok, _ in after.log):
        return "bonus chain"
    if s.phase == PH_PASSIVE_PICK:
        return "passive pick"
    return "which die"


class PuzzleEvaluator:
    """Expected final points of every option: ``bot:master``'s solo network (the analysis's, docs/analysis.md)
    with the next-roll look-ahead on every option that leads to a roll (``lookahead=False``: the analysis's plain
    afterstate values, :meth:`CleverEvaluator.decision_values`)."""

    def __init__(self, lookahead: bool = True) -> None:
        from dicehall.clever.master import LOOKAHEAD, Lookahead, MasterAgent, load_weights

        weights = load_weights()[0]
        every = Lookahead(rolls=LOOKAHEAD.rolls * 2, margin=1e9, width=64, every_roll=True)
        self.agent = MasterAgent(weights=weights, lookahead=every if lookahead else None)

    def values(self, s: CleverState) -> dict[int, float]:
        return dict(self.agent.lookahead_values(s))


def _play_on(s: CleverState, action: int, seeds: np.ndarray) -> np.ndarray:
    """The mover's final points after ``action``, one game per seed (``bridge.finish_master``'s steps, the
    position after the action converted once)."""
    from dicehall.clever.kernel import bridge as B
    from dicehall.clever.kernel import net
    from dicehall.clever.master import load_weights

    weights = load_weights()[0]
    mover = s.current_player()
    after = s.clone()
    after.apply_action(action)
    points = np.empty(len(seeds))
    if after.is_terminal():
        points[:] = after.sheets[mover].total()
        return points
    start = B.from_state(after)
    for i, seed in enumerate(seeds):
        g = start.copy()
        net.play_greedy(g, np.random.default_rng(int(seed)), *weights)
        B.to_state(g, after)
        points[i] = after.sheets[mover].total()
    return points


def rollout_values(
    s: CleverState, expected: int | None = None, count: int = ROLLOUTS, first: int = FIRST
) -> dict[int, np.ndarray]:
    """Every legal option's final points of the mover in games played on by ``bot:master``'s network (without
    its look-ahead, in every seat), game ``i`` of every option on the same dice seed (drawn from the position, so
    the values are the same on every machine): ``first`` games each, then ``count`` for the best and every option
    not yet :data:`MARGIN` points behind it by :data:`Z` standard errors (the others are clearly not second best:
    their means stay on ``first`` games). It stops after the first games when the best is not ``expected`` (the
    network's best) or leads the second by less than :data:`MARGIN` less one standard error: no puzzle then."""
    seeds = np.random.SeedSequence(int(position_key(position_json(s)), 16)).generate_state(count)
    points = {a: _play_on(s, a, seeds[:first]) for a in s.legal_actions()}
    top = max(points, key=lambda a: (points[a].mean(), -a))
    behind = {a: points[top] - p for a, p in points.items()}
    lead = min(d.mean() for a, d in behind.items() if a != top)
    runner = next(d for a, d in behind.items() if a != top and d.mean() == lead)
    if (expected is not None and top != expected) or lead + runner.std(ddof=1) / np.sqrt(first) < MARGIN:
        return points
    for a in [
        a for a, d in behind.items() if a == top or d.mean() - Z * d.std(ddof=1) / np.sqrt(first) < MARGIN
    ]:
        points[a] = np.concatenate([points[a], _play_on(s, a, seeds[first:])])
    return points


@dataclasses.dataclass(frozen=True)
class Valuation:
    values: dict[int, float]
    best: int
    second: int
    margin: float
    se: float
    """The standard error of best − second (paired by seed, over the games both were played)."""


def valuation(points: dict[int, np.ndarray]) -> Valuation:
    values = {a: float(p.mean()) for a, p in points.items()}
    ranked = sorted(values, key=lambda a: (-values[a], a))
    best, second = ranked[0], ranked[1]
    n = min(len(points[best]), len(points[second]))
    diff = points[best][:n] - points[second][:n]
    se = float(diff.std(ddof=1) / np.sqrt(n))
    return Valuation(values, best, second, values[best] - values[second], se)


class Miner:
    """Plays the mix of bots and values their decisions; one per process is enough."""

    def __init__(self, margin: float = MARGIN, evaluator: PuzzleEvaluator | None = None) -> None:
        self.rules = CleverRules()
        self.margin = margin
        self.evaluator = evaluator or PuzzleEvaluator()
        self.bots: dict[str, Agent] = {b: make_bot("clever", b, self.rules) for b in BOTS}
        from dicehall.clever.master import Lookahead, MasterAgent

        # The games are played as when the shipped batch was mined (bot:master before its exact end, 27 Nov), so
        # a seed's games, and with them the batch, stay reproducible whatever bot:master plays today.
        self.bots["master"] = MasterAgent(self.rules, lookahead=Lookahead())

    def table(self, seed: int, game: int, players: tuple[int, ...] = PLAYERS) -> tuple[str, ...]:
        """The seats' bots of one game (their number drawn too, from ``players``)."""
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(game, 7)))
        n = players[rng.integers(len(players))]
        picks = rng.choice(len(BOTS), size=n, p=np.array(BOT_WEIGHTS) / sum(BOT_WEIGHTS))
        return tuple(BOTS[i] for i in picks)

    def missed_by(self, s: CleverState, best: str) -> tuple[str, ...]:
        # a fresh generator per position: a judge's answer never depends on the games before it
        return tuple(
            j
            for j in JUDGES
            if s.action_to_string(self.bots[j].choose(s.clone(), np.random.default_rng(0))) != best
        )

    def game(self, seed: int, game: int) -> Iterator[Puzzle]:
        """The puzzles of one seeded game, in the order met."""
        seats = self.table(seed, game, MINED_PLAYERS)
        dice = game_rng(seed, game)
        bot_rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(game, 1)))

        def act(s: CleverState) -> int:
            if s.is_chance_node():
                return s.sample_chance(dice)
            return int(self.bots[seats[s.current_player()]].choose(s, bot_rng))

        yield from self.play(CleverState(self.rules, len(seats)), act, game)

    def play(
        self,
        s: CleverState,
        act: Callable[[CleverState], int | None],
        game: int,
        movers: frozenset[int] | None = None,
    ) -> Iterator[Puzzle]:
        """The puzzles met at the decisions of ``movers`` (every seat's by default) while ``act`` plays ``s`` on
        (it gives each next action, ``None`` to stop: a game that ended by resignation)."""
        while not s.is_terminal():
            if (
                is_decision(s)
                and (movers is None or s.current_player() in movers)
                and 2 <= len(s.legal_actions()) <= MAX_OPTIONS
            ):
                found = self.puzzle(s, game)
                if found is not None:
                    yield found
            action = act(s)
            if action is None:
                return
            s.apply_action(action)

    def puzzle(self, real: CleverState, game: int) -> Puzzle | None:
        position = position_json(real)
        s = state_from(position)
        net = self.evaluator.values(s)
        ranked = sorted(net, key=lambda a: -net[a])
        if net[ranked[0]] - net[ranked[1]] < SCREEN:
            return None
        v = valuation(rollout_values(s, ranked[0]))
        if v.margin < max(self.margin, Z * v.se) or v.best != ranked[0]:
            return None  # (not clear in play, or the network would tell the player otherwise)
        best = s.action_to_string(v.best)
        return Puzzle(
            key=position_key(position),
            position=position,
            options={s.action_to_string(a): round(x, 2) for a, x in v.values.items()},
            best=best,
            margin=round(v.margin, 2),
            theme=theme(s, v.best),
            missed_by=self.missed_by(s, best),
            game=game,
            se=round(v.se, 2),
        )


# -- files ------------------------------------------------------------------------------------------------------
def _header(seed: int, margin: float) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": "clever",
        "rules": "standard",
        "players": list(MINED_PLAYERS),
        "seed": seed,
        "margin": margin,
        "rollouts": [FIRST, ROLLOUTS],
        "z": Z,
        "screen": SCREEN,
    }


def read_file(path: Path) -> tuple[dict[str, Any] | None, list[Puzzle]]:
    """The header and puzzles of a puzzle file (``.gz`` read as gzip); an unfinished last line is left out."""
    return read_puzzle_file(path, "clever", Puzzle.from_json)


def load_puzzles(path: Path | None = None) -> list[Puzzle]:
    """The shipped puzzles (or those of ``path``)."""
    return read_file(path or SHIPPED)[1]


def held_puzzles(path: Path, seed: int, margin: float = MARGIN) -> list[Puzzle]:
    """The puzzles a file to be continued holds (none when it is new); refuses another run's file."""
    return held_in_file(path, "clever", Puzzle.from_json, seed, margin)


def mine(
    path: Path,
    count: int,
    seed: int = 0,
    margin: float = MARGIN,
    progress: Callable[[int, int], None] | None = None,
    miner: Miner | None = None,
    jobs: int = 1,
) -> int:
    """Mine until ``path`` holds ``count`` puzzles; continue a file already there. Returns the puzzles held.

    ``progress(puzzles, game)`` is called after each puzzle and each game. ``jobs`` > 1 plays that many games at
    once in worker processes; the file is the same (each game's puzzles are its own; they are written in the
    games' order).
    """
    done = held_puzzles(path, seed, margin)
    if done:
        cut_unfinished(path)
    else:
        path.write_text(json.dumps(_header(seed, margin)) + "\n", encoding="utf-8")
    seen = {p.key for p in done}
    held = len(done)
    start = done[-1].game if done else 0
    if held >= count:
        return held
    with path.open("a", encoding="utf-8") as out, _games(seed, start, margin, miner, jobs) as games:
        for game, found in games:
            for p in found:
                if p.key in seen:
                    continue
                seen.add(p.key)
                out.write(json.dumps(p.to_json(), separators=(",", ":"), ensure_ascii=False) + "\n")
                out.flush()
                held += 1
                if progress:
                    progress(held, game)
                if held >= count:
                    return held
            if progress:
                progress(held, game + 1)
    return held


_WORKER: Miner | None = None


def _worker_start(margin: float) -> None:
    global _WORKER
    _WORKER = Miner(margin)


def _worker_game(args: tuple[int, int]) -> list[Puzzle]:
    assert _WORKER is not None
    return list(_WORKER.game(*args))


@contextlib.contextmanager
def _games(
    seed: int, start: int, margin: float, miner: Miner | None, jobs: int
) -> Iterator[Iterator[tuple[int, list[Puzzle]]]]:
    """(game, its puzzles) from ``start`` on, in order: here, or ``jobs`` games at a time in worker processes."""
    numbers = itertools.count(start)
    if jobs <= 1:
        own = miner or Miner(margin)
        yield ((g, list(own.game(seed, g))) for g in numbers)
        return
    with multiprocessing.get_context("spawn").Pool(jobs, _worker_start, (margin,)) as pool:
        yield enumerate(pool.imap(_worker_game, ((seed, g) for g in itertools.count(start))), start)
        pool.terminate()


__all__ = [
    "MARGIN",
    "THEMES",
    "A",
    "Miner",
    "Puzzle",
    "PuzzleFileError",
    "load_puzzles",
    "mine",
    "position_json",
    "state_from",
]

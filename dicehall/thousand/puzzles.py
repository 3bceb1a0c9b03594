"""Dice 1000 puzzles: positions from bot games where one choice is clearly best by the exact table.

A puzzle is a two-player classic position where the mover has a real decision (bank or roll: classic has no
other; a bank that wins the game at once is no puzzle) and the best choice beats the other by at least :data:`MARGIN` win-% points, valued from the compact
table shipped in the package (within ±7.6e-6 of the exact one, on every machine alike, so mining is
deterministic). It is kept as the start of the mover's turn (the fields :meth:`ThousandState.from_position`
takes) plus the turn's moves so far in notation, so the position is rebuilt exactly, dice on the table included.

Mining (:func:`mine`) plays seeded games between a mix of bots and writes JSON lines (a header, then one puzzle a
line, flushed as found). Running it again on the same file continues: the games are replayed from the last one
the file names, and positions already in the file are skipped, so an interrupted and resumed run writes exactly
what an uninterrupted one does. The shipped batch is the same lines gzipped (:func:`load_puzzles`).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from dicehall.core.agents import Agent, make_bot
from dicehall.core.puzzles import FORMAT, PuzzleFileError, cut_unfinished, held_in_file, read_puzzle_file
from dicehall.core.rng import game_rng
from dicehall.i18n.message import Message
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import ThousandState

MARGIN = 3.0
"""Win-% points the best choice must beat the other by: between the analysis's inaccuracy (2) and mistake (4)
bands, so the wrong answer always costs at least an inaccuracy and a puzzle is never a near-tie; 400 000 times
the shipped table's largest error, so no puzzle's answer depends on it."""
BOTS = ("expert", "cautious", "bold", "random", "optimal")
"""The seats' bots, drawn per game (weights :data:`BOT_WEIGHTS`): weaker bots reach the positions strong play
avoids (a big total at risk, a pit left late), which make the best puzzles."""
BOT_WEIGHTS = (3, 2, 2, 1, 2)
JUDGES = ("cautious", "expert", "bold")
"""The heuristic bots whose choices rate a puzzle's difficulty (how many of them get it wrong)."""
DIFFICULTY = ("easy", "medium", "hard", "hard")
THEMES = ("opening", "pit escape", "barrel", "bolts", "hot dice", "bank or roll")
SHIPPED = Path(__file__).parent / "data" / "puzzles.jsonl.gz"


def classic() -> ThousandRules:
    return ThousandRules.from_preset("classic", {})


@dataclasses.dataclass(frozen=True)
class Puzzle:
    key: str
    """The position's identity: both players' (score, opened, bolts, falls, on barrel, attempts), mover first,
    the turn total and the dice in hand."""
    start: dict[str, Any]
    """The start of the mover's turn: ``scores``, ``to_move``, ``opened``, ``on_barrel``, ``attempts``,
    ``falls``, ``bolts`` (per seat, as :meth:`ThousandState.from_position` takes them)."""
    moves: tuple[str, ...]
    """The turn's rolls and decisions so far, in notation."""
    options: dict[str, float]
    """Every legal choice with the mover's chance to win after it, in percent."""
    best: str
    margin: float
    theme: str
    missed_by: tuple[str, ...]
    """The bots of :data:`JUDGES` that choose wrong here."""
    game: int
    """The mined game it comes from (resuming starts there)."""

    @property
    def difficulty(self) -> str:
        return DIFFICULTY[len(self.missed_by)]

    def state(self, rules: ThousandRules | None = None) -> ThousandState:
        """The position, rebuilt: the turn's start, then its moves."""
        st = self.start
        s = ThousandState.from_position(
            rules or classic(),
            st["scores"],
            to_move=st["to_move"],
            opened=st["opened"],
            on_barrel=st["on_barrel"],
            barrel_attempts=st["attempts"],
            barrel_falls=st["falls"],
            bolts=st["bolts"],
        )
        for move in self.moves:
            s.apply_action(s.string_to_action(move))
        return s

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["moves"] = list(self.moves)
        out["missed_by"] = list(self.missed_by)
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Puzzle:
        return cls(**{**d, "moves": tuple(d["moves"]), "missed_by": tuple(d["missed_by"])})


def start_fields(s: ThousandState) -> dict[str, Any]:
    return {
        "scores": list(s.score),
        "to_move": s.player,
        "opened": list(s.opened),
        "on_barrel": list(s.on_barrel),
        "attempts": list(s.attempts),
        "falls": list(s.falls),
        "bolts": list(s.bolts),
    }


def position_key(s: ThousandState) -> str:
    def seat(q: int) -> str:
        return (
            f"{s.score[q]},{int(s.opened[q])},{s.bolts[q]},{s.falls[q]},{int(s.on_barrel[q])},{s.attempts[q]}"
        )

    return f"{seat(s.player)}/{seat(1 - s.player)}/{s.turn_total}/{s.in_hand}"


def theme(s: ThousandState, hot: bool) -> str:
    """The position's theme, the first that applies of :data:`THEMES`."""
    r, q = s.rules, s.player
    score = s.score[q]
    if not s.opened[q]:
        return "opening"
    if r.pit_of(score) is not None:
        return "pit escape"
    if s.on_barrel[q] or s.on_barrel[1 - q] or score + s.turn_total >= r.barrel_score:
        return "barrel"
    if s.bolts[q] == r.bolts_count - 1:
        return "bolts"
    if hot:
        return "hot dice"
    return "bank or roll"


class Miner:
    """Values decisions from the shipped table and plays the mix of bots; one per process is enough."""

    def __init__(self, margin: float = MARGIN) -> None:
        from dicehall.thousand.analysis import WinEvaluator
        from dicehall.thousand.solver.solve import shipped_table

        self.rules = classic()
        table = shipped_table(self.rules)
        if table is None:
            raise PuzzleFileError(Message("puzzle.error.no_table"))
        self.margin = margin
        self.evaluator = WinEvaluator(self.rules, table)
        self.bots: dict[str, Agent] = {b: make_bot("thousand", b, self.rules) for b in BOTS if b != "optimal"}

    def options(self, s: ThousandState) -> dict[str, float]:
        return {str(a): v for a, v in self.evaluator.decision_values(s)}

    def choose(self, name: str, s: ThousandState, rng: np.random.Generator) -> Any:
        if name == "optimal":  # best by the same table, so the seat plays alike on every machine
            return max(self.evaluator.decision_values(s), key=lambda av: av[1])[0]
        return self.bots[name].choose(s, rng)

    def missed_by(self, s: ThousandState, best: str) -> tuple[str, ...]:
        # a fresh generator per position: a judge's answer never depends on the games before it
        return tuple(j for j in JUDGES if str(self.choose(j, s, np.random.default_rng(0))) != best)

    def seats(self, seed: int, game: int) -> tuple[str, str]:
        rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(game, 7)))
        p = np.array(BOT_WEIGHTS, dtype=float) / sum(BOT_WEIGHTS)
        a, b = rng.choice(len(BOTS), size=2, p=p)
        return BOTS[a], BOTS[b]

    def game(self, seed: int, game: int) -> Iterator[Puzzle]:
        """The puzzles of one seeded game, in the order met."""
        seats = self.seats(seed, game)
        dice = game_rng(seed, game)
        bot_rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(game, 1)))

        def act(s: ThousandState) -> Any:
            return s.sample_chance(dice) if s.is_chance_node() else self.choose(seats[s.player], s, bot_rng)

        yield from self.play(ThousandState(self.rules, 2), act, game)

    def play(
        self,
        s: ThousandState,
        act: Callable[[ThousandState], Any | None],
        game: int,
        movers: frozenset[int] = frozenset((0, 1)),
    ) -> Iterator[Puzzle]:
        """The puzzles met at the decisions of ``movers`` while ``act`` plays ``s`` on (it gives each next action,
        ``None`` to stop: a game that ended by resignation)."""
        turn, start, hot = -1, start_fields(s), False
        moves: list[str] = []
        while not s.is_terminal():
            if s.turns != turn:
                turn, start, moves, hot = s.turns, start_fields(s), [], False
            if not s.is_chance_node() and s.player in movers and len(s.legal_actions()) >= 2:
                found = self._puzzle(s, start, tuple(moves), hot, game)
                if found is not None:
                    yield found
            action = act(s)
            if action is None:
                return
            moves.append(s.action_to_string(action))
            s.apply_action(action)
            hot = hot or s.hot_dice

    def _puzzle(
        self, s: ThousandState, start: dict[str, Any], moves: tuple[str, ...], hot: bool, game: int
    ) -> Puzzle | None:
        options = self.options(s)
        if max(options.values()) >= 100.0:  # a bank that wins the game now: no puzzle
            return None
        ranked = sorted(options.items(), key=lambda kv: -kv[1])
        margin = ranked[0][1] - ranked[1][1]
        if margin < self.margin:
            return None
        best = ranked[0][0]
        return Puzzle(
            key=position_key(s),
            start=start,
            moves=moves,
            options={k: round(v, 4) for k, v in options.items()},
            best=best,
            margin=round(margin, 4),
            theme=theme(s, hot),
            missed_by=self.missed_by(s, best),
            game=game,
        )


def _header(seed: int, margin: float) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": "thousand",
        "rules": "classic",
        "players": 2,
        "seed": seed,
        "margin": margin,
    }


def read_file(path: Path) -> tuple[dict[str, Any] | None, list[Puzzle]]:
    """The header and puzzles of a puzzle file (``.gz`` read as gzip); an unfinished last line is left out."""
    return read_puzzle_file(path, "thousand", Puzzle.from_json)


def load_puzzles(path: Path | None = None) -> list[Puzzle]:
    """The shipped puzzles (or those of ``path``)."""
    return read_file(path or SHIPPED)[1]


def held_puzzles(path: Path, seed: int, margin: float = MARGIN) -> list[Puzzle]:
    """The puzzles a file to be continued holds (none when it is new); refuses another run's file."""
    return held_in_file(path, "thousand", Puzzle.from_json, seed, margin)


def mine(
    path: Path,
    count: int,
    seed: int = 0,
    margin: float = MARGIN,
    progress: Callable[[int, int], None] | None = None,
    miner: Miner | None = None,
) -> int:
    """Mine until ``path`` holds ``count`` puzzles; continue a file already there. Returns the puzzles held.

    ``progress(puzzles, game)`` is called after each puzzle and each game.
    """
    done = held_puzzles(path, seed, margin)
    if done:
        cut_unfinished(path)
    else:
        path.write_text(json.dumps(_header(seed, margin)) + "\n", encoding="utf-8")
    seen = {p.key for p in done}
    held = len(done)
    game = done[-1].game if done else 0
    if held >= count:
        return held
    miner = miner or Miner(margin)
    with path.open("a", encoding="utf-8") as out:
        while held < count:
            for p in miner.game(seed, game):
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
            game += 1
            if progress:
                progress(held, game)
    return held

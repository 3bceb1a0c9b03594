"""The Der große Wurf game state: supplies, the arena, turns, the big throw, elimination and match scoring."""

from __future__ import annotations

import copy
import dataclasses
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from dicehall.core.errors import IllegalActionError
from dicehall.core.game import CHANCE, TERMINAL, ChanceNotEnumerable, State
from dicehall.i18n.message import Message
from dicehall.wurf import actions as act
from dicehall.wurf.actions import Action, EndTurn, Landed, Outcome, RealThrow, Rearrange, Setup, Throw
from dicehall.wurf.arena.base import ARENA_MM, DIE_MM, RIM_MM, WALL_MM, ArenaModel, DieRest, ThrowParams, X
from dicehall.wurf.layout import centroid, gather_positions, inside, layout_problem, overlap
from dicehall.wurf.rules import TOTAL_DICE, WurfRules
from dicehall.wurf.words import num

SETUP, THROW, CHOICE, ROLLING, OVER = "setup", "throw", "choice", "rolling", "over"
AIM_POWERS = (0.2, 0.5, 0.8)
STAT_KEYS = (
    "throws",
    "dice_thrown",
    "big_throws",
    "dice_left_arena",
    "x_removed",
    "dice_taken",
    "turns",
    "games",
)
"""The statistics a game counts (``stats()`` lists those that happened; the catalogues name each as ``stat.KEY``)."""
REAL_THROW_RULE = "real-throw-typed"
"""The rule named when a real throw's outcome would come from an arena model (or carry model-only data)."""


def arena_model(name: str) -> ArenaModel:
    if name == "physics":
        from dicehall.wurf.arena.physics import PhysicsArena

        return PhysicsArena()
    from dicehall.wurf.arena.fast import FastArena

    return FastArena.default()


@dataclasses.dataclass
class ThrowReport:
    """What the last resolved throw did (for narration and views)."""

    thrower: int
    thrown: int
    big: bool
    left: int = 0  # left the arena or lay on the rim
    cocked: int = 0
    cocked_lost: int = 0  # re-thrown cocked dice that showed X
    x_removed: int = 0
    taken: int = 0
    taken_faces: tuple[int, ...] = ()
    eliminated: bool = False
    turn_over: bool = False


class WurfState(State[Action]):
    game_name = "wurf"

    def __init__(self, rules: WurfRules, num_players: int) -> None:
        self.rules = rules
        self._n = num_players
        self.dice_each = rules.dice_for(num_players)
        self.match_points = [0] * num_players
        self.game_index = 0
        self.games_total = num_players if rules.match else 1
        self.elimination_log: list[list[int]] = []  # per game: seats in order of elimination
        self.stats_counts: Counter[str] = Counter()
        self._model: ArenaModel | None = None
        self.names: list[str] | None = None  # display names for render(); None = "seat 1", ...
        self.resigned = [False] * num_players  # out of this game and, in a match, of every later one
        self._flight: tuple[Outcome, dict[str, Any]] | None = None  # the motion of the outcome just sampled
        self.motion: dict[str, Any] | None = None  # the motion of the throw just resolved (live tables only)
        self._new_game()

    # -- setup --------------------------------------------------------------------------------------------
    def _new_game(self) -> None:
        n = self._n
        self.supply = [self.dice_each] * n
        self.alive = [True] * n
        self.arena: list[DieRest] = []
        self.out_of_game = 0  # dice removed this game (out, rim, X)
        self.starter = self.game_index % n
        self.current = self.starter
        self.phase = SETUP
        self.pending: Throw | RealThrow | None = None
        self.pending_count = 0
        self.big_next = False
        self.rearranged = False
        self.throws_this_turn = 0
        self.last: ThrowReport | None = None
        self.elimination_log.append([])
        if True in self.resigned:
            self._drop_resigned()

    @property
    def num_players(self) -> int:
        return self._n

    def box(self) -> int:
        """Dice in the box, unused this game."""
        return TOTAL_DICE - sum(self.supply) - len(self.arena) - self.out_of_game

    # -- protocol -----------------------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == OVER:
            return TERMINAL
        if self.phase in (SETUP, ROLLING):
            return CHANCE
        return self.current

    def must_big_throw(self) -> bool:
        return self.phase == THROW and self.big_next

    def throw_count(self) -> int:
        """Dice the next throw puts in: one, or the whole supply for the big throw."""
        return self.supply[self.current] if self.big_next else 1

    def legal_actions(self) -> list[Action]:
        if self.phase in (OVER,):
            return []
        if self.phase == SETUP:
            return [Setup(f) for f in range(2, 7)]
        if self.phase == ROLLING:
            raise ChanceNotEnumerable("throw outcomes are drawn by the arena model: use sample_chance")
        out: list[Action] = []
        for row in range(act.CELLS):
            for col in range(act.CELLS):
                x, y = (col + 0.5) * act.CELL_MM, (row + 0.5) * act.CELL_MM
                out.extend(Throw(x, y, p, 0.5) for p in AIM_POWERS)
        if not self.rearranged and len(self.arena) >= 2:
            gather = self.gather_action()
            if gather is not None:
                out.append(gather)
        if self.phase == CHOICE:
            out.append(EndTurn())
        return out

    def gather_action(self, cx: float | None = None, cy: float | None = None) -> Rearrange | None:
        """Push all arena dice into a tight block around (cx, cy) (default: their centroid)."""
        known = [(d.x, d.y) for d in self.arena if d.x is not None and d.y is not None]
        if cx is None or cy is None:
            cx, cy = centroid(known)
        spots = gather_positions(len(self.arena), cx, cy)
        moves = tuple((i, round(x, 1), round(y, 1)) for i, (x, y) in enumerate(spots))
        if all(
            d.x is not None and d.y is not None and abs(d.x - x) < 0.5 and abs(d.y - y) < 0.5 and d.yaw == 0.0
            for d, (_, x, y) in zip(self.arena, moves, strict=True)
        ):
            return None
        return Rearrange(moves)

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        if self.phase == SETUP:
            return [(Setup(f), 1 / 5) for f in range(2, 7)]
        if isinstance(self.pending, RealThrow):
            raise ChanceNotEnumerable("a throw with real dice has no outcome model: its outcome is typed in")
        raise ChanceNotEnumerable("a throw's outcome comes from the arena model and is not enumerable")

    def model(self) -> ArenaModel:
        if self._model is None:
            self._model = arena_model(self.rules.arena)
        return self._model

    def sample_chance(self, rng: np.random.Generator) -> Action:
        if self.phase == SETUP:
            return Setup(int(rng.integers(2, 7)))
        if self.phase != ROLLING or self.pending is None:
            raise IllegalActionError(Message("wurf.refusal.no_throw_pending"), rule="chance")
        t = self.pending
        if isinstance(t, RealThrow):
            raise IllegalActionError(Message("wurf.refusal.real_throw_typed"), rule=REAL_THROW_RULE)
        model = self.model()
        motion = self.live_extras and model.name == "physics"
        result = model.throw(
            self.arena, self.pending_count, ThrowParams(t.x, t.y, t.power, t.spin), rng, record_frames=motion
        )
        dice = []
        for d in result.dice:
            if d.status in ("out", "rim"):
                dice.append(Landed(d.status))
            elif d.status == "cocked":
                # The rules re-throw a cocked die outside the arena; a fair die roll.
                dice.append(Landed("cocked", int(rng.integers(1, 7)), d.x, d.y, d.yaw))
            else:
                dice.append(Landed("arena", d.face, d.x, d.y, d.yaw))
        outcome = Outcome(tuple(dice))
        if motion and result.frames:
            from dicehall.wurf.motion import encode

            self._flight = (outcome, encode(result.frames, result.frame_dt))
        return outcome

    def event_extras(self) -> dict[str, Any] | None:
        """After a physics throw on a live table: ``{"motion": ...}``, the dice's flight (see wurf/motion.py)."""
        return {"motion": self.motion} if self.motion is not None else None

    def apply_action(self, action: Action) -> None:
        if self.phase == OVER:
            raise IllegalActionError(Message("wurf.refusal.game_over"), rule="game-over")
        problem = act.malformed(action)
        if problem is not None:
            raise IllegalActionError(problem, rule="malformed")
        if isinstance(action, Setup):
            self._apply_setup(action)
        elif isinstance(action, Outcome):
            self._apply_outcome(action)
        elif self.phase in (SETUP, ROLLING):
            raise IllegalActionError(Message("wurf.refusal.chance_pending"), rule="chance-pending")
        elif isinstance(action, Throw):
            self._apply_throw(action)
        elif isinstance(action, RealThrow):
            self._start_throw(action)
        elif isinstance(action, Rearrange):
            self._apply_rearrange(action)
        elif isinstance(action, EndTurn):
            if self.phase != CHOICE:
                raise IllegalActionError(Message("wurf.refusal.mandatory_throw"), rule="mandatory-throw")
            self._end_turn()
        else:  # pragma: no cover - typed union
            raise IllegalActionError(
                Message("wurf.notation.not_an_action", action=repr(action)), rule="notation"
            )
        # Applied: the motion sampled with this very outcome goes with its event; any other action drops it.
        flight, self._flight = self._flight, None
        # (compared in notation: a live table applies the outcome as logged, read back from its text)
        same = flight is not None and (
            flight[0] == action or act.to_string(flight[0]) == act.to_string(action)
        )
        self.motion = flight[1] if flight is not None and same else None

    # -- decisions ----------------------------------------------------------------------------------------
    def _apply_setup(self, s: Setup) -> None:
        if self.phase != SETUP:
            raise IllegalActionError(Message("wurf.refusal.setup_once"), rule="setup")
        if s.face == X:
            raise IllegalActionError(Message("wurf.refusal.setup_no_x"), rule="setup-no-x")
        if s.x is not None and s.y is not None and not inside(s.x, s.y):
            raise IllegalActionError(Message("wurf.refusal.setup_inside"), rule="setup")
        self.arena = [DieRest(s.face, s.x, s.y, s.yaw)]
        self.phase = THROW

    def _apply_throw(self, t: Throw) -> None:
        for name, v, lo, hi in (
            ("aim_x", t.x, 0.0, ARENA_MM),
            ("aim_y", t.y, 0.0, ARENA_MM),
            ("power", t.power, 0.0, 1.0),
            ("spin", t.spin, 0.0, 1.0),
        ):
            if not lo <= v <= hi:
                what = Message(f"wurf.refusal.param.{name}")
                raise IllegalActionError(
                    Message("wurf.refusal.throw_range", what=what, lo=num(lo), hi=num(hi), got=num(v, 3)),
                    rule="throw-range",
                )
        self._start_throw(t)

    def _start_throw(self, t: Throw | RealThrow) -> None:
        self.pending = t
        self.pending_count = self.throw_count()
        self.phase = ROLLING

    def _apply_rearrange(self, r: Rearrange) -> None:
        if self.rearranged:
            raise IllegalActionError(Message("wurf.refusal.rearrange_once"), rule="rearrange-once")
        seen: set[int] = set()
        for i, x, y in r.moves:
            if not 0 <= i < len(self.arena):
                raise IllegalActionError(Message("wurf.refusal.no_die", i=i), rule="rearrange")
            if i in seen:
                raise IllegalActionError(Message("wurf.refusal.moved_twice", i=i), rule="rearrange")
            seen.add(i)
            if not inside(x, y):
                raise IllegalActionError(
                    Message("wurf.refusal.not_inside", i=i, x=num(x), y=num(y)), rule="rearrange-inside"
                )
        new = list(self.arena)
        for i, x, y in r.moves:
            # Moved dice are set square to the walls; their face never changes.
            new[i] = DieRest(new[i].face, x, y, 0.0)
        placed = [(k, d) for k, d in enumerate(new) if d.x is not None and d.y is not None]
        for a in range(len(placed)):
            for b in range(a + 1, len(placed)):
                (ia, da), (ib, db) = placed[a], placed[b]
                if ia not in seen and ib not in seen:
                    continue
                assert da.x is not None and da.y is not None and db.x is not None and db.y is not None
                if overlap((da.x, da.y, da.yaw), (db.x, db.y, db.yaw)):
                    raise IllegalActionError(
                        Message("wurf.refusal.no_stacking", a=ia, b=ib), rule="rearrange-no-stacking"
                    )
        self.arena = new
        self.rearranged = True

    # -- resolution ---------------------------------------------------------------------------------------
    def _check_outcome(self, o: Outcome) -> None:
        if self.phase != ROLLING:
            raise IllegalActionError(Message("wurf.refusal.no_throw_pending"), rule="chance")
        want = len(self.arena) + self.pending_count
        if len(o.dice) != want:
            raise IllegalActionError(
                Message(
                    "wurf.refusal.outcome_count",
                    n=want,
                    arena=len(self.arena),
                    thrown=self.pending_count,
                    got=len(o.dice),
                ),
                rule="outcome-count",
            )
        real = isinstance(self.pending, RealThrow)
        for k, d in enumerate(o.dice):
            if real and d.x is not None:
                raise IllegalActionError(
                    Message("wurf.refusal.real_positions", k=k + 1), rule=REAL_THROW_RULE
                )
            if d.status not in ("arena", "out", "rim", "cocked"):
                raise IllegalActionError(
                    Message("wurf.notation.unknown_status", k=k + 1, status=repr(d.status)), rule="outcome"
                )
            if d.status in ("arena", "cocked") and not 1 <= d.face <= 6:
                raise IllegalActionError(Message("wurf.refusal.outcome_face", k=k + 1), rule="outcome")
        problem = layout_problem(
            [
                (d.x, d.y, d.yaw)
                if d.status in ("arena", "cocked") and d.x is not None and d.y is not None
                else None
                for d in o.dice
            ]
        )
        if problem is not None:
            kind, why = problem
            raise IllegalActionError(
                Message("wurf.refusal.impossible_layout", why=why), rule=f"outcome-{kind}"
            )

    def _apply_outcome(self, o: Outcome) -> None:
        self._check_outcome(o)
        seat = self.current
        rep = ThrowReport(seat, self.pending_count, self.big_next)
        self.supply[seat] -= self.pending_count
        self.stats_counts["throws"] += 1
        self.stats_counts["dice_thrown"] += self.pending_count
        if self.big_next:
            self.stats_counts["big_throws"] += 1
        # 1. dice out of the arena or on the rim; 2. cocked dice re-thrown (X → out); 3. X removed.
        remaining: list[DieRest] = []
        for d in o.dice:
            if d.status in ("out", "rim"):
                rep.left += 1
                continue
            if d.status == "cocked":
                rep.cocked += 1
                if d.face == X:
                    rep.cocked_lost += 1
                    continue
            if d.face == X:
                rep.x_removed += 1
                continue
            remaining.append(DieRest(d.face, d.x, d.y, d.yaw))
        self.out_of_game += rep.left + rep.cocked_lost + rep.x_removed
        # 4. every repeated number is taken by the thrower.
        counts = Counter(d.face for d in remaining)
        repeated = {f for f, c in counts.items() if c >= 2}
        if repeated:
            rep.taken_faces = tuple(sorted(repeated))
            rep.taken = sum(counts[f] for f in repeated)
            remaining = [d for d in remaining if d.face not in repeated]
            self.supply[seat] += rep.taken
        self.arena = remaining
        self.pending = None
        self.pending_count = 0
        self.big_next = False
        self.rearranged = False
        self.throws_this_turn += 1
        self.last = rep
        for key, v in (("dice_left_arena", rep.left), ("x_removed", rep.x_removed + rep.cocked_lost)):
            self.stats_counts[key] += v
        self.stats_counts["dice_taken"] += rep.taken
        if self.supply[seat] == 0:
            rep.eliminated = True
            rep.turn_over = True
            self._eliminate(seat)
            if self.phase != OVER and self.phase != SETUP:
                self._end_turn()
        elif repeated:
            rep.turn_over = True
            self._end_turn()
        else:
            self.phase = CHOICE

    def _eliminate(self, seat: int) -> None:
        self.alive[seat] = False
        remaining = sum(self.alive)
        self.match_points[seat] += remaining
        self.elimination_log[-1].append(seat)
        if remaining <= 1:
            winner = self.alive.index(True)
            self.elimination_log[-1].append(winner)
            self.game_index += 1
            self.stats_counts["games"] += 1
            if self.game_index >= self.games_total:
                self.phase = OVER
            else:
                ending = self.last
                self._new_game()
                self.last = ending  # the throw that ended a match game stays reportable until the next throw

    # -- resigning ----------------------------------------------------------------------------------------
    def seats_in(self) -> list[int]:
        return [i for i in range(self._n) if self.alive[i] and not self.resigned[i]]

    def resign(self, seat: int) -> None:
        """``seat`` is eliminated now: its supply leaves the game (the arena's dice stay), a throw of its own
        still pending is dropped, and in a match it is eliminated again at the start of each later game
        (docs/wurf.md, "Resigning")."""
        seat = self.check_resign(seat)
        self.resigned[seat] = True
        self._flight = None
        self._resign_now(seat)

    def _resign_now(self, seat: int) -> None:
        its_turn = self.current == seat and self.phase in (THROW, CHOICE, ROLLING)
        if its_turn:
            self.pending = None
            self.pending_count = 0
        self.out_of_game += self.supply[seat]
        self.supply[seat] = 0
        game = self.game_index
        self._eliminate(seat)
        if self.game_index != game or self.phase == OVER:
            return  # the game ended (and the next one, if any, has started without the seat)
        if its_turn:
            self._end_turn()
        elif self.current == seat:  # the setup roll: the next seat in starts
            self.current = self._next_alive(seat)

    def _drop_resigned(self) -> None:
        """At the start of a match game: the seats that resigned are eliminated at once."""
        game = self.game_index
        for seat in range(self._n):
            if self.resigned[seat] and self.alive[seat]:
                self._resign_now(seat)
                if self.game_index != game:
                    return

    def _next_alive(self, seat: int) -> int:
        nxt = seat
        for _ in range(self._n):
            nxt = (nxt + 1) % self._n
            if self.alive[nxt]:
                break
        return nxt

    def _end_turn(self) -> None:
        self.stats_counts["turns"] += 1
        self.big_next = not self.arena
        self.rearranged = False
        self.throws_this_turn = 0
        nxt = self.current
        for _ in range(self._n):
            nxt = (nxt + 1) % self._n
            if self.alive[nxt]:
                break
        self.current = nxt
        self.phase = THROW

    # -- results ------------------------------------------------------------------------------------------
    def clone(self) -> WurfState:
        new = copy.copy(self)
        new.supply = list(self.supply)
        new.alive = list(self.alive)
        new.arena = list(self.arena)
        new.match_points = list(self.match_points)
        new.elimination_log = [list(g) for g in self.elimination_log]
        new.stats_counts = Counter(self.stats_counts)
        new.resigned = list(self.resigned)
        return new

    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0] * self._n
        if self.rules.match:
            contenders = [i for i in range(self._n) if not self.resigned[i]] or list(range(self._n))
            best = min(self.match_points[i] for i in contenders)
            winners = [i for i in contenders if self.match_points[i] == best]
        else:
            winners = [self.alive.index(True)]
        return [1.0 / len(winners) if i in winners else 0.0 for i in range(self._n)]

    def scores(self) -> list[float]:
        if self.rules.match:
            return [float(p) for p in self.match_points]
        return [float(s) for s in self.supply]

    def stats(self) -> dict[str, float]:
        return {k: float(v) for k, v in self.stats_counts.items()}

    def action_to_string(self, action: Action) -> str:
        return act.to_string(action)

    def string_to_action(self, text: str) -> Action:
        return act.from_string(text)

    # -- views --------------------------------------------------------------------------------------------
    def set_names(self, names: Sequence[str]) -> None:
        self.names = list(names)

    def public_view(self, viewer: int | None = None) -> dict[str, Any]:
        # nothing is hidden: every viewer sees the same
        cp = self.current_player()
        legal = [] if cp in (CHANCE, TERMINAL) else [self.action_to_string(a) for a in self.legal_actions()]
        last = dataclasses.asdict(self.last) if self.last else None
        return {
            "game": "wurf",
            "current_player": "chance" if cp == CHANCE else (None if cp == TERMINAL else cp),
            "phase": self.phase,
            "legal_actions": legal,
            "terminal": self.is_terminal(),
            "scores": self.scores(),
            "winners": self.winners() if self.is_terminal() else [],
            "arena_mm": ARENA_MM,
            # The box as the arena models build it, so a 3D view draws the same walls, rim and dice.
            "geometry": {"floor_mm": ARENA_MM, "wall_mm": WALL_MM, "rim_mm": RIM_MM, "die_mm": DIE_MM},
            "arena": [
                {"index": i, "face": act.face_name(d.face), "x": d.x, "y": d.y, "yaw": d.yaw}
                for i, d in enumerate(self.arena)
            ],
            "supplies": list(self.supply),
            "alive": list(self.alive),
            "resigned": list(self.resigned),
            "out_of_game": self.out_of_game,
            "box": self.box(),
            "big_throw_next": self.big_next,
            "dice_next_throw": self.throw_count() if self.phase in (THROW, CHOICE) else 0,
            "rearranged": self.rearranged,
            "pending_throw": self.action_to_string(self.pending) if self.pending else None,
            "pending_dice": self.pending_count,
            "last_throw": last,
            "match": {
                "enabled": self.rules.match,
                "game": min(self.game_index + 1, self.games_total),
                "games": self.games_total,
                "points": list(self.match_points),
                "eliminations": [list(g) for g in self.elimination_log],
            },
            "arena_model": self.rules.arena,
        }

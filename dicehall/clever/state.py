"""The Ganz schön clever engine: one mutable position of a 1–4 player (or solo) game.

Actions are small ints (see :mod:`dicehall.clever.actions`); every dice roll is a chance action, every decision —
picks, re-rolls, forfeits, +1, bonus crosses, the round-4 choice — is a player action. Sheets are bitmasks and
counters; the tables come from :mod:`dicehall.clever.sheet`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Self

import numpy as np

from dicehall.clever import actions as A
from dicehall.clever import sheet as S
from dicehall.clever import words as W
from dicehall.clever.rules import CleverRules
from dicehall.clever.tables import (
    B_BY_SUM,
    B_CELL_GROUPS,
    B_POINTS,
    B_VALUES,
    G_BONUS,
    G_MIN,
    G_ORIGIN,
    G_POINTS,
    O_BONUS,
    O_MULT,
    O_ORIGIN,
    P_BONUS,
    P_ORIGIN,
    ROUND_ORIGIN,
    Y_BY_VALUE,
    Y_CELL_GROUPS,
    Y_COL_POINTS,
    Y_PRINTED,
    Y_VALUES,
    Origin,
    blue_label,
    popcount,
    yellow_label,
)
from dicehall.core.errors import IllegalActionError, NotationError
from dicehall.core.game import CHANCE, TERMINAL, State
from dicehall.i18n.message import Message as M

TRACK = 11  # cells of green, orange, purple

# Phases of the turn.
PH_ROLL = 1  # chance: the active player rolls the dice in ``roll_mask``
PH_PICK = 2  # the active player picks a rolled die (or re-rolls / forfeits)
PH_PLUS = 3  # ``actor`` may use +1 actions (active, passive or end of game)
PH_PASSIVE_ROLL = 4  # chance, solo only: six dice, the three lowest to the platter
PH_PASSIVE_PICK = 5  # ``actor`` (passive) may take a platter die
PH_OVER = 6
# A simultaneous branch (simultaneous_branch) whose seat has made its choices: it waits for the group's other seats.
# The table's own position never is in it: without it the last seat's branch would go on into the next phase (the
# end-of-game +1 after the last turn, a round's bonuses) on sheets of the others that are not theirs yet.
PH_WAIT = 7

# What a +1 phase leads to.
AFTER_ACTIVE, AFTER_PASSIVE, AFTER_END = 0, 1, 2


class Sheet:
    """One player's score sheet: bitmasks for the grids, counters and values for the tracks, action bars."""

    __slots__ = (
        "bmask",
        "foxes",
        "gcount",
        "osum",
        "ovals",
        "p1_gain",
        "p1_used",
        "plast",
        "psum",
        "pvals",
        "rr_gain",
        "rr_used",
        "ymask",
    )

    def __init__(self) -> None:
        self.ymask = Y_PRINTED
        self.bmask = 0
        self.gcount = 0
        self.ovals: tuple[int, ...] = ()
        self.osum = 0
        self.pvals: tuple[int, ...] = ()
        self.plast = 0
        self.psum = 0
        self.rr_gain = 0
        self.rr_used = 0
        self.p1_gain = 0
        self.p1_used = 0
        self.foxes = 0

    def copy(self) -> Sheet:
        new = Sheet.__new__(Sheet)
        new.ymask = self.ymask
        new.bmask = self.bmask
        new.gcount = self.gcount
        new.ovals = self.ovals
        new.osum = self.osum
        new.pvals = self.pvals
        new.plast = self.plast
        new.psum = self.psum
        new.rr_gain = self.rr_gain
        new.rr_used = self.rr_used
        new.p1_gain = self.p1_gain
        new.p1_used = self.p1_used
        new.foxes = self.foxes
        return new

    @property
    def rerolls(self) -> int:
        return self.rr_gain - self.rr_used

    @property
    def plus_ones(self) -> int:
        return self.p1_gain - self.p1_used

    def area_scores(self) -> list[int]:
        ym = self.ymask
        yellow = 0
        for mask, pts in Y_COL_POINTS:
            if ym & mask == mask:
                yellow += pts
        blue = B_POINTS[popcount(self.bmask)]
        green = G_POINTS[self.gcount]
        return [yellow, blue, green, self.osum, self.psum]

    def fox_points(self) -> int:
        return self.foxes * min(self.area_scores())

    def total(self) -> int:
        areas = self.area_scores()
        return sum(areas) + self.foxes * min(areas)


class PhaseStart(NamedTuple):
    """A simultaneous phase as it opened: its seats in the game's order, every sheet and every seat's +1 dice."""

    seats: tuple[int, ...]
    sheets: tuple[Sheet, ...]
    plus_used: tuple[int, ...]


class CleverState(State[int]):
    game_name = "clever"

    __slots__ = (
        "_legal",
        "active",
        "actor",
        "after",
        "branch",
        "choice_pending",
        "field",
        "log",
        "n",
        "passive_order",
        "phase",
        "phase_moved",
        "phase_start",
        "platter",
        "plus_used",
        "queue",
        "resigned",
        "roll_mask",
        "rolls",
        "round",
        "rounds",
        "rules",
        "sheets",
        "values",
    )

    def __init__(self, rules: CleverRules, num_players: int) -> None:
        self.rules = rules
        self.n = num_players
        self.rounds = rules.rounds or S.ROUNDS_BY_PLAYERS[num_players]
        self.sheets = [Sheet() for _ in range(num_players)]
        self.round = 1
        self.active = 0
        self.phase = PH_ROLL
        self.actor = 0
        self.after = AFTER_ACTIVE
        self.values = [0, 0, 0, 0, 0, 0]
        self.roll_mask = 0
        self.field: tuple[int, ...] = ()
        self.platter = 0
        self.rolls = 0
        self.plus_used = [0] * num_players
        self.passive_order: tuple[int, ...] = ()
        # The sheets and +1 dice as the open simultaneous phase found them (None outside one): what the others see
        # of a seat of the phase until all have chosen (rulebook: passive players choose without seeing each other).
        self.phase_start: PhaseStart | None = None
        self.phase_moved = 0  # the seats (bits) that have made a move in it
        # pending bonuses (player, kind, where the bonus is printed), oldest first
        self.queue: list[tuple[int, int, Origin]] = []
        self.choice_pending = False
        # the last action's bonuses: (player, bonus kind, 1 applied / 0 lost, origin)
        self.log: list[tuple[int, int, int, Origin]] = []
        self._legal: list[int] | None = None
        # seats that gave the game up: with 3 or 4 seats a bot plays them on, and they cannot win
        self.resigned = [False] * num_players
        self.branch = False  # a simultaneous branch: it stops (PH_WAIT) where its group's phase ends
        self._start_round()

    # -- protocol ------------------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.n

    def current_player(self) -> int:
        if self.choice_pending:
            return self.queue[0][0]
        ph = self.phase
        if ph in (PH_ROLL, PH_PASSIVE_ROLL):
            return CHANCE
        if ph == PH_PICK:
            return self.active
        if ph == PH_OVER:
            return TERMINAL
        if ph == PH_WAIT:
            return CHANCE  # (nobody chooses on a finished branch; the table's position goes on)
        return self.actor

    def roller(self) -> int | None:
        """The active player throws every roll (in solo also the passive roll)."""
        return self.active if self.phase in (PH_ROLL, PH_PASSIVE_ROLL) and not self.choice_pending else None

    # A passive player takes a platter die (or passes), resolves the bonuses it fires and may use +1: all of it on
    # their own sheet, with dice nobody changes meanwhile. So the passive players (and, after the last turn,
    # everybody's last +1) choose at the same time, and the record lists them in the usual order.
    def simultaneous_seats(self) -> tuple[int, ...]:
        if self._simultaneous_step() is None:
            return ()
        group = (self.actor, *self.passive_order)
        return group if len(group) > 1 else ()

    def simultaneous_branch(self, seat: int) -> Self:
        """A copy in which ``seat`` chooses now, the passive players before it skipped (their choices touch only
        their own sheets)."""
        group = self.simultaneous_seats()
        if seat not in group:
            now = list(group) or [self.current_player()]
            raise IllegalActionError(
                f"seat {seat} does not choose now (seats choosing now: {now})", rule="turn-order"
            )
        new = self.clone()
        new.branch = True
        if seat == group[0]:
            return new
        step = self._simultaneous_step()
        new.queue = []  # bonuses pending now belong to the first seat's choice
        new.choice_pending = False
        new.log = []
        new._legal = None
        new.passive_order = group[group.index(seat) :]
        if step == AFTER_PASSIVE:
            new._next_passive()
        else:
            new._next_end_plus()
        new._legal = None
        return new

    def _simultaneous_step(self) -> int | None:
        """``AFTER_PASSIVE`` in the passive phase, ``AFTER_END`` in the end-of-game +1 step, else ``None``."""
        if self.n < 2:
            return None
        if self.phase == PH_PASSIVE_PICK:
            return AFTER_PASSIVE
        if self.phase == PH_PLUS and self.after in (AFTER_PASSIVE, AFTER_END):
            return self.after
        return None

    def _open_phase(self) -> None:
        """Remember the sheets as the seats of ``passive_order`` start choosing at once (one seat alone hides
        nothing)."""
        seats = self.passive_order
        self.phase_moved = 0
        self.phase_start = (
            PhaseStart(seats, tuple(s.copy() for s in self.sheets), tuple(self.plus_used))
            if len(seats) > 1
            else None
        )

    def hidden_from(self, viewer: int | None) -> tuple[int, ...]:
        """The seats whose choices in the open simultaneous phase ``viewer`` (a seat; None: a spectator) may not see
        yet: every seat of the phase but its own. Once all have chosen the phase closes and everything shows."""
        start = self.phase_start
        return () if start is None else tuple(s for s in start.seats if s != viewer)

    def seen_by(self, viewer: int | None) -> Self:
        """The position as ``viewer`` may see it: the sheets and +1 dice of :meth:`hidden_from` as the phase found
        them, their bonuses of the last move left out, and a hidden seat that has begun choosing shown at the
        phase's first step. ``self`` when nothing is hidden. To show, or to weigh the viewer's own choice on (as
        the web's branches do); never to play on."""
        hidden = self.hidden_from(viewer)
        start = self.phase_start
        if start is None or not any(self.began_choosing(p) for p in hidden):
            return self  # (as the phase found them)
        new = self.clone()
        for p in hidden:
            new.sheets[p] = start.sheets[p].copy()
            new.plus_used[p] = start.plus_used[p]
        new.log = [e for e in self.log if e[0] not in hidden]
        mover = self.current_player()
        if mover in hidden and self.began_choosing(mover):
            new.queue = []
            new.choice_pending = False
            new.phase = PH_PLUS if self.after == AFTER_END else PH_PASSIVE_PICK
            new.actor = mover
        new._legal = None
        return new

    def began_choosing(self, p: int) -> bool:
        """Whether seat ``p`` has chosen anything in the open simultaneous phase."""
        start = self.phase_start
        return start is not None and p in start.seats and bool(self.phase_moved >> p & 1)

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def _compute_legal(self) -> list[int]:
        if self.choice_pending:
            player, kind, _ = self.queue[0]
            return self._bonus_options(player, kind)
        ph = self.phase
        if ph == PH_PICK:
            out = self._entries(self.active, self.roll_mask, A.K_ENTRY)
            if self.sheets[self.active].rerolls > 0:
                out.append(A.REROLL)
            if not out or out == [A.REROLL]:
                out.append(A.FORFEIT)
            return out
        if ph == PH_PLUS:
            p = self.actor
            out = self._entries(p, 0b111111 & ~self.plus_used[p], A.K_PLUS)
            out.append(A.STOP)
            return out
        if ph == PH_PASSIVE_PICK:
            out = self._passive_entries(self.actor)
            out.append(A.PASS)
            return out
        if ph == PH_ROLL:
            return self._roll_outcomes()
        if ph == PH_PASSIVE_ROLL:
            return [o for o, _ in self._solo_passive_outcomes()]
        return []

    def _solo_passive_outcomes(self) -> list[tuple[int, float]]:
        """Every solo passive roll with each way its ties can put three dice on the platter (equally likely)."""
        import itertools

        out: list[tuple[int, float]] = []
        p_values = 1.0 / 6**6
        for vals in itertools.product(range(1, 7), repeat=6):
            code = A.CHANCE_FLAG
            for d in range(6):
                code |= vals[d] << (3 * d)
            third = sorted(vals)[2]
            below = [d for d in range(6) if vals[d] < third]
            tied = [d for d in range(6) if vals[d] == third]
            sets = list(itertools.combinations(tied, 3 - len(below)))
            for chosen in sets:
                plat = 0
                for d in (*below, *chosen):
                    plat |= 1 << (18 + d)
                out.append((code | plat, p_values / len(sets)))
        return out

    def _roll_outcomes(self) -> list[int]:
        outs = [A.CHANCE_FLAG]
        for d in range(6):
            if self.roll_mask >> d & 1:
                outs = [o | (v << (3 * d)) for o in outs for v in range(1, 7)]
        return outs

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        if self.choice_pending:
            return super().chance_outcomes()
        if self.phase == PH_ROLL:
            outs = self._roll_outcomes()
            p = 1.0 / len(outs)
            return [(o, p) for o in outs]
        if self.phase == PH_PASSIVE_ROLL:
            return self._solo_passive_outcomes()
        return super().chance_outcomes()

    def sample_chance(self, rng: np.random.Generator) -> int:
        if self.choice_pending:  # a bonus cross is to be chosen before the dice roll
            raise IllegalActionError(M("clever.refusal.no_roll_now"), rule="chance")
        if self.phase == PH_ROLL:
            mask = self.roll_mask
            vals = rng.integers(1, 7, size=6).tolist()
            code = A.CHANCE_FLAG
            for d in range(6):
                if mask >> d & 1:
                    code |= vals[d] << (3 * d)
            return code
        if self.phase == PH_PASSIVE_ROLL:
            vals = rng.integers(1, 7, size=6).tolist()
            keys = rng.random(6).tolist()
            order = sorted(range(6), key=lambda d: (vals[d], keys[d]))  # ties broken uniformly at random
            code = A.CHANCE_FLAG
            for d in range(6):
                code |= vals[d] << (3 * d)
            for d in order[:3]:
                code |= 1 << (18 + d)
            return code
        raise IllegalActionError(M("clever.refusal.no_roll_now"), rule="chance")

    def apply_action(self, action: int) -> None:
        if self.phase == PH_OVER:
            raise IllegalActionError(M("refusal.game_over"), rule="game-over")
        if self.phase == PH_WAIT:
            raise IllegalActionError(M("clever.refusal.chosen_already"), rule="turn-order")
        if not isinstance(action, int) or isinstance(action, bool) or action < 0:
            raise IllegalActionError(M("clever.refusal.not_a_code", move=repr(action)), rule="legal-actions")
        if self.current_player() == CHANCE:
            self._check_chance(action)
        elif action not in self.legal_actions():
            raise IllegalActionError(self._why_illegal(action), rule=self._rule_of(action))
        if self.phase_start is not None and action < A.CHANCE_FLAG:
            self.phase_moved |= 1 << self.current_player()
        self.log = []
        self._legal = None
        self._apply(action)
        self._legal = None

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.rules = self.rules
        new.n = self.n
        new.rounds = self.rounds
        new.sheets = [s.copy() for s in self.sheets]
        new.round = self.round
        new.active = self.active
        new.phase = self.phase
        new.actor = self.actor
        new.after = self.after
        new.values = self.values[:]
        new.roll_mask = self.roll_mask
        new.field = self.field
        new.platter = self.platter
        new.rolls = self.rolls
        new.plus_used = self.plus_used[:]
        new.passive_order = self.passive_order
        new.phase_start = self.phase_start  # never changed in place: shared
        new.phase_moved = self.phase_moved
        new.queue = self.queue[:]
        new.choice_pending = self.choice_pending
        new.log = self.log[:]  # the last action's bonuses: the public view shows them
        new._legal = self._legal
        new.resigned = self.resigned[:]
        new.branch = self.branch
        return new

    def scores(self) -> list[float]:
        return [float(s.total()) for s in self.sheets]

    def returns(self) -> list[float]:
        if self.phase != PH_OVER:
            return [0.0] * self.n
        win = self.winner_seats()
        return [1.0 / len(win) if i in win else 0.0 for i in range(self.n)]

    def winner_seats(self) -> list[int]:
        """Highest total; tie → highest single area; still tied → all of them share. A seat that resigned
        never wins (none does when the only seat resigned)."""
        seats = self.seats_in()
        if not seats:
            return []
        keys = {i: (self.sheets[i].total(), max(self.sheets[i].area_scores())) for i in seats}
        best = max(keys.values())
        return [i for i in seats if keys[i] == best]

    # -- resigning -----------------------------------------------------------------------------------------
    plays_on_after_resign = True

    def seats_in(self) -> list[int]:
        return [i for i in range(self.n) if not self.resigned[i]]

    def resign(self, seat: int) -> None:
        """``seat`` gives up. Alone: the game is over and the score stands (no rating); when one seat is left
        in, it wins now; otherwise the game goes on and whoever plays the seat (a bot, on a web table) plays
        it on, never among the winners (docs/clever.md, "Resigning")."""
        seat = self.check_resign(seat)
        self.resigned[seat] = True
        if len(self.seats_in()) > 1:
            return
        self.phase = PH_OVER
        self.actor = -1
        self.queue = []
        self.choice_pending = False
        self.passive_order = ()
        self.log = []
        self._legal = None

    def stats(self) -> dict[str, float]:
        out: dict[str, float] = {}
        n = self.n
        for i, name in enumerate(S.AREA_NAMES):
            out[name] = sum(s.area_scores()[i] for s in self.sheets) / n
        out["foxes"] = sum(s.foxes for s in self.sheets) / n
        out["fox_points"] = sum(s.fox_points() for s in self.sheets) / n
        out["total"] = sum(s.total() for s in self.sheets) / n
        out["rerolls_left"] = sum(s.rerolls for s in self.sheets) / n
        out["plus_ones_left"] = sum(s.plus_ones for s in self.sheets) / n
        return out

    def action_to_string(self, action: int) -> str:
        return A.to_string(action)

    def string_to_action(self, text: str) -> int:
        if not isinstance(text, str):
            raise NotationError(
                M("clever.notation.not_text", examples=A.NOTATION_EXAMPLES, type=type(text).__name__)
            )
        code = A.from_string(text)
        if code is None:
            raise NotationError(
                M("clever.notation.cannot_read", text=repr(text), examples=A.NOTATION_EXAMPLES)
            )
        return code

    # -- legality helpers -----------------------------------------------------------------------------------
    def _entries(self, p: int, dmask: int, kind: int) -> list[int]:
        """Every way to enter a die of ``dmask`` on player ``p``'s sheet, as actions of ``kind``."""
        sh = self.sheets[p]
        v = self.values
        out: list[int] = []
        base = kind << 12
        ym = sh.ymask
        bm = sh.bmask
        gc = sh.gcount
        pc = len(sh.pvals)
        plast = sh.plast
        ocount = len(sh.ovals)
        bslot = B_BY_SUM[v[0] + v[2]]
        for d in range(6):
            if not dmask >> d & 1:
                continue
            val = v[d]
            code = base | (d << 8)
            if d <= 1:  # white or yellow
                for cell in Y_BY_VALUE[val]:
                    if not ym >> cell & 1:
                        out.append(code | cell)
            if (d == 0 or d == 2) and bslot >= 0 and not bm >> bslot & 1:
                out.append(code | (1 << 5) | bslot)
            if (d == 0 or d == 3) and gc < TRACK and val >= G_MIN[gc]:
                out.append(code | (2 << 5))
            if (d == 0 or d == 4) and ocount < TRACK:
                out.append(code | (3 << 5))
            if (d == 0 or d == 5) and pc < TRACK and (pc == 0 or plast == 6 or val > plast):
                out.append(code | (4 << 5))
        return out

    def _passive_entries(self, p: int) -> list[int]:
        out = self._entries(p, self.platter, A.K_ENTRY)
        if not out and self.n > 1 and self.rules.passive_fallback:
            fmask = 0
            for d in self.field:
                fmask |= 1 << d
            out = self._entries(p, fmask, A.K_ENTRY)
        return out

    def _bonus_options(self, p: int, kind: int) -> list[int]:
        sh = self.sheets[p]
        if kind == S.YELLOW_X:
            return [A.K_CHOOSE << 12 | c for c in range(16) if not sh.ymask >> c & 1]
        if kind == S.BLUE_X:
            return [A.K_CHOOSE << 12 | 1 << 5 | c for c in range(1, 12) if not sh.bmask >> c & 1]
        # the round-4 choice: black X (yellow, blue, next green) or black 6 (next orange or purple)
        base = A.K_BLACK << 12
        out = [base | c for c in range(16) if not sh.ymask >> c & 1]
        out += [base | 1 << 5 | c for c in range(1, 12) if not sh.bmask >> c & 1]
        if sh.gcount < TRACK:
            out.append(base | 2 << 5)
        if len(sh.ovals) < TRACK:
            out.append(base | 3 << 5)
        if len(sh.pvals) < TRACK:
            out.append(base | 4 << 5)
        return out

    def _check_chance(self, code: int) -> None:
        if not isinstance(code, int) or not code & A.CHANCE_FLAG:
            raise IllegalActionError(M("clever.refusal.roll_expected"), rule="chance")
        if code >> 25:  # bits above the chance flag: no outcome (its notation would name another code)
            raise IllegalActionError(M("clever.refusal.not_a_code", move=repr(code)), rule="chance")
        vals = A.chance_values(code)
        platter = A.chance_platter(code)
        want = self.roll_mask if self.phase == PH_ROLL else 0b111111
        for d in range(6):
            rolled = want >> d & 1
            if rolled and not 1 <= vals[d] <= 6:
                raise IllegalActionError(M("clever.refusal.die_value", die=W.die(d)), rule="roll-dice")
            if not rolled and vals[d] != 0:
                raise IllegalActionError(
                    M("clever.refusal.die_not_rolled", die=W.die(d)),
                    rule="roll-dice",
                )
        if self.phase == PH_PASSIVE_ROLL:
            chosen = [d for d in range(6) if platter >> d & 1]
            rest = [d for d in range(6) if not platter >> d & 1]
            if len(chosen) != 3 or max(vals[d] for d in chosen) > min(vals[d] for d in rest):
                raise IllegalActionError(M("clever.refusal.solo_platter"), rule="solo-platter")
        elif platter:
            raise IllegalActionError(M("clever.refusal.platter_named"), rule="roll-dice")

    def why_illegal(self, action: int) -> M:
        """Why ``action`` is refused now: the message :meth:`apply_action` raises (call it for an illegal one)."""
        return self._why_illegal(action)

    def _why_illegal(self, action: int) -> M:
        text = A.to_string(action) if A.is_valid_code(action) else repr(action)
        who = self.current_player()
        if who == TERMINAL:
            return M("refusal.game_over")
        if action & A.CHANCE_FLAG:
            return M("clever.refusal.outcome_chosen", move=repr(text))
        if not A.is_valid_code(action) or action >= A.CHANCE_FLAG:
            return M("clever.refusal.not_a_move", move=repr(text))
        kind = A.kind_of(action)
        if self.choice_pending:
            bonus = self.queue[0][1]
            return M("clever.refusal.bonus_first", move=repr(text), bonus=W.bonus(bonus))
        if kind == A.K_REROLL:
            if self.phase != PH_PICK:
                return M("clever.refusal.reroll_when")
            return M("clever.refusal.no_reroll")
        if kind == A.K_FORFEIT:
            return M("clever.refusal.forfeit")
        if kind == A.K_PLUS:
            if self.phase != PH_PLUS:
                return M("clever.refusal.plus_when")
            d = A.die_of(action)
            if self.plus_used[self.actor] >> d & 1:
                return M("clever.refusal.plus_taken", die=W.die(d))
            return M(
                "clever.refusal.move_reason", move=repr(text), reason=self._entry_problem(self.actor, action)
            )
        if kind == A.K_ENTRY:
            d = A.die_of(action)
            if self.phase == PH_PICK and not self.roll_mask >> d & 1:
                return M("clever.refusal.not_just_rolled", die=W.die(d))
            if self.phase == PH_PASSIVE_PICK:
                if self.platter >> d & 1:
                    return M(
                        "clever.refusal.move_reason",
                        move=repr(text),
                        reason=self._entry_problem(self.actor, action),
                    )
                if not (self.n > 1 and self.rules.passive_fallback):
                    return M("clever.refusal.not_for_passive", die=W.die(d))
                if self._entries(self.actor, self.platter, A.K_ENTRY):
                    return M("clever.refusal.field_die")
                return M(
                    "clever.refusal.move_reason",
                    move=repr(text),
                    reason=self._entry_problem(self.actor, action),
                )
            if self.phase == PH_PICK:
                return M(
                    "clever.refusal.move_reason",
                    move=repr(text),
                    reason=self._entry_problem(self.active, action),
                )
        return M("clever.refusal.not_legal_now", move=repr(text))

    def _entry_problem(self, p: int, action: int) -> M:
        """Why a die cannot be entered where the action says (for error messages)."""
        d, area, cell = A.die_of(action), A.area_of(action), A.cell_of(action)
        if (
            d > 5
            or area > 4
            or (area == S.AREA_YELLOW and cell >= len(Y_VALUES))
            or (area == S.AREA_BLUE and cell >= len(B_VALUES))
        ):
            return M("clever.refusal.no_such_cell")
        sh = self.sheets[p]
        v = self.values[d]
        die_name = W.die_showing(d, v)
        if d != S.WHITE and S.AREA_OF_DIE[d] != area:
            return M("clever.refusal.wrong_area", die=die_name, area=W.area(S.AREA_OF_DIE[d]))
        if area == S.AREA_YELLOW:
            if sh.ymask >> cell & 1:
                return M("clever.refusal.yellow_crossed", cell=yellow_label(cell))
            return M(
                "clever.refusal.yellow_value", cell=yellow_label(cell), need=Y_VALUES[cell], die=die_name
            )
        if area == S.AREA_BLUE:
            total = self.values[S.BLUE] + self.values[S.WHITE]
            if sh.bmask >> cell & 1:
                return M("clever.refusal.blue_crossed", cell=blue_label(cell))
            return M("clever.refusal.blue_value", total=total, cell=blue_label(cell), need=B_VALUES[cell])
        if area == S.AREA_GREEN:
            if sh.gcount >= TRACK:
                return M("clever.refusal.full", area=W.area(S.AREA_GREEN))
            return M("clever.refusal.green_value", need=G_MIN[sh.gcount], die=die_name)
        if area == S.AREA_ORANGE:
            return M("clever.refusal.full", area=W.area(S.AREA_ORANGE))
        if len(sh.pvals) >= TRACK:
            return M("clever.refusal.full", area=W.area(S.AREA_PURPLE))
        return M("clever.refusal.purple_value", last=sh.plast, die=die_name)

    def _rule_of(self, action: int) -> str:
        if action & A.CHANCE_FLAG:
            return "chance"
        kind = A.kind_of(action)
        if self.choice_pending:
            return "bonus-choice"
        if kind == A.K_PLUS:
            return "plus-one"
        if kind == A.K_REROLL:
            return "re-roll"
        if kind == A.K_FORFEIT:
            return "forfeit"
        if kind == A.K_ENTRY and self.phase == PH_PASSIVE_PICK:
            return "passive-fallback" if self.field and self.n > 1 else "passive-pick"
        if kind == A.K_ENTRY:
            return "enter-die"
        return "legal-actions"

    # -- flow -----------------------------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        if action & A.CHANCE_FLAG:
            vals = A.chance_values(action)
            v = self.values
            if self.phase == PH_ROLL:
                m = self.roll_mask
                for d in range(6):
                    if m >> d & 1:
                        v[d] = vals[d]
                self.phase = PH_PICK
            else:  # solo passive roll
                self.values = list(vals)
                self.platter = A.chance_platter(action)
                self.field = ()
                self.plus_used[0] = 0
                self.actor = 0
                self.phase = PH_PASSIVE_PICK
                self._settle_passive()
            return
        kind = action >> 12
        if self.choice_pending:
            player, bonus, origin = self.queue.pop(0)
            self.choice_pending = False
            self.log.append((player, bonus, 1, origin))
            self._place_choice(player, action)
            if self._resolve():
                self._continue()
            return
        if kind == A.K_ENTRY:
            d = (action >> 8) & 7
            if self.phase == PH_PICK:
                val = self.values[d]
                self.roll_mask &= ~(1 << d)
                self.field = (*self.field, d)
                lower = 0
                for e in range(6):
                    if self.roll_mask >> e & 1 and self.values[e] < val:
                        lower |= 1 << e
                self.roll_mask &= ~lower
                self.platter |= lower
                self.rolls += 1
                self._enter(self.active, action)
            else:  # passive pick
                self._enter(self.actor, action)
            if self._resolve():
                self._continue()
        elif kind == A.K_PLUS:
            p = self.actor
            self.sheets[p].p1_used += 1
            self.plus_used[p] |= 1 << ((action >> 8) & 7)
            self._enter(p, action)
            if self._resolve():
                self._continue()
        elif kind == A.K_REROLL:
            self.sheets[self.active].rr_used += 1
            self.phase = PH_ROLL
        elif kind == A.K_FORFEIT:
            self.rolls += 1
            self._after_pick()
        elif kind == A.K_STOP:
            self._end_plus()
        elif kind == A.K_PASS:
            self._open_plus(self.actor, AFTER_PASSIVE)

    def _resolve(self) -> bool:
        """Apply pending bonuses in the order they fired; stop (False) at one that needs the player's choice."""
        q = self.queue
        while q:
            player, bonus, origin = q[0]
            if bonus in (S.YELLOW_X, S.BLUE_X, S.BLACK):
                options = self._bonus_options(player, bonus)
                if not options:
                    q.pop(0)
                    self.log.append((player, bonus, 0, origin))
                    continue
                if len(options) > 1 or not self.rules.auto_single_choice:
                    self.choice_pending = True
                    return False
                q.pop(0)
                self.log.append((player, bonus, 1, origin))
                self._place_choice(player, options[0])
                continue
            q.pop(0)
            self.log.append((player, bonus, 1 if self._apply_bonus(player, bonus) else 0, origin))
        return True

    def _continue(self) -> None:
        ph = self.phase
        if ph == PH_ROLL:  # round bonuses just resolved, the first roll is next
            return
        if ph == PH_PICK:
            self._after_pick()
        elif ph == PH_PLUS:
            self._open_plus(self.actor, self.after)
        elif ph == PH_PASSIVE_PICK:
            self._open_plus(self.actor, AFTER_PASSIVE)

    def _after_pick(self) -> None:
        if self.rolls >= 3 or self.roll_mask == 0:
            self.platter |= self.roll_mask
            self.roll_mask = 0
            self._open_plus(self.active, AFTER_ACTIVE)
        else:
            self.phase = PH_ROLL

    def _open_plus(self, p: int, after: int) -> None:
        """Offer +1 to ``p`` if they have one and a die to use it on; otherwise go on."""
        self.actor = p
        self.after = after
        if self.sheets[p].plus_ones > 0 and self._entries(p, 0b111111 & ~self.plus_used[p], A.K_PLUS):
            self.phase = PH_PLUS
            return
        self._end_plus()

    def _end_plus(self) -> None:
        after = self.after
        if after == AFTER_ACTIVE:
            if self.n == 1:
                self.phase = PH_PASSIVE_ROLL
                return
            self.passive_order = tuple((self.active + k) % self.n for k in range(1, self.n))
            self._open_phase()
            self._next_passive()
        elif after == AFTER_PASSIVE:
            if self.n == 1:
                self._end_turn()
            else:
                self._next_passive()
        else:
            self._next_end_plus()

    def _next_passive(self) -> None:
        if not self.passive_order:
            self._wait() if self.branch else self._end_turn()
            return
        p = self.passive_order[0]
        self.passive_order = self.passive_order[1:]
        self.actor = p
        self.phase = PH_PASSIVE_PICK
        self._settle_passive()

    def _settle_passive(self) -> None:
        """A passive player with nothing to take goes straight to their +1 step."""
        if not self._passive_entries(self.actor):
            self._open_plus(self.actor, AFTER_PASSIVE)

    def _end_turn(self) -> None:
        if self.active + 1 < self.n:
            self.active += 1
            self._start_turn()
        elif self.round < self.rounds:
            self.active = 0
            self.round += 1
            self._start_round()
        else:  # the last turn of the game: the end-of-game +1 step keeps its dice
            self.passive_order = tuple(range(self.n))
            self._open_phase()
            self._next_end_plus()

    def _next_end_plus(self) -> None:
        """After the last turn every player, in seat order, may still use +1 on the last dice."""
        if not self.passive_order:
            if self.branch:
                self._wait()
                return
            self.phase = PH_OVER
            self.actor = -1
            self.phase_start = None
            return
        p = self.passive_order[0]
        self.passive_order = self.passive_order[1:]
        self._open_plus(p, AFTER_END)

    def _wait(self) -> None:
        """The branch's group is done: it stops here (the table commits every seat's choices and goes on)."""
        self.phase = PH_WAIT
        self.actor = -1

    def _start_round(self) -> None:
        bonus = S.ROUND_BONUSES[self.round - 1] if self.round <= len(S.ROUND_BONUSES) else None
        self._start_turn()
        if bonus is not None:
            origin = ROUND_ORIGIN[self.round - 1]
            self.queue.extend((p, bonus, origin) for p in range(self.n))
            if self._resolve():
                self._continue()

    def _start_turn(self) -> None:
        self.phase_start = None
        self.roll_mask = 0b111111
        self.field = ()
        self.platter = 0
        self.rolls = 0
        self.values = [0, 0, 0, 0, 0, 0]
        for i in range(self.n):
            self.plus_used[i] = 0
        self.phase = PH_ROLL

    # -- entering values and bonuses ------------------------------------------------------------------------
    def _enter(self, p: int, action: int) -> None:
        d = (action >> 8) & 7
        area = (action >> 5) & 7
        val = self.values[d]
        if area == 0:
            self._cross_yellow(p, action & 31)
        elif area == 1:
            self._cross_blue(p, action & 31)
        elif area == 2:
            self._cross_green(p)
        elif area == 3:
            self._write_orange(p, val)
        else:
            self._write_purple(p, val)

    def _cross_yellow(self, p: int, cell: int) -> None:
        sh = self.sheets[p]
        sh.ymask |= 1 << cell
        for mask, bonus, origin in Y_CELL_GROUPS[cell]:
            if sh.ymask & mask == mask:
                self.queue.append((p, bonus, origin))

    def _cross_blue(self, p: int, slot: int) -> None:
        sh = self.sheets[p]
        sh.bmask |= 1 << slot
        for mask, bonus, origin in B_CELL_GROUPS[slot]:
            if sh.bmask & mask == mask:
                self.queue.append((p, bonus, origin))

    def _cross_green(self, p: int) -> None:
        sh = self.sheets[p]
        i = sh.gcount
        sh.gcount += 1
        if G_BONUS[i]:
            self.queue.append((p, G_BONUS[i], G_ORIGIN[i]))

    def _write_orange(self, p: int, val: int) -> None:
        sh = self.sheets[p]
        i = len(sh.ovals)
        stored = val * O_MULT[i]
        sh.ovals = (*sh.ovals, stored)
        sh.osum += stored
        if O_BONUS[i]:
            self.queue.append((p, O_BONUS[i], O_ORIGIN[i]))

    def _write_purple(self, p: int, val: int) -> None:
        sh = self.sheets[p]
        i = len(sh.pvals)
        sh.pvals = (*sh.pvals, val)
        sh.plast = val
        sh.psum += val
        if P_BONUS[i]:
            self.queue.append((p, P_BONUS[i], P_ORIGIN[i]))

    def _apply_bonus(self, p: int, bonus: int) -> bool:
        """Apply a bonus that needs no choice; False when it cannot be applied (and is lost)."""
        sh = self.sheets[p]
        if bonus == S.REROLL:
            if sh.rr_gain >= S.ACTION_CIRCLES:
                return False
            sh.rr_gain += 1
        elif bonus == S.PLUS_ONE:
            if sh.p1_gain >= S.ACTION_CIRCLES:
                return False
            sh.p1_gain += 1
        elif bonus == S.FOX:
            sh.foxes += 1
        elif bonus == S.GREEN_X:
            if sh.gcount >= TRACK:
                return False
            self._cross_green(p)
        elif bonus == S.PURPLE_6:
            if len(sh.pvals) >= TRACK:
                return False
            self._write_purple(p, 6)
        else:  # orange 4 / 5 / 6
            if len(sh.ovals) >= TRACK:
                return False
            self._write_orange(p, S.ORANGE_NUMBER[bonus])
        return True

    def _place_choice(self, p: int, action: int) -> None:
        area = (action >> 5) & 7
        cell = action & 31
        if area == 0:
            self._cross_yellow(p, cell)
        elif area == 1:
            self._cross_blue(p, cell)
        elif area == 2:
            self._cross_green(p)
        elif area == 3:
            self._write_orange(p, 6)
        else:
            self._write_purple(p, 6)

    # -- conveniences for front ends and tests --------------------------------------------------------------
    def pending_bonus(self) -> tuple[int, int, Origin] | None:
        """(player, bonus kind, origin) waiting for a choice, if any."""
        return self.queue[0] if self.choice_pending else None

    def bonus_chain(self) -> list[tuple[int, int, Origin]]:
        """The bonus waiting for a choice and, in order, those of the same player queued behind it (empty when
        none waits); other players' bonuses wait for their own turn to choose."""
        if not self.choice_pending:
            return []
        p = self.queue[0][0]
        return [e for e in self.queue if e[0] == p]

    def solo_rating(self) -> str:
        return S.solo_rating(int(self.sheets[0].total()))

    def describe_phase(self, names: Sequence[str] | None = None) -> str:
        def who(p: int) -> str:
            return names[p] if names else M("clever.term.player", n=p + 1)

        if self.phase == PH_OVER:
            return M("clever.phase.over")
        if self.phase == PH_WAIT:
            return M("clever.phase.wait")
        if self.choice_pending:
            (p, b, origin), *rest = self.bonus_chain()
            phase = M("clever.phase.bonus", name=who(p), bonus=W.bonus(b), origin=W.origin(origin))
            for _, b, origin in rest:
                phase = M("clever.phase.bonus_then", phase=phase, bonus=W.bonus(b), origin=W.origin(origin))
            return phase
        if self.phase == PH_PLUS and self.after == AFTER_END:
            return M("clever.phase.end_plus", name=who(self.actor))
        return {
            PH_ROLL: M("clever.phase.roll", name=who(self.active)),
            PH_PICK: M("clever.phase.pick", name=who(self.active), roll=self.rolls + 1),
            PH_PLUS: M("clever.phase.plus", name=who(self.actor)),
            PH_PASSIVE_ROLL: M("clever.phase.passive_roll"),
            PH_PASSIVE_PICK: M("clever.phase.passive_pick", name=who(self.actor)),
        }[self.phase]

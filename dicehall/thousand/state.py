"""The Dice 1000 state machine: the rules of a turn and of the game, one action at a time.

Actions are tiny and hashable: the decisions are the strings ``"roll"`` and ``"bank"`` (and, with
``free_set_aside``, ``"keep 1,5"`` naming the kept dice in ascending order); a chance outcome is the tuple of dice
values in the order rolled, e.g. ``(3, 1, 5, 5, 2)``, written ``3,1,5,5,2`` (:mod:`.notation`).

A turn: the dice are rolled (chance), the scoring dice are set aside automatically (or chosen with ``keep``),
then the player decides ``roll`` (the remaining dice) or ``bank``. Everything forced — burning on a zero roll,
bolts, penalties, the barrel, the next turn — happens inside ``apply_action`` and is narrated in :attr:`events`.

Front ends read the position through :mod:`.view`. Bot-versus-bot simulation (:mod:`.fast`) takes the shortcuts at
the end of the class for its commonest steps; a differential test holds them to exactly what these rules do.

>>> from dicehall.thousand.rules import ThousandRules
>>> s = ThousandState(ThousandRules.from_preset("classic"), 2)
>>> s.apply_action(s.string_to_action("1,1,5,2,3"))
>>> s.turn_total, s.dice_in_hand, s.bank_refusal()
(25, 2, 'not opened: bank at least 50')
>>> s.apply_action("roll"); s.apply_action((1, 5))
>>> s.turn_total, s.dice_in_hand, s.bank_refusal()
(40, 5, 'hot dice: the roll of all 5 dice is mandatory')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Self

import numpy as np

from dicehall.core.errors import IllegalActionError
from dicehall.core.game import CHANCE, TERMINAL, State
from dicehall.i18n.message import Message as M
from dicehall.thousand import view
from dicehall.thousand.lead import BARREL, DUMP_TRUCK, PIT, LeadWatch
from dicehall.thousand.notation import BANK, ROLL, Action, Dice, action_text, parse_action, shown, whole_dice
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.scoring import Combo
from dicehall.thousand.tables import (
    DECIDING,
    KEEPING,
    OUTCOMES,
    OVER,
    PROBABILITIES,
    ROLL_OFF,
    ROLLING,
    RollInfo,
    keep_options,
    roll_lists,
    roll_table,
)
from dicehall.thousand.view import PlayerStatus

__all__ = [
    "BANK",
    "OUTCOMES",
    "ROLL",
    "Action",
    "Dice",
    "PlayerStatus",
    "RollInfo",
    "ThousandState",
    "keep_options",
    "parse_action",
    "roll_table",
]

_NO_PIT_YET: Final = (0, 0)  # "not looked up yet" in the pit memo (never a real pit: low < high)
_ROLLS_OF: Final = tuple(len(o) for o in OUTCOMES)  # how many ordered rolls k dice have
_PIT_MEMOS: dict[tuple[tuple[int, int], ...], dict[int, tuple[int, int] | None]] = {}


class ThousandState(State[Action]):
    """A Dice 1000 position. Seat 0 starts; seats move in order (skipped turns aside)."""

    game_name = "thousand"

    __slots__ = (
        "_bolt_total",
        "_confirm",
        "_contenders",
        "_dumps",
        "_ev",
        "_fall_total",
        "_forced",
        "_free_rolls",
        "_lead",
        "_limit",
        "_need",
        "_need_rule",
        "_off_dice",
        "_overtakes",
        "_pit_turn",
        "_pits",
        "_plain",
        "_rolls_by_index",
        "_table",
        "anyone_banked",
        "attempts",
        "bolts",
        "falls",
        "hot_dice",
        "in_hand",
        "last_combos",
        "last_roll",
        "n",
        "names",
        "on_barrel",
        "open_fails",
        "opened",
        "opening_score",
        "out",
        "pending_roll",
        "phase",
        "player",
        "points",
        "rolls",
        "rules",
        "score",
        "set_aside_dice",
        "skip_next",
        "total_rolls",
        "turn_total",
        "turns",
        "winner",
    )

    phase: int
    """Where the turn stands: ``ROLLING``, ``DECIDING``, ``KEEPING``, ``ROLL_OFF`` or ``OVER`` (:mod:`.tables`)."""
    player: int
    """The seat whose turn it is (also during its dice rolls); the winner once the game is over."""
    hot_dice: bool
    """All five dice scored: the next roll (of all five) is mandatory or a confirmation roll."""
    pending_roll: RollInfo | None
    """With ``free_set_aside``: the roll whose combinations the player is choosing from."""
    _forced: bool
    """The coming roll is forced (after hot dice or a pair) and does not count against ``max_rolls``."""
    _confirm: bool
    """The coming roll confirms hot dice (``hot_dice = "confirm"``): a scoring result banks the turn."""
    _free_rolls: int
    _need: int
    """The smallest bank allowed this turn, and the rule that sets it (``_need_rule``)."""
    _need_rule: str
    _limit: int | None
    """The largest turn total that can still be banked (exact landing), or ``None``."""
    turn_total: int
    in_hand: int
    set_aside_dice: Dice
    rolls: int

    def __init__(self, rules: ThousandRules, num_players: int, names: Sequence[str] | None = None) -> None:
        if not 1 <= num_players <= 8:
            raise ValueError(f"Dice 1000 takes 1–8 players, not {num_players}")
        self.rules = rules
        self.n = n = num_players
        self.names: list[str] = list(names) if names else [f"P{i + 1}" for i in range(n)]
        if len(self.names) != n:
            raise ValueError("one name per seat")
        self.score = [0] * n
        self.opened = [False] * n
        self.opening_score = [0] * n  # the score a seat opened at (variant 2 knocks back to it)
        self.open_fails = [0] * n
        self.bolts = [0] * n
        self.on_barrel = [False] * n
        self.attempts = [0] * n  # turns on the barrel without winning
        self.falls = [0] * n
        self.points = [0] * n  # barrel "open": points for passing the target
        self.skip_next = [False] * n
        self.out = [False] * n  # resigned: skipped in turns and roll-offs, out of every effect on others
        self.anyone_banked = False
        self.turns = 0
        self.total_rolls = 0
        self.winner: int | None = None
        self._ev: list[tuple[str, dict[str, Any]]] = []
        self.last_roll: Dice | None = None
        self.last_combos: tuple[Combo, ...] = ()
        self._table = roll_table(rules.kinds)
        self._rolls_by_index = roll_lists(rules.kinds)  # rolls picked by index: no hashing, no checks
        # no rule that can act on a scoring roll by itself (roll limit, golden win, free set-aside) is in force
        self._plain = not (rules.max_rolls or rules.golden_win or rules.free_set_aside)
        self._pits = _PIT_MEMOS.setdefault(rules.pits, {})
        self.pending_roll: RollInfo | None = None
        self._bolt_total = self._fall_total = self._overtakes = self._dumps = 0
        self._lead: LeadWatch | None = None
        self._pit_turn = False  # following the lead, in a pit: a refused bank is remembered
        self._start_turn(0)
        self._contenders: tuple[int, ...] = ()
        self._off_dice: list[int | None] = [None] * n
        if rules.roll_off and n > 1:
            self._begin_roll_off(tuple(range(n)))

    @classmethod
    def from_position(
        cls,
        rules: ThousandRules,
        scores: Sequence[int],
        *,
        to_move: int = 0,
        opened: Sequence[bool] | None = None,
        on_barrel: Sequence[bool] | None = None,
        barrel_attempts: Sequence[int] | None = None,
        barrel_falls: Sequence[int] | None = None,
        bolts: Sequence[int] | None = None,
        open_points: Sequence[int] | None = None,
        opening_scores: Sequence[int] | None = None,
        anyone_banked: bool | None = None,
        names: Sequence[str] | None = None,
        out: Sequence[bool] | None = None,
    ) -> Self:
        """A position at the start of ``to_move``'s turn (for scenarios, training and bot analysis).

        ``opened`` defaults to "score is not 0"; ``opening_scores`` (variant 2 knock-back) to the scores;
        ``out`` (seats that resigned) to none.
        """
        n = len(scores)
        state = cls(rules, n, names)
        state.score = [int(s) for s in scores]
        state.opened = list(opened) if opened is not None else [s != 0 for s in scores]
        state.on_barrel = list(on_barrel) if on_barrel is not None else [False] * n
        state.attempts = list(barrel_attempts) if barrel_attempts is not None else [0] * n
        state.falls = list(barrel_falls) if barrel_falls is not None else [0] * n
        state.bolts = list(bolts) if bolts is not None else [0] * n
        state.points = list(open_points) if open_points is not None else [0] * n
        state.opening_score = list(opening_scores) if opening_scores is not None else state.score[:]
        state.anyone_banked = any(state.opened) if anyone_banked is None else anyone_banked
        state.out = list(out) if out is not None else [False] * n
        for name, seq in (
            ("opened", state.opened),
            ("on_barrel", state.on_barrel),
            ("barrel_attempts", state.attempts),
            ("barrel_falls", state.falls),
            ("bolts", state.bolts),
            ("open_points", state.points),
            ("opening_scores", state.opening_score),
            ("out", state.out),
        ):
            if len(seq) != n:
                raise ValueError(f"{name}: one value per seat ({n}), got {len(seq)}")
        if not 0 <= to_move < n:
            raise ValueError(f"to_move must be a seat 0..{n - 1}")
        if state.out[to_move] or (True in state.out and n - sum(state.out) < 2):
            raise ValueError("to_move and at least one other seat must still be in")
        state.turns = 0
        state._contenders = ()
        state._start_turn(to_move)
        return state

    def signature(self) -> tuple[Any, ...]:
        """Everything that determines the future of the game (equal signatures = equal positions)."""
        return (
            self.rules,
            tuple(self.score),
            tuple(self.opened),
            tuple(self.opening_score),
            tuple(self.open_fails),
            tuple(self.bolts),
            tuple(self.on_barrel),
            tuple(self.attempts),
            tuple(self.falls),
            tuple(self.points),
            tuple(self.skip_next),
            tuple(self.out),
            self.anyone_banked,
            self.player,
            self.phase,
            self.turn_total,
            self.in_hand,
            self.set_aside_dice,
            self.rolls,
            self._free_rolls,
            self.hot_dice,
            self._forced,
            self._confirm,
            self.pending_roll,
            self.winner,
            self.turns,
            self.total_rolls,
            self._contenders,
            tuple(self._off_dice),
        )

    # -- protocol -------------------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.n

    def current_player(self) -> int:
        phase = self.phase
        if phase in (DECIDING, KEEPING):
            return self.player
        return TERMINAL if phase == OVER else CHANCE

    def roller(self) -> int | None:
        """The seat whose dice are to be thrown (the turn's player, or the roll-off's contender); else None."""
        return self.player if self.phase in (ROLLING, ROLL_OFF) else None

    @property
    def events(self) -> list[str]:
        """What the last action did, as messages (English ``str`` with a message id; a fresh list)."""
        return [M(msgid, **params) for msgid, params in self._ev]

    def _say(self, msgid: str, **params: Any) -> None:
        """Narrate an event (put into words only when :attr:`events` is read)."""
        self._ev.append((msgid, params))

    def legal_actions(self) -> Sequence[Action]:
        phase = self.phase
        if phase == DECIDING:
            can_roll = self.hot_dice or not self._out_of_rolls()
            can_bank = not self.hot_dice and self.turn_total >= self._need
            if can_roll:
                return (ROLL, BANK) if can_bank else (ROLL,)
            return (BANK,)
        if phase in (ROLLING, ROLL_OFF):
            return OUTCOMES[self.in_hand]
        if phase == KEEPING:
            assert self.pending_roll is not None
            return tuple(keep_options(self.pending_roll.combos))
        return ()

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        """Every ordered roll of the dice in hand (6**k of them), each with probability 6**-k."""
        if self.phase not in (ROLLING, ROLL_OFF):
            return []
        p = PROBABILITIES[self.in_hand]
        return [(d, p) for d in OUTCOMES[self.in_hand]]

    def sample_chance(self, rng: np.random.Generator) -> Action:
        # One uniform float per roll (the dice stream of every seeded game): cheaper than rng.integers(size=k).
        if self.phase not in (ROLLING, ROLL_OFF):
            raise IllegalActionError(M("thousand.refusal.no_roll_now"), rule="turn-order")
        outs = OUTCOMES[self.in_hand]
        return outs[int(rng.random() * len(outs))]

    uniform_chance = True

    def apply_chance_uniform(self, u: float) -> Action:
        """Apply the roll ``sample_chance`` picks for the uniform number ``u`` (``0 <= u < 1``) and return it."""
        try:
            in_range = 0.0 <= u < 1.0  # False for NaN
        except TypeError:
            in_range = False
        if not in_range or isinstance(u, bool):
            raise IllegalActionError(M("thousand.refusal.uniform", value=repr(u)), rule="chance-uniform")
        if self.phase == ROLLING:
            return self.roll_by_uniform(u)
        if self.phase != ROLL_OFF:
            raise IllegalActionError(M("thousand.refusal.no_roll_now"), rule="turn-order")
        die = OUTCOMES[1][int(u * 6)]
        self.apply_action(die)
        return die

    def sample_and_apply_chance(self, rng: np.random.Generator) -> Action:
        """``sample_chance`` then ``apply_action`` of that outcome, in one step (same draw, same result)."""
        if self.phase not in (ROLLING, ROLL_OFF):
            raise IllegalActionError(M("thousand.refusal.no_roll_now"), rule="turn-order")
        return self.apply_chance_uniform(rng.random())

    def apply_action(self, action: Action) -> None:
        phase = self.phase
        if phase == ROLLING:
            if not isinstance(action, tuple):
                raise IllegalActionError(
                    M("thousand.refusal.roll_expected", move=repr(action)), rule="turn-order"
                )
            self._roll(*self._checked_roll(action))
        elif phase == DECIDING:
            if action == ROLL:
                self._decide_roll()
            elif action == BANK:
                if self.hot_dice or self.turn_total < self._need:
                    raise IllegalActionError(self.bank_refusal() or "", rule=self._refusal_rule())
                self._ev = []
                self._bank()
            else:
                raise IllegalActionError(
                    M("thousand.refusal.decide", name=self.names[self.player], move=shown(action)),
                    rule="turn-order",
                )
        elif phase == ROLL_OFF:
            self._roll_off(action)
        elif phase == KEEPING:
            self._keep(action)
        else:
            raise IllegalActionError(M("refusal.game_over"), rule="game-over")

    def clone(self) -> Self:
        new = object.__new__(type(self))
        for name in ThousandState.__slots__:
            value = getattr(self, name)
            if type(value) is LeadWatch:
                value = value.copy()
            setattr(
                new, name, value[:] if type(value) is list else value
            )  # lists are per state, the rest shared
        return new

    def returns(self) -> list[float]:
        return [1.0 if i == self.winner else 0.0 for i in range(self.n)]

    def scores(self) -> list[float]:
        return [float(s) for s in self.score]

    def stats(self) -> dict[str, float]:
        return {
            "turns": float(self.turns),
            "rolls": float(self.total_rolls),
            "bolt_penalties": float(self._bolt_total),
            "barrel_falls": float(self._fall_total),
            "overtakes": float(self._overtakes),
            "dump_trucks": float(self._dumps),
        }

    def follow_lead(self) -> LeadWatch:
        """From now on, note which house rule takes the lead from whom (:mod:`dicehall.thousand.lead`)."""
        if self._lead is None:
            self._lead = LeadWatch(self.n)
            self._pit_turn = self.phase != OVER and self._need_rule == "pit"
        return self._lead

    @property
    def lead_watch(self) -> LeadWatch | None:
        return self._lead

    def action_to_string(self, action: Action) -> str:
        return action_text(action)

    def string_to_action(self, text: str) -> Action:
        return parse_action(text)

    # -- what bots and front ends read ----------------------------------------------------------------------
    @property
    def dice_in_hand(self) -> int:
        """How many dice the next roll throws."""
        return self.in_hand

    @property
    def set_aside(self) -> Dice:
        """Dice set aside since the last time all five were taken up."""
        return self.set_aside_dice

    @property
    def rolls_this_turn(self) -> int:
        return self.rolls

    @property
    def free_rolls(self) -> int:
        """Rolls this turn that count against ``max_rolls`` (forced rolls after hot dice or a pair do not)."""
        return self._free_rolls

    @property
    def rolls_left(self) -> int | None:
        """Free rolls left this turn under ``max_rolls``, or ``None`` without a limit."""
        m = self.rules.max_rolls
        return None if m == 0 else max(0, m - self._free_rolls)

    @property
    def keep_is_confirmation(self) -> bool:
        """With ``free_set_aside``: the pending choice follows a confirmation roll (a bankable keep banks)."""
        return self.phase == KEEPING and self._confirm

    @property
    def confirming(self) -> bool:
        """The pending roll is a confirmation roll (a scoring result banks the turn)."""
        return self.phase == ROLLING and self._confirm

    @property
    def roll_off_dice(self) -> list[int | None]:
        """The last die each seat rolled in the roll-off for the start (``None``: has not rolled)."""
        return self._off_dice[:]

    @property
    def roll_off_contenders(self) -> tuple[int, ...]:
        """Seats still in the roll-off (empty once it is decided or without ``roll_off``)."""
        return self._contenders

    def min_bank(self) -> int:
        """The smallest turn total the player to move may bank this turn (opening, pit, barrel)."""
        return self._need

    def max_bank(self) -> int | None:
        """The largest turn total that can still be banked (exact-landing rules), or ``None``."""
        return self._limit

    def can_bank(self) -> bool:
        return self.phase == DECIDING and not self.hot_dice and self.turn_total >= self._need

    def bank_refusal(self) -> str | None:
        """Why ``bank`` is refused now, or ``None`` when it is allowed."""
        phase = self.phase
        if phase == OVER:
            return M("refusal.game_over")
        if phase == ROLLING:
            return M("thousand.refusal.roll_first")
        if phase == ROLL_OFF:
            return M("thousand.refusal.rolloff_on")
        if phase == KEEPING:
            return M("thousand.refusal.keep_first")
        if self.hot_dice:
            if self.rules.hot_dice == "confirm":
                return M("thousand.refusal.hot_confirm")
            return M("thousand.refusal.hot_mandatory")
        if self.turn_total < self._need:
            return self._need_reason()
        return None

    def _need_reason(self) -> str:
        """Why the minimum bank of this turn is what it is (see :meth:`_bank_limits`)."""
        r = self.rules
        rule = self._need_rule
        if rule == "opening":
            return M("thousand.refusal.opening", min=r.open_min)
        if rule == "pit":
            pit = r.pit_of(self.score[self.player])
            assert pit is not None
            return M("thousand.refusal.pit", low=pit[0], high=pit[1], need=self._need)
        if rule == "barrel":
            return M(
                "thousand.refusal.barrel_exact" if r.barrel_exact else "thousand.refusal.barrel",
                need=self._need,
            )
        return ""

    def _refusal_rule(self) -> str:
        return "hot-dice" if self.hot_dice else self._need_rule

    def status(self, seat: int) -> PlayerStatus:
        return view.status(self, seat)

    def statuses(self) -> list[PlayerStatus]:
        return [self.status(i) for i in range(self.n)]

    def public_view(self, viewer: int | None = None) -> dict[str, Any]:
        return view.public_view(self)  # nothing is hidden: every viewer sees the same

    def render(self) -> str:
        return view.render(self)

    def set_names(self, names: Sequence[str]) -> None:
        if len(names) != self.n:
            raise ValueError("one name per seat")
        self.names = list(names)

    # -- resigning ------------------------------------------------------------------------------------------
    def seats_in(self) -> list[int]:
        return [i for i in range(self.n) if not self.out[i]]

    def resign(self, seat: int) -> None:
        """``seat`` leaves: alone, the game is over with no winner; else it is out (skipped in turns and
        roll-offs, out of every effect on others, never the winner), its turn ends unbanked, and when one seat
        is left in, that seat wins (docs/thousand.md, "Resigning")."""
        seat = self.check_resign(seat)
        self._ev = []
        self.out[seat] = True
        self.skip_next[seat] = False
        self._say("thousand.narrate.resigns", name=self.names[seat])
        left = self.seats_in()
        if not left:
            self.winner = None
            self.phase = OVER
            self.hot_dice = False
            return
        if len(left) == 1:
            self.player = left[0]
            self._contenders = ()
            self._win()
            return
        if self.phase == ROLL_OFF:
            self._leave_roll_off(seat)
        elif self.player == seat:
            self._start_turn()  # the turn ends unbanked, with no penalty: nobody plays it on

    def _leave_roll_off(self, seat: int) -> None:
        if seat not in self._contenders:
            return
        order = self._contenders
        rest = tuple(c for c in order if c != seat)
        self._off_dice[seat] = None
        if len(rest) == 1:
            self._say("thousand.narrate.starts", name=self.names[rest[0]])
            self._contenders = ()
            self._start_turn(rest[0])
            return
        self._contenders = rest
        if self.player != seat:
            return
        later = order[order.index(seat) + 1 :]
        if later:
            self.player = later[0]
        else:
            self._settle_roll_off()

    # -- the start: who begins ------------------------------------------------------------------------------
    def _begin_roll_off(self, contenders: tuple[int, ...]) -> None:
        self._contenders = contenders
        self._off_dice = [None] * self.n
        self.player = contenders[0]
        self.phase = ROLL_OFF
        self.in_hand = 1
        self.turns = 0

    def _roll_off(self, action: Action) -> None:
        """One contender's die; the highest starts, a tie for the highest rolls again."""
        if not isinstance(action, tuple):
            raise IllegalActionError(M("thousand.refusal.rolloff_die", move=repr(action)), rule="turn-order")
        if len(action) != 1:
            raise IllegalActionError(M("thousand.refusal.rolloff_count", got=len(action)), rule="dice-count")
        (die,) = whole_dice(action)
        if not 1 <= die <= 6:
            raise IllegalActionError(M("thousand.refusal.die_value", value=repr(die)), rule="dice-values")
        self._ev = []
        self._say("thousand.narrate.rolloff", name=self.names[self.player], die=die)
        self._off_dice[self.player] = die
        i = self._contenders.index(self.player) + 1
        if i < len(self._contenders):
            self.player = self._contenders[i]
            return
        self._settle_roll_off()

    def _settle_roll_off(self) -> None:
        """Every contender has rolled: the highest starts, a tie for the highest rolls again."""
        top = max(self._off_dice[c] or 0 for c in self._contenders)
        tied = tuple(c for c in self._contenders if self._off_dice[c] == top)
        if len(tied) > 1:
            self._say("thousand.narrate.rolloff_tie", top=top, names=", ".join(self.names[c] for c in tied))
            dice = self._off_dice[:]
            self._begin_roll_off(tied)
            self._off_dice = dice
            return
        self._say("thousand.narrate.starts", name=self.names[tied[0]])
        self._contenders = ()
        self._start_turn(tied[0])

    # -- a turn ---------------------------------------------------------------------------------------------
    def _start_turn(self, seat: int = -1) -> None:
        """Start ``seat``'s turn; by default the next seat's (after the player, passing those who skip)."""
        lead = self._lead
        if lead is not None:
            lead.turn_ended(self.score, self.out)
        if seat < 0:
            seat = (self.player + 1) % self.n
            skip, out = self.skip_next, self.out
            while skip[seat] or out[seat]:
                if skip[seat]:
                    skip[seat] = False
                    if not out[seat]:
                        self._say("thousand.narrate.skips", name=self.names[seat])
                seat = (seat + 1) % self.n
        self.player = seat
        self.phase = ROLLING
        self.turn_total = 0
        self.in_hand = 5
        self.set_aside_dice = ()
        self.rolls = 0
        self._free_rolls = 0
        self.hot_dice = False
        self._forced = False
        self._confirm = False
        self.pending_roll = None
        self.turns += 1
        self._need, self._need_rule, self._limit = self._bank_limits(seat)
        self._pit_turn = lead is not None and self._need_rule == "pit"

    def _bank_limits(self, seat: int) -> tuple[int, str, int | None]:
        """The smallest bank this turn and the rule behind it (opening, pit, barrel), and the largest."""
        r = self.rules
        score = self.score[seat]
        need, rule = (0, "") if self.opened[seat] else (r.open_min, "opening")
        pit = self._pit(score)
        if pit is not None and pit[1] - score > need:  # a pit is left only by banking past its top
            need, rule = pit[1] - score, "pit"
        limit: int | None = None
        if r.barrel == "score":
            if r.barrel_exact:
                limit = r.target - score
            if self.on_barrel[seat]:  # on the barrel: the whole way to the target in one turn
                need, rule = r.target - score, "barrel"
        elif r.barrel == "open":
            limit = r.target - score
        return need, rule, limit

    def _pit(self, score: int) -> tuple[int, int] | None:
        """``rules.pit_of(score)``, remembered per score (shared by rule sets with the same pits)."""
        pit = self._pits.get(score, _NO_PIT_YET)
        if pit is _NO_PIT_YET:
            pit = self._pits[score] = self.rules.pit_of(score)
        return pit

    def _out_of_rolls(self) -> bool:
        m = self.rules.max_rolls
        return m > 0 and self._free_rolls >= m

    def _decide_roll(self) -> None:
        """The player rolls on: hot dice make the roll forced (and, with ``confirm``, a confirmation roll)."""
        if self.hot_dice:
            self._forced = True
            self._confirm = self.rules.hot_dice == "confirm"
            self.hot_dice = False
        elif self._out_of_rolls():
            raise IllegalActionError(
                M("thousand.refusal.max_rolls", max=self.rules.max_rolls), rule="max-rolls"
            )
        else:
            if self._pit_turn:
                self._pit_refuses()
            self._forced = False
            self._confirm = False
        self._ev = []
        self.phase = ROLLING

    def _pit_refuses(self) -> None:
        """Rolling on in a pit: the total now is a bank the pit refuses, if it could be banked but for the pit."""
        assert self._lead is not None
        p = self.player
        total = self.turn_total
        if 0 < total < self._need and total >= (0 if self.opened[p] else self.rules.open_min):
            self._lead.refused = total

    def _checked_roll(self, dice: Dice) -> tuple[Dice, RollInfo]:
        """``dice`` as a roll of the dice in hand with its scoring, or the refusal."""
        try:
            info = self._table.get(dice)
        except TypeError:  # unhashable junk inside the tuple
            info = None
        if info is None or len(dice) != self.in_hand:
            if len(dice) != self.in_hand:
                raise IllegalActionError(
                    M("thousand.refusal.dice_count", n=self.in_hand, got=len(dice)), rule="dice-count"
                )
            raise IllegalActionError(M("thousand.refusal.not_a_roll", dice=shown(dice)), rule="dice-values")
        if any(
            type(d) is not int for d in dice
        ):  # 1.0 and True hash like 1: refused, or records would not replay
            dice = whole_dice(dice)
        return dice, info

    def _roll(self, dice: Dice, info: RollInfo) -> None:
        """The dice in hand fell as ``dice`` (``info``: their best scoring)."""
        self._ev = []
        self.rolls += 1
        self.total_rolls += 1
        if self._forced:
            self._forced = False
        else:
            self._free_rolls += 1
        confirm = self._confirm
        self._confirm = False
        if len(dice) == 5:
            self.set_aside_dice = ()
        self.last_roll = dice
        self.last_combos = info.combos
        r = self.rules
        name = self.names[self.player]
        if info.points == 0:
            if r.pair_reroll and len(dice) == 2 and dice[0] == dice[1] and len(self.set_aside_dice) == 3:
                self._say("thousand.narrate.pair", a=dice[0], b=dice[1], name=name, total=self.turn_total)
                self.hot_dice = True
                self.in_hand = 5
                self.phase = DECIDING
                return
            self._say(
                "thousand.narrate.zero", name=name, dice=",".join(map(str, dice)), total=self.turn_total
            )
            self._fail(zero=True)
            return
        if info.golden and r.golden_win:
            self.turn_total += info.points
            self._say("thousand.narrate.golden", name=name)
            self._win()
            return
        if r.free_set_aside and len(info.combos) > 1:  # the player chooses what to keep
            self.pending_roll = info
            self._confirm = confirm
            self.phase = KEEPING
            return
        self._take(info.points, info.kept)
        self._resolve(confirm)

    def _keep(self, action: Action) -> None:
        """``free_set_aside``: the player keeps some of the roll's scoring combinations."""
        assert self.pending_roll is not None
        options = keep_options(self.pending_roll.combos)
        choice = options.get(action) if isinstance(action, str) else None
        if choice is None:
            raise IllegalActionError(
                M(
                    "thousand.refusal.keep_choice",
                    move=shown(action),
                    dice=action_text(self.last_roll or ()),
                    options=", ".join(options),
                ),
                rule="set-aside",
            )
        self._ev = []
        self.pending_roll = None
        self._take(*choice)
        self._resolve(self._confirm)

    def _take(self, points: int, kept: Dice) -> None:
        """Set scoring dice aside; when all five have scored, they are hot and go back into the hand."""
        self.turn_total += points
        self.set_aside_dice += kept
        self.in_hand -= len(kept)
        if self.in_hand == 0:
            self.hot_dice = True
            self.in_hand = 5
            self._say("thousand.narrate.hot", total=self.turn_total)

    def _resolve(self, confirm: bool) -> None:
        """After points are taken: overshoot, confirmation, roll limit — else the player decides."""
        r = self.rules
        if self._limit is not None and self.turn_total > self._limit:
            self._fail(zero=False, overshoot=True)
            return
        if confirm and not (self.hot_dice and r.reconfirm_hot) and self.turn_total >= self._need:
            self._say("thousand.narrate.confirmed", name=self.names[self.player], total=self.turn_total)
            self.hot_dice = False
            self._bank()
            return
        if not self.hot_dice and self._out_of_rolls() and self.turn_total < self._need:
            self._say(
                "thousand.narrate.out_of_rolls",
                name=self.names[self.player],
                need=self._need,
                total=self.turn_total,
            )
            self._fail(zero=False)
            return
        self.phase = DECIDING

    def _fail(self, *, zero: bool, overshoot: bool = False) -> None:
        """The turn ends without a bank."""
        r = self.rules
        p = self.player
        name = self.names[p]
        before = self.score[p]
        # bolt eligibility is judged on the position the turn was played from (before any fall below)
        bolt = (
            zero
            and r.bolts
            and (
                r.bolts_everywhere
                or (self.opened[p] and self._pit(self.score[p]) is None and not self.on_barrel[p])
            )
        )
        if overshoot:
            self._say(
                "thousand.narrate.overshoot",
                name=name,
                target=r.target,
                score=self.score[p],
                total=self.turn_total,
            )
            if r.barrel == "open":
                fall_from = self.score[p]
                self.points[p] += 1
                self._say(
                    "thousand.narrate.point", name=name, points=self.points[p], limit=r.open_points_limit
                )
                if self.points[p] >= r.open_points_limit:
                    self.points[p] = 0
                    self.falls[p] += 1
                    self._fall_total += 1
                    if self.falls[p] >= r.open_fall_limit:
                        self._set_score(p, 0, M("thousand.why.fall_limit", points=r.open_points_limit))
                    else:
                        self._penalize(
                            p, r.open_point_penalty, M("thousand.why.points", points=r.open_points_limit)
                        )
                    if self._lead is not None:
                        self._lead.hit(
                            BARREL, p, fall_from, self.score, self.out, self.turns, 0, self.falls[p] - 1
                        )
        if r.barrel == "score" and self.on_barrel[p]:
            self.attempts[p] += 1
            if r.barrel_attempts:
                self._say("thousand.narrate.attempt", name=name, n=self.attempts[p], limit=r.barrel_attempts)
                if self.attempts[p] >= r.barrel_attempts:
                    self._fall(p, M("thousand.why.attempts", attempts=r.barrel_attempts))
        if bolt:
            self.bolts[p] += 1
            self._say("thousand.narrate.bolt", name=name, bolts=self.bolts[p], count=r.bolts_count)
            if self.bolts[p] >= r.bolts_count:
                self.bolts[p] = 0
                self._bolt_total += 1
                self._penalize(p, r.bolt_penalty, M("thousand.why.bolts", bolts=r.bolts_count))
        if not self.opened[p]:
            self.open_fails[p] += 1
            if r.open_fail_penalty and self.open_fails[p] % r.open_fail_every == 0:
                self._penalize(p, r.open_fail_penalty, M("thousand.why.open_fails", turns=r.open_fail_every))
        if zero and r.skip_on_zero_first and self.rolls == 1 and self.anyone_banked:
            self.skip_next[p] = True
            self._say("thousand.narrate.zero_first", name=name)
        if self._pit_turn:
            self._burned_in_pit(p, before)
        self._start_turn()

    def _burned_in_pit(self, p: int, before: int) -> None:
        """The turn burned in a pit: a bank the pit refused on the way is one the pit cost."""
        lead = self._lead
        assert lead is not None
        if lead.refused:
            lead.pit_refusals += 1
            lead.hit(
                PIT,
                p,
                before + lead.refused,
                self.score,
                self.out,
                self.turns,
                self.attempts[p],
                self.falls[p],
            )

    def _bank(self) -> None:
        """The player banks the turn total: opening, the others' penalties, the barrel, the win."""
        r = self.rules
        p = self.player
        name = self.names[p]
        scores = self.score
        total = self.turn_total
        old = scores[p]
        new = old + total
        was_on_barrel = self.on_barrel[p]
        climbs = (
            r.barrel == "score"
            and not was_on_barrel
            and new >= r.barrel_score
            and not (r.barrel_exact and new == r.target)
        )
        if climbs and r.barrel_cap:
            new = r.barrel_score
        if not self.opened[p]:
            self.opened[p] = True
            self.opening_score[p] = new
        self.anyone_banked = True
        scores[p] = new
        self._say("thousand.narrate.bank", name=name, total=total, old=old, new=new)
        out = self.out
        others = [q for q in range(self.n) if q != p and not out[q]]
        reset = [q for q in others if r.exact_reset and new > 0 and scores[q] == new]
        for q in reset:  # a reset to 0 must not lift a negative score
            self._set_score(q, 0, M("thousand.why.exact_reset", name=name))
        if r.overtake_penalty:
            for q in others:
                if old < scores[q] < new and q not in reset:  # a reset player was level, not overtaken
                    self._overtakes += 1
                    self._penalize(q, r.overtake_penalty, M("thousand.why.overtaken"))
        self._dump_check(p)
        if climbs and scores[p] >= r.barrel_score:
            self.on_barrel[p] = True
            self.attempts[p] = 0
            self._say("thousand.narrate.barrel_on", name=name, score=scores[p])
            for q in others:
                if self.on_barrel[q]:
                    self._knock(q, name)
        if self._wins(scores[p], was_on_barrel):
            self._win()
        else:
            self._start_turn()

    def _knock(self, q: int, by: str) -> None:
        """Seat ``q`` was on the barrel when another climbed onto it."""
        r = self.rules
        if r.barrel_knock == "fall":
            self._fall(q, M("thousand.why.knocked_off", name=by))
        elif r.barrel_knock == "opening":
            before, attempts = self.score[q], self.attempts[q]
            self.on_barrel[q] = False
            self.attempts[q] = 0
            back = self.opening_score[q]
            if back >= r.barrel_score:  # opened straight onto the barrel: the nominal minimum
                back = r.open_min
            self._set_score(q, back, M("thousand.why.knocked_back", name=by))
            if self._lead is not None:  # knocked back: the barrel's event where it has no falls (variant 2)
                self._lead.hit(BARREL, q, before, self.score, self.out, self.turns, attempts, self.falls[q])

    def _wins(self, score: int, was_on_barrel: bool) -> bool:
        r = self.rules
        if r.barrel == "none":
            return score >= r.target
        if r.barrel == "open" or r.barrel_exact:
            return score == r.target
        # capped: only a player already on the barrel can win; uncapped: reaching the target wins
        return (was_on_barrel or not r.barrel_cap) and score >= r.target

    def _fall(self, q: int, why: str) -> None:
        r = self.rules
        before, attempts = self.score[q], self.attempts[q]
        self.on_barrel[q] = False
        self.attempts[q] = 0
        self.falls[q] += 1
        self._fall_total += 1
        nth = self.falls[q]
        if r.barrel_falls_to_zero and nth >= r.barrel_falls_to_zero:
            self._set_score(q, 0, M("thousand.why.fall", why=why, nth=nth))
        else:
            self._penalize(q, r.barrel_fall_penalty, M("thousand.why.fall", why=why, nth=nth))
        if self._lead is not None:
            self._lead.hit(BARREL, q, before, self.score, self.out, self.turns, attempts, nth - 1)

    def _penalize(self, q: int, amount: int, why: str) -> None:
        if amount:
            old = self.score[q]
            self._set_score(q, old - amount, why, penalty=amount)

    def _set_score(self, q: int, value: int, why: str, penalty: int = 0) -> None:
        """Seat ``q``'s score becomes ``value`` for the reason ``why`` (which may take it off the barrel)."""
        old = self.score[q]
        self.score[q] = value
        if penalty:
            self._say(
                "thousand.narrate.penalty", name=self.names[q], why=why, amount=penalty, old=old, value=value
            )
        else:
            self._say("thousand.narrate.set", name=self.names[q], why=why, old=old, value=value)
        r = self.rules
        if self.on_barrel[q] and r.barrel == "score" and value < r.barrel_score:
            self.on_barrel[q] = False
            self.attempts[q] = 0
            self._say("thousand.narrate.off_barrel", name=self.names[q])
        self._dump_check(q)

    def _dump_check(self, q: int) -> None:
        """The dump truck: a score of exactly ``dump_truck_score`` goes back to 0."""
        r = self.rules
        if r.dump_truck and self.score[q] == r.dump_truck_score:
            self._dumps += 1
            self.score[q] = 0
            if self._lead is not None:
                self._lead.hit(
                    DUMP_TRUCK,
                    q,
                    r.dump_truck_score,
                    self.score,
                    self.out,
                    self.turns,
                    self.attempts[q],
                    self.falls[q],
                )
            self._say("thousand.narrate.dump", name=self.names[q], score=r.dump_truck_score)

    def _win(self) -> None:
        if self._lead is not None:
            self._lead.turn_ended(self.score, self.out)
        self.winner = self.player
        self.phase = OVER
        self.hot_dice = False
        self._say("thousand.narrate.wins", name=self.names[self.player], score=self.score[self.player])

    # -- shortcuts for bot simulation (dicehall.thousand.fast) ----------------------------------------------
    # apply_action in its commonest cases with the rules those cases cannot meet left out (they are most of a
    # bot game's steps). tests/thousand/test_differential.py plays random games both ways, step by step.

    def roll_by_uniform(self, u: float) -> Dice:
        """At a roll (phase ``ROLLING``), the roll ``u`` (``0 <= u < 1``) picks, applied without checks (it comes
        from the outcome list); a scoring roll that no rule in force can act on by itself is applied inline."""
        k = self.in_hand
        dice, info = self._rolls_by_index[k][int(u * _ROLLS_OF[k])]
        if not (self._plain and info.points and not self._confirm and self._limit is None):
            self._roll(dice, info)
            return dice
        # _roll, _take and _resolve for that case
        if self._ev:
            self._ev = []
        self.rolls += 1
        self.total_rolls += 1
        if self._forced:
            self._forced = False
        else:
            self._free_rolls += 1
        if k == 5:
            self.set_aside_dice = ()
        self.last_roll = dice
        self.last_combos = info.combos
        total = self.turn_total = self.turn_total + info.points
        kept = info.kept
        self.set_aside_dice += kept
        left = k - len(kept)
        if left == 0:
            self.hot_dice = True
            self.in_hand = 5
            self._ev.append(("thousand.narrate.hot", {"total": total}))
        else:
            self.in_hand = left
        self.phase = DECIDING
        return dice

    def roll_again(self) -> None:
        """``apply_action(ROLL)`` at a decision; inline where neither hot dice nor a roll limit can act."""
        if self.hot_dice or not self._plain:
            self.apply_action(ROLL)
            return
        if self._pit_turn:
            self._pit_refuses()
        self._forced = self._confirm = False
        if self._ev:
            self._ev = []
        self.phase = ROLLING

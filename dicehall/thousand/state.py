"""The Dice 1000 state machine and its notation.

Actions are tiny and hashable: the decisions are the strings ``"roll"`` and ``"bank"`` (and, with
``free_set_aside``, ``"keep 1,5"`` naming the kept dice in ascending order); a chance outcome is the tuple of dice
values in the order rolled, e.g. ``(3, 1, 5, 5, 2)``, written ``3,1,5,5,2``.

A turn: the dice are rolled (chance), the scoring dice are set aside automatically (or chosen with ``keep``),
then the player decides ``roll`` (the remaining dice) or ``bank``. Everything forced — burning on a zero roll,
bolts, penalties, the barrel, the next turn — happens inside ``apply_action`` and is narrated in :attr:`events`.

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

import dataclasses
import itertools
from collections.abc import Sequence
from typing import Any, Final, Self

import numpy as np

from dicehall.core.errors import IllegalActionError, NotationError
from dicehall.core.game import CHANCE, TERMINAL, State
from dicehall.i18n.message import Message as M
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.scoring import Combo, score_roll

ROLL: Final = "roll"
BANK: Final = "bank"
Dice = tuple[int, ...]
Action = str | Dice

_CHANCE, _DECIDE, _KEEP, _OVER, _ROLLOFF = 0, 1, 2, 3, 4


# -- precomputed scoring lookups ---------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True, slots=True)
class RollInfo:
    """The best scoring of one ordered roll: points, the dice it sets aside, its combinations."""

    points: int
    kept: Dice
    combos: tuple[Combo, ...]
    golden: bool


OUTCOMES: tuple[tuple[Dice, ...], ...] = tuple(
    tuple(itertools.product(range(1, 7), repeat=k)) for k in range(6)
)
"""``OUTCOMES[k]``: every ordered roll of ``k`` dice, in lexicographic order."""
_SIZES: tuple[int, ...] = tuple(6**k for k in range(6))
_PROBS: tuple[float, ...] = tuple(6.0**-k for k in range(6))
_TABLES: dict[tuple[tuple[int, int, int], ...], dict[Dice, RollInfo]] = {}


def roll_table(kinds: tuple[tuple[int, int, int], ...]) -> dict[Dice, RollInfo]:
    """Every ordered roll of 1–5 dice mapped to its :class:`RollInfo` (built once per scoring table)."""
    table = _TABLES.get(kinds)
    if table is None:
        table = {}
        for k in range(1, 6):
            for dice in OUTCOMES[k]:
                rs = score_roll(dice, kinds)
                kept = tuple(d for c in rs.combos for d in c.dice)
                table[dice] = RollInfo(rs.points, kept, rs.combos, k == 5 and dice == (1, 1, 1, 1, 1))
        _TABLES[kinds] = table
    return table


_LISTS: dict[tuple[tuple[int, int, int], ...], tuple[tuple[tuple[Dice, RollInfo], ...], ...]] = {}


def roll_lists(kinds: tuple[tuple[int, int, int], ...]) -> tuple[tuple[tuple[Dice, RollInfo], ...], ...]:
    """``roll_lists(kinds)[k][i]``: ``OUTCOMES[k][i]`` and its :class:`RollInfo` (no hashing on the hot path)."""
    lists = _LISTS.get(kinds)
    if lists is None:
        table = roll_table(kinds)
        lists = _LISTS[kinds] = ((), *(tuple((d, table[d]) for d in OUTCOMES[k]) for k in range(1, 6)))
    return lists


_MISS: Final = (0, 0)  # "not looked up yet" in a pit memo (never a real pit: low < high)
_PIT_MEMOS: dict[tuple[tuple[int, int], ...], dict[int, tuple[int, int] | None]] = {}


def pit_memo(rules: ThousandRules) -> dict[int, tuple[int, int] | None]:
    """A score → ``rules.pit_of(score)`` memo shared by rule sets with the same pits (filled as scores come up)."""
    memo = _PIT_MEMOS.get(rules.pits)
    if memo is None:
        memo = _PIT_MEMOS[rules.pits] = {}
    return memo


# -- events: the frequent ones are stored as (builder, arguments) and put into words only when read -------------
_Event = str | tuple[Any, ...]


def _ev_zero(name: str, dice: Dice, total: int) -> str:
    return M("thousand.narrate.zero", name=name, dice=",".join(map(str, dice)), total=total)


def _ev_hot(total: int) -> str:
    return M("thousand.narrate.hot", total=total)


def _ev_bank(name: str, total: int, old: int, new: int) -> str:
    return M("thousand.narrate.bank", name=name, total=total, old=old, new=new)


def _ev_bolt(name: str, bolts: int, count: int) -> str:
    return M("thousand.narrate.bolt", name=name, bolts=bolts, count=count)


def _ev_set(name: str, why: str, old: int, value: int) -> str:
    return M("thousand.narrate.set", name=name, why=why, old=old, value=value)


def _ev_penalty(name: str, why: str, amount: int, old: int, value: int) -> str:
    return M("thousand.narrate.penalty", name=name, why=why, amount=amount, old=old, value=value)


_KEEP_CACHE: dict[tuple[Combo, ...], dict[str, tuple[int, Dice]]] = {}


def keep_options(combos: tuple[Combo, ...]) -> dict[str, tuple[int, Dice]]:
    """``free_set_aside``: every non-empty subset of ``combos`` as ``"keep d,d"`` → (points, dice kept)."""
    found = _KEEP_CACHE.get(combos)
    if found is None:
        found = {}
        for mask in range(1, 1 << len(combos)):
            chosen = [c for i, c in enumerate(combos) if mask >> i & 1]
            dice = tuple(sorted(d for c in chosen for d in c.dice))
            found["keep " + ",".join(map(str, dice))] = (sum(c.points for c in chosen), dice)
        found = dict(sorted(found.items(), key=lambda kv: (len(kv[1][1]), kv[0])))
        _KEEP_CACHE[combos] = found
    return found


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerStatus:
    """One seat as bots and front ends see it."""

    seat: int
    name: str
    score: int
    opened: bool
    pit: tuple[int, int] | None
    on_barrel: bool
    barrel_attempts: int
    barrel_falls: int
    bolts: int
    open_points: int
    skip_next_turn: bool
    failed_openings: int

    def to_json(self) -> dict[str, Any]:
        # written out: dataclasses.asdict deep-copies field by field and dominated public_view's cost
        return {
            "seat": self.seat,
            "name": self.name,
            "score": self.score,
            "opened": self.opened,
            "pit": None if self.pit is None else list(self.pit),
            "on_barrel": self.on_barrel,
            "barrel_attempts": self.barrel_attempts,
            "barrel_falls": self.barrel_falls,
            "bolts": self.bolts,
            "open_points": self.open_points,
            "skip_next_turn": self.skip_next_turn,
            "failed_openings": self.failed_openings,
        }


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
        "_infos",
        "_limit",
        "_need",
        "_need_rule",
        "_off_dice",
        "_overtakes",
        "_phase",
        "_pits",
        "_player",
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
        "pending_roll",
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

    _phase: int
    _player: int
    hot_dice: bool
    """All five dice scored: the next roll (of all five) is mandatory or a confirmation roll."""
    pending_roll: RollInfo | None
    """With ``free_set_aside``: the roll whose combinations the player is choosing from."""
    _forced: bool
    _confirm: bool
    _free_rolls: int
    _need: int
    _need_rule: str
    _limit: int | None
    turn_total: int
    in_hand: int
    set_aside_dice: Dice
    rolls: int

    def __init__(self, rules: ThousandRules, num_players: int, names: Sequence[str] | None = None) -> None:
        if not 1 <= num_players <= 8:
            raise ValueError(f"Dice 1000 takes 1–8 players, not {num_players}")
        self.rules = rules
        self.n = num_players
        self.names: list[str] = list(names) if names else [f"P{i + 1}" for i in range(num_players)]
        if len(self.names) != num_players:
            raise ValueError("one name per seat")
        n = num_players
        self.score = [0] * n
        self.opened = [False] * n
        self.opening_score = [0] * n
        self.open_fails = [0] * n
        self.bolts = [0] * n
        self.on_barrel = [False] * n
        self.attempts = [0] * n
        self.falls = [0] * n
        self.points = [0] * n
        self.skip_next = [False] * n
        self.anyone_banked = False
        self.turns = 0
        self.total_rolls = 0
        self.winner: int | None = None
        self._ev: list[_Event] = []
        self.last_roll: Dice | None = None
        self.last_combos: tuple[Combo, ...] = ()
        self._table = roll_table(rules.kinds)
        self._infos = roll_lists(rules.kinds)
        self._pits = pit_memo(rules)
        self.pending_roll: RollInfo | None = None
        self._bolt_total = 0
        self._fall_total = 0
        self._overtakes = 0
        self._dumps = 0
        self._start_turn(0)
        self._contenders: tuple[int, ...] = ()
        self._off_dice: list[int | None] = [None] * num_players
        if rules.roll_off and num_players > 1:
            self._begin_roll_off(tuple(range(num_players)))

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
    ) -> Self:
        """A position at the start of ``to_move``'s turn (for scenarios, training and bot analysis).

        ``opened`` defaults to "score is not 0"; ``opening_scores`` (variant 2 knock-back) to the scores.
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
        for name, seq in (
            ("opened", state.opened),
            ("on_barrel", state.on_barrel),
            ("barrel_attempts", state.attempts),
            ("barrel_falls", state.falls),
            ("bolts", state.bolts),
            ("open_points", state.points),
            ("opening_scores", state.opening_score),
        ):
            if len(seq) != n:
                raise ValueError(f"{name}: one value per seat ({n}), got {len(seq)}")
        if not 0 <= to_move < n:
            raise ValueError(f"to_move must be a seat 0..{n - 1}")
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
            self.anyone_banked,
            self._player,
            self._phase,
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
        phase = self._phase
        if phase == _CHANCE:
            return CHANCE
        if phase == _DECIDE:
            return self._player
        if phase == _KEEP:
            return self._player
        return TERMINAL if phase == _OVER else CHANCE

    def roller(self) -> int | None:
        """The seat whose dice are to be thrown (the turn's player, or the roll-off's contender); else None."""
        return self._player if self._phase in (_CHANCE, _ROLLOFF) else None

    @property
    def events(self) -> list[str]:
        """What the last action did, in words (a fresh list, built when asked for)."""
        return [e if isinstance(e, str) else e[0](*e[1:]) for e in self._ev]

    def legal_actions(self) -> Sequence[Action]:
        phase = self._phase
        if phase == _DECIDE:
            can_roll = self.hot_dice or not self._out_of_rolls()
            can_bank = not self.hot_dice and self.turn_total >= self._need
            if can_roll:
                return (ROLL, BANK) if can_bank else (ROLL,)
            return (BANK,)
        if phase in (_CHANCE, _ROLLOFF):
            return OUTCOMES[self.in_hand]
        if phase == _KEEP:
            assert self.pending_roll is not None
            return tuple(keep_options(self.pending_roll.combos))
        return ()

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        """Every ordered roll of the dice in hand (6**k of them), each with probability 6**-k."""
        if self._phase != _CHANCE and self._phase != _ROLLOFF:
            return []
        p = _PROBS[self.in_hand]
        return [(d, p) for d in OUTCOMES[self.in_hand]]

    def sample_chance(self, rng: np.random.Generator) -> Action:
        # One uniform float per roll is several times cheaper than rng.integers(size=k).
        if self._phase != _CHANCE and self._phase != _ROLLOFF:
            raise IllegalActionError(M("thousand.refusal.no_roll_now"), rule="turn-order")
        outs = OUTCOMES[self.in_hand]
        return outs[int(rng.random() * len(outs))]

    uniform_chance = True

    def apply_chance_uniform(self, u: float) -> Action:
        """Apply the roll ``sample_chance`` picks for the uniform number ``u`` (``0 <= u < 1``) and return it.

        The outcome comes from the engine's own outcome list, so it needs no validation and its scoring is
        found by index instead of by hashing the tuple.
        """
        try:
            in_range = 0.0 <= u < 1.0  # False for NaN
        except TypeError:
            in_range = False
        if not in_range or isinstance(u, bool):
            raise IllegalActionError(M("thousand.refusal.uniform", value=repr(u)), rule="chance-uniform")
        if self._phase != _CHANCE:
            if self._phase != _ROLLOFF:
                raise IllegalActionError(M("thousand.refusal.no_roll_now"), rule="turn-order")
            action = OUTCOMES[1][int(u * 6)]
            self.apply_action(action)
            return action
        dice, info = self._infos[self.in_hand][int(u * _SIZES[self.in_hand])]
        self._roll(dice, info)
        return dice

    def sample_and_apply_chance(self, rng: np.random.Generator) -> Action:
        """``sample_chance`` then ``apply_action`` of that outcome, in one step (same draw, same result)."""
        if self._phase != _CHANCE and self._phase != _ROLLOFF:
            raise IllegalActionError(M("thousand.refusal.no_roll_now"), rule="turn-order")
        return self.apply_chance_uniform(rng.random())

    def apply_action(self, action: Action) -> None:
        phase = self._phase
        if phase == _CHANCE:
            if not isinstance(action, tuple):
                raise IllegalActionError(
                    M("thousand.refusal.roll_expected", move=repr(action)),
                    rule="turn-order",
                )
            self._apply_roll(action)
        elif phase == _DECIDE:
            if action == ROLL:
                if self.hot_dice:
                    self._forced = True
                    self._confirm = self.rules.hot_dice == "confirm"
                    self.hot_dice = False
                elif self.rules.max_rolls and self._free_rolls >= self.rules.max_rolls:  # _out_of_rolls()
                    raise IllegalActionError(
                        M("thousand.refusal.max_rolls", max=self.rules.max_rolls), rule="max-rolls"
                    )
                else:
                    self._forced = False
                    self._confirm = False
                if self._ev:
                    self._ev = []
                self._phase = _CHANCE
            elif action == BANK:
                if self.hot_dice or self.turn_total < self._need:
                    raise IllegalActionError(self.bank_refusal() or "", rule=self._refusal_rule())
                if self._ev:
                    self._ev = []
                self._bank()
            else:
                raise IllegalActionError(
                    M("thousand.refusal.decide", name=self.names[self._player], move=self._show(action)),
                    rule="turn-order",
                )
        elif phase == _ROLLOFF:
            self._apply_roll_off(action)
        elif phase == _KEEP:
            assert self.pending_roll is not None
            options = keep_options(self.pending_roll.combos)
            choice = options.get(action) if isinstance(action, str) else None
            if choice is None:
                raise IllegalActionError(
                    M(
                        "thousand.refusal.keep_choice",
                        move=self._show(action),
                        dice=self._dice_text(self.last_roll or ()),
                        options=", ".join(options),
                    ),
                    rule="set-aside",
                )
            self._ev = []
            self.pending_roll = None
            self._take(choice[0], choice[1])
            self._resolve(self._confirm)
        else:
            raise IllegalActionError(M("refusal.game_over"), rule="game-over")

    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.rules = self.rules
        new.n = self.n
        new.names = self.names[:]
        new.score = self.score[:]
        new.opened = self.opened[:]
        new.opening_score = self.opening_score[:]
        new.open_fails = self.open_fails[:]
        new.bolts = self.bolts[:]
        new.on_barrel = self.on_barrel[:]
        new.attempts = self.attempts[:]
        new.falls = self.falls[:]
        new.points = self.points[:]
        new.skip_next = self.skip_next[:]
        new.anyone_banked = self.anyone_banked
        new.turns = self.turns
        new.total_rolls = self.total_rolls
        new.winner = self.winner
        new._ev = self._ev[:]
        new.last_roll = self.last_roll
        new.last_combos = self.last_combos
        new._table = self._table
        new._infos = self._infos
        new._pits = self._pits
        new.pending_roll = self.pending_roll
        new._bolt_total = self._bolt_total
        new._fall_total = self._fall_total
        new._overtakes = self._overtakes
        new._dumps = self._dumps
        new._contenders = self._contenders
        new._off_dice = self._off_dice[:]
        new._player = self._player
        new._phase = self._phase
        new.turn_total = self.turn_total
        new.in_hand = self.in_hand
        new.set_aside_dice = self.set_aside_dice
        new.rolls = self.rolls
        new._free_rolls = self._free_rolls
        new.hot_dice = self.hot_dice
        new._forced = self._forced
        new._confirm = self._confirm
        new._need = self._need
        new._need_rule = self._need_rule
        new._limit = self._limit
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

    # -- notation -------------------------------------------------------------------------------------------
    def action_to_string(self, action: Action) -> str:
        if isinstance(action, tuple):
            return ",".join(map(str, action))
        return action

    def string_to_action(self, text: str) -> Action:
        return parse_action(text)

    # -- what bots and front ends read ----------------------------------------------------------------------
    @property
    def player(self) -> int:
        """The seat whose turn it is (also during its dice rolls); the winner once the game is over."""
        return self._player

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
        return self._phase == _KEEP and self._confirm

    @property
    def confirming(self) -> bool:
        """The pending roll is a confirmation roll (a scoring result banks the turn)."""
        return self._phase == _CHANCE and self._confirm

    def min_bank(self) -> int:
        """The smallest turn total the player to move may bank this turn (opening, pit, barrel)."""
        return self._need

    def max_bank(self) -> int | None:
        """The largest turn total that can still be banked (exact-landing rules), or ``None``."""
        return self._limit

    def can_bank(self) -> bool:
        return self._phase == _DECIDE and not self.hot_dice and self.turn_total >= self._need

    def bank_refusal(self) -> str | None:
        """Why ``bank`` is refused now, or ``None`` when it is allowed."""
        phase = self._phase
        if phase == _OVER:
            return M("refusal.game_over")
        if phase == _CHANCE:
            return M("thousand.refusal.roll_first")
        if phase == _ROLLOFF:
            return M("thousand.refusal.rolloff_on")
        if phase == _KEEP:
            return M("thousand.refusal.keep_first")
        if self.hot_dice:
            if self.rules.hot_dice == "confirm":
                return M("thousand.refusal.hot_confirm")
            return M("thousand.refusal.hot_mandatory")
        if self.turn_total < self._need:
            return self._need_reason()
        return None

    def _need_reason(self) -> str:
        """Why the minimum bank of this turn is what it is (see ``_start_turn``)."""
        r = self.rules
        rule = self._need_rule
        if rule == "opening":
            return M("thousand.refusal.opening", min=r.open_min)
        if rule == "pit":
            pit = r.pit_of(self.score[self._player])
            assert pit is not None
            return M("thousand.refusal.pit", low=pit[0], high=pit[1], need=self._need)
        if rule == "barrel":
            return M(
                "thousand.refusal.barrel_exact" if r.barrel_exact else "thousand.refusal.barrel",
                need=self._need,
            )
        return ""

    def _refusal_rule(self) -> str:
        if self.hot_dice:
            return "hot-dice"
        return self._need_rule

    def status(self, seat: int) -> PlayerStatus:
        return PlayerStatus(
            seat=seat,
            name=self.names[seat],
            score=self.score[seat],
            opened=self.opened[seat],
            pit=self.rules.pit_of(self.score[seat]),
            on_barrel=self.on_barrel[seat],
            barrel_attempts=self.attempts[seat],
            barrel_falls=self.falls[seat],
            bolts=self.bolts[seat],
            open_points=self.points[seat],
            skip_next_turn=self.skip_next[seat],
            failed_openings=self.open_fails[seat],
        )

    def _status_json(self, seat: int) -> dict[str, Any]:
        """``status(seat).to_json()`` without building the frozen dataclass (public_view runs per move)."""
        score = self.score[seat]
        pit = self.rules.pit_of(score)
        return {
            "seat": seat,
            "name": self.names[seat],
            "score": score,
            "opened": self.opened[seat],
            "pit": None if pit is None else list(pit),
            "on_barrel": self.on_barrel[seat],
            "barrel_attempts": self.attempts[seat],
            "barrel_falls": self.falls[seat],
            "bolts": self.bolts[seat],
            "open_points": self.points[seat],
            "skip_next_turn": self.skip_next[seat],
            "failed_openings": self.open_fails[seat],
        }

    def statuses(self) -> list[PlayerStatus]:
        return [self.status(i) for i in range(self.n)]

    def public_view(self) -> dict[str, Any]:
        cur = self.current_player()
        terminal = cur == TERMINAL
        legal: list[str] = [] if cur in (CHANCE, TERMINAL) else [str(a) for a in self.legal_actions()]
        return {
            "game": self.game_name,
            "preset": self.rules.preset,
            "current_player": None if terminal else ("chance" if cur == CHANCE else cur),
            "turn_player": self._player,
            "legal_actions": legal,
            "terminal": terminal,
            "scores": self.score[:],
            "winners": self.winners() if terminal else [],
            "players": [self._status_json(i) for i in range(self.n)],
            "target": self.rules.target,
            "barrel": self.rules.barrel,
            "turn_total": self.turn_total,
            "dice_in_hand": self.in_hand,
            "set_aside": list(self.set_aside_dice),
            "rolls_this_turn": self.rolls,
            "max_rolls": self.rules.max_rolls,
            "hot_dice": self.hot_dice,
            "confirming": self.confirming,
            "last_roll": None if self.last_roll is None else list(self.last_roll),
            "last_combos": [
                {"dice": list(c.dice), "points": c.points, "kind": c.kind} for c in self.last_combos
            ],
            "keep_options": [] if self.pending_roll is None else list(keep_options(self.pending_roll.combos)),
            "can_bank": self.can_bank(),
            "bank_refusal": None if terminal else self.bank_refusal(),
            "min_bank": self._need,
            "max_bank": self._limit,
            "turns": self.turns,
            "roll_off": {"contenders": list(self._contenders), "dice": self._off_dice[:]},
            "events": self.events,
        }

    def set_names(self, names: Sequence[str]) -> None:
        if len(names) != self.n:
            raise ValueError("one name per seat")
        self.names = list(names)

    def render(self) -> str:
        r = self.rules
        lines = [f"Dice 1000 ({r.preset or 'custom'}) — turn {self.turns}"]
        for st in self.statuses():
            marks = []
            if not st.opened:
                marks.append("not opened")
            if st.pit:
                marks.append(f"pit {st.pit[0]}–{st.pit[1]}")
            if st.on_barrel:
                marks.append(f"BARREL {st.barrel_attempts}/{r.barrel_attempts or '∞'}")
            if st.barrel_falls:
                marks.append(f"falls {st.barrel_falls}")
            if st.bolts:
                marks.append(f"bolts {st.bolts}")
            if st.open_points:
                marks.append(f"points {st.open_points}")
            if st.skip_next_turn:
                marks.append("skips next turn")
            arrow = ">" if st.seat == self._player and self._phase != _OVER else " "
            extra = f"  ({', '.join(marks)})" if marks else ""
            lines.append(f"{arrow} {st.name:<12} {st.score:>6}{extra}")
        if self._phase == _OVER:
            lines.append(f"{self.names[self._player]} wins.")
        elif self._phase == _ROLLOFF:
            rolled = ", ".join(f"{self.names[c]} {self._off_dice[c] or '-'}" for c in self._contenders)
            lines.append(f"roll-off for the start: {rolled}")
        else:
            roll = self._dice_text(self.last_roll) if self.last_roll else "-"
            lines.append(
                f"turn total {self.turn_total}, last roll {roll}, set aside "
                f"{self._dice_text(self.set_aside_dice) or '-'}, dice in hand {self.in_hand}"
            )
            refusal = self.bank_refusal()
            if self._phase == _DECIDE:
                lines.append("may bank" if refusal is None else f"cannot bank: {refusal}")
        lines.extend(f"* {e}" for e in self.events)
        return "\n".join(lines)

    # -- the machine ----------------------------------------------------------------------------------------
    def _begin_roll_off(self, contenders: tuple[int, ...]) -> None:
        self._contenders = contenders
        self._off_dice = [None] * self.n
        self._player = contenders[0]
        self._phase = _ROLLOFF
        self.in_hand = 1
        self.turns = 0

    def _apply_roll_off(self, action: Action) -> None:
        if not isinstance(action, tuple):
            raise IllegalActionError(M("thousand.refusal.rolloff_die", move=repr(action)), rule="turn-order")
        if len(action) != 1:
            raise IllegalActionError(M("thousand.refusal.rolloff_count", got=len(action)), rule="dice-count")
        (die,) = _whole_dice(action)
        if not 1 <= die <= 6:
            raise IllegalActionError(M("thousand.refusal.die_value", value=repr(die)), rule="dice-values")
        self._ev = [M("thousand.narrate.rolloff", name=self.names[self._player], die=die)]
        self._off_dice[self._player] = die
        i = self._contenders.index(self._player) + 1
        if i < len(self._contenders):
            self._player = self._contenders[i]
            return
        top = max(self._off_dice[c] or 0 for c in self._contenders)
        tied = tuple(c for c in self._contenders if self._off_dice[c] == top)
        if len(tied) > 1:
            self._ev.append(
                M("thousand.narrate.rolloff_tie", top=top, names=", ".join(self.names[c] for c in tied))
            )
            dice = self._off_dice[:]
            self._begin_roll_off(tied)
            self._off_dice = dice
            return
        self._ev.append(M("thousand.narrate.starts", name=self.names[tied[0]]))
        self._contenders = ()
        self._start_turn(tied[0])

    @property
    def roll_off_dice(self) -> list[int | None]:
        """The last die each seat rolled in the roll-off for the start (``None``: has not rolled)."""
        return self._off_dice[:]

    @property
    def roll_off_contenders(self) -> tuple[int, ...]:
        """Seats still in the roll-off (empty once it is decided or without ``roll_off``)."""
        return self._contenders

    def _out_of_rolls(self) -> bool:
        m = self.rules.max_rolls
        return m > 0 and self._free_rolls >= m

    def _start_turn(self, seat: int = -1) -> None:
        """Start ``seat``'s turn; by default the next seat's (after the player, passing those who skip)."""
        if seat < 0:
            seat = (self._player + 1) % self.n
            while self.skip_next[seat]:
                self.skip_next[seat] = False
                self._ev.append(M("thousand.narrate.skips", name=self.names[seat]))
                seat = (seat + 1) % self.n
        self._player = seat
        self._phase = _CHANCE
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
        r = self.rules
        score = self.score[seat]
        # the refusal text is built from _need_rule only when asked for (_need_reason)
        if self.opened[seat]:
            need, rule = 0, ""
        else:
            need, rule = r.open_min, "opening"
        pit = self._pits.get(score, _MISS)
        if pit is _MISS:
            pit = self._pits[score] = r.pit_of(score)
        if pit is not None and pit[1] - score > need:
            need, rule = pit[1] - score, "pit"
        limit: int | None = None
        barrel = r.barrel
        if barrel == "score":
            if r.barrel_exact:
                limit = r.target - score
            if self.on_barrel[seat]:
                need, rule = r.target - score, "barrel"
        elif barrel == "open":
            limit = r.target - score
        self._need, self._need_rule, self._limit = need, rule, limit

    def _pit(self, score: int) -> tuple[int, int] | None:
        """``rules.pit_of(score)``, remembered per score."""
        pit = self._pits.get(score, _MISS)
        if pit is _MISS:
            pit = self._pits[score] = self.rules.pit_of(score)
        return pit

    def _apply_roll(self, dice: Dice) -> None:
        try:
            info = self._table.get(dice)
        except TypeError:  # unhashable junk inside the tuple
            info = None
        if info is None or len(dice) != self.in_hand:
            self._bad_roll(dice)
        assert info is not None
        for d in dice:
            if type(d) is not int:  # 1.0 and True hash like 1: refuse them, or records would not replay
                dice = _whole_dice(dice)
                break
        self._roll(dice, info)

    def _roll(self, dice: Dice, info: RollInfo) -> None:
        """Apply a valid roll of the dice in hand (``info`` is its scoring)."""
        if self._ev:
            self._ev = []
        self.rolls += 1
        self.total_rolls += 1
        if self._forced:
            self._forced = False
        else:
            self._free_rolls += 1
        confirm = self._confirm
        if confirm:
            self._confirm = False
        if len(dice) == 5:
            self.set_aside_dice = ()
        self.last_roll = dice
        self.last_combos = info.combos
        r = self.rules
        points = info.points
        if points == 0:
            name = self.names[self._player]
            if r.pair_reroll and len(dice) == 2 and dice[0] == dice[1] and len(self.set_aside_dice) == 3:
                self._ev.append(
                    M("thousand.narrate.pair", a=dice[0], b=dice[1], name=name, total=self.turn_total)
                )
                self.hot_dice = True
                self.in_hand = 5
                self._phase = _DECIDE
                return
            self._ev.append((_ev_zero, name, dice, self.turn_total))
            self._fail(zero=True)
            return
        if info.golden and r.golden_win:
            self.turn_total += points
            self._ev.append(M("thousand.narrate.golden", name=self.names[self._player]))
            self._win()
            return
        if r.free_set_aside and len(info.combos) > 1:
            self.pending_roll = info
            self._confirm = confirm
            self._phase = _KEEP
            return
        # _take, inlined
        total = self.turn_total = self.turn_total + points
        kept = info.kept
        self.set_aside_dice += kept
        left = self.in_hand - len(kept)
        if left == 0:
            self.hot_dice = True
            self.in_hand = 5
            self._ev.append((_ev_hot, total))
        else:
            self.in_hand = left
        if confirm or self._limit is not None or r.max_rolls:
            self._resolve(confirm)
        else:  # the common classic case: nothing can end the turn here
            self._phase = _DECIDE

    def _bad_roll(self, dice: Dice) -> None:
        k = self.in_hand
        if len(dice) != k:
            raise IllegalActionError(
                M("thousand.refusal.dice_count", n=k, got=len(dice)),
                rule="dice-count",
            )
        raise IllegalActionError(M("thousand.refusal.not_a_roll", dice=self._show(dice)), rule="dice-values")

    def _take(self, points: int, kept: Dice) -> None:
        self.turn_total += points
        self.set_aside_dice += kept
        self.in_hand -= len(kept)
        if self.in_hand == 0:
            self.hot_dice = True
            self.in_hand = 5
            self._ev.append((_ev_hot, self.turn_total))

    def _resolve(self, confirm: bool) -> None:
        """After points are taken: overshoot, confirmation, roll limit — else the player decides."""
        r = self.rules
        if self._limit is not None and self.turn_total > self._limit:
            self._fail(zero=False, overshoot=True)
            return
        if confirm and not (self.hot_dice and r.reconfirm_hot) and self.turn_total >= self._need:
            self._ev.append(
                M("thousand.narrate.confirmed", name=self.names[self._player], total=self.turn_total)
            )
            self.hot_dice = False
            self._bank()
            return
        if not self.hot_dice and self._out_of_rolls() and self.turn_total < self._need:
            self._ev.append(
                M(
                    "thousand.narrate.out_of_rolls",
                    name=self.names[self._player],
                    need=self._need,
                    total=self.turn_total,
                )
            )
            self._fail(zero=False)
            return
        self._phase = _DECIDE

    def _fail(self, *, zero: bool, overshoot: bool = False) -> None:
        """The turn ends without a bank."""
        r = self.rules
        p = self._player
        name = self.names[p]
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
            self._ev.append(
                M(
                    "thousand.narrate.overshoot",
                    name=name,
                    target=r.target,
                    score=self.score[p],
                    total=self.turn_total,
                )
            )
            if r.barrel == "open":
                self.points[p] += 1
                self._ev.append(
                    M("thousand.narrate.point", name=name, points=self.points[p], limit=r.open_points_limit)
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
        if r.barrel == "score" and self.on_barrel[p]:
            self.attempts[p] += 1
            if r.barrel_attempts:
                self._ev.append(
                    M("thousand.narrate.attempt", name=name, n=self.attempts[p], limit=r.barrel_attempts)
                )
                if self.attempts[p] >= r.barrel_attempts:
                    self._fall(p, M("thousand.why.attempts", attempts=r.barrel_attempts))
        if bolt:
            self.bolts[p] += 1
            self._ev.append((_ev_bolt, name, self.bolts[p], r.bolts_count))
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
            self._ev.append(M("thousand.narrate.zero_first", name=name))
        self._start_turn()

    def _bank(self) -> None:
        r = self.rules
        p = self._player
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
        self._ev.append((_ev_bank, name, total, old, new))
        others = range(self.n)  # every seat but p (tested in each loop)
        if r.exact_reset and new > 0:  # a reset to 0 must not lift a negative score
            for q in others:
                if q != p and scores[q] == new:
                    self._set_score(q, 0, M("thousand.why.exact_reset", name=name))
        penalty = r.overtake_penalty
        if penalty:
            for q in others:
                if q != p and old < scores[q] < new:
                    self._overtakes += 1
                    self._penalize(q, penalty, M("thousand.why.overtaken"))
        if r.dump_truck and scores[p] == r.dump_truck_score:
            self._dump_check(p)
        if climbs and scores[p] >= r.barrel_score:
            self.on_barrel[p] = True
            self.attempts[p] = 0
            self._ev.append(M("thousand.narrate.barrel_on", name=name, score=scores[p]))
            if r.barrel_knock != "none":
                for q in others:
                    if q != p and self.on_barrel[q]:
                        if r.barrel_knock == "fall":
                            self._fall(q, M("thousand.why.knocked_off", name=name))
                        else:
                            self.on_barrel[q] = False
                            self.attempts[q] = 0
                            back = self.opening_score[q]
                            if back >= r.barrel_score:  # opened straight onto the barrel: the nominal minimum
                                back = r.open_min
                            self._set_score(q, back, M("thousand.why.knocked_back", name=name))
        score = self.score[p]
        if r.barrel == "none":
            won = score >= r.target
        elif r.barrel == "open" or r.barrel_exact:
            won = score == r.target
        else:
            # capped: only a player already on the barrel can win; uncapped: reaching the target wins
            won = (was_on_barrel or not r.barrel_cap) and score >= r.target
        if won:
            self._win()
        else:
            self._start_turn()

    def _fall(self, q: int, why: str) -> None:
        r = self.rules
        self.on_barrel[q] = False
        self.attempts[q] = 0
        self.falls[q] += 1
        self._fall_total += 1
        nth = self.falls[q]
        if r.barrel_falls_to_zero and nth >= r.barrel_falls_to_zero:
            self._set_score(q, 0, M("thousand.why.fall", why=why, nth=nth))
        else:
            self._penalize(q, r.barrel_fall_penalty, M("thousand.why.fall", why=why, nth=nth))

    def _penalize(self, q: int, amount: int, why: str) -> None:
        if amount:
            old = self.score[q]
            self._set_score(
                q, old - amount, why, (_ev_penalty, self.names[q], why, amount, old, old - amount)
            )

    def _set_score(self, q: int, value: int, why: str, event: _Event | None = None) -> None:
        old = self.score[q]
        self.score[q] = value
        self._ev.append((_ev_set, self.names[q], why, old, value) if event is None else event)
        r = self.rules
        if self.on_barrel[q] and r.barrel == "score" and value < r.barrel_score:
            self.on_barrel[q] = False
            self.attempts[q] = 0
            self._ev.append(M("thousand.narrate.off_barrel", name=self.names[q]))
        self._dump_check(q)

    def _dump_check(self, q: int) -> None:
        r = self.rules
        if r.dump_truck and self.score[q] == r.dump_truck_score:
            self._dumps += 1
            self.score[q] = 0
            self._ev.append(M("thousand.narrate.dump", name=self.names[q], score=r.dump_truck_score))

    def _win(self) -> None:
        self.winner = self._player
        self._phase = _OVER
        self.hot_dice = False
        self._ev.append(
            M("thousand.narrate.wins", name=self.names[self._player], score=self.score[self._player])
        )

    # -- text helpers ---------------------------------------------------------------------------------------
    @staticmethod
    def _dice_text(dice: Sequence[int]) -> str:
        return ",".join(map(str, dice))

    def _show(self, action: object) -> str:
        if isinstance(action, tuple):
            return repr(",".join(map(str, action)))
        return repr(action)


def parse_action(text: str) -> Action:
    """Read ``roll``, ``bank``, ``keep 1,5`` or a dice outcome ``3,1,5,5,2`` (``31552`` also accepted)."""
    if not isinstance(text, str):
        raise NotationError(M("notation.not_text", type=type(text).__name__))
    t = text.strip().lower()
    if t == ROLL:
        return ROLL
    if t == BANK:
        return BANK
    if t.startswith("keep"):
        dice = _parse_dice(t[4:], "keep")
        return "keep " + ",".join(map(str, sorted(dice)))
    return _parse_dice(t, "dice")


def _whole_dice(values: tuple[Any, ...]) -> Dice:
    """``values`` as plain ints (NumPy integers are converted); anything else (1.0, True) is refused."""
    out = []
    for v in values:
        if isinstance(v, bool | np.bool_) or not isinstance(v, int | np.integer):
            raise IllegalActionError(
                M("thousand.refusal.whole_dice", value=repr(v), type=type(v).__name__), rule="dice-values"
            )
        out.append(int(v))
    return tuple(out)


def _parse_dice(text: str, what: str) -> Dice:
    t = text.strip()
    parts = [p for p in t.replace(",", " ").split() if p]
    if len(parts) == 1 and _ascii_digits(parts[0]) and len(parts[0]) > 1:
        parts = list(parts[0])
    if not parts:
        hint = M("thousand.notation.keep_needs_dice" if what == "keep" else "thousand.notation.expected")
        raise NotationError(M("notation.cannot_read", text=repr(text.strip()), hint=hint))
    values = []
    for p in parts:
        if not _ascii_digits(p):
            raise NotationError(M("thousand.notation.bad_part", part=repr(p), text=repr(text.strip())))
        v = int(p)
        if not 1 <= v <= 6:
            raise NotationError(M("thousand.refusal.die_value", value=v))
        values.append(v)
    if len(values) > 5:
        raise NotationError(M("thousand.notation.too_many", got=len(values)))
    return tuple(values)


def _ascii_digits(text: str) -> bool:
    """Digits 0-9 only (``str.isdigit`` also accepts '²' and other scripts' digits)."""
    return text.isascii() and text.isdigit()

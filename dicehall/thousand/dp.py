"""The expert's dynamic programme: bank or roll to maximise the expected useful points of one turn.

The *turn model* (:class:`TurnModel`) is one player's turn seen on its own. A decision point is
``(t, n, r)``: turn total ``t`` (a multiple of 5), ``n`` dice in hand (0 = hot dice: the forced roll of five
comes next), ``r`` counted rolls made this turn (forced rolls are free, as in the engine). Its value is the
largest expected *bank value* reachable, where banking a total ``t`` is worth ``min(t, sat)`` (``sat``: the
points that are still useful — to the win, or to the barrel when a climb is capped; more is worth nothing),
or a fixed value for special totals (the dump truck: banking onto 555 is worth ``-score``). A zero roll is
worth ``zero`` (0, or a bolt's share of the penalty); passing ``cap`` (open barrel, exact landing) or running
out of counted rolls below ``need`` is worth 0. Banking is allowed only when ``need <= t <= cap``. A golden
win (five 1s, yard) is worth ``sat``, the most a turn can be worth.

The values are exact for this model: the roll outcomes of ``n`` dice are enumerated (``6**n`` ordered rolls,
grouped by effect), and positions are solved bottom-up from high turn totals down — no sampling and no
truncation (above ``max(sat, need)`` without a cap every position is worth ``sat`` except hot dice, whose
chain is solved there as a fixed point). ``tests/thousand/test_dp.py`` checks turn values against an
exhaustive search through the engine.

What the model leaves out (docs/thousand-play.md): overtaking, barrel attempts and falls, open-barrel points
and their penalty, knocking off the barrel, yard's "land on an opponent" and skipped turns, opening-failure
penalties, and anything about later turns: it maximises this turn's useful points, not the game's win
probability.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from functools import cache

from dicehall.thousand.scoring import CLASSIC_KINDS, score_roll

STEP = 5
NEG = float("-inf")

Kinds = tuple[tuple[int, int, int], ...]


@dataclasses.dataclass(frozen=True)
class TurnModel:
    """The constraints in force for one player's turn (hashable: tables are cached per model)."""

    need: int = 0
    """Smallest turn total that may be banked (opening minimum, pit top, barrel need)."""
    sat: int = 1000
    """Useful points: banking ``t`` is worth ``min(t, sat)``."""
    cap: int | None = None
    """A turn total above ``cap`` ends the turn with nothing (open barrel's point, exact landing)."""
    special: tuple[tuple[int, int], ...] = ()
    """``(total, value)``: banking exactly ``total`` is worth ``value`` (the dump truck)."""
    max_rolls: int = 0
    """Counted rolls allowed per turn (0 = unlimited); forced rolls (hot dice, pair re-roll) are free."""
    confirm: bool = False
    """Hot dice are confirmed: the forced roll of five, if it scores and the total may be banked, banks it."""
    reconfirm: bool = False
    """A confirmation roll that is itself hot dice must be confirmed again."""
    pair_reroll: bool = False
    """Yard: two dice rolled showing a non-scoring pair keep the points and roll all five again (forced)."""
    golden: bool = False
    """Five 1s in one roll win at once (worth ``sat``)."""
    free: bool = False
    """``free_set_aside``: after a roll with several combinations the player picks which to keep."""
    kinds: Kinds = CLASSIC_KINDS
    zero: float = 0.0
    """Value of a zero roll (0, or minus the bolt penalty it brings)."""

    def bank_value(self, t: int) -> float:
        """The value of banking ``t`` now, or -inf where banking is not allowed."""
        if t < self.need or (self.cap is not None and t > self.cap):
            return NEG
        for total, value in self.special:
            if total == t:
                return float(value)
        return float(min(t, self.sat))


@dataclasses.dataclass(frozen=True)
class Outcome:
    """Ordered rolls of ``n`` dice grouped by effect: ``options`` are the (points, dice used) choices."""

    prob: float
    kind: str  # "zero", "score", "golden" or "pair"
    options: tuple[tuple[int, int], ...]


@cache
def outcomes(
    n: int, kinds: Kinds = CLASSIC_KINDS, golden: bool = False, pair: bool = False, free: bool = False
) -> tuple[Outcome, ...]:
    """The distinct effects of rolling ``n`` dice with their exact probabilities (as the engine scores them)."""
    groups: dict[tuple[str, tuple[tuple[int, int], ...]], int] = {}
    for dice in itertools.product(range(1, 7), repeat=n):
        s = score_roll(dice, kinds)
        key: tuple[str, tuple[tuple[int, int], ...]]
        if golden and n == 5 and dice == (1, 1, 1, 1, 1):
            key = ("golden", ())
        elif s.points == 0:
            key = ("pair" if pair and n == 2 and dice[0] == dice[1] else "zero", ())
        elif free and len(s.combos) > 1:
            opts = set()
            for mask in range(1, 1 << len(s.combos)):
                chosen = [c for i, c in enumerate(s.combos) if mask >> i & 1]
                opts.add((sum(c.points for c in chosen), sum(len(c.dice) for c in chosen)))
            key = ("score", tuple(sorted(opts)))
        else:
            key = ("score", ((s.points, s.used),))
        groups[key] = groups.get(key, 0) + 1
    total = 6**n
    return tuple(Outcome(c / total, k, o) for (k, o), c in sorted(groups.items()))


class Table:
    """Solved values and decisions of one :class:`TurnModel`.

    Positions are ``(t, n, r)`` at the player's decision: turn total ``t``, ``n`` dice in hand (0 = hot dice:
    the forced roll of five comes next), ``r`` counted rolls made. ``decide`` says roll (True) or bank;
    ``value`` is the expected value acting optimally; ``after`` values taking points (for choosing what to keep).
    """

    def __init__(self, model: TurnModel) -> None:
        self.model = model
        m = model
        self.rr = m.max_rolls + 1 if m.max_rolls else 1
        top = max(m.sat, m.need, *(t + STEP for t, _ in m.special), 0) if m.cap is None else max(m.cap, 0)
        self.ti_max = top // STEP
        size = (self.ti_max + 1) * 6 * self.rr
        self.d = [0.0] * size  # value at a decision point
        self.rv = [NEG] * size  # value of a counted roll of the n dice in hand
        self.roll_ok = bytearray(size)  # 1 where rolling is the better (or only) choice
        self._outs = [outcomes(n, m.kinds, m.golden, m.pair_reroll, m.free) for n in range(6)]
        self._p_zero = [sum(o.prob for o in outs if o.kind == "zero") for outs in self._outs]
        codes = {"zero": 0, "score": 1, "golden": 2, "pair": 3}
        # (probability, kind code, points / STEP, dice left) of each grouped outcome, zero rolls dropped
        self._fast = [
            [
                (
                    o.prob,
                    codes[o.kind],
                    o.options[0][0] // STEP if o.options else 0,
                    n - o.options[0][1] if o.options else 0,
                )
                for o in outs
                if o.kind != "zero"
            ]
            for n, outs in enumerate(self._outs)
        ]
        self._solve()

    def _idx(self, ti: int, n: int, r: int) -> int:
        return (ti * 6 + n) * self.rr + r

    # -- solving ----------------------------------------------------------------------------------------
    def _solve(self) -> None:
        m = self.model
        limited = m.max_rolls > 0
        d, rv, ok = self.d, self.rv, self.roll_ok
        top = self.ti_max
        for ti in range(top, -1, -1):
            bank = m.bank_value(ti * STEP)
            at_top = m.cap is None and ti == top
            for r in range(self.rr - 1, -1, -1):
                if at_top:
                    # Above every threshold banking is worth sat, the most a turn can be worth.
                    for n in range(1, 6):
                        d[self._idx(ti, n, r)] = bank
                # hot dice: a forced roll of five, r unchanged
                i0 = self._idx(ti, 0, r)
                ok[i0] = 1
                if at_top:
                    d[i0] = self._fixed_point(ti, r)
                else:
                    d[i0] = self._roll(ti, 5, r, m.confirm)
                can_roll = not limited or r < m.max_rolls
                for n in range(1, 6):
                    i = self._idx(ti, n, r)
                    rv[i] = self._roll(ti, n, r + 1 if limited else 0, False) if can_roll else NEG
                    if at_top:
                        continue
                    best = bank
                    if rv[i] > best:
                        best = rv[i]
                        ok[i] = 1
                    d[i] = best if best > NEG else 0.0

    def _fixed_point(self, ti: int, r: int) -> float:
        """Hot dice at the clamped top lead back to the same position: solve x = f(x) by iteration."""
        i0 = self._idx(ti, 0, r)
        x = 0.0
        for _ in range(200):
            self.d[i0] = x
            nxt = self._roll(ti, 5, r, self.model.confirm)
            if abs(nxt - x) < 1e-12:
                return nxt
            x = nxt
        return x

    def after(self, t: int, left: int, r: int, confirm: bool) -> float:
        """Value once a roll's points are taken: turn total ``t``, ``left`` dice in hand, ``r`` counted rolls."""
        m = self.model
        if m.cap is not None and t > m.cap:
            return 0.0  # passed the cap: the turn ends with nothing
        hot = left == 0
        if confirm and not (hot and m.reconfirm) and t >= m.need:
            return m.bank_value(t)  # the confirmation banks the turn
        ti = t // STEP
        if ti > self.ti_max:
            ti = self.ti_max
        if not hot and m.max_rolls and r >= m.max_rolls and t < m.need:
            return 0.0  # out of rolls below the minimum
        return self.d[self._idx(ti, left, r if self.rr > 1 else 0)]

    def _roll(self, ti: int, n: int, r2: int, confirm: bool) -> float:
        """Expected value of rolling ``n`` dice at turn total ``ti * STEP``; ``r2`` counted rolls afterwards."""
        m = self.model
        if confirm or m.free:
            return self._roll_general(ti, n, r2, confirm)
        # The common case inlined (this loop is where table building spends its time).
        d = self.d
        rr = self.rr
        rix = r2 if rr > 1 else 0
        tmax = self.ti_max
        cap_ti = None if m.cap is None else m.cap // STEP
        need = m.need
        out_of_rolls = m.max_rolls > 0 and r2 >= m.max_rolls
        total = m.zero * self._p_zero[n]
        for prob, kind, dti, left in self._fast[n]:
            if kind == 1:
                ti2 = ti + dti
                if cap_ti is not None and ti2 > cap_ti:
                    continue
                if out_of_rolls and left and ti2 * STEP < need:
                    continue
                if ti2 > tmax:
                    ti2 = tmax
                total += prob * d[(ti2 * 6 + left) * rr + rix]
            elif kind == 2:
                total += prob * m.sat
            elif kind == 3:
                total += prob * d[(ti * 6) * rr + rix]
        return total

    def _roll_general(self, ti: int, n: int, r2: int, confirm: bool) -> float:
        m = self.model
        t = ti * STEP
        after = self.after
        total = m.zero * self._p_zero[n]
        for o in self._outs[n]:
            k = o.kind
            if k == "score":
                if len(o.options) == 1:
                    points, used = o.options[0]
                    total += o.prob * after(t + points, n - used, r2, confirm)
                else:
                    total += o.prob * max(after(t + p, n - u, r2, confirm) for p, u in o.options)
            elif k == "golden":
                total += o.prob * m.sat
            elif k == "pair":
                total += o.prob * self.d[self._idx(ti, 0, r2 if self.rr > 1 else 0)]
        return total

    # -- queries ----------------------------------------------------------------------------------------
    def _pos(self, t: int, n: int, r: int) -> int:
        ti = t // STEP
        if ti > self.ti_max:
            ti = self.ti_max
        if self.rr == 1:
            r = 0
        elif r >= self.rr:
            r = self.rr - 1
        return (ti * 6 + n) * self.rr + r

    def decide(self, t: int, n: int, r: int = 0) -> bool:
        """True to roll the ``n`` dice in hand, False to bank, at turn total ``t`` after ``r`` counted rolls."""
        return bool(self.roll_ok[self._pos(t, n, r)])

    def value(self, t: int, n: int, r: int = 0) -> float:
        """Expected value at a decision point (``n = 0``: hot dice, the forced roll comes next)."""
        if self.model.cap is not None and t > self.model.cap:
            return 0.0
        return self.d[self._pos(t, n, r)]

    def roll_value(self, t: int, n: int, r: int = 0) -> float:
        """Expected value of rolling now (-inf when no counted roll is left)."""
        if self.model.cap is not None and t > self.model.cap:
            return 0.0
        return self.rv[self._pos(t, n, r)]

    def bank_value(self, t: int) -> float:
        return self.model.bank_value(t)

    def turn_value(self) -> float:
        """Expected value of a whole turn from its first roll."""
        return self.roll_value(0, 5, 0)


_TABLES: dict[TurnModel, Table] = {}
build_seconds = 0.0
"""Total time spent solving tables in this process."""


def table(model: TurnModel) -> Table:
    """The solved table of ``model`` (cached per process)."""
    global build_seconds
    tab = _TABLES.get(model)
    if tab is None:
        start = time.perf_counter()
        tab = _TABLES[model] = Table(model)
        build_seconds += time.perf_counter() - start
    return tab


def clear_cache() -> None:
    global build_seconds
    _TABLES.clear()
    build_seconds = 0.0


def cached_tables() -> int:
    return len(_TABLES)

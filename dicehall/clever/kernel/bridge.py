"""Between the engine's :class:`~dicehall.clever.state.CleverState` and the kernel's flat array."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from dicehall.clever.kernel import layout as L
from dicehall.clever.kernel import rules as K
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import CleverState, Sheet


def new_array(rules: CleverRules, num_players: int) -> np.ndarray:
    """The kernel's start of a game (the same position as ``CleverGame().new_initial_state``)."""
    rounds = CleverState(rules, num_players).rounds
    return K.new_game(num_players, rounds, rules.passive_fallback, rules.auto_single_choice)


def from_state(state: CleverState) -> np.ndarray:
    """The kernel array of an engine position."""
    if len(state.queue) > L.Q_CAP:
        raise ValueError(f"{len(state.queue)} pending bonuses do not fit the kernel's queue of {L.Q_CAP}")
    g = np.zeros(L.SIZE, np.int64)
    g[L.N] = state.n
    g[L.ROUNDS] = state.rounds
    g[L.ROUND] = state.round
    g[L.ACTIVE] = state.active
    g[L.PHASE] = state.phase
    g[L.ACTOR] = state.actor
    g[L.AFTER] = state.after
    g[L.VAL : L.VAL + 6] = state.values
    g[L.ROLL_MASK] = state.roll_mask
    g[L.FIELD] = sum(1 << d for d in state.field)
    g[L.FIELD_SEQ : L.FIELD_SEQ + len(state.field)] = state.field
    g[L.FIELD_N] = len(state.field)
    g[L.PLATTER] = state.platter
    g[L.ROLLS] = state.rolls
    g[L.PLUS_USED : L.PLUS_USED + state.n] = state.plus_used
    g[L.ORDER : L.ORDER + len(state.passive_order)] = state.passive_order
    g[L.ORDER_LEN] = len(state.passive_order)
    g[L.CHOICE] = int(state.choice_pending)
    g[L.FALLBACK] = int(state.rules.passive_fallback)
    g[L.AUTO_SINGLE] = int(state.rules.auto_single_choice)
    for i, (p, kind, _) in enumerate(state.queue):
        g[L.QUEUE + i] = p << 4 | kind
    g[L.Q_LEN] = len(state.queue)
    for p, sh in enumerate(state.sheets):
        s = L.SHEETS + p * L.STRIDE
        g[s : s + L.FOX + 1] = sheet_summary(sh)[: L.FOX + 1]
        g[s + L.OVALS : s + L.OVALS + len(sh.ovals)] = sh.ovals
        g[s + L.PVALS : s + L.PVALS + len(sh.pvals)] = sh.pvals
    return g


def to_state(g: np.ndarray, state: CleverState) -> None:
    """Copy the kernel position ``g`` into ``state`` (a state of the same game: players, rules).

    The kernel keeps no bonus origins, so only a position without pending bonuses (a finished game) comes back.
    """
    flat = g.tolist()
    if flat[L.Q_LEN]:
        raise ValueError(
            "the kernel keeps no bonus origins: copy back only positions without pending bonuses"
        )
    state.round = flat[L.ROUND]
    state.active = flat[L.ACTIVE]
    state.phase = flat[L.PHASE]
    state.actor = flat[L.ACTOR]
    state.after = flat[L.AFTER]
    state.values = flat[L.VAL : L.VAL + 6]
    state.roll_mask = flat[L.ROLL_MASK]
    state.field = tuple(flat[L.FIELD_SEQ : L.FIELD_SEQ + flat[L.FIELD_N]])
    state.platter = flat[L.PLATTER]
    state.rolls = flat[L.ROLLS]
    state.plus_used = flat[L.PLUS_USED : L.PLUS_USED + state.n]
    state.passive_order = tuple(_order(flat))
    state.queue = []
    state.choice_pending = bool(flat[L.CHOICE])
    for p, sh in enumerate(state.sheets):
        s = L.SHEETS + p * L.STRIDE
        (sh.ymask, sh.bmask, sh.gcount, _, sh.osum, _, sh.plast, sh.psum) = flat[s : s + L.RRG]
        (sh.rr_gain, sh.rr_used, sh.p1_gain, sh.p1_used, sh.foxes) = flat[s + L.RRG : s + L.FOX + 1]
        sh.ovals = tuple(flat[s + L.OVALS : s + L.OVALS + flat[s + L.OC]])
        sh.pvals = tuple(flat[s + L.PVALS : s + L.PVALS + flat[s + L.PC]])
    state.log = []
    state.phase_start = None  # (a finished game: no simultaneous phase is open)
    state._legal = None


def _order(flat: Sequence[int]) -> list[int]:
    head = L.ORDER + flat[L.ORDER_HEAD]
    return list(flat[head : head + flat[L.ORDER_LEN]])


def _queue(flat: Sequence[int]) -> list[int]:
    return [flat[L.QUEUE + (flat[L.Q_HEAD] + i) % L.Q_CAP] for i in range(flat[L.Q_LEN])]


def sheet_summary(sh: Sheet) -> tuple[int, ...]:
    """The engine sheet's numbers in the kernel's sheet order, then the written orange and purple values."""
    return (
        sh.ymask,
        sh.bmask,
        sh.gcount,
        len(sh.ovals),
        sh.osum,
        len(sh.pvals),
        sh.plast,
        sh.psum,
        sh.rr_gain,
        sh.rr_used,
        sh.p1_gain,
        sh.p1_used,
        sh.foxes,
        *sh.ovals,
        *sh.pvals,
    )


def kernel_sheet(g: np.ndarray | list[int], p: int) -> tuple[int, ...]:
    """The kernel sheet's numbers in the order of :func:`sheet_summary` (``g`` as array or list)."""
    flat = g if isinstance(g, list) else g.tolist()
    s = L.SHEETS + p * L.STRIDE
    return (
        *flat[s : s + L.FOX + 1],
        *flat[s + L.OVALS : s + L.OVALS + flat[s + L.OC]],
        *flat[s + L.PVALS : s + L.PVALS + flat[s + L.PC]],
    )


def turn_summary(state: CleverState) -> tuple[object, ...]:
    """Everything of the engine position besides the sheets (what :func:`kernel_turn` gives for the kernel)."""
    return (
        state.round,
        state.active,
        state.phase,
        state.after,
        state.values,
        state.roll_mask,
        state.field,
        state.platter,
        state.rolls,
        state.plus_used,
        list(state.passive_order),
        [p << 4 | k for p, k, _ in state.queue],
        int(state.choice_pending),
    )


def kernel_turn(g: np.ndarray | list[int]) -> tuple[object, ...]:
    flat = g if isinstance(g, list) else g.tolist()
    return (
        flat[L.ROUND],
        flat[L.ACTIVE],
        flat[L.PHASE],
        flat[L.AFTER],
        flat[L.VAL : L.VAL + 6],
        flat[L.ROLL_MASK],
        tuple(flat[L.FIELD_SEQ : L.FIELD_SEQ + flat[L.FIELD_N]]),
        flat[L.PLATTER],
        flat[L.ROLLS],
        flat[L.PLUS_USED : L.PLUS_USED + flat[L.N]],
        _order(flat),
        _queue(flat),
        flat[L.CHOICE],
    )


def finish_random(state: CleverState, chance_rng: np.random.Generator, bot_rng: np.random.Generator) -> None:
    """Play ``state`` to the end with random decisions in the kernel and copy the end position back.

    The draws are those of the engine path (``play_game`` with ``RandomAgent``), so it is the same game, and both
    generators are left where that path leaves them.
    """
    g = from_state(state)
    K.play_random(g, chance_rng, bot_rng)
    to_state(g, state)


def finish_master(
    state: CleverState,
    chance_rng: np.random.Generator,
    weights: list[np.ndarray],
    lookahead: tuple[np.ndarray, float, int, bool, np.ndarray] | None = None,
) -> None:
    """Play ``state`` to the end with the learned policy in every seat (``bot:master`` needs no random draws);
    ``lookahead``: the arguments of :func:`search.choose_search` (None: the plain afterstate argmax)."""
    from dicehall.clever.kernel import net, search

    g = from_state(state)
    if lookahead is None:
        net.play_greedy(g, chance_rng, *weights)
    else:
        w1, b1, w2, b2, w3, b3 = weights
        search.play_search(g, chance_rng, w1, b1, w2, b2, w3, b3, *lookahead)
    to_state(g, state)

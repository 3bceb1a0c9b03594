"""The learned afterstate value: a small ReLU MLP (features → H1 → H2 → 1) and TD(λ) self-play, compiled.

V(afterstate) ≈ final score / 300 of the player who moved, computed as the points already on the sheet / 300 plus
the network's estimate of the points still to come (the score so far is known exactly, so the network only learns
what the future adds). The policy plays the legal action whose afterstate
has the highest value (the exact final score / 300 when the action ends the game). Weights are plain float64
arrays ``w1 (F, H1), b1, w2 (H1, H2), b2, w3 (H2,), b3 (1,)`` so numpy alone can load and use them.
"""

from __future__ import annotations

import numpy as np

from dicehall.clever.kernel import rules as K
from dicehall.clever.kernel.features import COUNT, features
from dicehall.clever.kernel.layout import SIZE, njit
from dicehall.core.game import CHANCE, TERMINAL

SCALE = 300.0


def init_weights(rng: np.random.Generator, h1: int, h2: int) -> list[np.ndarray]:
    """He-initialised layers; the estimate of the points to come starts near 100 / 300."""
    return [
        rng.normal(0.0, np.sqrt(2.0 / COUNT), (COUNT, h1)),
        np.zeros(h1),
        rng.normal(0.0, np.sqrt(2.0 / h1), (h1, h2)),
        np.zeros(h2),
        rng.normal(0.0, np.sqrt(1.0 / h2), h2) * 0.1,
        np.array([1.0 / 3.0]),
    ]


@njit
def forward(
    x: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    a1: np.ndarray,
    a2: np.ndarray,
) -> float:
    """The value of features ``x``; ``a1``/``a2`` receive the hidden activations (after ReLU)."""
    n1 = a1.shape[0]
    n2 = a2.shape[0]
    a1[:] = b1
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            for j in range(n1):
                a1[j] += xi * w1[i, j]
    a2[:] = b2
    for j in range(n1):
        aj = a1[j]
        if aj > 0.0:
            for k in range(n2):
                a2[k] += aj * w2[j, k]
        else:
            a1[j] = 0.0
    v = b3[0]
    for k in range(a2.shape[0]):
        if a2[k] > 0.0:
            v += a2[k] * w3[k]
        else:
            a2[k] = 0.0
    return float(v)


@njit
def afterstate_value(
    g: np.ndarray,
    p: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    x: np.ndarray,
    a1: np.ndarray,
    a2: np.ndarray,
) -> float:
    now = K.total(g, p) / SCALE
    if g[4] == K.PH_OVER:  # the game is over: the exact result
        x[:] = 0.0
        return now
    features(g, p, x)
    return now + forward(x, w1, b1, w2, b2, w3, b3, a1, a2)


@njit
def choose(
    g: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    out: np.ndarray,
    values: np.ndarray,
) -> int:
    """Index (into ``out``, filled with the legal actions) of the best afterstate; ``values`` gets each value."""
    p = K.current_player(g)
    k = K.legal(g, out)
    x = np.empty(COUNT)
    a1 = np.empty(b1.shape[0])
    a2 = np.empty(b2.shape[0])
    h = np.empty(SIZE, np.int64)
    best = 0
    for i in range(k):
        h[:] = g
        K.apply(h, out[i])
        values[i] = afterstate_value(h, p, w1, b1, w2, b2, w3, b3, x, a1, a2)
        if values[i] > values[best]:
            best = i
    return best


@njit
def play_greedy(
    g: np.ndarray,
    rng: np.random.Generator,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
) -> None:
    """Finish the game with every seat playing the learned policy (no exploration); dice from ``rng``."""
    out = np.empty(K.MAX_LEGAL, np.int64)
    values = np.empty(K.MAX_LEGAL)
    while True:
        p = K.current_player(g)
        if p == TERMINAL:
            return
        if p == CHANCE:
            K.apply(g, K.sample_chance(g, rng))
        else:
            K.apply(g, out[choose(g, w1, b1, w2, b2, w3, b3, out, values)])


@njit
def _grad_step(
    x: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    e1: np.ndarray,
    f1: np.ndarray,
    e2: np.ndarray,
    f2: np.ndarray,
    e3: np.ndarray,
    f3: np.ndarray,
    lam: float,
) -> float:
    """Value of ``x``; decays the eligibility traces by ``lam`` and adds the value's gradient to them."""
    n1 = b1.shape[0]
    n2 = b2.shape[0]
    a1 = np.empty(n1)
    a2 = np.empty(n2)
    v = forward(x, w1, b1, w2, b2, w3, b3, a1, a2)
    d2 = np.zeros(n2)
    for k in range(n2):
        if a2[k] > 0.0:
            d2[k] = w3[k]
    d1 = np.zeros(n1)
    for j in range(n1):
        if a1[j] > 0.0:
            acc = 0.0
            for k in range(n2):
                acc += w2[j, k] * d2[k]
            d1[j] = acc
    for i in range(x.shape[0]):
        xi = x[i]
        for j in range(n1):
            e1[i, j] = lam * e1[i, j] + xi * d1[j]
    for j in range(n1):
        f1[j] = lam * f1[j] + d1[j]
        aj = a1[j]
        for k in range(n2):
            e2[j, k] = lam * e2[j, k] + aj * d2[k]
    for k in range(n2):
        f2[k] = lam * f2[k] + d2[k]
        e3[k] = lam * e3[k] + a2[k]
    f3[0] = lam * f3[0] + 1.0
    return v


@njit
def _update(
    step: float,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    e1: np.ndarray,
    f1: np.ndarray,
    e2: np.ndarray,
    f2: np.ndarray,
    e3: np.ndarray,
    f3: np.ndarray,
) -> None:
    """Weights += step × traces (no temporaries)."""
    for i in range(w1.shape[0]):
        for j in range(w1.shape[1]):
            w1[i, j] += step * e1[i, j]
    for j in range(w2.shape[0]):
        b1[j] += step * f1[j]
        for k in range(w2.shape[1]):
            w2[j, k] += step * e2[j, k]
    for k in range(w3.shape[0]):
        b2[k] += step * f2[k]
        w3[k] += step * e3[k]
    b3[0] += step * f3[0]


@njit
def td_episodes(
    games: int,
    players: int,
    rounds: int,
    rng: np.random.Generator,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    lr: float,
    lam: float,
    eps: float,
    scores: np.ndarray,
) -> int:
    """Self-play ``games`` with online TD(λ) on the weights (in place); seat 0's scores into ``scores``.

    Every seat plays the current policy (ε-greedy) and learns from its own afterstates. Returns the number of
    value updates made.
    """
    out = np.empty(K.MAX_LEGAL, np.int64)
    values = np.empty(K.MAX_LEGAL)
    x = np.empty(COUNT)
    a1 = np.empty(b1.shape[0])
    a2 = np.empty(b2.shape[0])
    h = np.empty(SIZE, np.int64)
    updates = 0
    traces = []
    for _ in range(players):
        traces.append(
            (
                np.zeros_like(w1),
                np.zeros_like(b1),
                np.zeros_like(w2),
                np.zeros_like(b2),
                np.zeros_like(w3),
                np.zeros_like(b3),
            )
        )
    last = np.zeros(players)
    started = np.zeros(players, np.bool_)
    for game in range(games):
        g = K.new_game(players, rounds, True, True)
        for p in range(players):
            started[p] = False
            e1, f1, e2, f2, e3, f3 = traces[p]
            e1[...] = 0.0
            f1[...] = 0.0
            e2[...] = 0.0
            f2[...] = 0.0
            e3[...] = 0.0
            f3[...] = 0.0
        while True:
            p = K.current_player(g)
            if p == TERMINAL:
                break
            if p == CHANCE:
                K.apply(g, K.sample_chance(g, rng))
                continue
            k = K.legal(g, out)
            if k == 1:
                pick = 0
            elif rng.random() < eps:
                pick = int(rng.integers(0, k))
            else:
                pick = choose(g, w1, b1, w2, b2, w3, b3, out, values)
            K.apply(g, out[pick])
            if g[4] == K.PH_OVER:
                break
            h[:] = g
            features(h, p, x)
            e1, f1, e2, f2, e3, f3 = traces[p]
            if started[p]:  # TD error of the previous afterstate, with the new one as target
                v_new = K.total(h, p) / SCALE + forward(x, w1, b1, w2, b2, w3, b3, a1, a2)
                _update(lr * (v_new - last[p]), w1, b1, w2, b2, w3, b3, e1, f1, e2, f2, e3, f3)
                updates += 1
            last[p] = K.total(h, p) / SCALE + _grad_step(
                x, w1, b1, w2, b2, w3, b3, e1, f1, e2, f2, e3, f3, lam
            )
            started[p] = True
        for p in range(players):  # the final result is every seat's last target
            if started[p]:
                e1, f1, e2, f2, e3, f3 = traces[p]
                _update(
                    lr * (K.total(g, p) / SCALE - last[p]), w1, b1, w2, b2, w3, b3, e1, f1, e2, f2, e3, f3
                )
                updates += 1
        scores[game] = K.total(g, 0)
    return updates

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


def widen(weights: list[np.ndarray]) -> list[np.ndarray]:
    """Weights made for an older, shorter feature list (new features are appended) with zero input rows for the
    new features: the network's values, so its play, stay exactly the same."""
    rows = weights[0].shape[0]
    if rows > COUNT:
        raise ValueError(f"the network takes {rows} features, more than the {COUNT} of this version")
    if rows == COUNT:
        return weights
    w1 = np.zeros((COUNT, weights[0].shape[1]), weights[0].dtype)
    w1[:rows] = weights[0]
    return [w1, *weights[1:]]


def grow(weights: list[np.ndarray], h1: int, h2: int, rng: np.random.Generator) -> list[np.ndarray]:
    """The same function with wider hidden layers (``h1``, ``h2`` at least the current sizes): the new units get
    random inputs and zero outputs, so the value (and the play) is unchanged and training can use them at once."""
    w1, b1, w2, b2, w3, b3 = (np.asarray(w, np.float64) for w in widen(weights))
    n1, n2 = b1.shape[0], b2.shape[0]
    if h1 < n1 or h2 < n2:
        raise ValueError(f"cannot shrink a {n1}→{n2} network to {h1}→{h2}")
    g1 = np.zeros((COUNT, h1))
    g1[:, :n1] = w1
    g1[:, n1:] = rng.normal(0.0, np.sqrt(2.0 / COUNT), (COUNT, h1 - n1))
    g2 = np.zeros((h1, h2))
    g2[:n1, :n2] = w2
    g2[:n1, n2:] = rng.normal(0.0, np.sqrt(2.0 / h1), (n1, h2 - n2))  # new units of layer 1 feed nothing yet
    g3 = np.zeros(h2)
    g3[:n2] = w3
    return [
        g1,
        np.concatenate([b1, np.zeros(h1 - n1)]),
        g2,
        np.concatenate([b2, np.zeros(h2 - n2)]),
        g3,
        b3.copy(),
    ]


def table_offsets(weights: list[np.ndarray], par: dict[int, list[float]]) -> list[np.ndarray]:
    """A solo network made ready for the lead objective at tables of 2–4 (a warm start): one new first-layer
    unit per table size ``n`` is ``ReLU(seats_n + par[n][k] / 300 − 1)`` at ``k`` rounds left (zero solo and at
    other sizes), and one new second-layer unit subtracts their sum from the value. So solo values are exactly
    the old ones and at a table the value starts at the old estimate of one's own final score minus ``par``
    (the best opponent's points still to come, measured), near the expected lead, not 150 points above it."""
    from dicehall.clever.kernel.features import NAMES

    w1, b1, w2, b2, w3, b3 = (np.asarray(w, np.float64) for w in widen(weights))
    n1, n2 = b1.size, b2.size
    sizes = sorted(par)
    g1 = np.zeros((COUNT, n1 + len(sizes)))
    g1[:, :n1] = w1
    c1 = np.concatenate([b1, -np.ones(len(sizes))])
    for u, n in enumerate(sizes):
        g1[NAMES.index(f"seats {n}"), n1 + u] = 1.0
        for k, points in enumerate(par[n]):
            g1[NAMES.index(f"rounds left {k}"), n1 + u] = points / SCALE
    g2 = np.zeros((n1 + len(sizes), n2 + 1))
    g2[:n1, :n2] = w2
    g2[n1:, n2] = 1.0
    return [g1, c1, g2, np.concatenate([b2, [0.0]]), np.concatenate([w3, [-1.0]]), b3.copy()]


def ensemble(nets: list[list[np.ndarray]]) -> list[np.ndarray]:
    """One network whose value is the mean of the values of ``nets`` (same features and hidden sizes ``H1 → H2``):
    ``w1``, ``b1``, ``b2`` side by side, ``w3`` and ``b3`` side by side divided by the count (``b3`` holds one bias
    per member), and the members' second layers stacked, ``w2`` of shape ``(count·H1, H2)``: :func:`forward` sends
    hidden unit ``j`` of the first layer to its own member's block of the second, so the ensemble costs what its
    members cost, and a single network is the case ``count = 1``."""
    parts = [[np.asarray(w, np.float64) for w in widen(weights)] for weights in nets]
    if not parts:
        raise ValueError("an ensemble needs at least one network")
    if len({(p[1].size, p[3].size) for p in parts}) != 1 or any(members(p) != 1 for p in parts):
        raise ValueError("the networks of an ensemble must be single networks with the same hidden sizes")
    n = len(parts)
    return [
        np.concatenate([p[0] for p in parts], axis=1),
        np.concatenate([p[1] for p in parts]),
        np.concatenate([p[2] for p in parts], axis=0),
        np.concatenate([p[3] for p in parts]),
        np.concatenate([p[4] for p in parts]) / n,
        np.concatenate([p[5] for p in parts]) / n,
    ]


def members(weights: list[np.ndarray]) -> int:
    """How many networks ``weights`` average (1 for a single network; see :func:`ensemble`)."""
    return int(weights[5].size)


def split(weights: list[np.ndarray]) -> list[list[np.ndarray]]:
    """The member networks of an ensemble (up to rounding: the output layer is multiplied back by the count)."""
    w1, b1, w2, b2, w3, b3 = weights
    n = members(weights)
    h1, h2 = b1.size // n, b2.size // n
    return [
        [
            w1[:, i * h1 : (i + 1) * h1],
            b1[i * h1 : (i + 1) * h1],
            w2[i * h1 : (i + 1) * h1],
            b2[i * h2 : (i + 1) * h2],
            w3[i * h2 : (i + 1) * h2] * n,
            b3[i : i + 1] * n,
        ]
        for i in range(n)
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
    """The value of features ``x``; ``a1``/``a2`` receive the hidden activations (after ReLU). An ensemble's
    second layer is its members' stacked (:func:`ensemble`): unit ``j`` feeds only its member's block."""
    n1 = a1.shape[0]
    m = w2.shape[1]
    rows = n1 // b3.shape[0]  # first-layer units per member
    a1[:] = b1
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            row = w1[i]  # contiguous 1-D views: Numba vectorises these loops (1.6 times faster than w1[i, j])
            for j in range(n1):
                a1[j] += xi * row[j]
    a2[:] = b2
    for j in range(n1):
        aj = a1[j]
        if aj > 0.0:
            row = w2[j]
            block = a2[(j // rows) * m : (j // rows + 1) * m]
            for k in range(m):
                block[k] += aj * row[k]
        else:
            a1[j] = 0.0
    v = b3[0]
    for e in range(1, b3.shape[0]):
        v += b3[e]
    for k in range(a2.shape[0]):
        if a2[k] > 0.0:
            v += a2[k] * w3[k]
        else:
            a2[k] = 0.0
    return float(v)


@njit
def decision_scratch() -> tuple[np.ndarray, np.ndarray]:
    """Room for the legal actions at a decision (``out``) and a value for each (``values``)."""
    return np.empty(K.MAX_LEGAL, np.int64), np.empty(K.MAX_LEGAL)


@njit
def value_scratch(b1: np.ndarray, b2: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Room for a position's features ``x`` and the hidden activations ``a1``/``a2`` of the network with biases
    ``b1``/``b2`` (what :func:`afterstate_value` writes to)."""
    return np.empty(COUNT), np.empty(b1.shape[0]), np.empty(b2.shape[0])


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
def afterstate_values(
    g: np.ndarray,
    p: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    out: np.ndarray,
    values: np.ndarray,
) -> int:
    """Fill ``out`` with the legal actions at ``g`` and ``values`` with the value for ``p`` of each one's
    afterstate; the number of actions. The one loop behind :func:`choose` and the look-ahead's leaves."""
    k = K.legal(g, out)
    x, a1, a2 = value_scratch(b1, b2)
    h = np.empty(SIZE, np.int64)
    for i in range(k):
        h[:] = g
        K.apply(h, out[i])
        values[i] = afterstate_value(h, p, w1, b1, w2, b2, w3, b3, x, a1, a2)
    return k


@njit
def first_best(values: np.ndarray, k: int) -> int:
    """Index of the highest of ``values[:k]`` (ties: the first)."""
    best = 0
    for i in range(k):
        if values[i] > values[best]:
            best = i
    return best


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
    k = afterstate_values(g, K.current_player(g), w1, b1, w2, b2, w3, b3, out, values)
    return first_best(values, k)


@njit
def best_value(
    g: np.ndarray,
    p: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    out: np.ndarray,
    values: np.ndarray,
) -> float:
    """The highest afterstate value for ``p`` of the legal actions at ``g`` (``out``/``values``: scratch)."""
    k = afterstate_values(g, p, w1, b1, w2, b2, w3, b3, out, values)
    return float(values[first_best(values, k)])


@njit
def lead(g: np.ndarray, p: int) -> int:
    """``p``'s total minus the best other total (``p``'s total at a solo table): the multi-seat objective. Every
    legal action of ``p`` leaves the others' sheets alone, so this and the own total rank ``p``'s choices by the
    same values; only the value learned for the rest of the game differs."""
    best = 0
    for q in range(g[0]):
        if q != p:
            best = max(best, K.total(g, q))
    return K.total(g, p) - best


@njit
def roll_to_decision(g: np.ndarray, rng: np.random.Generator) -> int:
    """Roll the dice (from ``rng``) until someone decides or the game ends; who decides, or ``TERMINAL``."""
    while True:
        p = K.current_player(g)
        if p != CHANCE:
            return p
        K.apply(g, K.sample_chance(g, rng))


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
    out, values = decision_scratch()
    while roll_to_decision(g, rng) != TERMINAL:
        K.apply(g, out[choose(g, w1, b1, w2, b2, w3, b3, out, values)])


@njit
def play_table(
    g: np.ndarray,
    rng: np.random.Generator,
    seat_net: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    v1: np.ndarray,
    c1: np.ndarray,
    v2: np.ndarray,
    c2: np.ndarray,
    v3: np.ndarray,
    c3: np.ndarray,
) -> None:
    """Finish the game, seat ``p`` playing the plain argmax of the first network where ``seat_net[p] == 0``, of
    the second elsewhere; dice from ``rng`` (the training's table evaluation)."""
    out, values = decision_scratch()
    while True:
        p = roll_to_decision(g, rng)
        if p == TERMINAL:
            return
        if seat_net[p] == 0:
            K.apply(g, out[choose(g, w1, b1, w2, b2, w3, b3, out, values)])
        else:
            K.apply(g, out[choose(g, v1, c1, v2, c2, v3, c3, out, values)])


@njit
def _explore(
    g: np.ndarray,
    rng: np.random.Generator,
    eps: float,
    w1: np.ndarray,
    b1: np.ndarray,
    w2: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: np.ndarray,
    out: np.ndarray,
    values: np.ndarray,
) -> int:
    """Roll up to the next decision and take it ε-greedily (a lone legal action draws nothing from ``rng``): the
    seat that moved, or ``TERMINAL`` when the game is over. The self-play step of both trainers."""
    p = roll_to_decision(g, rng)
    if p == TERMINAL:
        return p
    k = K.legal(g, out)
    if k == 1:
        pick = 0
    elif rng.random() < eps:
        pick = int(rng.integers(0, k))
    else:
        pick = choose(g, w1, b1, w2, b2, w3, b3, out, values)
    K.apply(g, out[pick])
    return p


@njit
def _zeros_like(
    w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, w3: np.ndarray, b3: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Zero arrays shaped like the six weight arrays (eligibility traces, gradient sums)."""
    return (
        np.zeros_like(w1),
        np.zeros_like(b1),
        np.zeros_like(w2),
        np.zeros_like(b2),
        np.zeros_like(w3),
        np.zeros_like(b3),
    )


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
    a1: np.ndarray,
    a2: np.ndarray,
) -> float:
    """Value of ``x``; decays the eligibility traces by ``lam`` and adds the value's gradient to them (``a1``/``a2``:
    scratch for the activations)."""
    n1 = b1.shape[0]
    n2 = b2.shape[0]
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
    out, values = decision_scratch()
    x, a1, a2 = value_scratch(b1, b2)
    updates = 0
    last = np.zeros(players)
    started = np.zeros(players, np.bool_)
    for game in range(games):
        g = K.new_game(players, rounds, True, True)
        traces = [_zeros_like(w1, b1, w2, b2, w3, b3) for _ in range(players)]
        started[:] = False
        while True:
            p = _explore(g, rng, eps, w1, b1, w2, b2, w3, b3, out, values)
            if p == TERMINAL or g[4] == K.PH_OVER:
                break
            features(g, p, x)
            now = K.total(g, p) / SCALE
            e1, f1, e2, f2, e3, f3 = traces[p]
            if started[p]:  # TD error of the previous afterstate, with the new one as target
                v_new = now + forward(x, w1, b1, w2, b2, w3, b3, a1, a2)
                _update(lr * (v_new - last[p]), w1, b1, w2, b2, w3, b3, e1, f1, e2, f2, e3, f3)
                updates += 1
            last[p] = now + _grad_step(x, w1, b1, w2, b2, w3, b3, e1, f1, e2, f2, e3, f3, lam, a1, a2)
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


# -- forward-view TD(λ) with Adam (the default trainer; see docs/clever-training.md) -------------------------


@njit
def play_record(
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
    lam: float,
    eps: float,
    xs: np.ndarray,
    ys: np.ndarray,
    scores: np.ndarray,
    margin: bool = False,
) -> int:
    """Self-play ``games`` with fixed weights (ε-greedy); record every seat's afterstates and their λ-returns.

    Row ``i`` of ``xs`` gets the features of a recorded afterstate and ``ys[i]`` the network's regression target:
    the λ-return G_t = (1 − λ)·V(s_{t+1}) + λ·G_{t+1} (G of the last afterstate: the final result / 300) minus the
    result so far (the part the network predicts). The result is the seat's own score, or with ``margin`` its
    :func:`lead` over the best opponent (the same at a solo table). Returns the number of rows written; stops
    recording (never overruns) when ``xs`` is full.
    """
    out, values = decision_scratch()
    x, a1, a2 = value_scratch(b1, b2)
    cap = xs.shape[0]
    rows = 0
    seat_rows = np.empty((players, 400), np.int64)  # the rows of each seat's afterstates, in order
    seat_now = np.empty((players, 400))  # the points on the sheet at each of them / 300
    seat_v = np.empty((players, 400))  # the value (now + network) of each
    seat_n = np.zeros(players, np.int64)
    for game in range(games):
        g = K.new_game(players, rounds, True, True)
        seat_n[:] = 0
        while True:
            p = _explore(g, rng, eps, w1, b1, w2, b2, w3, b3, out, values)
            if p == TERMINAL:
                break
            if g[4] == K.PH_OVER or rows >= cap or seat_n[p] >= seat_rows.shape[1]:
                continue
            n = seat_n[p]
            seat_rows[p, n] = rows
            own = K.total(g, p) / SCALE
            now = lead(g, p) / SCALE if margin else own
            seat_now[p, n] = now
            seat_v[p, n] = now + afterstate_value(g, p, w1, b1, w2, b2, w3, b3, x, a1, a2) - own  # fills x
            seat_n[p] = n + 1
            xs[rows, :] = x
            rows += 1
        for p in range(players):
            ret = (lead(g, p) if margin else K.total(g, p)) / SCALE
            for t in range(seat_n[p] - 1, -1, -1):
                ys[seat_rows[p, t]] = ret - seat_now[p, t]
                ret = (1.0 - lam) * seat_v[p, t] + lam * ret
        scores[game] = K.total(g, 0)
    return rows


@njit
def _backprop(
    x: np.ndarray,
    err: float,
    w2: np.ndarray,
    w3: np.ndarray,
    a1: np.ndarray,
    a2: np.ndarray,
    g1: np.ndarray,
    h1: np.ndarray,
    g2: np.ndarray,
    h2: np.ndarray,
    g3: np.ndarray,
    h3: np.ndarray,
) -> None:
    """Add the gradient of ½·err² (err = output − target) to the gradient arrays."""
    n1 = a1.shape[0]
    n2 = a2.shape[0]
    d2 = np.zeros(n2)
    for k in range(n2):
        if a2[k] > 0.0:
            d2[k] = err * w3[k]
            g3[k] += err * a2[k]
            h2[k] += d2[k]
    h3[0] += err
    for j in range(n1):
        aj = a1[j]
        if aj > 0.0:
            acc = 0.0
            for k in range(n2):
                g2[j, k] += aj * d2[k]
                acc += w2[j, k] * d2[k]
            h1[j] += acc
            for i in range(x.shape[0]):
                if x[i] != 0.0:
                    g1[i, j] += x[i] * acc


@njit
def _adam(
    w: np.ndarray, g: np.ndarray, m: np.ndarray, v: np.ndarray, lr: float, c1: float, c2: float
) -> None:
    """One Adam step (β 0.9 / 0.999) of ``w`` from the mean gradient ``g`` (all flat views); clears ``g``."""
    for i in range(w.shape[0]):
        gi = g[i]
        m[i] = 0.9 * m[i] + 0.1 * gi
        v[i] = 0.999 * v[i] + 0.001 * gi * gi
        w[i] -= lr * (m[i] / c1) / (np.sqrt(v[i] / c2) + 1e-8)
        g[i] = 0.0


@njit
def adam_pass(
    xs: np.ndarray,
    ys: np.ndarray,
    order: np.ndarray,
    batch: int,
    lr: float,
    step: int,
    weights: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    moments: np.ndarray,
) -> tuple[int, float]:
    """Minibatches of rows ``order`` of (``xs``, ``ys``), one Adam step each; (the new step count, mean |error|).

    ``moments`` is the flat Adam state, first all first moments then all second moments, in weight order.
    """
    w1, b1, w2, b2, w3, b3 = weights
    a1 = np.empty(b1.shape[0])
    a2 = np.empty(b2.shape[0])
    g1, h1, g2, h2, g3, h3 = _zeros_like(w1, b1, w2, b2, w3, b3)
    size = w1.size + b1.size + w2.size + b2.size + w3.size + b3.size
    first = moments[:size]
    second = moments[size:]
    total_err = 0.0
    x = np.empty(xs.shape[1])
    for start in range(0, order.shape[0], batch):
        end = min(order.shape[0], start + batch)
        for r in range(start, end):
            row = order[r]
            for i in range(x.shape[0]):
                x[i] = xs[row, i]
            err = forward(x, w1, b1, w2, b2, w3, b3, a1, a2) - ys[row]
            total_err += abs(err)
            _backprop(x, err, w2, w3, a1, a2, g1, h1, g2, h2, g3, h3)
        step += 1
        c1 = 1.0 - 0.9**step
        c2 = 1.0 - 0.999**step
        scale = 1.0 / (end - start)
        off = 0
        pairs = (
            (w1.reshape(-1), g1.reshape(-1)),
            (b1, h1),
            (w2.reshape(-1), g2.reshape(-1)),
            (b2, h2),
            (w3, g3),
            (b3, h3),
        )
        for w, g in pairs:
            g *= scale
            _adam(w, g, first[off : off + w.size], second[off : off + w.size], lr, c1, c2)
            off += w.size
    return step, total_err / max(1, order.shape[0])

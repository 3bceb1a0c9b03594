"""NumPy's seeding and PCG64 draws, compiled: a game's generators made inside the kernel, bit for bit NumPy's.

``dicehall simulate`` gives game ``i`` the dice of ``seeded_rng(game_seed(seed, i))`` and the bots' draws of
``agent_rng(...)`` (:mod:`dicehall.core.rng`); building those two NumPy generators costs about 100 µs a game in
Python, eight times a whole random game in the kernel. Here the same :class:`numpy.random.SeedSequence` hashing,
the PCG64 step and output, and the ``Generator`` methods the rules use (``integers`` by Lemire's method with
NumPy's buffered 32-bit half, ``random``) run compiled on a small state array, so a block of games is seeded and
played without leaving the kernel. ``tests/clever/test_pcg.py`` checks every draw against NumPy.

State array (``uint64[6]``): the 128-bit PCG state (high, low), the increment (high, low), whether a 32-bit half
is buffered, and that half.
"""

from __future__ import annotations

import numpy as np

from dicehall.clever.kernel.layout import flat, njit
from dicehall.core.rng import int_words  # noqa: F401  (the kernel's seeds: re-exported)

U = np.uint64
M32 = U(0xFFFFFFFF)
S32 = U(32)
S16 = U(16)
INIT_A = U(0x43B0D7E5)
MULT_A = U(0x931E8875)
INIT_B = U(0x8B51F9DD)
MULT_B = U(0x58F38DED)
MIX_L = U(0xCA01F9DD)
MIX_R = U(0x4973F715)
PCG_HI = U(2549297995355413924)
PCG_LO = U(4865540595714422341)
POOL = 4


@njit
def _hashmix(value: np.uint64, hc: np.ndarray) -> np.uint64:
    value = (value ^ hc[0]) & M32
    hc[0] = (hc[0] * MULT_A) & M32
    value = (value * hc[0]) & M32
    return value ^ (value >> S16)


@njit
def _mix(x: np.uint64, y: np.uint64) -> np.uint64:
    r = ((MIX_L * x) - (MIX_R * y)) & M32
    return r ^ (r >> S16)


@njit
def seed_words(entropy: np.ndarray, n64: int, out: np.ndarray) -> None:
    """``SeedSequence(entropy words).generate_state(n64, uint64)`` into ``out`` (entropy: the assembled words)."""
    pool = np.zeros(POOL, np.uint64)
    hc = np.empty(1, np.uint64)
    hc[0] = INIT_A
    for i in range(POOL):
        pool[i] = _hashmix(entropy[i] if i < entropy.shape[0] else U(0), hc)
    for src in range(POOL):
        for dst in range(POOL):
            if src != dst:
                pool[dst] = _mix(pool[dst], _hashmix(pool[src], hc))
    for src in range(POOL, entropy.shape[0]):
        for dst in range(POOL):
            pool[dst] = _mix(pool[dst], _hashmix(entropy[src], hc))
    h = INIT_B
    for k in range(n64):
        word = U(0)
        for half in range(2):
            v = (pool[(2 * k + half) % POOL] ^ h) & M32
            h = (h * MULT_B) & M32
            v = (v * h) & M32
            v ^= v >> S16
            word |= v << (S32 * U(half))
        out[k] = word


@njit
def spawn_entropy(run: np.ndarray, key: int) -> np.ndarray:
    """The words of ``SeedSequence(run, spawn_key=(key,))``: the run's words padded to the pool, then the key's."""
    kw = 1
    rest = key >> 32
    while rest:
        kw += 1
        rest >>= 32
    n = max(run.shape[0], POOL)
    out = np.zeros(n + kw, np.uint64)
    out[: run.shape[0]] = run
    k = key
    for i in range(kw):
        out[n + i] = U(k & 0xFFFFFFFF)
        k >>= 32
    return out


@njit
def words128(hi: np.uint64, lo: np.uint64) -> np.ndarray:
    """The entropy words of the 128-bit int ``hi << 64 | lo`` (as :func:`int_words`)."""
    w = np.empty(4, np.uint64)
    w[0] = lo & M32
    w[1] = lo >> S32
    w[2] = hi & M32
    w[3] = hi >> S32
    n = 4
    while n > 1 and w[n - 1] == 0:
        n -= 1
    return w[:n].copy()


@flat
def _mulhi(a: np.uint64, b: np.uint64) -> np.uint64:
    a0 = a & M32
    a1 = a >> S32
    b0 = b & M32
    b1 = b >> S32
    p0 = a0 * b0
    p1 = a0 * b1
    p2 = a1 * b0
    mid = (p0 >> S32) + (p1 & M32) + (p2 & M32)
    return a1 * b1 + (p1 >> S32) + (p2 >> S32) + (mid >> S32)


@flat
def _step(st: np.ndarray) -> None:
    hi, lo = st[0], st[1]
    nlo = lo * PCG_LO
    nhi = _mulhi(lo, PCG_LO) + lo * PCG_HI + hi * PCG_LO
    slo = nlo + st[3]
    carry = U(1) if slo < nlo else U(0)
    st[0] = nhi + st[2] + carry
    st[1] = slo


@njit
def pcg_seed(st: np.ndarray, entropy: np.ndarray) -> None:
    """``st`` becomes ``PCG64(SeedSequence(entropy words))`` (as ``np.random.default_rng`` builds it)."""
    val = np.empty(4, np.uint64)
    seed_words(entropy, 4, val)
    st[2] = (val[2] << U(1)) | (val[3] >> U(63))
    st[3] = (val[3] << U(1)) | U(1)
    st[0] = U(0)
    st[1] = U(0)
    _step(st)
    lo = st[1] + val[1]
    carry = U(1) if lo < st[1] else U(0)
    st[0] = st[0] + val[0] + carry
    st[1] = lo
    _step(st)
    st[4] = U(0)
    st[5] = U(0)


@flat
def next64(st: np.ndarray) -> np.uint64:
    _step(st)
    hi, lo = st[0], st[1]
    x = hi ^ lo
    rot = hi >> U(58)
    out: np.uint64 = (x >> rot) | (x << ((U(64) - rot) & U(63)))
    return out


@flat
def next32(st: np.ndarray) -> np.uint64:
    if st[4]:
        st[4] = U(0)
        half: np.uint64 = st[5]
        return half
    v = next64(st)
    st[4] = U(1)
    st[5] = v >> S32
    return v & M32


@flat
def random(st: np.ndarray) -> float:
    """``Generator.random()``."""
    return float(next64(st) >> U(11)) * (1.0 / 9007199254740992.0)


@flat
def integers(st: np.ndarray, low: int, high: int) -> int:
    """``Generator.integers(low, high)`` for ``high - low`` below 2**32 (Lemire's method, as NumPy draws it)."""
    rng = U(high - low - 1)
    if rng == U(0):
        return low
    excl = rng + U(1)
    m = next32(st) * excl
    left = m & M32
    if left < excl:
        threshold = (M32 - rng) % excl
        while left < threshold:
            m = next32(st) * excl
            left = m & M32
    return low + int(m >> S32)


@njit
def game_generators(root: np.ndarray, index: int, chance: np.ndarray, bots: np.ndarray) -> None:
    """The generators of game ``index`` of a simulation with root seed words ``root``: ``chance`` as
    ``seeded_rng(game_seed(seed, index))``, ``bots`` as ``agent_rng(game_seed(seed, index))``."""
    words = np.empty(2, np.uint64)
    seed_words(spawn_entropy(root, index), 2, words)
    own = words128(words[0], words[1])
    pcg_seed(chance, own)
    pcg_seed(bots, spawn_entropy(own, 1))

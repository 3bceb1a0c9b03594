"""Training is reproducible from its seed (whatever the process count, across a resume); bot:master plays legal
moves in every phase, and its kernel fast path plays the very game the engine path plays."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from dicehall.clever import actions as A
from dicehall.clever import train as T
from dicehall.clever.kernel import net
from dicehall.clever.kernel import rules as K
from dicehall.clever.kernel.features import NAMES, features
from dicehall.clever.master import WEIGHT_NAMES, Lookahead, MasterAgent, WeightsError, load_weights
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import PH_PASSIVE_PICK, PH_PICK, PH_PLUS, CleverState
from dicehall.core.game import CHANCE, TERMINAL
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import play_game

TINY = T.TrainConfig(episodes=40, seed=5, hidden=(8, 8), shards=2, sync=10, eval_every=20, eval_games=4)


def _weights(run: T.Run) -> list[list[float]]:
    return [w.ravel().tolist() for w in run.weights]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Callable[[int], T.Run]:
    """``tiny(jobs)``: TINY trained on ``jobs`` processes, once for the module (three tests compare with it)."""
    runs: dict[int, T.Run] = {}

    def trained(jobs: int) -> T.Run:
        if jobs not in runs:
            runs[jobs] = T.train(T.new_run(TINY), tmp_path_factory.mktemp(f"tiny-{jobs}"), jobs=jobs)
        return runs[jobs]

    return trained


def test_same_seed_same_network_whatever_the_processes(tmp_path: Path, tiny: Callable[[int], T.Run]) -> None:
    one, two = tiny(1), tiny(2)
    assert _weights(one) == _weights(two)
    assert [h["mean"] for h in one.history] == [h["mean"] for h in two.history]
    other = T.train(T.new_run(dataclasses.replace(TINY, seed=6)), tmp_path / "c", jobs=1)
    assert _weights(other) != _weights(one)


def test_the_older_sgd_method_is_reproducible_too(tmp_path: Path, tiny: Callable[[int], T.Run]) -> None:
    sgd = dataclasses.replace(TINY, method="sgd", lr_start=0.03, lr_end=0.003)
    one = T.train(T.new_run(sgd), tmp_path / "a", jobs=1)
    two = T.train(T.new_run(sgd), tmp_path / "b", jobs=2)
    assert _weights(one) == _weights(two)
    assert _weights(one) != _weights(tiny(1))


def _positions(rng: np.random.Generator) -> Iterator[np.ndarray]:
    """The features of the player to move at each decision of one random solo game (dice and moves from ``rng``;
    the array is reused: read it before the next one)."""
    g = K.new_game(1, 6, True, True)
    x = np.zeros(len(NAMES))
    out = np.empty(K.MAX_LEGAL, np.int64)
    while K.current_player(g) != TERMINAL:
        if K.current_player(g) == CHANCE:
            K.apply(g, K.sample_chance(g, rng))
            continue
        features(g, K.current_player(g), x)
        yield x
        K.apply(g, out[rng.integers(0, K.legal(g, out))])


def _single() -> list[np.ndarray]:
    """A trained single network: the first member of the shipped ensemble."""
    return net.split(load_weights()[0])[0]


def test_older_weights_widen_without_changing_play() -> None:
    """Weights made before the last features were added get zero rows for them: the same values, the same play."""
    weights = _single()
    old = [weights[0][:120].copy(), *weights[1:]]
    wide = net.widen(old)
    assert wide[0].shape == weights[0].shape and not wide[0][120:].any()
    w1, b1, w2, b2, w3, b3 = old
    a1, a2 = np.empty(b1.size), np.empty(b2.size)
    seen = 0
    for x in _positions(np.random.default_rng(4)):
        by_hand = np.maximum(np.maximum(x[:120] @ w1 + b1, 0) @ w2 + b2, 0) @ w3 + b3[0]
        assert net.forward(x, *wide, a1, a2) == pytest.approx(by_hand, abs=1e-9)
        seen += int(x[120:].any())
    assert seen > 0  # the new features were not all zero, yet changed nothing
    run = T.new_run(dataclasses.replace(TINY, hidden=(b1.size, b2.size)), old)
    assert np.array_equal(run.weights[0], wide[0])


def test_a_wider_network_starts_as_the_same_function() -> None:
    """--init with larger --hidden: new units with zero outputs, so every value is unchanged; no shrinking."""
    weights = _single()
    h1, h2 = weights[1].size, weights[3].size
    run = T.new_run(dataclasses.replace(TINY, hidden=(h1 + 8, h2 + 16)), weights)
    grown = run.weights
    assert grown[0].shape == (len(NAMES), h1 + 8) and grown[2].shape == (h1 + 8, h2 + 16)
    assert grown[0][:, h1:].any() and grown[2][:h1, h2:].any()  # the new units are live, not dead
    compared = 0
    for x in _positions(np.random.default_rng(9)):
        small = net.forward(x, *weights, np.empty(h1), np.empty(h2))
        assert net.forward(x, *grown, np.empty(h1 + 8), np.empty(h2 + 16)) == pytest.approx(small, abs=1e-12)
        compared += 1
    assert compared > 10
    with pytest.raises(ValueError, match="larger"):
        T.new_run(dataclasses.replace(TINY, hidden=(h1 - 1, h2)), weights)


def test_an_ensemble_values_positions_by_the_mean_of_its_members() -> None:
    """net.ensemble: one network (members' layers stacked) whose value is the mean of the members' values;
    net.split gives the members back; an ensemble cannot seed a training run."""
    shipped = _single()
    rng = np.random.default_rng(4)
    h1, h2 = shipped[1].size, shipped[3].size
    other = net.init_weights(rng, h1, h2)
    other[1] = rng.normal(0, 0.1, h1)  # non-zero biases, so a misplaced block would show
    other[3] = rng.normal(0, 0.1, h2)
    joined = net.ensemble([shipped, other, shipped])
    assert net.members(joined) == 3 and net.members(shipped) == 1
    assert joined[0].shape == (len(NAMES), 3 * h1) and joined[2].shape == (3 * h1, h2)
    compared = 0
    for x in _positions(rng):
        a = net.forward(x, *shipped, np.empty(h1), np.empty(h2))
        b = net.forward(x, *other, np.empty(h1), np.empty(h2))
        mean = net.forward(x, *joined, np.empty(3 * h1), np.empty(3 * h2))
        assert mean == pytest.approx((2 * a + b) / 3, abs=1e-12)
        compared += 1
    assert compared > 10
    for member, back in zip([shipped, other, shipped], net.split(joined), strict=True):
        assert all(np.allclose(a, b, rtol=1e-15, atol=1e-15) for a, b in zip(member, back, strict=True))
    with pytest.raises(ValueError, match="at least one"):
        net.ensemble([])
    with pytest.raises(ValueError, match="same hidden sizes"):
        net.ensemble([shipped, net.init_weights(rng, h1, h2 + 1)])
    with pytest.raises(ValueError, match="3 networks"):
        T.new_run(dataclasses.replace(TINY, hidden=(3 * h1, h2)), joined)


def test_lookahead_decides_by_its_values() -> None:
    agent = MasterAgent()
    plain = MasterAgent(lookahead=None)
    state = CleverState(CleverRules.from_preset(), 1)
    rng = seeded_rng(11)
    changed = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance(rng))
            continue
        looked = agent.lookahead_values(state)
        flat = plain.values(state)
        assert [a for a, _ in looked] == [a for a, _ in flat] == state.legal_actions()
        changed += sum(abs(u - v) > 1e-9 for (_, u), (_, v) in zip(looked, flat, strict=True))
        if len(looked) > 1:
            assert agent.choose(state, rng) == max(looked, key=lambda av: av[1])[0]
        state.apply_action(agent.choose(state, rng))
    assert changed > 0
    with pytest.raises(ValueError, match="multiple of 6"):
        Lookahead(rolls=10)


def test_resume_continues_the_same_run(tmp_path: Path) -> None:
    whole = T.train(T.new_run(TINY), tmp_path / "whole", jobs=1)
    half = T.train(T.new_run(dataclasses.replace(TINY, episodes=20)), tmp_path / "half", jobs=1)
    assert half.episodes == 20
    resumed = T.Run.load(tmp_path / "half")
    resumed.config = dataclasses.replace(resumed.config, episodes=40)
    T.train(resumed, tmp_path / "half", jobs=1)
    assert _weights(resumed) == _weights(whole)
    assert (tmp_path / "half" / "curve.png").stat().st_size > 0
    assert (tmp_path / "half" / T.BEST).exists()
    snapshots = sorted(p.name for p in (tmp_path / "half" / T.SNAPSHOTS).iterdir())
    assert snapshots == ["00000000.npz", "00000020.npz", "00000040.npz"]


def test_bad_checkpoint_and_settings_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no training checkpoint"):
        T.Run.load(tmp_path)
    with pytest.raises(ValueError, match="lambda"):
        T.TrainConfig(lam=2.0)


def test_weights_that_do_not_fit_are_refused(tmp_path: Path) -> None:
    """load_weights names the file and what is wrong: unreadable, more features than this version, or layers
    whose sizes do not fit together (an ensemble's stacked second layer included)."""
    weights = load_weights()[0]
    (tmp_path / "junk.npz").write_bytes(b"not an archive")
    with pytest.raises(WeightsError, match="cannot load"):
        load_weights(tmp_path / "junk.npz")
    bad = {
        "features": [np.zeros((len(NAMES) + 1, weights[1].size)), *weights[1:]],
        "layers": [*weights[:3], weights[3][:-3], weights[4][:-3], weights[5]],
    }
    for name, arrays in bad.items():
        path = tmp_path / f"{name}.npz"
        np.savez(path, **dict(zip(WEIGHT_NAMES, arrays, strict=True)))
        with pytest.raises(WeightsError, match=r"features|do not fit"):
            load_weights(path)


def test_master_plays_legal_moves_in_every_phase() -> None:
    """Shipped weights, engine path (every action checked by the engine), 1–4 players, choices asked for."""
    agent = MasterAgent()
    seen: Counter[str] = Counter()
    rules = CleverRules.from_preset("standard", {"auto_single_choice": False})
    for i in range(16):
        players = 1 + i % 4
        state = CleverState(rules, players)
        rng = seeded_rng(i)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.sample_chance(rng))
                continue
            action = agent.choose(state, rng)
            assert action in state.legal_actions()
            if state.choice_pending:
                seen["black" if A.kind_of(action) == A.K_BLACK else "bonus X"] += 1
            else:
                seen[{PH_PICK: "active", PH_PLUS: "+1 step", PH_PASSIVE_PICK: "passive"}[state.phase]] += 1
                seen[("pick", "+1", "reroll", "forfeit", "stop", "pass")[A.kind_of(action)]] += 1
            state.apply_action(action)
        assert state.scores()[0] > 0
    for label in ("active", "passive", "+1 step", "black", "bonus X", "+1", "pick", "stop"):
        assert seen[label] > 0, label


@pytest.mark.parametrize(("players", "lookahead"), [(1, True), (3, True), (1, False)])
def test_master_fast_path_is_the_engine_game(players: int, lookahead: bool) -> None:
    rules = CleverRules.from_preset()
    agent = MasterAgent() if lookahead else MasterAgent(lookahead=None)
    for i in range(4):
        seed = game_seed(9, i)
        ref = CleverState(rules, players)
        play_game(ref, [agent] * players, seeded_rng(seed), agent_rng(seed), fast=False)
        fast = CleverState(rules, players)
        play_game(fast, [agent] * players, seeded_rng(seed), agent_rng(seed))
        assert fast.scores() == ref.scores()
        assert fast.stats() == ref.stats()


def test_shipped_weights_are_small_and_numpy_only() -> None:
    weights, info = load_weights()
    assert sum(w.nbytes for w in weights) < 2 * 2**20
    assert all(isinstance(w, np.ndarray) and np.isfinite(w).all() for w in weights)
    assert info["episodes"] > 0
    # solo training never sets "players - 1": its input row must not feed untrained noise into 2-4 player games
    assert not weights[0][NAMES.index("players - 1")].any()


def test_self_play_on_ray_trains_the_network_processes_train(
    tmp_path: Path, tiny: Callable[[int], T.Run]
) -> None:
    """``train --backend ray``: the shards run as Ray tasks (a local instance), the network is the same."""
    by_processes = tiny(2)
    by_ray = T.train(T.new_run(TINY), tmp_path / "b", jobs=2, backend="ray")
    assert _weights(by_ray) == _weights(by_processes)
    assert [h["mean"] for h in by_ray.history] == [h["mean"] for h in by_processes.history]


def test_train_backend_is_checked(tmp_path: Path) -> None:
    from dicehall.core.cluster import ClusterError

    with pytest.raises(ClusterError, match="unknown backend"):
        T.train(T.new_run(TINY), tmp_path / "a", backend="spark")
    with pytest.raises(ClusterError, match="needs --backend ray"):
        T.train(T.new_run(TINY), tmp_path / "b", address="auto")

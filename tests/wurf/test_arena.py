"""Arena models: face geometry, determinism, plausibility of the physics, fast-vs-physics agreement."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chisquare

from dicehall.wurf.arena import agreement
from dicehall.wurf.arena.base import DieRest, ThrowParams
from dicehall.wurf.arena.fast import FastArena, FastParams
from dicehall.wurf.arena.physics import PhysicsArena, face_up, rest_quat, separate, yaw_of
from dicehall.wurf.layout import gather_positions, overlap

PHYS = PhysicsArena()
FAST = FastArena.default()


def block(n: int, cx: float = 100, cy: float = 110) -> list[DieRest]:
    return [DieRest(2 + k % 5, x, y, 0.0) for k, (x, y) in enumerate(gather_positions(n, cx, cy))]


@pytest.mark.parametrize("face", range(1, 7))
@pytest.mark.parametrize("yaw", [0.0, 30.0, 75.5])
def test_resting_orientation_shows_its_face(face: int, yaw: float) -> None:
    q = rest_quat(face, yaw)
    shown, tilt = face_up(q)
    assert shown == face and tilt < 1e-6
    assert yaw_of(q) == pytest.approx(yaw % 90.0, abs=1e-6)


def test_opposite_faces_sum_to_seven() -> None:
    import mujoco  # after dicehall.wurf.arena chose the GL backend

    # Turning a die upside down (180° about x) shows the opposite face.
    for f in range(1, 7):
        q = rest_quat(f, 0)
        half_turn = np.array([0.0, 1.0, 0.0, 0.0])
        out = np.zeros(4)
        mujoco.mju_mulQuat(out, half_turn, q)
        assert face_up(out)[0] == 7 - f


@pytest.mark.parametrize("model", [PHYS, FAST], ids=["physics", "fast"])
def test_same_seed_same_outcome(model: PhysicsArena | FastArena) -> None:
    arena = block(5)
    params = ThrowParams(100, 90, 0.7, 0.4)
    a = model.throw(arena, 1, params, np.random.default_rng(11))
    b = model.throw(arena, 1, params, np.random.default_rng(11))
    assert a.dice == b.dice
    outcomes = {tuple(model.throw(arena, 1, params, np.random.default_rng(s)).dice) for s in range(6)}
    assert len(outcomes) > 1  # the seed matters


def test_lone_die_lands_uniformly() -> None:
    rng = np.random.default_rng(2024)
    counts = np.zeros(6)
    left = 0
    for _ in range(150):
        params = ThrowParams(
            float(rng.uniform(50, 150)),
            float(rng.uniform(50, 150)),
            float(rng.uniform(0.2, 0.7)),
            float(rng.random()),
        )
        d = PHYS.throw([], 1, params, rng).dice[0]
        if d.status == "arena":
            counts[d.face - 1] += 1
        else:
            left += 1
    assert counts.sum() >= 120
    assert chisquare(counts).pvalue > 0.01, counts


def test_arena_dice_stay_where_placed_when_not_hit() -> None:
    # The scene starts from the recorded/rearranged layout: a far-away gentle throw leaves the dice alone.
    arena = [DieRest(3, 30.0, 170.0, 20.0), DieRest(5, 170.0, 170.0, 0.0)]
    res = PHYS.throw(arena, 1, ThrowParams(100, 40, 0.1, 0.2), np.random.default_rng(3))
    for before, after in zip(arena, res.dice, strict=False):
        assert after.status == "arena" and after.face == before.face
        assert after.x == pytest.approx(before.x, abs=2) and after.y == pytest.approx(before.y, abs=2)


def test_hit_dice_flip_and_strong_throws_leave_the_arena() -> None:
    rng = np.random.default_rng(5)
    changed = moved = total = 0
    for _ in range(20):
        arena = block(6)
        res = PHYS.throw(arena, 1, ThrowParams(100, 92, 0.85, 0.5), rng)
        for before, after in zip(arena, res.dice, strict=False):
            total += 1
            if after.status != "arena" or after.face != before.face:
                changed += 1
            if after.status != "arena" or abs(after.x - (before.x or 0)) + abs(after.y - (before.y or 0)) > 2:
                moved += 1
    assert moved / total > 0.3 and changed / total > 0.15
    outs = {p: 0 for p in (0.1, 1.0)}
    for p in outs:
        for _ in range(25):
            outs[p] += PHYS.throw([], 1, ThrowParams(100, 130, p, 0.5), rng).dice[0].status != "arena"
    assert outs[1.0] >= 3 and outs[1.0] > outs[0.1]


def test_physics_trajectory_frames_for_playback() -> None:
    res = PHYS.throw(
        block(2), 1, ThrowParams(100, 90, 0.5, 0.5), np.random.default_rng(1), record_frames=True
    )
    assert 30 <= 1 / res.frame_dt <= 60
    assert len(res.frames) >= 10 and res.frames[0].shape == (3, 7)
    assert len(res.frames) == pytest.approx(res.sim_time / res.frame_dt, abs=1)


def test_big_throw_and_out_of_game_dice_reported() -> None:
    res = PHYS.throw([], 8, ThrowParams(100, 100, 0.9, 0.5), np.random.default_rng(4))
    assert len(res.dice) == 8
    statuses = {d.status for d in res.dice}
    assert statuses <= {"arena", "out", "rim", "cocked"} and "arena" in statuses
    for d in res.dice:  # the reported orientation shows the reported face
        if d.status == "arena":
            assert d.quat is not None and face_up(np.array(d.quat))[0] == d.face


def test_overlapping_start_positions_are_separated() -> None:
    dice = [DieRest(2, 100, 100, 0), DieRest(3, 105, 100, 45), DieRest(4, 2, 2, 0)]
    sep = separate(dice)
    for i in range(3):
        for j in range(i + 1, 3):
            a, b = sep[i], sep[j]
            assert not overlap((a.x or 0, a.y or 0, a.yaw), (b.x or 0, b.y or 0, b.yaw), gap=0.0)
    assert all(12 <= (d.x or 0) <= 188 for d in sep)


def test_fast_model_reads_its_parameter_file() -> None:
    p = FastParams.load()
    assert len(p.face_probs) == 6 and abs(sum(p.face_probs) - 1) < 1e-9
    assert p.meta.get("physics_throws", 0) >= 1000


def test_fast_lone_die_faces_near_uniform() -> None:
    rng = np.random.default_rng(8)
    counts = np.zeros(6)
    for _ in range(6000):
        d = FAST.throw([], 1, ThrowParams(100, 100, 0.5, 0.5), rng).dice[0]
        if d.status == "arena":
            counts[d.face - 1] += 1
    assert np.all(np.abs(counts / counts.sum() - 1 / 6) < 0.03)


def test_fast_model_agrees_with_physics_small() -> None:
    rows = agreement.compare(physics_throws=30, fast_throws=1500)
    bad = [r for r in rows if abs(r["physics"] - r["fast"]) > r["tolerance"]]
    assert not bad, bad


@pytest.mark.slow
def test_fast_model_agrees_with_physics_large() -> None:
    rows = agreement.compare(physics_throws=200, fast_throws=4000)
    bad = [r for r in rows if abs(r["physics"] - r["fast"]) > r["tolerance"]]
    assert not bad, bad


@pytest.mark.slow
def test_lone_die_uniform_many_throws() -> None:
    rng = np.random.default_rng(77)
    counts = np.zeros(6)
    for _ in range(1200):
        params = ThrowParams(
            float(rng.uniform(30, 170)), float(rng.uniform(30, 170)), float(rng.random()), float(rng.random())
        )
        d = PHYS.throw([], 1, params, rng).dice[0]
        if d.status == "arena":
            counts[d.face - 1] += 1
    assert chisquare(counts).pvalue > 0.001, counts


def test_fast_plan_uses_the_fitted_feature_formula() -> None:
    # The plan writes arena_features out for speed; it must give the same probabilities.
    import math

    from dicehall.wurf.arena.fast import _dot, _sig, arena_features, crowding

    arena = tuple(block(5))
    params = ThrowParams(90, 95, 0.6, 0.3)
    plan = FAST.plan(arena, 2, params)
    crowd = crowding(arena)
    for k, d in enumerate(arena):
        feats = arena_features(math.hypot((d.x or 0) - 90, (d.y or 0) - 95), 0.6, 0.3, crowd[k], 2)
        dp = plan.dice[k]
        assert dp.p_hit == pytest.approx(_sig(_dot(FAST.p.hit, feats)))
        assert dp.p_leave == pytest.approx(_sig(_dot(FAST.p.hit_leave, feats)))
        assert dp.p_change == pytest.approx(_sig(_dot(FAST.p.hit_change, feats)))


def test_logistic_fit_recovers_weights() -> None:
    from dicehall.wurf.arena.calibrate import fit_logistic

    rng = np.random.default_rng(0)
    x = np.column_stack([np.ones(20000), rng.normal(size=20000)])
    y = (rng.random(20000) < 1 / (1 + np.exp(-(x @ np.array([-0.5, 1.5]))))).astype(float)
    assert fit_logistic(x, y) == pytest.approx([-0.5, 1.5], abs=0.08)


def test_refit_command_writes_usable_parameters(tmp_path: object) -> None:
    from pathlib import Path

    from dicehall.wurf.arena.calibrate import main

    out = Path(str(tmp_path)) / "params.json"
    main(["--throws", "40", "--out", str(out)])
    params = FastParams.load(out)
    assert params.meta["physics_throws"] == 40
    model = FastArena(params)
    res = model.throw(block(4), 1, ThrowParams(100, 95, 0.5, 0.5), np.random.default_rng(1))
    assert len(res.dice) == 5

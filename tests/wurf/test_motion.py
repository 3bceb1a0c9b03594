"""The motion payload of a physics throw (live views), and records refusing layouts no table can show."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bench.wurf import scattered
from dicehall.core.errors import IllegalActionError, RecordError
from dicehall.core.record import GameRecord, replay
from dicehall.wurf import motion
from dicehall.wurf.arena.base import ThrowParams
from dicehall.wurf.arena.physics import PhysicsArena, face_up
from dicehall.wurf.state import ROLLING

from .helpers import make, play, snapshot

PHYS = PhysicsArena()
T = "throw 100,80 p0.50 s0.50"


def _throw(arena_dice: int, thrown: int, power: float, seed: int) -> tuple[dict[str, object], object]:
    rng = np.random.default_rng(seed)
    res = PHYS.throw(scattered(arena_dice, rng), thrown, ThrowParams(100, 100, power, 1.0), rng, True)
    return motion.encode(res.frames, res.frame_dt), res


def test_motion_round_trips_and_ends_where_the_dice_rest() -> None:
    payload, res = _throw(10, 1, 0.6, 4)
    fps, frames, tracks = motion.decode(json.loads(json.dumps(payload)))
    assert fps >= 30 and frames == len(res.frames)  # type: ignore[attr-defined]
    assert 10 in tracks and tracks[10][0] == 0  # the thrown die moves from its launch
    for k, (start, gone, poses) in tracks.items():
        true = np.array([f[k] for f in res.frames[start : start + len(poses)]])  # type: ignore[attr-defined]
        assert np.nanmax(np.abs(true[:, :3] - poses[:, :3])) <= 0.051  # 0.1 mm steps
        assert np.nanmax(np.abs(np.abs(true[:, 3:]) - np.abs(poses[:, 3:]))) < 1e-3
        die = res.dice[k]  # type: ignore[attr-defined]
        if not gone and die.status == "arena":
            # A die's track ends at its rest, showing the face the outcome reports (the view can trust it).
            assert face_up(poses[-1, 3:])[0] == die.face


@pytest.mark.parametrize(
    ("arena_dice", "thrown", "power"), [(10, 1, 0.5), (0, 9, 0.5), (15, 15, 0.9), (15, 15, 0.0)]
)
def test_motion_is_compact(arena_dice: int, thrown: int, power: float) -> None:
    payload, _ = _throw(arena_dice, thrown, power, 8)
    assert len(json.dumps(payload)) <= 50_000


def test_malformed_motion_is_refused() -> None:
    payload, _ = _throw(3, 1, 0.5, 2)
    for bad in (
        {**payload, "v": 2},
        {**payload, "data": "!!"},
        {**payload, "end": [999] * len(payload["dice"])},
    ):  # type: ignore[arg-type]
        with pytest.raises(motion.MotionError):
            motion.decode(bad)


def test_a_live_physics_state_keeps_the_motion_of_the_throw_just_resolved() -> None:
    s = make(2, "physics")
    s.live_extras = True
    rng = np.random.default_rng(3)
    s.apply_action(s.sample_chance(rng))
    assert s.event_extras() is None  # the first die is placed, not thrown
    play(s, T)
    s.apply_action(s.sample_chance(rng))
    extras = s.event_extras()
    assert extras is not None and motion.decode(extras["motion"])[2]
    before = snapshot(s)
    with pytest.raises(IllegalActionError):
        play(s, "move 9>100,100")
    assert snapshot(s) == before  # an illegal move changes nothing, the motion included
    s.apply_action(s.legal_actions()[0])
    assert s.event_extras() is None  # it belonged to the throw's event only
    plain = make(2, "physics")  # not on a live table: no frames are recorded
    plain.apply_action(plain.sample_chance(rng))
    play(plain, T)
    plain.apply_action(plain.sample_chance(rng))
    assert plain.event_extras() is None


@pytest.mark.parametrize(
    ("outcome", "rule"),
    [
        ("lands 2@100,100,0 3@108,100,0", "outcome-overlap"),
        ("lands 2@100,100,0 3@100,100,0", "outcome-overlap"),
        ("lands 2@100,100,0 3@4,100,0", "outcome-position"),
        ("lands 2@100,100,0 3@195,60,45", "outcome-position"),
        ("lands 2@100,100,0 c3@100,110,0", "outcome-overlap"),
    ],
)
def test_impossible_layouts_are_refused(outcome: str, rule: str) -> None:
    s = play(make(3), "start 2", T)
    with pytest.raises(IllegalActionError) as err:
        play(s, outcome)
    assert err.value.rule == rule and s.phase == ROLLING
    play(s, "lands 2@100,100,0 3@116.2,100,0")  # touching is fine


def test_a_record_with_dice_inside_each_other_does_not_replay() -> None:
    s = make(2)
    rec = GameRecord.start("wurf", s.rules, ["A", "B"])
    for move in ("start 4@100,100,0", T):
        rec.add(s, s.string_to_action(move))
        s.apply_action(s.string_to_action(move))
    rec.add(s, s.string_to_action("lands 4@100,100,0 5@101,99,10"))  # forged: the engine would refuse it
    text = rec.dumps()
    with pytest.raises(RecordError, match=r"inside each other"):
        replay(GameRecord.loads(text))

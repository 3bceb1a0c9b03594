"""The motion of a physics throw, packed for live views: every moving die's pose at 50 frames per second.

Format 1 (a JSON object; documented for the browser view in docs/wurf.md, "Motion payload")::

    {"v": 1, "fps": 50, "frames": N,
     "dice": [i, ...],        # indices into the outcome (arena dice in order, then the thrown dice) of dice that move
     "start": [s, ...],       # per moving die: first frame of its track (the pose it rested in, or its launch)
     "end": [e, ...],         # per moving die: last frame of its track; it holds that pose afterwards...
     "left": [0|1, ...],      # ...unless it left the box (1): then it is gone after its last frame
     "data": "<base64>"}      # zlib(int16 little-endian); per moving die 7 columns x (e - s + 1) frames

Columns: x, y, z in 0.1 mm (x, y from the south-west corner of the arena floor, z above the floor), then the
orientation quaternion w, x, y, z times 32767. Each column is delta-coded along its track (the first value as
is, then differences, wrapping at 16 bits): a running sum in an ``Int16Array`` restores it.
"""

from __future__ import annotations

import base64
import math
import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from dicehall.core.errors import DicehallError

VERSION = 1
POS_SCALE = 10.0  # units per mm
QUAT_SCALE = 32767.0
MOVE_MM = 0.1
"""A die whose position changes less than this (and whose orientation barely turns) between frames is resting."""
MOVE_QUAT = 2e-4


class MotionError(DicehallError):
    """A motion payload that does not decode."""


def encode(frames: Sequence[np.ndarray], frame_dt: float) -> dict[str, Any]:
    """Pack ``frames`` (one array per frame: dice × (x, y, z mm, qw, qx, qy, qz); NaN once a die left the box)."""
    if not frames:
        raise ValueError("no frames to encode")
    f = np.stack(list(frames))  # frames × dice × 7
    n_frames, n_dice, _ = f.shape
    dice: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    left: list[int] = []
    chunks: list[bytes] = []
    for k in range(n_dice):
        track = f[:, k, :]
        seen = ~np.isnan(track[:, 0])
        last_seen = int(np.flatnonzero(seen)[-1]) if seen.any() else -1
        if last_seen < 0:
            continue
        gone = last_seen < n_frames - 1
        step = np.zeros(n_frames, dtype=bool)
        valid = track[: last_seen + 1]
        if last_seen > 0:
            dpos = np.abs(np.diff(valid[:, :3], axis=0)).max(axis=1)
            dq = np.abs(np.diff(valid[:, 3:], axis=0)).max(axis=1)
            step[1 : last_seen + 1] = (dpos > MOVE_MM) | (dq > MOVE_QUAT)
        if not step.any() and not gone:
            continue  # never moved: the view keeps it where it lay
        moving = np.flatnonzero(step)
        start = max(0, int(moving[0]) - 1) if moving.size else last_seen
        end = int(moving[-1]) if moving.size else last_seen
        if gone:
            end = last_seen
        q = np.empty((7, end - start + 1), dtype=np.int16)
        seg = track[start : end + 1]
        q[:3] = np.clip(np.rint(seg[:, :3] * POS_SCALE), -32767, 32767).T
        q[3:] = np.clip(np.rint(seg[:, 3:] * QUAT_SCALE), -32767, 32767).T
        deltas = q.copy()
        deltas[:, 1:] = np.diff(q, axis=1)  # int16 arithmetic wraps, as the decoder's running sum does
        chunks.append(deltas.astype("<i2").tobytes())
        dice.append(k)
        starts.append(start)
        ends.append(end)
        left.append(int(gone))
    return {
        "v": VERSION,
        "fps": round(1.0 / frame_dt, 3),
        "frames": n_frames,
        "dice": dice,
        "start": starts,
        "end": ends,
        "left": left,
        "data": base64.b64encode(zlib.compress(b"".join(chunks), 9)).decode("ascii"),
    }


def decode(payload: Any) -> tuple[float, int, dict[int, tuple[int, bool, np.ndarray]]]:
    """``(fps, frames, {die: (start frame, left, poses)})`` with poses of shape (frames of the track, 7): mm and
    a unit quaternion. Raises :class:`MotionError` on anything malformed."""
    if not isinstance(payload, dict) or payload.get("v") != VERSION:
        raise MotionError(f"not a version-{VERSION} motion payload")
    try:
        fps = float(payload["fps"])
        n_frames = int(payload["frames"])
        dice = [int(v) for v in payload["dice"]]
        starts = [int(v) for v in payload["start"]]
        ends = [int(v) for v in payload["end"]]
        left = [bool(v) for v in payload["left"]]
        raw = zlib.decompress(base64.b64decode(payload["data"], validate=True))
    except (KeyError, TypeError, ValueError, zlib.error) as exc:
        raise MotionError(f"malformed motion payload: {exc}") from None
    if not (len(dice) == len(starts) == len(ends) == len(left)) or not math.isfinite(fps) or fps <= 0:
        raise MotionError("malformed motion payload: track lists differ in length or fps is not positive")
    values = np.frombuffer(raw, dtype="<i2")
    out: dict[int, tuple[int, bool, np.ndarray]] = {}
    at = 0
    for k, s, e, gone in zip(dice, starts, ends, left, strict=True):
        if not 0 <= s <= e < n_frames:
            raise MotionError(f"die {k}: track frames {s}..{e} outside 0..{n_frames - 1}")
        length = e - s + 1
        block = values[at : at + 7 * length]
        if block.size != 7 * length:
            raise MotionError("motion data is shorter than its tracks")
        at += 7 * length
        q = np.cumsum(block.reshape(7, length).astype(np.int16), axis=1, dtype=np.int16)
        poses = np.empty((length, 7))
        poses[:, :3] = q[:3].T / POS_SCALE
        quat = q[3:].T / QUAT_SCALE
        poses[:, 3:] = quat / np.linalg.norm(quat, axis=1, keepdims=True)
        out[k] = (s, gone, poses)
    if at != values.size:
        raise MotionError("motion data is longer than its tracks")
    return fps, n_frames, out

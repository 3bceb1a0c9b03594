"""The physics arena: MuJoCo (pinned 3.3.7) simulating the box, its foam floor, walls and rim, and 16 mm dice.

One compiled model per number of dice is cached per process. MuJoCo is deterministic on one thread, and all
randomness of a throw (the hand's small aim error, the die's initial orientation and spin axis) comes from the
passed generator, so the same generator state and parameters give the same outcome.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from functools import cache

import mujoco
import numpy as np

from dicehall.wurf.arena.base import (
    ARENA_MM,
    DIE_MM,
    RIM_MM,
    WALL_MM,
    DieRest,
    DieResult,
    Status,
    ThrowParams,
    ThrowResult,
    fill_unknown_positions,
)


@dataclasses.dataclass(frozen=True)
class PhysicsParams:
    """Tuned simulation and contact parameters (documented with measured rates in docs/wurf.md)."""

    timestep: float = 0.002
    iterations: int = 10
    ls_iterations: int = 12
    die_mass: float = 0.0045
    # Contacts are detected this far (m) before touching, so a die lying flat gets all four corner contacts
    # (otherwise it rocks on two); they only push once the surfaces touch (gap = margin).
    margin: float = 0.001
    # Foam floor: soft and damped (damping ratio < 1 keeps a little bounce so hit dice tumble).
    floor_solref: tuple[float, float] = (0.01, 0.6)
    floor_friction: float = 0.6
    # Walls, rim and dice: harder, a little bouncy.
    hard_solref: tuple[float, float] = (0.01, 0.25)
    die_friction: float = 0.35
    wall_friction: float = 0.4
    # Launch: from outside the box, south of it, above the rim.
    launch_y: float = -90.0  # mm, south of the arena's south wall
    launch_z: float = 120.0  # mm above the floor
    flight_slow: float = 0.32  # s of flight for power 0
    flight_fast: float = 0.07  # s of flight for power 1
    max_spin: float = 70.0  # rad/s at spin 1
    aim_sd: float = 4.0  # mm, the hand's aim error
    max_time: float = 3.0  # s simulated at most
    rest_lin: float = 0.02  # m/s: a die is at rest below this speed...
    rest_ang: float = 2.0  # rad/s ...and this spin
    rest_checks: int = 3  # consecutive resting checks (every `check_every` steps) to stop
    check_every: int = 10
    cocked_deg: float = 12.0  # a die tilted more than this from flat is cocked
    frame_rate: float = 50.0


DEFAULT = PhysicsParams()

# Die local axes → face shown when that axis points up (opposite faces sum to 7; X is the 1).
_AXES = np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0], [0, -1, 0], [-1, 0, 0], [0, 0, -1]], dtype=float)
_AXIS_FACE = np.array([1, 2, 3, 4, 5, 6])
# Quaternion (w,x,y,z) that turns each face up (its local axis onto world +z).
_FACE_UP_QUAT = {
    1: np.array([1.0, 0, 0, 0]),
    6: np.array([0.0, 1, 0, 0]),
    2: np.array([math.cos(-math.pi / 4), 0, math.sin(-math.pi / 4), 0]),  # +x → +z: rotate -90° about y
    5: np.array([math.cos(math.pi / 4), 0, math.sin(math.pi / 4), 0]),
    3: np.array([math.cos(math.pi / 4), math.sin(math.pi / 4), 0, 0]),  # +y → +z: rotate +90° about x
    4: np.array([math.cos(-math.pi / 4), math.sin(-math.pi / 4), 0, 0]),
}
_TABLE_Z = -0.06  # the table the box stands on
_PARK_Z = _TABLE_Z + 0.008  # dice out of the game are parked at rest on the table, far from the box


def _mm(v: float) -> float:
    return v / 1000.0


def build_xml(n_dice: int, p: PhysicsParams = DEFAULT) -> str:
    half = _mm(ARENA_MM) / 2
    wall_h = _mm(WALL_MM)
    rim = _mm(RIM_MM)
    d = _mm(DIE_MM) / 2
    fs = f"{p.floor_solref[0]} {p.floor_solref[1]}"
    hs = f"{p.hard_solref[0]} {p.hard_solref[1]}"
    walls = []
    # Four wall blocks whose tops form the rim; each is `rim` thick.
    for name, pos, size in (
        ("wall_s", (0, -half - rim / 2, wall_h / 2), (half + rim, rim / 2, wall_h / 2)),
        ("wall_n", (0, half + rim / 2, wall_h / 2), (half + rim, rim / 2, wall_h / 2)),
        ("wall_w", (-half - rim / 2, 0, wall_h / 2), (rim / 2, half, wall_h / 2)),
        ("wall_e", (half + rim / 2, 0, wall_h / 2), (rim / 2, half, wall_h / 2)),
    ):
        walls.append(
            f'<geom name="{name}" type="box" pos="{pos[0]} {pos[1]} {pos[2]}" '
            f'size="{size[0]} {size[1]} {size[2]}" class="hard" rgba=".55 .35 .2 1"/>'
        )
    dice = []
    for i in range(n_dice):
        dice.append(
            f'<body name="die{i}" pos="{0.6 + 0.03 * i} 0.6 {_PARK_Z}"><freejoint/>'
            f'<geom name="d{i}" type="box" size="{d} {d} {d}" mass="{p.die_mass}" class="die" '
            f'material="die"/></body>'
        )
    return f"""<mujoco model="wurf">
  <option timestep="{p.timestep}" iterations="{p.iterations}" ls_iterations="{p.ls_iterations}"
          integrator="implicitfast" cone="pyramidal" jacobian="dense">
    <flag energy="disable" warmstart="enable"/>
  </option>
  <visual><global offwidth="800" offheight="800"/><quality shadowsize="2048"/></visual>
  <asset>
    <texture name="foam" type="2d" builtin="checker" rgb1=".12 .35 .2" rgb2=".1 .32 .18" width="64" height="64"/>
    <material name="foam" texture="foam" texrepeat="8 8"/>
    <material name="die" rgba=".95 .93 .85 1"/>
  </asset>
  <default>
    <default class="die"><geom friction="{p.die_friction} 0.005 0.0001" solref="{hs}" condim="3" margin="{p.margin}" gap="{p.margin}"/></default>
    <default class="hard"><geom friction="{p.wall_friction} 0.005 0.0001" solref="{hs}" condim="3" margin="{p.margin}" gap="{p.margin}"/></default>
  </default>
  <worldbody>
    <light pos="0 -0.1 0.6" dir="0 0.15 -1" diffuse=".9 .9 .9"/>
    <geom name="floor" type="plane" pos="0 0 0" size="{half} {half} 0.01" material="foam"
          friction="{p.floor_friction} 0.01 0.0005" solref="{fs}" condim="3"
          margin="{p.margin}" gap="{p.margin}"/>
    <geom name="table" type="plane" pos="0 0 {_TABLE_Z}" size="1 1 0.01" rgba=".4 .4 .45 1" solref="{hs}"/>
    {"".join(walls)}
    {"".join(dice)}
  </worldbody>
</mujoco>"""


@cache
def _model(n_dice: int, p: PhysicsParams) -> mujoco.MjModel:
    return mujoco.MjModel.from_xml_string(build_xml(n_dice, p))


def face_up(quat: np.ndarray) -> tuple[int, float]:
    """The face pointing up for orientation ``quat`` and the tilt of that face's axis from vertical (degrees)."""
    mat = np.zeros(9)
    mujoco.mju_quat2Mat(mat, quat)
    z_of_axes = _AXES @ mat.reshape(3, 3)[2]  # world z component of each local face axis
    k = int(np.argmax(z_of_axes))
    tilt = math.degrees(math.acos(max(-1.0, min(1.0, float(z_of_axes[k])))))
    return int(_AXIS_FACE[k]), tilt


def rest_quat(face: int, yaw_deg: float) -> np.ndarray:
    """Orientation of a die lying flat with ``face`` up, turned ``yaw_deg`` about the vertical."""
    yaw = math.radians(yaw_deg)
    qz = np.array([math.cos(yaw / 2), 0.0, 0.0, math.sin(yaw / 2)])
    out = np.zeros(4)
    mujoco.mju_mulQuat(out, qz, _FACE_UP_QUAT[face])
    return out


def yaw_of(quat: np.ndarray) -> float:
    """The die's rotation about the vertical (degrees in [0, 90): a cube looks the same every 90°)."""
    mat = np.zeros(9)
    mujoco.mju_quat2Mat(mat, quat)
    m = mat.reshape(3, 3)
    z_of_axes = _AXES @ m[2]
    k = int(np.argmax(z_of_axes))
    # Any horizontal-ish local axis other than the up/down one gives the yaw modulo 90°.
    j = 1 if k not in (1, 4) else 2
    world = m @ _AXES[j]
    return math.degrees(math.atan2(world[1], world[0])) % 90.0


def random_quat(rng: np.random.Generator) -> np.ndarray:
    q = rng.normal(size=4)
    return np.asarray(q / np.linalg.norm(q), dtype=float)


class PhysicsArena:
    """The MuJoCo arena model."""

    name = "physics"

    def __init__(self, params: PhysicsParams = DEFAULT) -> None:
        self.params = params

    def throw(
        self,
        arena: Sequence[DieRest],
        n_thrown: int,
        params: ThrowParams,
        rng: np.random.Generator,
        record_frames: bool = False,
    ) -> ThrowResult:
        p = self.params
        placed = separate(fill_unknown_positions(arena))
        n = len(placed) + n_thrown
        model = _model(n, p)
        data = mujoco.MjData(model)
        half = _mm(ARENA_MM) / 2
        dz = _mm(DIE_MM) / 2
        for i, die in enumerate(placed):
            assert die.x is not None and die.y is not None
            adr = model.jnt_qposadr[i]
            data.qpos[adr : adr + 3] = (_mm(die.x) - half, _mm(die.y) - half, dz)
            data.qpos[adr + 3 : adr + 7] = rest_quat(die.face, die.yaw)
        g = 9.81
        flight = p.flight_slow + (p.flight_fast - p.flight_slow) * float(np.clip(params.power, 0, 1))
        for k in range(n_thrown):
            i = len(placed) + k
            adr = model.jnt_qposadr[i]
            vadr = model.jnt_dofadr[i]
            # Several dice thrown at once (the big throw) leave the hand a little apart.
            spread = 10.0 * math.sqrt(n_thrown - 1) if n_thrown > 1 else 0.0
            ax = params.x + rng.normal(0, p.aim_sd + spread)
            ay = params.y + rng.normal(0, p.aim_sd + spread)
            start = np.array(
                [_mm(params.x) - half + rng.normal(0, 0.004), _mm(p.launch_y) - half, _mm(p.launch_z)]
            )
            # A handful of dice leaves the hand as a loose bunch (no two dice overlapping at release).
            start[0] += 0.03 * (k % 3 - 1)
            start[2] += 0.03 * ((k // 3) % 3)
            start[1] -= 0.03 * (k // 9)
            target = np.array([_mm(ax) - half, _mm(ay) - half, dz])
            t = flight * (1 + rng.normal(0, 0.03))
            vel = (target - start) / t
            vel[2] += 0.5 * g * t
            data.qpos[adr : adr + 3] = start
            data.qpos[adr + 3 : adr + 7] = random_quat(rng)
            data.qvel[vadr : vadr + 3] = vel
            axis = rng.normal(size=3)
            axis /= np.linalg.norm(axis)
            data.qvel[vadr + 3 : vadr + 6] = axis * p.max_spin * float(np.clip(params.spin, 0, 1))
        mujoco.mj_forward(model, data)
        frames: list[np.ndarray] = []
        frame_every = max(1, round(1.0 / (p.frame_rate * p.timestep)))
        outer = half + _mm(RIM_MM)
        gone = np.zeros(n, dtype=bool)
        calm = 0
        steps = int(p.max_time / p.timestep)
        qadr = model.jnt_qposadr[:n]
        vadr_all = model.jnt_dofadr[:n]
        # Every joint is a die's free joint: views of the state as one row per die.
        qpos = data.qpos.reshape(n, 7)
        qvel = data.qvel.reshape(n, 6)
        lin2, ang2 = p.rest_lin**2, p.rest_ang**2
        step = 0
        while step < steps:
            if record_frames:
                for _ in range(p.check_every):
                    mujoco.mj_step(model, data)
                    step += 1
                    if step % frame_every == 0:
                        frames.append(_poses(data, qadr))
            else:
                mujoco.mj_step(model, data, nstep=p.check_every)
                step += p.check_every
            x, y, z = qpos[:, 0], qpos[:, 1], qpos[:, 2]
            outside = (np.abs(x) > outer) | (np.abs(y) > outer) | (z < -0.005)
            flying = outside & (y < -outer) & (qvel[:, 1] > 0) & (z > 0)  # still on its way to the box
            for j in np.flatnonzero(outside & ~flying & ~gone):
                gone[j] = True
                _park(data, qadr[j], vadr_all[j], int(j))
            moving = ((qvel[:, :3] ** 2).sum(axis=1) > lin2) | ((qvel[:, 3:] ** 2).sum(axis=1) > ang2)
            rest = not bool(np.any((moving | flying) & ~gone))
            calm = calm + 1 if rest else 0
            if calm >= p.rest_checks:
                break
        results: list[DieResult] = []
        for i in range(n):
            a = qadr[i]
            if gone[i]:
                results.append(DieResult("out"))
                continue
            x, y, z = data.qpos[a : a + 3]
            quat = np.array(data.qpos[a + 3 : a + 7])
            face, tilt = face_up(quat)
            q = (float(quat[0]), float(quat[1]), float(quat[2]), float(quat[3]))
            xm, ym = round((x + half) * 1000, 1), round((y + half) * 1000, 1)
            if abs(x) > half or abs(y) > half or z > _mm(WALL_MM) * 0.5:
                status: Status = "rim" if z > _mm(WALL_MM) * 0.5 else "out"
                results.append(DieResult(status, face, xm, ym, 0.0, q))
            elif tilt > p.cocked_deg:
                results.append(DieResult("cocked", face, xm, ym, round(yaw_of(quat), 1) % 90.0, q))
            else:
                results.append(DieResult("arena", face, xm, ym, round(yaw_of(quat), 1) % 90.0, q))
        return ThrowResult(results, frames, frame_every * p.timestep, step * p.timestep)


def separate(arena: Sequence[DieRest], rounds: int = 20) -> list[DieRest]:
    """Nudge overlapping dice apart and inside the walls (cocked dice put back flat, or positions rounded in a
    record, may overlap slightly; starting MuJoCo with interpenetrating dice would make them jump)."""
    from dicehall.wurf.layout import overlap

    pts = [[float(d.x or 0.0), float(d.y or 0.0)] for d in arena]
    lo, hi = DIE_MM * 0.75, ARENA_MM - DIE_MM * 0.75
    for _ in range(rounds):
        moved = False
        for i in range(len(pts)):
            for j in range(i + 1, len(pts)):
                a = (pts[i][0], pts[i][1], arena[i].yaw)
                b = (pts[j][0], pts[j][1], arena[j].yaw)
                if overlap(a, b, gap=0.2):
                    dx, dy = pts[j][0] - pts[i][0], pts[j][1] - pts[i][1]
                    dist = math.hypot(dx, dy) or 1.0
                    ux, uy = (dx / dist, dy / dist) if dist > 1e-6 else (1.0, 0.0)
                    pts[i][0] -= ux
                    pts[i][1] -= uy
                    pts[j][0] += ux
                    pts[j][1] += uy
                    moved = True
        for p in pts:
            p[0] = min(hi, max(lo, p[0]))
            p[1] = min(hi, max(lo, p[1]))
        if not moved:
            break
    return [DieRest(d.face, p[0], p[1], d.yaw) for d, p in zip(arena, pts, strict=True)]


def _poses(data: mujoco.MjData, qadr: np.ndarray) -> np.ndarray:
    out = np.empty((len(qadr), 7))
    for i, a in enumerate(qadr):
        out[i, :3] = data.qpos[a : a + 3] * 1000
        out[i, 3:] = data.qpos[a + 3 : a + 7]
    return out


def _park(data: mujoco.MjData, qadr: int, vadr: int, i: int) -> None:
    data.qpos[qadr : qadr + 3] = (0.6 + 0.03 * i, 0.6, _PARK_Z)
    data.qpos[qadr + 3 : qadr + 7] = (1.0, 0.0, 0.0, 0.0)
    data.qvel[vadr : vadr + 6] = 0.0

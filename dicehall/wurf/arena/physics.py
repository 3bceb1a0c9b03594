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
from dicehall.wurf.layout import settle


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
    stacked_mm: float = 3.0  # a flat die whose centre is this much above a floor die's lies on other dice
    frame_every: int = 10  # steps per recorded frame (a multiple of check_every): 50 frames per second


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
RIM_TOP_MM = 1.5
"""A die touching a wall this close to its top (or higher) rests on the rim."""
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
    <flag energy="disable" warmstart="disable"/>
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
            if n_thrown > 1:
                # A handful of dice leaves the hand as a loose bunch (no two dice overlapping at release); a lone
                # die leaves on its aim line.
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
        frames: list[np.ndarray] = []
        frame_every = p.frame_every
        # Until the thrown dice come near anything they fly freely: that part is computed, not simulated.
        skip = _free_flight_steps(data, model, len(placed), n_thrown, p)
        if record_frames:
            for k in range(0, skip, frame_every):
                frames.append(_flown(data, len(placed), n_thrown, k * p.timestep))
        _fly(data, len(placed), n_thrown, skip * p.timestep)
        mujoco.mj_forward(model, data)
        outer = half + _mm(RIM_MM)
        gone = np.zeros(n, dtype=bool)
        gone_step = np.full(n, -1)
        calm = 0
        steps = int(p.max_time / p.timestep)
        qadr = model.jnt_qposadr[:n]
        vadr_all = model.jnt_dofadr[:n]
        # Every joint is a die's free joint: views of the state as one row per die.
        qpos = data.qpos.reshape(n, 7)
        qvel = data.qvel.reshape(n, 6)
        lin2, ang2 = p.rest_lin**2, p.rest_ang**2
        step = skip
        frame_steps = list(range(0, skip, frame_every))
        if record_frames:
            frames.append(qpos.copy())
            frame_steps.append(step)
        while step < steps:
            mujoco.mj_step(model, data, nstep=p.check_every)
            step += p.check_every
            if record_frames and step % frame_every == 0:
                frames.append(qpos.copy())
                frame_steps.append(step)
            x, y, z = qpos[:, 0], qpos[:, 1], qpos[:, 2]
            outside = (np.abs(x) > outer) | (np.abs(y) > outer) | (z < -0.005)
            flying = outside & (y < -outer) & (qvel[:, 1] > 0) & (z > 0)  # still on its way to the box
            for j in np.flatnonzero(outside & ~flying & ~gone):
                gone[j] = True
                gone_step[j] = step
                _park(data, qadr[j], vadr_all[j], int(j))
            moving = ((qvel[:, :3] ** 2).sum(axis=1) > lin2) | ((qvel[:, 3:] ** 2).sum(axis=1) > ang2)
            rest = not bool(np.any((moving | flying) & ~gone))
            calm = calm + 1 if rest else 0
            if calm >= p.rest_checks:
                break
        results = self._classify(model, data, gone, n)
        res = ThrowResult(results, [], frame_every * p.timestep, step * p.timestep)
        if record_frames:
            if step % frame_every:
                frames.append(qpos.copy())  # the resting poses end every flight
                frame_steps.append(step)
            res.frames = _frames_mm(frames, frame_steps, gone_step, half)
        return res

    def _classify(
        self, model: mujoco.MjModel, data: mujoco.MjData, gone: np.ndarray, n: int
    ) -> list[DieResult]:
        """Each die's status where it came to rest (see the rulings in docs/wurf.md), positions made physically
        possible (no die inside another, every die flat on the floor)."""
        p = self.params
        half = _mm(ARENA_MM) / 2
        qpos = data.qpos.reshape(n, 7)
        on_rim = _touching_rim(model, data, n)
        raw: list[tuple[Status, int, float, float, float, tuple[float, float, float, float], bool]] = []
        for i in range(n):
            if gone[i]:
                raw.append(("out", 0, 0.0, 0.0, 0.0, (1.0, 0.0, 0.0, 0.0), False))
                continue
            x, y, z = (float(v) for v in qpos[i, :3])
            quat = np.array(qpos[i, 3:])
            face, tilt = face_up(quat)
            q = (float(quat[0]), float(quat[1]), float(quat[2]), float(quat[3]))
            xm, ym = (x + half) * 1000, (y + half) * 1000
            if abs(x) > half or abs(y) > half or on_rim[i]:
                # The box's rim is the top of the walls: a die whose centre is over it, or that rests on it.
                raw.append(("rim", face, round(xm, 1), round(ym, 1), 0.0, q, False))
                continue
            yaw = round(yaw_of(quat), 1) % 90.0
            status: Status = "cocked" if tilt > p.cocked_deg else "arena"
            # Lying flat on the foam (not on another die, not leaning): it stays exactly where it is.
            flat_on_floor = status == "arena" and z < _mm(DIE_MM) / 2 + _mm(p.stacked_mm)
            raw.append((status, face, xm, ym, yaw, q, flat_on_floor))
        staying = [k for k, r in enumerate(raw) if r[0] in ("arena", "cocked")]
        spots = settle([(raw[k][2], raw[k][3], raw[k][4]) for k in staying], [raw[k][6] for k in staying])
        placed = dict(zip(staying, spots, strict=True))
        results: list[DieResult] = []
        for k, (status, face, xm, ym, yaw, q, _) in enumerate(raw):
            if status == "out":
                results.append(DieResult("out"))
            elif status == "rim":
                results.append(DieResult("rim", face, xm, ym, 0.0, q))
            else:
                sx, sy, _yaw = placed[k]
                results.append(DieResult(status, face, round(sx, 1), round(sy, 1), yaw, q))
        return results


_GRAVITY = 9.81
_REACH_MM = WALL_MM + DIE_MM / 2 * math.sqrt(3) + 5.0
"""Below this height of its centre a flying die could touch a wall's top (its corners reach 13.9 mm out)."""


def _free_flight_steps(
    data: mujoco.MjData, model: mujoco.MjModel, first: int, n: int, p: PhysicsParams
) -> int:
    """Whole frames of steps during which no thrown die can touch anything: each stays above the walls' reach and
    (several dice) no two come within a die's diagonal of each other."""
    if n == 0:
        return 0
    pos = data.qpos.reshape(-1, 7)[first : first + n, :3]
    vel = data.qvel.reshape(-1, 6)[first : first + n, :3]
    reach = _mm(_REACH_MM)
    t_end = math.inf
    for k in range(n):
        z0, vz = float(pos[k, 2]), float(vel[k, 2])
        # z0 + vz t - g t²/2 = reach: the later root is when it comes down to that height.
        disc = vz * vz + 2 * _GRAVITY * (z0 - reach)
        if z0 <= reach or disc < 0:
            return 0
        t_end = min(t_end, (vz + math.sqrt(disc)) / _GRAVITY)
    for a in range(n):
        for b in range(a + 1, n):
            # Gravity pulls both alike: their separation changes linearly; its closest approach within t_end.
            dp, dv = pos[b] - pos[a], vel[b] - vel[a]
            vv = float(dv @ dv)
            t = 0.0 if vv == 0 else min(t_end, max(0.0, -float(dp @ dv) / vv))
            if float(np.linalg.norm(dp + dv * t)) < 2 * _mm(DIE_MM) * math.sqrt(3) / 2 + 0.005:
                return 0
    frame = p.frame_every
    return int(t_end / p.timestep) // frame * frame


def _flown(data: mujoco.MjData, first: int, n: int, t: float) -> np.ndarray:
    """All dice's poses (qpos rows) after ``t`` seconds of free flight of the thrown dice."""
    q: np.ndarray = np.array(data.qpos, dtype=float).reshape(-1, 7)
    v = data.qvel.reshape(-1, 6)
    for k in range(first, first + n):
        q[k, :3] = q[k, :3] + v[k, :3] * t
        q[k, 2] -= 0.5 * _GRAVITY * t * t
        quat = q[k, 3:].copy()
        mujoco.mju_quatIntegrate(quat, v[k, 3:], t)  # a cube's spin stays constant in flight
        q[k, 3:] = quat
    return q


def _fly(data: mujoco.MjData, first: int, n: int, t: float) -> None:
    if t <= 0:
        return
    data.qpos[:] = _flown(data, first, n, t).reshape(-1)
    data.qvel.reshape(-1, 6)[first : first + n, 2] -= _GRAVITY * t


def _touching_rim(model: mujoco.MjModel, data: mujoco.MjData, n: int) -> np.ndarray:
    """Per die: whether it touches the top face of a wall (the rim), by the contacts of the final state."""
    walls = _wall_geoms(model)
    dice = {int(model.body_geomadr[model.body(f"die{i}").id]): i for i in range(n)}
    top = _mm(WALL_MM) - _mm(RIM_TOP_MM)
    out = np.zeros(n, dtype=bool)
    for c in data.contact[: data.ncon] if data.ncon else ():
        g1, g2 = int(c.geom1), int(c.geom2)
        die = dice.get(g1, dice.get(g2))
        if die is not None and (g1 in walls or g2 in walls) and float(c.pos[2]) >= top:
            out[die] = True
    return out


def _wall_geoms(model: mujoco.MjModel) -> set[int]:
    return {int(model.geom(name).id) for name in ("wall_s", "wall_n", "wall_w", "wall_e")}


def _frames_mm(
    frames: list[np.ndarray], steps: list[int], gone_step: np.ndarray, half: float
) -> list[np.ndarray]:
    """Frames in the arena frame (mm from the south-west floor corner, mm above the floor; quaternions w, x, y, z);
    a die that left the box is NaN in the frames after the one that last saw it."""
    out = []
    for q, at in zip(frames, steps, strict=True):
        m = q.copy()
        m[:, 0:2] = (m[:, 0:2] + half) * 1000
        m[:, 2] *= 1000
        left = (gone_step >= 0) & (gone_step < at)
        m[left] = np.nan
        out.append(m)
    return out


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


def _park(data: mujoco.MjData, qadr: int, vadr: int, i: int) -> None:
    data.qpos[qadr : qadr + 3] = (0.6 + 0.03 * i, 0.6, _PARK_Z)
    data.qpos[qadr + 3 : qadr + 7] = (1.0, 0.0, 0.0, 0.0)
    data.qvel[vadr : vadr + 6] = 0.0

"""Offscreen MuJoCo pictures of the arena after a throw (``dicehall render wurf RECORD --throw N``).

The picture is built from the record (faces, positions and yaws of the dice as they came to rest), so it
works for records of either arena model and needs no re-simulation. Faces carry pips (and a cross for X) as
visual-only geoms in the die frame used by the physics model.
"""

from __future__ import annotations

from pathlib import Path

from dicehall.core.errors import RecordError
from dicehall.core.record import GameRecord, new_state
from dicehall.i18n.message import Message
from dicehall.wurf.actions import Landed, Outcome, from_string
from dicehall.wurf.arena.base import ARENA_MM, DIE_MM, RIM_MM, DieRest, fill_unknown_positions
from dicehall.wurf.arena.gl import choose_gl_backend

_PIPS = {
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}
# Local face axis of each face (matches physics._AXES) and two in-plane axes for the pip pattern.
_FACE_AXES = {
    1: ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    6: ((0, 0, -1), (1, 0, 0), (0, 1, 0)),
    2: ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    5: ((-1, 0, 0), (0, 1, 0), (0, 0, 1)),
    3: ((0, 1, 0), (1, 0, 0), (0, 0, 1)),
    4: ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
}


def _pip_geoms(h: float) -> str:
    out = []
    step = h * 0.5
    for face, (n, u, v) in _FACE_AXES.items():
        c = [n[k] * (h - 0.0004) for k in range(3)]
        if face == 1:
            for ang in (45, -45):
                out.append(
                    f'<geom type="box" size="{h * 0.8} {h * 0.12} 0.0005" pos="{c[0]} {c[1]} {c[2] + 0.0003}" '
                    f'euler="0 0 {ang}" rgba=".75 .05 .05 1" contype="0" conaffinity="0" group="1"/>'
                )
            continue
        for a, b in _PIPS[face]:
            pos = [c[k] + step * (a * u[k] + b * v[k]) for k in range(3)]
            out.append(
                f'<geom type="sphere" size="{h * 0.17}" pos="{pos[0]} {pos[1]} {pos[2]}" rgba=".08 .08 .08 1" '
                f'contype="0" conaffinity="0" group="1"/>'
            )
    return "".join(out)


def render_outcome(dice: list[Landed], out: Path, width: int = 800, height: int = 800) -> Path:
    """Draw the arena with ``dice`` at rest (only dice inside the arena) and save a PNG."""
    choose_gl_backend()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import mujoco
    import numpy as np

    from dicehall.wurf.arena.physics import DEFAULT, build_xml, rest_quat

    resting = [DieRest(d.face, d.x, d.y, d.yaw) for d in dice if d.status in ("arena", "cocked")]
    shown = fill_unknown_positions(resting)  # referee records have no positions: dice go on a grid
    xml = build_xml(len(shown), DEFAULT)
    h = DIE_MM / 2000
    xml = xml.replace('material="die"/></body>', f'material="die"/>{_pip_geoms(h)}</body>')
    xml = xml.replace('offwidth="800" offheight="800"', f'offwidth="{width}" offheight="{height}"')
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    half = ARENA_MM / 2000
    for i, d in enumerate(shown):
        assert d.x is not None and d.y is not None
        adr = model.jnt_qposadr[i]
        data.qpos[adr : adr + 3] = (d.x / 1000 - half, d.y / 1000 - half, h)
        data.qpos[adr + 3 : adr + 7] = rest_quat(d.face, d.yaw)
    mujoco.mj_forward(model, data)
    cam = mujoco.MjvCamera()
    cam.lookat[:] = (0.0, 0.0, 0.0)
    cam.distance = (ARENA_MM + 2 * RIM_MM) / 1000 * 1.55
    cam.elevation = -62.0
    cam.azimuth = 90.0
    with mujoco.Renderer(model, height, width) as renderer:
        renderer.update_scene(data, camera=cam)
        pixels = renderer.render()
    out.parent.mkdir(parents=True, exist_ok=True)
    plt.imsave(out, np.asarray(pixels))
    return out


def outcome_of_throw(record: GameRecord, n: int) -> Outcome:
    """The outcome of throw number ``n`` (1-based) of a Wurf record, checked by replaying up to it."""
    if record.game != "wurf":
        raise RecordError(Message("wurf.render.not_wurf", game=record.game))
    _, state = new_state(record)
    from dicehall.core.record import apply_event

    seen = 0
    for number, ev in enumerate(record.events, start=1):
        if ev.actor == "chance" and ev.move.startswith("lands"):
            seen += 1
            if seen == n:
                action = from_string(ev.move)
                apply_event(state, ev, number)
                assert isinstance(action, Outcome)
                return action
        apply_event(state, ev, number)
    raise RecordError(Message("wurf.render.no_throw", n=seen, k=n))

"""Arena models for Der große Wurf: ``physics`` (MuJoCo) and ``fast`` (calibrated statistics).

Importing the package picks MuJoCo's offscreen GL backend first, since MuJoCo reads ``MUJOCO_GL`` on import.
"""

from dicehall.wurf.arena import gl as _gl

__all__ = ["_gl"]

"""Choosing MuJoCo's offscreen GL backend. MuJoCo reads ``MUJOCO_GL`` when it is first imported, so this runs
before any ``import mujoco`` in dicehall."""

from __future__ import annotations

import ctypes.util
import os


def choose_gl_backend() -> str:
    """MUJOCO_GL for offscreen rendering: keep the user's choice, else OSMesa if installed, else EGL."""
    if os.environ.get("MUJOCO_GL"):
        return os.environ["MUJOCO_GL"]
    backend = "osmesa" if ctypes.util.find_library("OSMesa") else "egl"
    os.environ["MUJOCO_GL"] = backend
    if backend == "osmesa":
        os.environ.setdefault("PYOPENGL_PLATFORM", "osmesa")
    return backend


choose_gl_backend()

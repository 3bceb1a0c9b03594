"""The compact table shipped in the package (``data/classic.npz``): classic's values for ``bot:optimal`` out of the box.

The exact table (float32, 19.4 MB) is too big to commit, and solving classic takes longer than a first use may.
The shipped file holds the same values quantised and predicted from their neighbours:

1. **Order**: the player states are sorted by (falls, opened, bolts, attempts, score), so that along both axes of
   the (opponent, mover) grid neighbours differ only by one score step inside each block, and values are smooth.
2. **Quantise** to multiples of ``2**-bits`` (16 bits: every value within ``2**-17`` ≈ 7.6e-6 of the exact one).
3. **Predict** each value from its left, upper and upper-left neighbours (``left + up − upper_left``, PNG's plane
   predictor); the residual is the 2-D second difference, mostly a few units.
4. **Store** the residuals zig-zag coded (small magnitudes → small numbers), split into byte planes (high bytes,
   almost all zero, then middle, then low) and compressed with zlib (fast to decode).

Decoding is two cumulative sums. The file also holds the rules it was solved for (refused for any other rules)
and the player states in its order (the loader maps them onto the space it builds, so a change of state order or
a missing state is caught rather than read wrongly). Written by ``scripts/thousand_ship_table.py`` (or
``dicehall solve thousand --preset classic --export-compact F``) from a solved table.
"""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from dicehall.core.errors import DicehallError
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.space import PlayerState, Space

FORMAT = "dicehall-thousand-compact/1"
DEFAULT_BITS = 16
PLANES = 3
"""Byte planes of the zig-zag residual (up to 2**24; at 16 bits a residual needs at most 18 bits)."""


class CompactError(DicehallError):
    """A compact table that does not decode, or does not fit the rules or the space."""


def rules_dict(rules: ThousandRules) -> dict[str, Any]:
    """What the values depend on among the rules (the preset's name and the roll-off do not count)."""
    data = rules.to_dict()
    for name in ("preset", "roll_off"):
        data.pop(name, None)
    return data


def shipped_path(name: str = "classic") -> Path:
    return Path(str(resources.files("dicehall.thousand.solver") / "data" / f"{name}.npz"))


def file_order(space: Space) -> npt.NDArray[np.int64]:
    """Space indices in the file's order: by (falls, opened, bolts, attempts, score)."""
    st = space.states
    return np.array(
        sorted(
            range(space.size),
            key=lambda i: (st[i].falls, st[i].opened, st[i].bolts, st[i].attempts, st[i].score),
        ),
        dtype=np.int64,
    )


def quantise(values: npt.NDArray[np.floating], bits: int = DEFAULT_BITS) -> npt.NDArray[np.float32]:
    """The values exactly as the compact file gives them back (for measuring its error without a round trip)."""
    scale = float(1 << bits)
    return (np.round(np.asarray(values, dtype=np.float64) * scale) / scale).astype(np.float32)


def encode(
    space: Space, values: npt.NDArray[np.floating], info: dict[str, Any], bits: int = DEFAULT_BITS
) -> bytes:
    """The compact file of a solved table (``values`` in the solver's W layout, in [0, 1]); ``info`` goes into its
    header (the solve's figures)."""
    v = np.asarray(values, dtype=np.float64)
    if v.shape != (space.size, space.size):
        raise CompactError(f"values of shape {v.shape} do not fit a space of {space.size} player states")
    if not (np.isfinite(v).all() and v.min() >= 0.0 and v.max() <= 1.0):
        raise CompactError("values must be win probabilities in [0, 1]")
    order = file_order(space)
    q = np.round(v[np.ix_(order, order)] * (1 << bits)).astype(np.int64)
    resid = np.diff(np.diff(np.pad(q, ((1, 0), (1, 0))), axis=0), axis=1)
    zz = np.where(resid >= 0, 2 * resid, -2 * resid - 1)
    if zz.max() >= 1 << (8 * PLANES):
        raise CompactError("a residual does not fit the byte planes")
    planes = np.stack([(zz >> (8 * k)) & 0xFF for k in reversed(range(PLANES))]).astype(np.uint8)
    err = quantise(v, bits).astype(np.float64) - v
    header = {
        **info,
        "format": FORMAT,
        "bits": bits,
        "size": space.size,
        "floor": space.floor,
        "rules": rules_dict(space.rules),
        "max_error": float(np.abs(err).max()),
        "mean_error": float(np.abs(err).mean()),
    }
    states = np.array([tuple(space.states[i]) for i in order], dtype=np.int16)
    buf = io.BytesIO()
    np.savez(
        buf,
        header=np.array(json.dumps(header, sort_keys=True)),
        states=states,
        residuals=np.frombuffer(zlib.compress(planes.tobytes(), 9), dtype=np.uint8),
    )
    return buf.getvalue()


def read_header(path: Path) -> dict[str, Any]:
    try:
        with np.load(path, allow_pickle=False) as data:
            header: dict[str, Any] = json.loads(str(data["header"]))
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise CompactError(f"{path}: not a compact Dice 1000 table ({exc})") from None
    fmt = header.get("format") if isinstance(header, dict) else None
    if fmt != FORMAT:
        raise CompactError(f"{path}: not a compact Dice 1000 table ({fmt!r})")
    return header


def decode(path: Path, space: Space) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
    """The values (W layout of ``space``) and the header of a compact file; refused when the rules, the floor or
    the player states differ from ``space``'s."""
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(str(data["header"]))
            states = data["states"]
            packed = data["residuals"].tobytes()
    except (OSError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise CompactError(f"{path}: not a compact Dice 1000 table ({exc})") from None
    fmt = header.get("format") if isinstance(header, dict) else None
    if fmt != FORMAT:
        raise CompactError(f"{path}: not a compact Dice 1000 table ({fmt!r})")
    if header["rules"] != rules_dict(space.rules) or header["floor"] != space.floor:
        raise CompactError(f"{path} was solved for other rules (or another score floor)")
    size = space.size
    try:
        keys = [PlayerState(int(sc), bool(op), int(b), int(f), int(a)) for sc, op, b, f, a in states.tolist()]
        order = np.array([space.index[k] for k in keys], dtype=np.int64)
    except (KeyError, ValueError, TypeError):
        order = np.empty(0, dtype=np.int64)
    if header["size"] != size or len(order) != size or len(set(order.tolist())) != size:
        raise CompactError(
            f"{path}: its player states are not those of the model ({header['size']} vs {size})"
        )
    try:
        raw = np.frombuffer(zlib.decompress(packed), dtype=np.uint8)
    except zlib.error as exc:
        raise CompactError(f"{path}: its residuals do not decompress ({exc})") from None
    if raw.size != PLANES * size * size:
        raise CompactError(f"{path}: {raw.size} residual bytes, expected {PLANES * size * size}")
    zz = np.zeros((size, size), dtype=np.int32)
    for plane in raw.reshape(PLANES, size, size):
        zz = (zz << 8) | plane
    q = (zz >> 1) ^ -(zz & 1)  # the residuals (zig-zag undone), summed up in place: the 2-D prediction undone
    np.add.accumulate(q, axis=0, out=q)
    np.add.accumulate(q, axis=1, out=q)
    inverse = np.empty(size, dtype=np.int64)
    inverse[order] = np.arange(size)
    values = q[np.ix_(inverse, inverse)].astype(np.float32)
    values *= np.float32(1.0 / (1 << int(header["bits"])))
    return values, header


def export(
    space: Space, values: npt.NDArray[np.floating], info: dict[str, Any], path: Path, bits: int = DEFAULT_BITS
) -> dict[str, Any]:
    """Write the compact file of a solved table to ``path``; returns its header (with the file's size)."""
    keep = ("win_probability_first", "method", "residual", "tolerance", "score_floor", "states")
    data = encode(space, values, {"solved": {k: info[k] for k in keep if k in info}}, bits)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return {**read_header(path), "bytes": len(data), "path": str(path)}

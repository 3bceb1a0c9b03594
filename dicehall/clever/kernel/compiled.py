"""The simulation's block kernel compiled ahead of time, so that ``dicehall simulate clever`` with random bots plays
without loading Numba (its import and the load of its cached kernels are most of a short run's time).

``make kernels`` builds it (``python -m dicehall.clever.kernel.compiled``) with Numba's ahead-of-time compiler
from the very functions the just-in-time kernel compiles (:func:`block.play_block`, :func:`rules.new_game`): no
second copy of the rules. The module carries a fingerprint of the sources it was built from and is used only while
they are unchanged; otherwise (or where it was never built) the just-in-time kernel plays the same games.
``tests/clever/test_blocks.py`` checks that the two give the same games.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any, cast

NAME = "_compiled"
_PACKAGE = Path(__file__).resolve().parents[2]  # dicehall/


# What the kernel is compiled from: its own modules and every module they load, whose constants it may read
# (tests/clever/test_blocks.py keeps the list whole; the Makefile rebuilds the kernels when one changes).
SOURCES = (
    "__init__.py",
    "clever/__init__.py",
    "core/__init__.py",
    "i18n/__init__.py",
    "i18n/message.py",
    "clever/kernel/*.py",
    "clever/sheet.py",
    "clever/tables.py",
    "clever/state.py",
    "clever/actions.py",
    "clever/rules.py",
    "clever/words.py",
    "core/game.py",
    "core/rng.py",
    "core/rules.py",
    "core/errors.py",
)


def source_files() -> list[Path]:
    return sorted(p for pattern in SOURCES for p in _PACKAGE.glob(pattern))


def fingerprint() -> int:
    """A hash of :data:`SOURCES`, 56 bits so that the compiled module can return it as an int64."""
    digest = hashlib.sha256()
    for path in source_files():
        digest.update(path.relative_to(_PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    return int.from_bytes(digest.digest()[:7], "big")


@functools.cache
def load() -> ModuleType | None:
    """The compiled module when it was built from the current sources, else None (checked once per process: the
    fingerprint reads every source, ≈ 8 ms, and a simulation asks once per block)."""
    try:
        module = importlib.import_module(f"{__package__}.{NAME}")
    except ImportError:
        return None
    return module if module.source_fingerprint() == fingerprint() else None


def build() -> Path:
    """Compile the module next to this file; its path."""
    from numba import types as T

    with warnings.catch_warnings():  # Numba marks its ahead-of-time compiler as pending deprecation
        warnings.simplefilter("ignore")
        from numba import pycc

    from dicehall.clever.kernel import block as KB
    from dicehall.clever.kernel import rules as K

    f2, f1 = T.Array(T.float64, 2, "C"), T.Array(T.float64, 1, "C")
    i2, i1, u1 = T.Array(T.int64, 2, "C"), T.Array(T.int64, 1, "C"), T.Array(T.uint64, 1, "C")
    weights = T.Tuple((f2, f1, f2, f1, f1, f1))  # type: ignore[no-untyped-call]
    block = T.void(
        T.int64, u1, T.int64, i1, weights, i2, T.float64, T.int64, T.boolean, f1, i2, f2, f2, i2, i2, i1
    )
    value = fingerprint()

    def source_fingerprint() -> int:
        return value

    cc: Any = pycc.CC(NAME)  # type: ignore[attr-defined, no-untyped-call]
    cc.output_dir = str(Path(__file__).parent)
    cc.verbose = False
    cc.export("play_block", block)(cast(Any, KB.play_block).py_func)
    cc.export("new_game", i1(T.int64, T.int64, T.boolean, T.boolean))(cast(Any, K.new_game).py_func)
    cc.export("source_fingerprint", T.int64())(source_fingerprint)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cc.compile()
    return Path(cc.output_dir) / str(cc.output_file)


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["--sources"]:  # for the Makefile
        print(" ".join(str(p.relative_to(_PACKAGE.parent)) for p in source_files()))
    else:
        print(f"compiled {build()}")

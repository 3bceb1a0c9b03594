"""The installed ``dicehall`` package is the product only: the benchmarks (``bench/``), the developer tools
(``tools/``) and the tests' helpers stay in the repository and are imported from its root, never installed.

Walks ``dicehall`` with pkgutil: no module may be named like a benchmark or tool, and no module may import at top
level (when it is imported, not inside a function) a package that only the ``dev`` extra of pyproject.toml installs
(in ``dev``, not in the main dependencies). A product module that needs one of those (``httpx`` for forwarding,
``psycopg`` for PostgreSQL, ``scipy`` for a statistic) imports it where it is used. One exception, by design:
``dicehall.envs`` is the ``rl`` extra's feature and imports PettingZoo and Gymnasium at top level (its
``__init__`` names the extra to install when they are missing).
"""

from __future__ import annotations

import ast
import importlib.metadata
import pkgutil
import re
import tomllib
from pathlib import Path

import dicehall

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]

TOOL_NAMES = re.compile(r"bench|loadgen|abuse|pgtemp|master_eval")
"""What a module of the product is never called: a benchmark, the load generator, the abuse mix, the throw-away
PostgreSQL cluster, the master evaluation (all in bench/ or tools/)."""

TOP_LEVEL_EXTRAS = {"dicehall.envs": "rl"}
"""Package (and its modules) → the optional extra whose packages it may import at top level."""


def _dist(requirement: str) -> str:
    """The normalized distribution name of a requirement (``psycopg[binary]>=3.1`` → ``psycopg``)."""
    match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement.strip())
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


def _import_names(dists: set[str]) -> set[str]:
    """The top-level import names the installed distributions ``dists`` provide (``pytest-xdist`` → ``xdist``);
    a distribution that is not installed counts under its own name."""
    provided: dict[str, set[str]] = {}
    for name, owners in importlib.metadata.packages_distributions().items():
        for owner in owners:
            provided.setdefault(_dist(owner), set()).add(name)
    return {name for dist in dists for name in provided.get(dist, {dist.replace("-", "_")})}


MAIN = {_dist(r) for r in PROJECT["dependencies"]}
DEV_ONLY = {_dist(r) for r in PROJECT["optional-dependencies"]["dev"]} - MAIN
FORBIDDEN = _import_names(DEV_ONLY) - _import_names(MAIN)


def _allowed(module: str) -> set[str]:
    for package, extra in TOP_LEVEL_EXTRAS.items():
        if module == package or module.startswith(package + "."):
            return _import_names({_dist(r) for r in PROJECT["optional-dependencies"][extra]})
    return set()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def top_level_imports(source: str) -> set[str]:
    """The top-level names of the absolute imports a module runs when it is imported: its body, and the blocks
    inside it (if, try, with, class bodies), but not function bodies or ``if TYPE_CHECKING:``."""
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level == 0 and node.module:
                    found.add(node.module.split(".")[0])
            elif isinstance(node, ast.If):
                if not _is_type_checking(node.test):
                    visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try | ast.TryStar):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)
            elif isinstance(node, ast.With | ast.AsyncWith | ast.ClassDef | ast.For | ast.While):
                visit(node.body)

    visit(ast.parse(source).body)
    return found


def product_modules() -> dict[str, Path]:
    """Every module of the ``dicehall`` package (pkgutil imports the subpackages to walk them) → its source.

    A module built from them (``make kernels``' ahead-of-time Clever kernel, ``clever/kernel/_compiled*.so``) has
    no source of its own: its sources are among these."""
    modules = {"dicehall": Path(dicehall.__file__)}
    for info in pkgutil.walk_packages(dicehall.__path__, "dicehall."):
        spec = info.module_finder.find_spec(info.name, None)
        assert spec is not None and spec.origin, info.name
        if spec.origin.endswith(".py"):
            modules[info.name] = Path(spec.origin)
        else:
            assert info.name == "dicehall.clever.kernel._compiled", f"{info.name} is not a Python source"
    return modules


def test_the_checks_know_the_dev_only_packages() -> None:
    assert {"pytest", "hypothesis", "scipy", "httpx", "websockets", "playwright", "psycopg"} <= FORBIDDEN
    assert not {"numpy", "fastapi", "uvicorn", "sqlalchemy", "numba"} & FORBIDDEN
    source = "import os\nimport httpx\n\ndef f():\n    import scipy\n\nif TYPE_CHECKING:\n    import pytest\n"
    assert top_level_imports(source) == {"os", "httpx"}


def test_only_the_product_is_installed() -> None:
    assert PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"] == ["dicehall*"]
    modules = product_modules()
    assert "dicehall.web.app" in modules and "dicehall.thousand.solver.solve" in modules, (
        "the walk found them"
    )
    named = sorted(m for m in modules if any(TOOL_NAMES.search(part) for part in m.split(".")))
    assert not named, f"benchmarks and tools belong in bench/ or tools/, not in the package: {named}"


def test_no_product_module_imports_a_dev_only_package_at_top_level() -> None:
    found = {
        module: sorted((top_level_imports(path.read_text(encoding="utf-8")) & FORBIDDEN) - _allowed(module))
        for module, path in product_modules().items()
    }
    offenders = {module: names for module, names in found.items() if names}
    assert not offenders, (
        f"imported at top level but installed only by the dev extra (import them where they are used): {offenders}"
    )


def test_no_installed_distribution_claims_a_top_level_name_of_this_repository() -> None:
    """A dependency that installs a top-level ``tests`` (or ``bench``, ``tools``, ``scripts``) package hides this
    repository's own (``from tests.core.terminal import …`` broke when glicko2 2.1.0 did, and it was replaced)."""
    ours = {"tests", "bench", "tools", "scripts", "dicehall"}
    claimed = []
    for dist in importlib.metadata.distributions():
        if dist.metadata["Name"] == "dicehall":
            continue
        for f in dist.files or []:
            if len(f.parts) >= 2 and f.parts[0] in ours and f.parts[-1] == "__init__.py":
                claimed.append(f"{dist.metadata['Name']}: {f}")
    assert not claimed, claimed

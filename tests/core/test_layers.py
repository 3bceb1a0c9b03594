"""The layers of dicehall, enforced (docs/ARCHITECTURE.md draws them).

    web, cli, envs               front ends: may import anything below
    bots, solvers, fast paths    may import engines; register their fast paths (dicehall.core.playout)
    engines                      the rules of each game: state, rules and the pure modules they need
    core                         the protocol and the shared machinery; names no game
    i18n                         messages and languages; imports nothing else of dicehall

Every module under ``dicehall/`` is read as source (nothing is imported): every ``import`` counts, also inside
functions and under ``TYPE_CHECKING``, and so does every string that names a dicehall module in full (what
``importlib.import_module`` or ``sys.modules`` would be given), and every f-string that builds one.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import dicehall

ROOT = Path(dicehall.__file__).parent
GAMES = ("thousand", "clever", "wurf")

ENGINES: dict[str, tuple[str, ...]] = {
    # the state machine, its rule options, and the pure tables, notation and words the rules are written in
    "thousand": ("state", "rules", "notation", "scoring", "tables", "view", "lead"),
    "clever": ("state", "rules", "actions", "sheet", "tables", "words"),
    # Der große Wurf's dice land where the arena puts them: the arena models are part of its rules
    "wurf": (
        *("state", "rules", "actions", "layout", "motion", "words"),
        *("arena", "arena.base", "arena.fast", "arena.physics", "arena.gl"),
    ),
}
ENGINE_MODULES = {f"dicehall.{game}.{name}" for game, names in ENGINES.items() for name in names}

CORE_PROTOCOL = {f"dicehall.core.{name}" for name in ("game", "rules", "errors", "rng")}
"""What of core an engine may use: the game protocol, rule sets, errors and the dice streams."""

FRONT_ENDS = ("dicehall.web", "dicehall.cli", "dicehall.envs")

CATALOGUE = ("dicehall.core.game", {f"dicehall.{game}.game" for game in GAMES})
"""The one place core names the games: ``get_game``'s table of each game's front door, imported on demand."""


@dataclasses.dataclass(frozen=True)
class Import:
    importer: str
    imported: str  # a module, or "dicehall.<...>" for a name built at run time
    line: int
    how: str  # "import", "string" or "f-string"
    eager: bool = False  # runs when the importer is imported (not in a function, not under TYPE_CHECKING)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}

_FULL_NAME = re.compile(r"dicehall(\.\w+)+(:\w+)?")


def _target(name: str) -> str:
    """The module ``name`` (``pkg.module`` or ``pkg.module.attribute``) refers to."""
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def _deferred(parent: ast.AST, child: ast.AST) -> bool:
    """Whether ``child`` of ``parent`` runs later than the module's own code (a function's body, a type check)."""
    if isinstance(parent, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        return True
    if isinstance(parent, ast.If) and child in parent.body:
        test = parent.test
        return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
            isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
        )
    return False


def _nodes(tree: ast.AST) -> Iterator[tuple[ast.AST, bool]]:
    """Every node of ``tree``, with whether it runs when the module is imported."""
    stack = [(tree, True)]
    while stack:
        node, eager = stack.pop()
        yield node, eager
        stack.extend((child, eager and not _deferred(node, child)) for child in ast.iter_child_nodes(node))


def imports_of(module: str, source: str) -> Iterator[Import]:
    """Every dicehall module ``module`` imports, statically or by name."""
    is_package = MODULES.get(module, Path()).name == "__init__.py"
    package = module if is_package else module.rsplit(".", 1)[0]
    for node, eager in _nodes(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("dicehall"):
                    yield Import(module, _target(alias.name), node.lineno, "import", eager)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*up, *([node.module] if node.module else [])])
            if base.startswith("dicehall"):
                for alias in node.names:
                    yield Import(module, _target(f"{base}.{alias.name}"), node.lineno, "import", eager)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if _FULL_NAME.fullmatch(node.value):
                yield Import(module, _target(node.value.split(":")[0]), node.lineno, "string")
        elif isinstance(node, ast.JoinedStr) and node.values:
            head = node.values[0]
            if isinstance(head, ast.Constant) and str(head.value).startswith("dicehall."):
                yield Import(module, f"{head.value}{{...}}", node.lineno, "f-string")


def all_imports() -> list[Import]:
    found = []
    for module, path in MODULES.items():
        found.extend(i for i in imports_of(module, path.read_text()) if i.imported != module)
    return found


def game_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in GAMES else None


def within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


# -- the rules: each returns what is wrong with one import, or None ----------------------------------------------
Rule = Callable[[Import], str | None]


def i18n_is_the_base(i: Import) -> str | None:
    if within(i.importer, "dicehall.i18n") and not within(i.imported, "dicehall.i18n"):
        return "i18n is the base layer and imports nothing else of dicehall"
    return None


def core_names_no_game(i: Import) -> str | None:
    if not within(i.importer, "dicehall.core"):
        return None
    if i.importer == CATALOGUE[0] and i.imported in CATALOGUE[1] and i.how == "string":
        return None
    if within(i.imported, "dicehall.core") or within(i.imported, "dicehall.i18n"):
        return None
    return (
        "core imports nothing but core and i18n (no game, no web, cli or envs): let the game object or a "
        "registry the game fills in (register_bot, register_playout) bring what core needs"
    )


def engines_are_rules(i: Import) -> str | None:
    if i.importer not in ENGINE_MODULES:
        return None
    if i.imported in CORE_PROTOCOL or within(i.imported, "dicehall.i18n"):
        return None
    if i.imported in ENGINE_MODULES and game_of(i.imported) == game_of(i.importer):
        return None
    if any(within(i.imported, front) for front in FRONT_ENDS):
        return "an engine never imports a front end (web, cli, envs)"
    if game_of(i.imported) == game_of(i.importer):
        return (
            "an engine imports only its own game's engine modules (tests/core/test_layers.py lists them): "
            "no bots, solvers, kernels, fast paths, analysis or terminal views; a faster way to finish a game "
            "is registered by the bot module (dicehall.core.playout.register_playout)"
        )
    if within(i.imported, "dicehall.core"):
        return "an engine uses of core only the protocol: dicehall.core.game, rules, errors and rng"
    return "an engine imports only core's protocol, i18n and its own game's engine modules"


def games_are_apart(i: Import) -> str | None:
    mine, theirs = game_of(i.importer), game_of(i.imported)
    if mine and theirs and mine != theirs:
        return "one game never imports another"
    return None


def front_ends_on_top(i: Import) -> str | None:
    for front in FRONT_ENDS:
        if within(i.imported, front) and not any(within(i.importer, f) for f in FRONT_ENDS):
            return f"{front} sits on top: nothing below the front ends (web, cli, envs) imports it"
    return None


def names_in_full(i: Import) -> str | None:
    if i.how == "f-string" and not any(within(i.importer, f) for f in FRONT_ENDS):
        return "a module name built at run time hides a dependency: import the module, or ask get_game"
    return None


RULES: tuple[Rule, ...] = (
    i18n_is_the_base,
    core_names_no_game,
    engines_are_rules,
    games_are_apart,
    front_ends_on_top,
    names_in_full,
)


def broken(imports: list[Import]) -> list[str]:
    problems = []
    for i in imports:
        for rule in RULES:
            why = rule(i)
            if why is not None:
                how = {"import": "imports", "string": "names", "f-string": "builds the name"}[i.how]
                problems.append(
                    f"{MODULES[i.importer].relative_to(ROOT.parent)}:{i.line}: {i.importer} {how} "
                    f"{i.imported}\n    broken: {rule.__name__}: {why}"
                )
    return problems


def import_cycles(imports: list[Import]) -> list[list[str]]:
    """Groups of modules whose import-time imports lead back to themselves (each group sorted)."""
    graph: dict[str, set[str]] = {}
    for i in imports:
        if i.eager and i.imported in MODULES and MODULES[i.imported].name != "__init__.py":
            graph.setdefault(i.importer, set()).add(i.imported)

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    reached = {m: reach(m) for m in graph}
    groups = {
        tuple(sorted(m2 for m2 in reached[m] if m in reached.get(m2, ()))) for m in graph if m in reached[m]
    }
    return sorted(list(g) for g in groups)


# -- the tests ----------------------------------------------------------------------------------------------------
def test_the_layers_hold() -> None:
    problems = broken(all_imports())
    assert not problems, "the import contract is broken:\n" + "\n".join(problems)


def test_no_module_imports_itself_back() -> None:
    """A cycle of import-time imports works only in one import order: the modules must be told apart."""
    cycles = import_cycles(all_imports())
    assert not cycles, "import cycles (break each by moving the shared part down a layer):\n" + "\n".join(
        " <-> ".join(group) for group in cycles
    )


def test_every_listed_engine_module_exists() -> None:
    assert set(MODULES) >= ENGINE_MODULES, sorted(ENGINE_MODULES - set(MODULES))
    assert set(MODULES) >= CATALOGUE[1]


def test_the_walker_sees_imports_in_functions_strings_and_f_strings() -> None:
    source = """
import importlib, sys
from typing import TYPE_CHECKING
from dicehall.core import game
from . import rules

if TYPE_CHECKING:
    from dicehall.thousand import view

def later():
    from dicehall.thousand.solver import bot
    sys.modules.get("dicehall.clever.master")
    importlib.import_module("dicehall.thousand.fast")
    importlib.import_module(f"dicehall.{name}.bots")
"""
    found = {(i.imported, i.how, i.eager) for i in imports_of("dicehall.thousand.state", source)}
    assert found == {
        ("dicehall.core.game", "import", True),
        ("dicehall.thousand.rules", "import", True),
        ("dicehall.thousand.view", "import", False),
        ("dicehall.thousand.solver.bot", "import", False),
        ("dicehall.clever.master", "string", False),
        ("dicehall.thousand.fast", "string", False),
        ("dicehall.{...}", "f-string", False),
    }
    problems = "\n".join(broken(list(imports_of("dicehall.thousand.state", source))))
    for rule, imported in [
        ("engines_are_rules", "dicehall.thousand.solver.bot"),
        ("engines_are_rules", "dicehall.thousand.fast"),
        ("games_are_apart", "dicehall.clever.master"),
        ("names_in_full", "dicehall.{...}"),
    ]:
        assert f"{imported}\n    broken: {rule}" in problems
    assert "dicehall.core.game\n" not in problems and "dicehall.thousand.rules\n" not in problems


def test_a_cycle_is_found() -> None:
    bots, solver = "dicehall.thousand.bots", "dicehall.thousand.solver.bot"
    imports = [
        Import(bots, solver, 300, "import", eager=True),
        Import(solver, bots, 20, "import", eager=True),
    ]
    assert import_cycles(imports) == [[bots, solver]]
    assert import_cycles([imports[0], dataclasses.replace(imports[1], eager=False)]) == []

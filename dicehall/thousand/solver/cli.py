"""``dicehall solve thousand``: solve two-player Dice 1000 and cache the table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from dicehall.core.cli_options import RulesFileOpt, SetOpt, command_group, console, fail
from dicehall.core.cli_support import load_rules
from dicehall.core.errors import DicehallError
from dicehall.i18n import current, localize, tr
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.space import (
    DEFAULT_FLOOR,
    DEFAULT_MAX_SWEEPS,
    DEFAULT_TOL,
    Space,
    check_floor,
    refusal,
    unsupported,
)

if TYPE_CHECKING:
    from dicehall.thousand.solver.solve import Solution


def register_solve(app: typer.Typer) -> None:
    group = command_group(app, "solve", "Solve a game exactly: win probabilities under optimal play.")

    @group.command("thousand")
    def solve_thousand(
        preset: str = typer.Option(None, "--preset", "-p", help="Rule preset (default classic)."),
        sets: list[str] = SetOpt,
        rules_file: Path = RulesFileOpt,
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object with the figures."),
        floor: int = typer.Option(
            DEFAULT_FLOOR,
            "--floor",
            help="Score floor of the model: lower scores are kept here (approximation).",
        ),
        tol: float = typer.Option(DEFAULT_TOL, "--tol", help="Stop when no value changes by more than this."),
        max_sweeps: int = typer.Option(
            DEFAULT_MAX_SWEEPS, "--max-sweeps", help="Give up after this many sweeps."
        ),
        plot: Path = typer.Option(None, "--plot", help="Also draw the banking thresholds into this PNG."),
        policy: bool = typer.Option(
            False, "--policy", help="Also print the optimal policy in words (banking thresholds by score)."
        ),
        threads: int = typer.Option(
            0, "--threads", help="Threads that sweep at once (0: up to 2, as many as there are CPUs)."
        ),
        method: str = typer.Option(
            "auto",
            "--method",
            help="vi: value iteration from both ends (proves bounds, names endless play); pi: policy iteration "
            "(fast on large rule sets; a fixed point within --tol, endless play counts as a draw); auto: vi up to "
            "400,000 positions, else pi.",
        ),
        fresh: bool = typer.Option(
            False,
            "--fresh",
            help="Solve again: ignore the cached table and any checkpoint of an interrupted run.",
        ),
        export_compact: Path = typer.Option(
            None,
            "--export-compact",
            help="Also write the solved table as a compact file (16-bit, as shipped in the package for classic).",
        ),
    ) -> None:
        """Win probabilities of two-player Dice 1000 under optimal play by both.

        Small rule sets: value iteration from both ends (proved bounds); large ones such as classic: policy
        iteration per fall level (--method). The table is cached in the user data directory (bot:optimal plays
        from it; a second run prints the cached result); an interrupted run resumes from its checkpoint (policy
        iteration: from the last finished level). Scores below --floor are kept at the floor: the model's one
        approximation (docs/thousand-solved.md).

        The yard and variant 2 rules have tables of their own (hours of one processor core): the command says
        what it takes before it starts, shows a bar by level and resumes from the last finished level.
        """
        if method not in ("auto", "vi", "pi"):
            raise fail(tr("solve.thousand.unknown_method", method=method))
        rules = load_rules("thousand", preset, sets, rules_file)
        assert isinstance(rules, ThousandRules)
        try:
            check_floor(floor)
        except DicehallError as exc:
            raise fail(exc) from None
        from dicehall.thousand.solver.exact import model_for

        model = model_for(rules)
        if model is not None:  # yard's and variant 2's own models (solver/exact.py)
            from dicehall.thousand.solver.exact_cli import solve_exact

            given = {"--plot": plot, "--policy": policy, "--export-compact": export_compact}
            classic_only = [name for name, value in given.items() if value]
            solve_exact(
                model,
                rules,
                floor,
                tol,
                fresh=fresh,
                as_json=as_json,
                threads=threads or None,
                classic_only=classic_only,
            )
            return
        problems = unsupported(rules)
        if problems:  # before any progress bar: the refusal with the size and what a solve would need
            raise fail(refusal(rules, floor, problems))
        # the compiled solver only when a table is solved or read: every other command starts without it
        from dicehall.thousand.solver.solve import (
            checkpoint_path,
            load_table,
            save_table,
            shipped_table,
            table_paths,
        )

        ckpt = checkpoint_path(rules, floor)
        if fresh:
            ckpt.unlink(missing_ok=True)
        else:
            try:
                cached = load_table(rules, floor)
            except DicehallError as exc:
                raise fail(exc) from None
            if cached is not None and cached.info.get("tolerance", 1.0) <= tol:
                summary = dict(cached.info, cached=True, table=str(table_paths(rules, floor)[0]))
                summary.pop("rules", None)
                if not as_json:
                    console.print(f"[dim]{tr('solve.thousand.cached')}[/]")
                _export(summary, cached.space, cached.values, export_compact, as_json)
                _report(summary, cached.space, cached.values, plot, policy, as_json)
                return
            shipped = shipped_table(rules, floor)
            if shipped is not None and not as_json:
                said = tr("solve.thousand.shipped_meanwhile", error=f"{shipped.max_error:.1e}")
                console.print(f"[dim]{escape(said)}[/]")
        try:
            solution = run_with_progress(
                rules, floor, tol, max_sweeps, ckpt, quiet=as_json, threads=threads or None, method=method
            )
        except DicehallError as exc:
            raise fail(exc) from None
        except KeyboardInterrupt:
            console.print(f"[yellow]{tr('solve.thousand.interrupted', path=str(ckpt))}[/]")
            raise typer.Exit(130) from None
        summary = solution.summary()
        if solution.exact:
            summary["table"] = str(save_table(solution))
        values = (solution.lower + solution.upper) / 2
        if solution.exact:
            _export(summary, solution.space, values, export_compact, as_json)
        _report(summary, solution.space, values, plot, policy and solution.exact, as_json)


def _export(
    summary: dict[str, Any], space: Space, values: npt.NDArray[np.floating], path: Path | None, as_json: bool
) -> None:
    """``--export-compact``: write the compact file (:mod:`compact`) and say where, its size and its error."""
    if path is None:
        return
    from dicehall.thousand.solver import compact

    header = compact.export(space, values, summary, path)
    summary["compact"] = {k: header[k] for k in ("path", "bytes", "bits", "max_error", "mean_error")}
    if not as_json:
        said = tr(
            "solve.thousand.exported",
            path=str(path),
            size=current().number(header["bytes"]),
            error=f"{header['max_error']:.1e}",
        )
        console.print(escape(said), highlight=False)


def _report(
    summary: dict[str, Any],
    space: Space,
    values: npt.NDArray[np.floating],
    plot: Path | None,
    policy: bool,
    as_json: bool,
) -> None:
    """Print the figures (and the policy in words, the plot) of a solved or cached table."""
    if plot is not None:
        from dicehall.thousand.solver.plot import plot_thresholds

        plot_thresholds(space, values, plot)
        summary["plot"] = str(plot)
    if policy:
        from dicehall.thousand.solver.words import policy_table, policy_words

        if as_json:
            summary["policy"] = policy_table(space, values)
        else:
            lines = policy_words(space, values)
    if as_json:
        typer.echo(json.dumps(summary))
        return
    _print_summary(summary)
    if policy:
        for line in lines:
            console.print(line, highlight=False)


def run_with_progress(
    rules: ThousandRules,
    floor: int,
    tol: float,
    max_sweeps: int,
    ckpt: Path,
    quiet: bool = False,
    threads: int | None = None,
    method: str = "auto",
    transient: bool = False,
) -> Solution:
    """Solve with a rich progress bar (sweep or policy step, largest change or residual, gap), checkpointing to
    ``ckpt``. A ``transient`` bar (a table solved on first use, during a game) leaves nothing on the screen or in
    a transcript once done."""
    from dicehall.thousand.solver.solve import solve

    if quiet:
        return solve(
            rules,
            floor=floor,
            tol=tol,
            max_sweeps=max_sweeps,
            checkpoint=ckpt,
            threads=threads,
            method=method,
        )
    columns = (
        TextColumn(tr("solve.thousand.step", level="{task.fields[level]}", sweep="{task.fields[sweep]}")),
        BarColumn(),
        TextColumn(tr("solve.thousand.change_gap", change="{task.fields[change]}", gap="{task.fields[gap]}")),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=transient) as bar:
        task = bar.add_task("solve", total=1.0, sweep=0, change="-", gap="-", level="")

        def progress(sweep: int, change: float, gap: float, done: float, level: str) -> None:
            fields: dict[str, Any] = {
                "sweep": sweep + (0 if done >= 1 else 1),
                "change": _sci(change),
                "level": localize(level),
            }
            if gap == gap:  # not NaN: the sweep is complete
                fields["gap"] = _sci(gap)
            bar.update(task, completed=done, **fields)

        return solve(
            rules,
            floor=floor,
            tol=tol,
            max_sweeps=max_sweeps,
            checkpoint=ckpt,
            progress=progress,
            threads=threads,
            method=method,
        )


def _sci(x: float) -> str:
    """A change or gap such as 1.2e-09, with the language's decimal sign."""
    from babel.numbers import get_decimal_symbol

    return f"{x:.1e}".replace(".", get_decimal_symbol(current().lang))


def _print_summary(s: dict[str, Any]) -> None:
    t = current()
    bounds = s.get("win_probability_first_bounds")
    lo, hi = bounds if bounds is not None else (float("nan"), float("nan"))
    if s["win_probability_first"] is not None:
        console.print(tr("solve.thousand.win", p=f"[bold]{t.fixed(s['win_probability_first'], 9)}[/]"))
    else:
        said = tr("solve.thousand.no_single_value", lo=t.fixed(lo, 9), hi=t.fixed(hi, 9))
        console.print(f"[yellow]{escape(said)}[/]")
    seconds, memory = t.fixed(s["seconds"], 1), t.fixed(s["peak_memory_mb"], 0)
    if bounds is not None:
        stats = tr(
            "solve.thousand.vi_stats",
            states=t.number(s["states"]),
            players=t.number(s["player_states"]),
            turns=t.number(s["turn_states"]),
            sweeps=t.number(s["sweeps"]),
            equivalents=t.number(s.get("sweep_equivalents", s["sweeps"])),
            change=_sci(s["max_change"]),
            gap=_sci(s["gap"]),
            seconds=seconds,
            memory=memory,
        )
    else:
        stats = tr(
            "solve.thousand.pi_stats",
            steps=t.number(s["sweeps"]),
            levels=t.number(len(s["levels"])),
            residual=_sci(s["residual"]),
            seconds=seconds,
            cpu=t.fixed(s.get("cpu_seconds", 0), 1),
            memory=memory,
        )
    console.print(escape(stats))
    if bounds is None:
        console.print(f"[dim]{escape(tr('solve.thousand.endless_pi'))}[/]")
    floor = s.get("score_floor")
    approximation = (
        s["approximation"] if floor is None else tr("solve.thousand.approximation_floor", floor=floor)
    )
    console.print(f"[bold yellow]{tr('solve.thousand.approximation')}[/] {escape(approximation)}")
    if not s["converged"]:
        console.print(f"[red]{tr('solve.thousand.not_converged')}[/]")
    elif s["undecided_positions"]:
        console.print(f"[yellow]{tr('solve.thousand.endless')}[/]")
        for p in s["undecided_positions"]:
            said = tr(
                "solve.thousand.mover",
                mover=p["mover"],
                opponent=p["opponent"],
                lo=t.fixed(p["lower"], 6),
                hi=t.fixed(p["upper"], 6),
            )
            console.print(f"  {escape(said)}")
    if "table" in s:
        console.print(tr("solve.thousand.table", path=escape(s["table"])), highlight=False)

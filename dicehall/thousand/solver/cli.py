"""``dicehall solve thousand``: solve two-player Dice 1000 and cache the table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from dicehall.core.cli_options import RulesFileOpt, SetOpt, console, fail
from dicehall.core.cli_support import load_rules
from dicehall.core.errors import DicehallError
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.solve import (
    DEFAULT_MAX_SWEEPS,
    DEFAULT_TOL,
    Solution,
    checkpoint_path,
    load_table,
    save_table,
    solve,
    table_paths,
)
from dicehall.thousand.solver.space import DEFAULT_FLOOR, Space


def _solve_group(app: typer.Typer) -> typer.Typer:
    """The ``solve`` command group (shared by the games that add a solver)."""
    for info in app.registered_groups:
        if info.name == "solve" and isinstance(info.typer_instance, typer.Typer):
            return info.typer_instance
    group = typer.Typer(
        help="Solve a game exactly: win probabilities under optimal play.", no_args_is_help=True
    )
    app.add_typer(group, name="solve")
    return group


def register_solve(app: typer.Typer) -> None:
    group = _solve_group(app)

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
    ) -> None:
        """Win probabilities of two-player Dice 1000 under optimal play by both.

        Small rule sets: value iteration from both ends (proved bounds); large ones such as classic: policy
        iteration per fall level (--method). The table is cached in the user data directory (bot:optimal plays
        from it; a second run prints the cached result); an interrupted run resumes from its checkpoint (policy
        iteration: from the last finished level). Scores below --floor are kept at the floor: the model's one
        approximation (docs/thousand-solved.md).
        """
        if method not in ("auto", "vi", "pi"):
            raise fail(f"unknown method {method!r}: choose auto, vi or pi")
        rules = load_rules("thousand", preset, sets, rules_file)
        assert isinstance(rules, ThousandRules)
        ckpt = checkpoint_path(rules, floor)
        if fresh:
            ckpt.unlink(missing_ok=True)
        else:
            try:
                cached = load_table(rules, floor)
            except DicehallError as exc:
                raise fail(str(exc)) from None
            if cached is not None and cached.info.get("tolerance", 1.0) <= tol:
                summary = dict(cached.info, cached=True, table=str(table_paths(rules, floor)[0]))
                summary.pop("rules", None)
                if not as_json:
                    console.print("[dim]cached result (--fresh solves again)[/]")
                _report(summary, cached.space, cached.values, plot, policy, as_json)
                return
        try:
            solution = run_with_progress(
                rules, floor, tol, max_sweeps, ckpt, quiet=as_json, threads=threads or None, method=method
            )
        except DicehallError as exc:
            raise fail(str(exc)) from None
        except KeyboardInterrupt:
            console.print(f"[yellow]interrupted; run the same command again to resume ({ckpt})[/]")
            raise typer.Exit(130) from None
        summary = solution.summary()
        if solution.exact:
            summary["table"] = str(save_table(solution))
        values = (solution.lower + solution.upper) / 2
        _report(summary, solution.space, values, plot, policy and solution.exact, as_json)


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
) -> Solution:
    """Solve with a rich progress bar (sweep or policy step, largest change or residual, gap), checkpointing to
    ``ckpt``."""
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
        TextColumn("{task.fields[level]} · step {task.fields[sweep]}"),
        BarColumn(),
        TextColumn("change/residual {task.fields[change]}  gap {task.fields[gap]}"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task("solve", total=1.0, sweep=0, change="-", gap="-", level="")

        def progress(sweep: int, change: float, gap: float, done: float, level: str) -> None:
            fields: dict[str, Any] = {
                "sweep": sweep + (0 if done >= 1 else 1),
                "change": f"{change:.1e}",
                "level": level,
            }
            if gap == gap:  # not NaN: the sweep is complete
                fields["gap"] = f"{gap:.1e}"
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


def _print_summary(s: dict[str, Any]) -> None:
    bounds = s.get("win_probability_first_bounds")
    lo, hi = bounds if bounds is not None else (float("nan"), float("nan"))
    if s["win_probability_first"] is not None:
        console.print(f"first player wins with probability [bold]{s['win_probability_first']:.9f}[/]")
    else:
        console.print(
            f"[yellow]no single value: the first player's win probability lies in [{lo:.9f}, {hi:.9f}][/]"
        )
    console.print(
        f"{s['states']:,} positions ({s['player_states']:,} player states, {s['turn_states']:,} turn states), "
        f"{s['sweeps']} sweeps ({s.get('sweep_equivalents', s['sweeps'])} over all positions), max change {s['max_change']:.1e}, gap {s['gap']:.1e}, "
        f"{s['seconds']:.1f} s, peak memory {s['peak_memory_mb']:.0f} MB"
        if bounds is not None
        else f"policy iteration: {s['sweeps']} improvement steps over {len(s['levels'])} levels, residual "
        f"max |T(V) - V| {s['residual']:.1e}, {s['seconds']:.1f} s ({s.get('cpu_seconds', 0):.1f} CPU-s), "
        f"peak memory {s['peak_memory_mb']:.0f} MB"
    )
    if bounds is None:
        console.print(f"[dim]{s['endless_play']}[/]")
    console.print(f"[bold yellow]approximation:[/] {s['approximation']}")
    if not s["converged"]:
        console.print("[red]not converged within --max-sweeps: no value is reported[/]")
    elif s["undecided_positions"]:
        console.print("[yellow]endless optimal play: these positions have no single value (bounds shown):[/]")
        for p in s["undecided_positions"]:
            console.print(f"  mover {p['mover']} vs {p['opponent']}: [{p['lower']:.6f}, {p['upper']:.6f}]")
    if "table" in s:
        console.print(f"table: {s['table']}")

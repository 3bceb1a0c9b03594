"""``dicehall solve thousand`` on yard-like rules: yard's model (:mod:`yard_pi`) solved level by level with a
progress bar, resumed from its checkpoint of finished levels, and stored (:mod:`yard_table`)."""

from __future__ import annotations

import json
import time
from typing import Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from dicehall.core.cli_options import console, err_console, fail
from dicehall.i18n import localize, tr
from dicehall.i18n.message import Message
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import yard_table
from dicehall.thousand.solver.solve import SolveError, default_threads, peak_memory_mb
from dicehall.thousand.solver.yard_pi import YardTable, solve_levels


def solve_yard(
    rules: ThousandRules,
    floor: int,
    tol: float,
    *,
    fresh: bool,
    as_json: bool,
    threads: int | None,
    classic_only: list[str],
) -> None:
    """Print the stored table's figures, or solve (resuming) and store it. ``classic_only``: options given that
    read the classic model's tables (``--plot``, ``--policy``, ``--export-compact``), refused here."""
    if classic_only:
        raise fail(tr("solve.thousand.yard_options", options=", ".join(classic_only)))
    ckpt = yard_table.yard_checkpoint_path(rules, floor)
    if fresh:
        ckpt.unlink(missing_ok=True)
    else:
        try:
            stored = yard_table.load_yard_table(rules, floor)
        except SolveError as exc:
            raise fail(exc) from None
        if stored is not None and stored.info.get("tolerance", 1.0) <= tol:
            summary = dict(stored.info, cached=True, table=str(yard_table.yard_paths(rules, floor)[0]))
            summary.pop("rules", None)
            if not as_json:
                console.print(f"[dim]{tr('solve.thousand.cached')}[/]")
            _report(summary, as_json)
            return
    said = localize(yard_table.cost_message(rules, floor))
    if as_json:
        err_console.print(escape(said))
    else:
        console.print(escape(said))
    wall0 = time.perf_counter()
    try:
        table = _run(rules, floor, tol, ckpt, threads, quiet=as_json)
    except KeyboardInterrupt:
        console.print(f"[yellow]{tr('solve.thousand.interrupted', path=str(ckpt))}[/]")
        raise typer.Exit(130) from None
    summary = _summary(table, floor, tol, time.perf_counter() - wall0)
    summary["table"] = str(yard_table.save_yard_table(table, floor, summary))
    ckpt.unlink(missing_ok=True)
    _report(summary, as_json)


def _run(
    rules: ThousandRules, floor: int, tol: float, ckpt: Any, threads: int | None, quiet: bool
) -> YardTable:
    threads = threads or default_threads()
    if quiet:
        return solve_levels(rules, floor, tol=tol, checkpoint=ckpt, threads=threads)
    columns = (
        TextColumn(tr("solve.thousand.step", level="{task.fields[level]}", sweep="{task.fields[sweep]}")),
        BarColumn(),
        TextColumn(tr("solve.thousand.change_gap", change="{task.fields[change]}", gap="-")),
        TimeElapsedColumn(),
    )
    from dicehall.thousand.solver.cli import _sci

    with Progress(*columns, console=console) as bar:
        task = bar.add_task("solve", total=1.0, sweep=0, change="-", level="")

        def report(level: int, levels: int, step: int, residual: float) -> None:
            label = localize(Message("solve.thousand.yard_level", n=level, total=levels))
            bar.update(task, completed=(level - 1) / levels, sweep=step, change=_sci(residual), level=label)

        table = solve_levels(rules, floor, tol=tol, checkpoint=ckpt, threads=threads, report=report)
        bar.update(task, completed=1.0)
    return table


def _summary(table: YardTable, floor: int, tol: float, seconds: float) -> dict[str, Any]:
    start = table.space.start
    levels = table.levels
    return {
        "win_probability_first": table.value(start, start),
        "win_probability_first_bounds": None,
        "method": "policy iteration",
        "residual": max(lv.residual for lv in levels),
        "exact": True,
        "converged": table.complete,
        "skip_flag": True,
        "states": sum(int(lv.positions) for lv in levels),
        "player_states": table.space.size,
        "sweeps": sum(int(lv.steps) for lv in levels),
        "levels": [
            {k: float(v) if k == "residual" else round(v, 1) for k, v in lv._asdict().items()}
            for lv in levels
        ],
        "tolerance": tol,
        "seconds": round(seconds, 2),
        "cpu_seconds": round(sum(lv.cpu_seconds for lv in levels), 2),
        "peak_memory_mb": round(peak_memory_mb(), 1),
        "score_floor": floor,
        "approximation": f"scores below {floor} are kept at {floor} (the only approximation)",
        "undecided_positions": [],
    }


def _report(summary: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(summary))
        return
    from dicehall.thousand.solver.cli import _print_summary

    _print_summary(summary)

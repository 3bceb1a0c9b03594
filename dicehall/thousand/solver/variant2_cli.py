"""``dicehall solve thousand`` on variant-2-like rules: variant 2's model (:mod:`variant2_solve`) solved level by
level with a progress bar, resumed from its checkpoint of finished levels, and stored (:mod:`variant2_table`).
The same steps as yard's (:mod:`yard_cli`), whose summary and refusals it shares."""

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
from dicehall.thousand.solver import variant2_table
from dicehall.thousand.solver.solve import SolveError, peak_memory_mb
from dicehall.thousand.solver.variant2_solve import Level, Variant2Table, solve
from dicehall.thousand.solver.variant2_space import levels as level_order

EXACT = Message("solve.thousand.variant2_exact")
"""The model's approximation: none (scores never go below 0 under these rules)."""


def solve_variant2(
    rules: ThousandRules, tol: float, *, fresh: bool, as_json: bool, classic_only: list[str]
) -> None:
    """Print the stored table's figures, or solve (resuming) and store it. ``classic_only``: options given that
    read the classic model's tables (``--plot``, ``--policy``, ``--export-compact``), refused here."""
    if classic_only:
        raise fail(tr("solve.thousand.yard_options", options=", ".join(classic_only)))
    ckpt = variant2_table.variant2_checkpoint_path(rules)
    if fresh:
        variant2_table.remove_checkpoint(rules)
    else:
        try:
            stored = variant2_table.load_variant2_table(rules)
        except SolveError as exc:
            raise fail(exc) from None
        if stored is not None and stored.info.get("tolerance", 1.0) <= tol:
            summary = dict(stored.info, cached=True, table=str(variant2_table.variant2_paths(rules)[0]))
            summary.pop("rules", None)
            if not as_json:
                console.print(f"[dim]{tr('solve.thousand.cached')}[/]")
            _report(summary, as_json)
            return
    said = localize(variant2_table.cost_message(rules))
    (err_console if as_json else console).print(escape(said))
    ckpt.parent.mkdir(parents=True, exist_ok=True)
    wall0 = time.perf_counter()
    try:
        table = _run(rules, tol, ckpt, quiet=as_json)
    except KeyboardInterrupt:
        console.print(f"[yellow]{tr('solve.thousand.interrupted', path=str(ckpt))}[/]")
        raise typer.Exit(130) from None
    except SolveError as exc:  # a checkpoint of another tolerance
        raise fail(exc) from None
    summary = _summary(table, tol, time.perf_counter() - wall0)
    summary["table"] = str(variant2_table.save_variant2_table(table, summary))
    variant2_table.remove_checkpoint(rules)
    _report(summary, as_json)


def _run(rules: ThousandRules, tol: float, ckpt: Any, quiet: bool) -> Variant2Table:
    if quiet:
        return solve(rules, tol, checkpoint=ckpt, checkpoint_every=60.0)
    columns = (
        TextColumn(tr("solve.thousand.step", level="{task.fields[level]}", sweep="{task.fields[sweep]}")),
        BarColumn(),
        TextColumn(tr("solve.thousand.change_gap", change="{task.fields[change]}", gap="{task.fields[gap]}")),
        TimeElapsedColumn(),
    )
    from dicehall.thousand.solver.cli import _sci
    from dicehall.thousand.solver.variant2_space import build_variant2_space

    space = build_variant2_space(rules)
    sizes = [space.level_positions(lv) for lv in level_order(space)]
    total = sum(sizes)
    with Progress(*columns, console=console) as bar:
        task = bar.add_task("solve", total=1.0, sweep=0, change="-", gap="-", level="")

        def report(level: Level, count: int) -> None:
            label = localize(Message("solve.thousand.yard_level", n=level.number + 1, total=count))
            done = sum(sizes[: level.number + 1]) / total
            bar.update(
                task,
                completed=done,
                sweep=level.sweeps,
                change=_sci(level.residual),
                gap=_sci(level.gap),
                level=label,
            )

        table = solve(rules, tol, checkpoint=ckpt, checkpoint_every=60.0, report=report)
        bar.update(task, completed=1.0)
    return table


def _turn_states(table: Variant2Table) -> int:
    """Decision points of every turn solved: (top + 1) totals × 6 dice counts, each mover against each opponent."""
    space = table.space
    rows = (space.top_of + 1) * 6
    out = 0
    for ka, kb in level_order(space):
        for mk, ok in ((ka, kb), (kb, ka)) if ka != kb else ((ka, ka),):
            movers = rows[space.key_lo[mk] : space.key_hi[mk]]
            out += int(movers.sum()) * int(space.key_hi[ok] - space.key_lo[ok])
    return out


def _summary(table: Variant2Table, tol: float, seconds: float) -> dict[str, Any]:
    start = table.space.start
    levels = table.levels
    lo, hi = table.bounds(table.space.states[start], table.space.states[start])
    return {
        "win_probability_first": table.value(start, start),
        "win_probability_first_bounds": [lo, hi],
        "method": "value iteration by levels",
        "max_change": max(lv.residual for lv in levels),
        "gap": max(lv.gap for lv in levels),
        "exact": True,
        "converged": table.complete and all(lv.converged for lv in levels),
        "states": sum(int(lv.positions) for lv in levels),
        "player_states": table.space.size,
        "turn_states": _turn_states(table),
        "sweeps": sum(lv.barrel_sweeps + lv.sweeps for lv in levels),
        "levels": len(levels),
        "level_cpu_seconds": [lv.cpu_seconds for lv in levels],
        "endless_pairs": sum(lv.endless for lv in levels),
        "tolerance": tol,
        "seconds": round(seconds, 2),
        "cpu_seconds": round(sum(lv.cpu_seconds for lv in levels), 2),
        "peak_memory_mb": round(peak_memory_mb(), 1),
        "score_floor": None,
        "approximation": str(EXACT),
        "undecided_positions": [],
    }


def _report(summary: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(summary))
        return
    from dicehall.thousand.solver.cli import _print_summary

    _print_summary({**summary, "approximation": localize(EXACT)})

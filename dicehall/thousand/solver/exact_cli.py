"""``dicehall solve thousand`` on the rules of an exact model besides classic's (:mod:`exact`): says what the
solve takes, solves level by level with a progress bar, resumes from the checkpoint of finished levels, stores
the table, and prints its figures (a second run: the stored table's)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from dicehall.core.cli_options import console, err_console, fail
from dicehall.i18n import localize, tr
from dicehall.i18n.message import Message
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver.exact import ExactModel, LevelDone
from dicehall.thousand.solver.space import SolveError


def solve_exact(
    model: ExactModel,
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
    ckpt = model.checkpoint(rules, floor)
    if fresh:
        model.remove_checkpoint(rules, floor)
    else:
        try:
            stored = model.load(rules, floor)
        except SolveError as exc:
            raise fail(exc) from None
        if stored is not None and stored.info.get("tolerance", 1.0) <= tol:
            summary = dict(stored.info, cached=True, table=str(model.table_path(rules, floor)))
            summary.pop("rules", None)
            if not as_json:
                console.print(f"[dim]{tr('solve.thousand.cached')}[/]")
            _report(model, summary, as_json)
            return
    said = localize(model.cost_message(rules, floor))
    (err_console if as_json else console).print(escape(said))
    ckpt.parent.mkdir(parents=True, exist_ok=True)
    wall0 = time.perf_counter()
    try:
        table = _run(model, rules, floor, tol, ckpt, threads, quiet=as_json)
    except KeyboardInterrupt:
        console.print(f"[yellow]{tr('solve.thousand.interrupted', path=str(ckpt))}[/]")
        raise typer.Exit(130) from None
    except SolveError as exc:  # a checkpoint of another tolerance
        raise fail(exc) from None
    summary = model.summary(table, floor, tol, time.perf_counter() - wall0)
    summary["table"] = str(model.save(table, floor, summary))
    model.remove_checkpoint(rules, floor)
    _report(model, summary, as_json)


def _run(
    model: ExactModel,
    rules: ThousandRules,
    floor: int,
    tol: float,
    ckpt: Path,
    threads: int | None,
    quiet: bool,
) -> Any:
    if quiet:
        return model.solve(rules, floor, tol, ckpt, threads, None)
    columns = (
        TextColumn(tr("solve.thousand.step", level="{task.fields[level]}", sweep="{task.fields[sweep]}")),
        BarColumn(),
        TextColumn(tr("solve.thousand.change_gap", change="{task.fields[change]}", gap="{task.fields[gap]}")),
        TimeElapsedColumn(),
    )
    from dicehall.thousand.solver.cli import _sci

    with Progress(*columns, console=console) as bar:
        task = bar.add_task("solve", total=1.0, sweep=0, change="-", gap="-", level="")

        def report(step: LevelDone) -> None:
            label = localize(Message("solve.thousand.yard_level", n=step.level, total=step.levels))
            fields: dict[str, Any] = {"sweep": step.sweeps, "change": _sci(step.change), "level": label}
            if step.gap is not None:
                fields["gap"] = _sci(step.gap)
            bar.update(task, completed=step.done, **fields)

        table = model.solve(rules, floor, tol, ckpt, threads, report)
        bar.update(task, completed=1.0)
    return table


def _report(model: ExactModel, summary: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(summary))
        return
    from dicehall.thousand.solver.cli import _print_summary

    if model.approximation is not None:
        summary = {**summary, "approximation": localize(model.approximation)}
    _print_summary(summary)

"""``dicehall strategy thousand``: the solved banking thresholds and win chances of classic Dice 1000 as tables.

Rows are the mover's score, columns the opponent's; a table wider than the terminal (or 80 columns, whichever
is narrower) is printed in blocks of opponent's scores, so no value is ever cut.
"""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.markup import escape

from dicehall.core.cli_options import console, fail
from dicehall.core.errors import DicehallError
from dicehall.i18n import Translator, current
from dicehall.i18n.message import Message
from dicehall.thousand.solver import strategy as st

CELL = 5
"""Characters a cell takes: a threshold of up to three digits, the ``*`` mark and a space."""
MAX_WIDTH = 80


def _group(app: typer.Typer) -> typer.Typer:
    for info in app.registered_groups:
        if info.name == "strategy" and isinstance(info.typer_instance, typer.Typer):
            return info.typer_instance
    group = typer.Typer(help="The solved strategy of a game as tables.", no_args_is_help=True)
    app.add_typer(group, name="strategy")
    return group


def grid_lines(
    t: Translator, scores: list[int], cells: list[list[str]], corner: str, width: int
) -> list[str]:
    """``cells[own][opponent]`` under a header of opponent's scores, in blocks of columns that fit ``width``."""
    label = max(len(corner), *(len(t.number(s)) for s in scores)) + 1
    per_block = max(1, (width - label) // CELL)
    out: list[str] = []
    for start in range(0, len(scores), per_block):
        cols = range(start, min(start + per_block, len(scores)))
        out.append(corner.ljust(label) + "".join(t.number(scores[j]).rjust(CELL) for j in cols))
        for i, own in enumerate(scores):
            out.append(t.number(own).rjust(label - 1) + " " + "".join(cells[i][j].rjust(CELL) for j in cols))
        out.append("")
    return out


def threshold_cells(t: Translator, data: dict[str, Any], dice: int) -> list[list[str]]:
    bank, mixed = data["bank"], data["mixed"]
    return [
        [
            ("—" if b[dice - 1] is None else t.number(b[dice - 1])) + ("*" if m >> (dice - 1) & 1 else "")
            for b, m in zip(row_b, row_m, strict=True)
        ]
        for row_b, row_m in zip(bank, mixed, strict=True)
    ]


def win_cells(t: Translator, data: dict[str, Any]) -> list[list[str]]:
    return [[t.fixed(w * 100, 0) for w in row] for row in data["win"]]


def report_lines(
    t: Translator, maps: dict[str, Any], situation: str, dice: list[int], width: int
) -> list[str]:
    data = maps["situations"][situation]
    scores = maps["scores"]
    corner = t("strategy.cli.corner")
    r = maps["rules"]
    said = t(
        f"strategy.cli.situation.{situation}",
        bolts=max(r["bolts_count"] - 1, 0),
        penalty=r["bolt_penalty"],
        falls=max(r["barrel_falls_to_zero"] - 1, 0),
    )
    out = [said, t("strategy.cli.axes"), ""]
    for k in dice:
        out.append(t.plural("strategy.cli.bank_with", k))
        out.extend(grid_lines(t, scores, threshold_cells(t, data, k), corner, width))
    out.append(t("strategy.cli.win"))
    out.extend(grid_lines(t, scores, win_cells(t, data), corner, width))
    out.append(t("strategy.cli.marks"))
    return out


def register_strategy(app: typer.Typer) -> None:
    group = _group(app)

    @group.command("thousand")
    def strategy_thousand(
        dice: int = typer.Option(
            None, "--dice", "-k", min=1, max=5, help="Only the table for this many dice in hand (1-5)."
        ),
        step: int = typer.Option(100, "--step", help="Score step of the rows and columns (a multiple of 5)."),
        situation: str = typer.Option(
            "plain",
            "--situation",
            help="plain (no bolts or falls), bolts (one bolt short of the penalty) or falls (one fall short of 0).",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print the tables as one JSON object."),
    ) -> None:
        """Classic Dice 1000 solved for two: when to bank and your chance to win, by both scores."""
        t = current()
        try:
            if situation not in st.SITUATIONS:
                raise st.StrategyError(
                    Message("strategy.refusal.situation", choices=", ".join(st.SITUATIONS))
                )
            maps = st.strategy(st.classic_table(), step, (situation,))
        except DicehallError as exc:
            raise fail(exc) from None
        if as_json:
            typer.echo(json.dumps(maps, separators=(",", ":")))
            return
        counts = [dice] if dice else [5, 4, 3, 2, 1]
        width = min(console.width, MAX_WIDTH)
        for line in report_lines(t, maps, situation, counts, width):
            console.print(escape(line), highlight=False)  # prose wraps at the width, the grids fit it

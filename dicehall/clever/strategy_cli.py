"""``dicehall strategy clever``: where ``bot:master``'s points come from, as tables that fit 80 columns.

The figures are the shipped ones (:func:`dicehall.clever.strategy.shipped`, made by ``scripts/clever_strategy.py``);
docs/strategy.md ("Clever") says how each is measured.
"""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.markup import escape
from rich.table import Table

from dicehall.clever import sheet as S
from dicehall.core.cli_options import STRATEGY_HELP, command_group, console
from dicehall.core.cli_tables import fit
from dicehall.i18n import Translator, current

MAX_WIDTH = 80
LETTER_DIE = dict(zip(S.DIE_LETTERS, S.DIE_NAMES, strict=True))
LETTER_AREA = dict(zip(S.AREA_LETTERS, S.AREA_NAMES, strict=True))


def pm(t: Translator, e: dict[str, float], places: int = 1) -> str:
    """A mean and its 95 % interval's half-width: ``52.4±2.1`` (one word: a narrow column never splits it)."""
    return f"{t.fixed(e['mean'], places)}±{t.fixed((e['high'] - e['low']) / 2, places)}"


def choice_words(t: Translator, code: str) -> str:
    """A choice of the first-round table in the players' words (``pick:W:Y`` → ``the white die → yellow``;
    ``pick:Y:Y@r2c3`` → ``the yellow die, row 2, column 3``)."""
    code, _, cell = code.partition("@")
    words = _choice(t, code)
    return t("strategy.clever.choice.cell", choice=words, row=cell[1], column=cell[3]) if cell else words


def _choice(t: Translator, code: str) -> str:
    kind, *rest = code.split(":")
    if kind == "pick" and rest[0] != "W":  # a coloured die goes to its own area: the die says it all
        return t(f"clever.die.{LETTER_DIE[rest[0]]}")
    if kind in ("pick", "plus"):
        return t(
            f"strategy.clever.choice.{kind}",
            die=t(f"clever.die.{LETTER_DIE[rest[0]]}"),
            area=t(f"clever.area.{LETTER_AREA[rest[1]]}"),
        )
    if kind in ("cross", "black"):
        return t(f"strategy.clever.choice.{kind}", area=t(f"clever.area.{LETTER_AREA[rest[0]]}"))
    return t(f"strategy.clever.choice.{kind}")


def _print(t: Translator, table: Table) -> None:
    console.print(fit(table, console, width=min(console.width, MAX_WIDTH)))


def area_table(t: Translator, data: dict[str, Any]) -> Table:
    sizes = list(data["tables"])
    table = Table(title=t("strategy.clever.areas.title"), title_justify="left")
    table.add_column(t("strategy.clever.col.area"))
    for n in sizes:
        name = t("strategy.clever.col.solo") if n == "1" else t.plural("strategy.clever.col.players", int(n))
        table.add_column(name, justify="right")
    rows = [*S.AREA_NAMES, "fox_points", "foxes", "total"]
    for key in rows:
        table.add_row(
            t(f"strategy.clever.row.{key}"),
            *(pm(t, data["tables"][n]["areas"][key], 2 if key == "foxes" else 1) for n in sizes),
        )
    return table


def round_table(t: Translator, data: dict[str, Any], players: str = "1") -> Table:
    part = data["tables"][players]
    table = Table(title=t("strategy.clever.rounds.title"), title_justify="left")
    for key in ("round", "gained", "total", "plus_gained", "plus_used", "reroll_gained", "reroll_used"):
        table.add_column(t(f"strategy.clever.col.{key}"), justify="right")
    b = part["bonuses"]
    for r, gained in enumerate(part["rounds"]["gained"]):
        table.add_row(
            t.number(r + 1),
            pm(t, gained),
            t.fixed(part["rounds"]["total"][r], 1),
            *(t.fixed(b[k][r], 2) for k in ("plus_gained", "plus_used", "reroll_gained", "reroll_used")),
        )
    return table


def colour_table(t: Translator, data: dict[str, Any]) -> Table:
    table = Table(title=t("strategy.clever.colours.title"), title_justify="left")
    table.add_column(t("strategy.clever.col.die"))
    for key in ("offered", "picked", "share", "worth"):
        table.add_column(t(f"strategy.clever.col.{key}"), justify="right")
    for row in sorted(data["colours"], key=lambda r: -r["edge"]["mean"]):
        table.add_row(
            t(f"strategy.clever.die.{row['die']}"),
            t.fixed(row["offered_per_game"], 1),
            t.fixed(row["picked_per_game"], 1),
            f"{t.fixed(100 * row['pick_share'], 0)} %",
            pm(t, row["edge"], 2),
        )
    return table


def action_table(t: Translator, data: dict[str, Any]) -> Table:
    table = Table(title=t("strategy.clever.actions.title"), title_justify="left")
    for key in ("round", "plus_more", "plus_use", "reroll_more", "reroll_use"):
        table.add_column(t(f"strategy.clever.col.{key}"), justify="right")
    a, u = data["actions"], data["used"]
    for r in range(len(a["plus"])):
        table.add_row(
            t.number(r + 1),
            t.fixed(a["plus"][r]["mean"], 1),
            _used(t, u["plus"][r]),
            t.fixed(a["reroll"][r]["mean"], 1),
            _used(t, u["reroll"][r]),
        )
    return table


def _used(t: Translator, e: dict[str, Any]) -> str:
    """Worth of one use (with its interval) over how many uses a game; a dash where it was never used."""
    if not e["per_game"]:
        return "—"
    return f"{pm(t, e)}\n({t.fixed(e['per_game'], 2)})"


def first_round_table(t: Translator, data: dict[str, Any]) -> Table:
    f = data["first_round"]
    table = Table(title=t("strategy.clever.first.title", cut=t.fixed(f["cut"], 1)), title_justify="left")
    for key in ("when", "best", "second", "per_100", "margin"):
        table.add_column(
            t(f"strategy.clever.col.{key}"),
            justify="right" if key in ("per_100", "margin") else "left",
        )
    for row in f["choices"]:
        table.add_row(
            t(f"strategy.clever.situation.{row['situation']}"),
            choice_words(t, row["best"]),
            choice_words(t, row["second"]),
            t.fixed(row["per_100_games"], 1),
            t.fixed(row["margin"], 1),
        )
    return table


def print_strategy(t: Translator, data: dict[str, Any]) -> None:
    games = data["tables"]["1"]["games"]

    def say(msgid: str, **params: Any) -> None:
        console.print(escape(t(msgid, **params)), highlight=False)  # prose wraps at the width

    say("strategy.clever.cli.intro", games=games, tables=data["tables"]["2"]["games"], seed=str(data["seed"]))
    _print(t, area_table(t, data))
    say("strategy.clever.areas.note")
    _print(t, round_table(t, data))
    say("strategy.clever.rounds.note")
    _print(t, colour_table(t, data))
    say("strategy.clever.colours.note")
    _print(t, action_table(t, data))
    say("strategy.clever.actions.note")
    _print(t, first_round_table(t, data))
    say("strategy.clever.first.note", share=t.fixed(100 * data["first_round"]["shown_share"], 0))
    say("strategy.clever.cli.made_by", command=data["command"])


def register_strategy(app: typer.Typer) -> None:
    group = command_group(app, "strategy", STRATEGY_HELP)

    @group.command("clever")
    def strategy_clever(
        as_json: bool = typer.Option(False, "--json", help="Print the figures as one JSON object."),
    ) -> None:
        """Where bot:master's points come from: areas, rounds, die colours, +1 and re-roll, the first round."""
        from dicehall.clever.strategy import shipped  # its module plays games (compiled): read only here

        data = shipped()
        if as_json:
            typer.echo(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
            return
        print_strategy(current(), data)

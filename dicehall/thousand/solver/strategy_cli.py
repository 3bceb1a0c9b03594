"""``dicehall strategy thousand``: the solved banking thresholds and win chances of classic Dice 1000 as tables.

Rows are the mover's score, columns the opponent's; a table wider than the terminal (or 80 columns, whichever
is narrower) is printed in blocks of opponent's scores, so no value is ever cut. Last, "A rule to remember": the
practical rule (:mod:`dicehall.thousand.practical`) and its measured cost against perfect play.
"""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.markup import escape

from dicehall.core.cli_options import STRATEGY_HELP, command_group, console, err_console, fail
from dicehall.core.cli_tables import fit
from dicehall.core.errors import DicehallError
from dicehall.i18n import Translator, current
from dicehall.i18n.message import Message
from dicehall.thousand import house_exact, house_rules, practical

CELL = 5
"""Characters a cell takes: a threshold of up to three digits, the ``*`` mark and a space."""
MAX_WIDTH = 80


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


def _simulate(games: int, seed: int, exact_games: int) -> dict[str, Any]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    t = current()
    tables = house_rules.exact_tables()
    for preset, values in tables.items():
        if values is None:  # said before the games start, on stderr: --json's output stays the table alone
            name = t(f"preset.thousand.{preset}")
            said = "exact_too_large" if house_rules.too_large(preset) else "exact_skipped"
            err_console.print(escape(t(f"strategy.cli.presets.{said}", preset=name, id=preset)))
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), console=console, transient=True
    ) as bar:
        tasks = {p: bar.add_task(p, total=games) for p in house_rules.PRESETS}
        for preset, values in tables.items():
            if values is not None:
                key = house_rules.exact_key(preset)
                tasks[key] = bar.add_task(f"{preset}, bot:optimal", total=exact_games)
        return house_rules.effects(
            games,
            seed,
            progress=lambda p, done: bar.update(tasks[p], completed=done),
            exact_games=exact_games,
            tables=tables,
        )


def _pct(t: Translator, r: dict[str, float]) -> str:
    """A rate and its interval in two lines: "51.2 %" over "49.8–52.6"."""
    return f"{t.fixed(100 * r['value'], 1)} %\n{t.fixed(100 * r['low'], 1)}–{t.fixed(100 * r['high'], 1)}"


def _points(t: Translator, swing: dict[str, float] | None) -> str:
    """A mean win-chance swing in percentage points, with its interval: "−5.2 (−5.4…−5.0)"."""
    if swing is None:
        return "—"
    return f"{t.fixed(100 * swing['value'], 2)} ({t.fixed(100 * swing['low'], 2)}…{t.fixed(100 * swing['high'], 2)})"


def print_effects(t: Translator, data: dict[str, Any]) -> None:
    from rich.table import Table

    width = min(console.width, MAX_WIDTH)
    exact = {row["preset"]: row for row in data.get("exact", [])}
    unsolved = set(data.get("unsolved", []))
    too_large = set(data.get("too_large", []))
    table = Table(
        title=t("strategy.cli.presets.title", games=data["games"], seed=data["seed"]), title_justify="left"
    )
    for key in ("preset", "first", "turns", "dump", "fall", "falls"):
        table.add_column(t(f"strategy.cli.presets.col.{key}"), justify="left" if key == "preset" else "right")
    decided = Table(title=t("strategy.cli.presets.decided_title"), title_justify="left")
    for key in ("preset", "dump", "fall", "pit_refused", "pit"):
        decided.add_column(
            t(f"strategy.cli.presets.decided.{key}"), justify="left" if key == "preset" else "right"
        )
    for row in data["presets"]:
        turns = row["turns"]
        dump, barrel, pits = row["dump_truck"], row["barrel"] != "none", bool(row["pits"])
        preset = t(f"preset.thousand.{row['preset']}")
        table.add_row(
            preset,
            _pct(t, row["first_player_wins"]),
            f"{t.fixed(turns['value'], 1)}\n{t.fixed(turns['low'], 1)}–{t.fixed(turns['high'], 1)}",
            _pct(t, row["games_with_dump_truck"]) if dump else "—",
            _pct(t, row["games_with_barrel_fall"]) if barrel else "—",
            t.fixed(row["barrel_falls_per_game"], 2) if barrel else "—",
        )
        by = row["decided_by"]
        decided.add_row(
            preset,
            _pct(t, by["dump_truck"]) if dump else "—",
            _pct(t, by["barrel"]) if barrel else "—",
            _pct(t, row["games_with_pit_refusal"]) if pits else "—",
            _pct(t, by["pit"]) if pits else "—",
        )
        name = t("strategy.cli.presets.exact_row", preset=preset)
        ex = exact.get(row["preset"])
        if ex is not None:
            turns = ex["turns"]
            table.add_row(
                name,
                _pct(t, ex["first_player_wins"]),
                f"{t.fixed(turns['value'], 1)}\n{t.fixed(turns['low'], 1)}–{t.fixed(turns['high'], 1)}",
                _pct(t, ex["games_with"]["dump_truck"]) if dump else "—",
                _pct(t, ex["games_with"]["barrel"]) if barrel else "—",
                t.fixed(ex["barrel_falls_per_game"], 2) if barrel else "—",
            )
            by = ex["decided_by"]
            decided.add_row(
                name,
                _pct(t, by["dump_truck"]) if dump else "—",
                _pct(t, by["barrel"]) if barrel else "—",
                _pct(t, ex["games_with"]["pit"]) if pits else "—",
                _pct(t, by["pit"]) if pits else "—",
            )
    console.print(fit(table, console, width=width))
    console.print(fit(decided, console, width=width))
    console.print(escape(t("strategy.cli.presets.decided_note")), highlight=False)
    if unsolved:  # one line, not a row each: "not solved yet" in a narrow cell would break into three
        names = "; ".join(
            t(f"preset.thousand.{row['preset']}") for row in data["presets"] if row["preset"] in unsolved
        )
        console.print(escape(t("strategy.cli.presets.unsolved", presets=names)), highlight=False)
    if too_large:
        names = "; ".join(
            t(f"preset.thousand.{row['preset']}") for row in data["presets"] if row["preset"] in too_large
        )
        console.print(escape(t("strategy.cli.presets.too_large", presets=names)), highlight=False)
    for preset, ex in exact.items():
        swing = ex["swing"]
        words = t(
            "strategy.cli.presets.exact_note",
            preset=t(f"preset.thousand.{preset}"),
            games=ex["games"],
            solver=t.fixed(100 * ex["solver_first_player_wins"], 2),
            played=t.fixed(100 * ex["first_player_wins"]["value"], 1),
            dump=_points(t, swing["dump_truck"]),
            fall=_points(t, swing["barrel"]),
            pit=_points(t, swing["pit"]),
        )
        console.print(escape(words), highlight=False)
    console.print(escape(t("strategy.cli.presets.note", command=data["command"])), highlight=False)


def rule_row_name(t: Translator, bot: str, rule: dict[str, int], barrel: int | None) -> str:
    """A measured row's bot in words (as the page says it)."""
    kind, *nums = bot.split(":")
    n = [int(x) for x in nums]
    if kind == "single":
        return t("strategy.cli.rule.row.single", threshold=n[0], few=n[1])
    if kind == "rule" and n == [rule["threshold"], rule["few"], barrel]:
        return t("strategy.cli.rule.row.no_climb")
    return t(f"strategy.cli.rule.row.{kind}")


def print_rule(t: Translator, data: dict[str, Any], rules: dict[str, Any]) -> None:
    """ "A rule to remember": the practical rule and its measured cost beside the other rules."""
    from rich.table import Table

    r = data["rule"]
    console.print(escape(t("strategy.cli.rule.title")), style="bold", highlight=False)
    console.print(
        escape(
            t(
                "strategy.cli.rule.text",
                many=r["few"] + 1,
                threshold=r["threshold"],
                few=r["few"],
                climb=r["climb"],
            )
        ),
        highlight=False,
    )
    console.print(escape(t("strategy.cli.rule.forced", dump=rules["dump_truck"] or 0)), highlight=False)
    table = Table(title=t("strategy.cli.rule.against"), title_justify="left")
    for key in ("play", "wins", "interval", "games"):
        numbers = key != "play"  # a number never breaks ("100 000" in Russian has a space)
        table.add_column(
            t(f"strategy.cli.rule.col.{key}"), justify="right" if numbers else "left", no_wrap=numbers
        )
    for row in data["rows"]:
        lo, hi = row["ci95"]
        table.add_row(
            rule_row_name(t, row["bot"], r, rules["barrel"]),
            f"{t.fixed(100 * row['wins'] / row['games'], 1)} %",
            f"{t.fixed(100 * lo, 1)}–{t.fixed(100 * hi, 1)}",
            t.number(row["games"]),
        )
    console.print(fit(table, console, width=min(console.width, MAX_WIDTH)))


def register_strategy(app: typer.Typer) -> None:
    group = command_group(app, "strategy", STRATEGY_HELP)

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
        presets: bool = typer.Option(
            False, "--presets", help="The house rules' effects: every preset played by the expert bot."
        ),
        games: int = typer.Option(
            None, "--games", "-n", min=10, help="With --presets: simulate this many games a preset anew."
        ),
        exact_games: int = typer.Option(
            house_exact.DEFAULT_GAMES,
            "--exact-games",
            min=10,
            help="With --presets and --games: games of bot:optimal valued by the exact table, for each preset "
            "whose exact table is stored here.",
        ),
        seed: int = typer.Option(
            house_rules.DEFAULT_SEED, "--seed", help="With --presets and --games: the games' seed."
        ),
    ) -> None:
        """Classic Dice 1000 solved for two: when to bank and your chance to win, by both scores."""
        t = current()
        if presets:
            data = house_rules.shipped_effects() if games is None else _simulate(games, seed, exact_games)
            if as_json:
                typer.echo(json.dumps(data, indent=1))
            else:
                print_effects(t, data)
            return
        from dicehall.thousand.solver import strategy as st  # compiled: only for the maps

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
        console.print()
        print_rule(t, practical.measured(), maps["rules"])

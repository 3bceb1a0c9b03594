"""The strategy maps (dicehall/thousand/solver/strategy.py), the page's API and ``dicehall strategy thousand``:
every number recomputed here from the shipped classic table, cell by cell, by the solver's own per-total
decisions (``TurnValues.should_roll``, ``words.bank_from``), not by the maps' vectorised reading."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.core.agents import PlayerSpec, make_bot
from dicehall.core.rng import agent_rng, game_seed, seeded_rng
from dicehall.core.simulate import SimulationJob, play_game, play_games
from dicehall.core.stats import wilson_interval
from dicehall.i18n import translator
from dicehall.thousand import house_exact, house_rules
from dicehall.thousand.dp import STEP
from dicehall.thousand.lead import KINDS
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.solver import strategy as st
from dicehall.thousand.solver.policy import TurnValues
from dicehall.thousand.solver.solve import Table, shipped_table
from dicehall.thousand.solver.space import PlayerState
from dicehall.thousand.solver.words import bank_from
from dicehall.thousand.state import ThousandState

_register_games()
runner = CliRunner()
CLASSIC = ThousandRules.from_preset("classic")


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path) -> Iterator[None]:
    """A fresh user data directory: no exact table cached, so every reader uses the shipped one."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(tmp_path))
        yield


def shipped() -> Table:
    table = shipped_table(CLASSIC)
    assert table is not None and table.shipped
    return table


def cli_name(preset: str) -> str:
    return translator("en")(f"preset.thousand.{preset}")


def start_value(table: Table) -> float:
    """The first player's win chance at the game's start, read from the table."""
    start = table.space.index[table.space.canonical(PlayerState(0, False))]
    return table.value(start, start)


def turn(table: Table, own: PlayerState, other: PlayerState) -> TurnValues:
    sp = table.space
    return TurnValues(sp, table.values, sp.index[sp.canonical(own)], sp.index[sp.canonical(other)])


def expected_cell(table: Table, own: PlayerState, other: PlayerState) -> dict[str, Any]:
    """A cell recomputed total by total: the first total where banking beats rolling, every larger one that
    rolls, and the win chance at the turn's start."""
    tv = turn(table, own, other)
    bank, rolls = [], []
    for n in range(1, 6):
        first, _ = bank_from(tv, n)
        bank.append(first)
        above = [
            ti * STEP
            for ti in range(tv.top + 1)
            if first is not None and ti * STEP > first and tv.bank(ti * STEP) is not None
            if tv.should_roll(ti * STEP, n)
        ]
        rolls.append(above)
    return {"win": round(tv.start(), st.WIN_DIGITS), "bank": bank, "rolls": rolls}


def flat(ranges: list[list[int]]) -> list[int]:
    return [t for a, b in ranges for t in range(a, b + STEP, STEP)]


@pytest.fixture(scope="module")
def maps() -> dict[str, Any]:
    return st.classic_strategy()


def test_the_maps_equal_the_shipped_table_cell_by_cell(maps: dict[str, Any]) -> None:
    table = shipped()
    scores = maps["scores"]
    assert scores[0] == 0 and scores[-1] == CLASSIC.barrel_score and maps["shipped"]
    assert len(scores) == len(range(0, CLASSIC.barrel_score, st.DEFAULT_STEP)) + 1
    rng = np.random.default_rng(26)
    for situation in st.SITUATIONS:
        m = maps["situations"][situation]
        cells = [(0, 0), (len(scores) - 1, len(scores) - 1)] + [
            tuple(rng.integers(0, len(scores), 2)) for _ in range(14)
        ]
        for i, j in cells:
            own = st.mover_state(CLASSIC, scores[i], situation)
            want = expected_cell(table, own, PlayerState(scores[j], True))
            at = f"{situation} {scores[i]} vs {scores[j]}"
            assert m["win"][i][j] == want["win"], at
            assert m["bank"][i][j] == want["bank"], at
            assert [flat(r) for r in m["rolls_above"][i][j]] == want["rolls"], at
            dump = [t for t in range(0, 1000, STEP) if scores[i] + t == CLASSIC.dump_truck_score]
            marked = [bool(m["mixed"][i][j] >> (n - 1) & 1) for n in range(1, 6)]
            assert marked == [bool(set(r) - set(dump)) for r in want["rolls"]], at
    opening = maps["opening"]
    for j in (0, 5, len(scores) - 1):
        want = expected_cell(table, PlayerState(0, False), PlayerState(scores[j], True))
        assert opening["win"][j] == want["win"] and opening["bank"][j] == want["bank"]


def test_the_known_classic_figures(maps: dict[str, Any]) -> None:
    """docs/thousand-solved.md's policy: level at 0 bank with 5 dice from 280, 4 from 105, 3 from 50, 2 or 1
    from 30; 500 vs 0 wins 0.646; a bank that lands on 555 is rolled."""
    s = maps["scores"]
    plain = maps["situations"]["plain"]
    assert plain["bank"][0][0] == [30, 30, 50, 105, 280]
    assert abs(plain["win"][s.index(500)][0] - 0.646) < 0.0005
    assert abs(maps["first_player"] - 0.5031161) < 1e-5
    assert 555 in flat(plain["rolls_above"][0][0][4])  # 0 + 555: the dump truck


def test_the_barrel_map_is_the_tables_value(maps: dict[str, Any]) -> None:
    table = shipped()
    barrel = maps["on_barrel"]
    assert [(r["attempt"], r["falls"]) for r in barrel["rows"]] == [
        (a, f) for f in range(3) for a in (1, 2, 3)
    ]
    for k, row in enumerate(barrel["rows"]):
        for j in (0, 7, len(maps["scores"]) - 1):
            own = PlayerState(CLASSIC.barrel_score, True, 0, row["falls"], row["attempt"] - 1)
            start = turn(table, own, PlayerState(maps["scores"][j], True)).start()
            assert barrel["win"][k][j] == round(start, st.WIN_DIGITS)


def test_a_step_that_is_not_a_multiple_of_five_is_refused() -> None:
    with pytest.raises(st.StrategyError) as e:
        st.strategy(shipped(), 42)
    assert isinstance(e.value, ValueError) and "42" in str(e.value)
    said = runner.invoke(app, ["strategy", "thousand", "--step", "42"], env={"COLUMNS": "80"})
    assert said.exit_code == 2 and "50 or 100" in said.output
    said = runner.invoke(
        app, ["--lang", "ru", "strategy", "thousand", "--situation", "x"], env={"COLUMNS": "80"}
    )
    assert said.exit_code == 2 and "выберите одну из plain, bolts, falls" in said.output


def cli(*args: str, lang: str = "en") -> list[str]:
    out = runner.invoke(app, ["--lang", lang, "strategy", "thousand", *args], env={"COLUMNS": "80"})
    assert out.exit_code == 0, out.output
    return out.output.splitlines()


def grid(lines: list[str], heading: str, corner: str = "you↓") -> dict[tuple[int, int], str]:
    """The table under ``heading``: (own, opponent) → the cell's text, every block of columns joined."""
    k = next(k for k, line in enumerate(lines) if line.startswith(heading)) + 1
    cells: dict[tuple[int, int], str] = {}
    while k < len(lines) and lines[k].startswith(corner):
        header = [int(x) for x in lines[k].split()[1:]]
        k += 1
        while lines[k].strip():
            own, *row = lines[k].split()
            cells.update({(int(own), opp): v for opp, v in zip(header, row, strict=True)})
            k += 1
        k += 1
    return cells


@pytest.mark.parametrize("step", [100, 50])
def test_the_cli_prints_the_tables_within_80_columns(step: int, maps: dict[str, Any]) -> None:
    lines = cli("--step", str(step))
    assert max(len(line) for line in lines) <= 80
    table = shipped()
    scores = [*range(0, CLASSIC.barrel_score, step), CLASSIC.barrel_score]
    for dice in (5, 2):
        cells = grid(lines, f"Bank from this turn total on with {dice} dice")
        assert len(cells) == len(scores) ** 2
        for own, opp in [(0, 0), (300, 100), (500, 800), (800, 880), (880, 0)]:
            want = expected_cell(table, PlayerState(own, True), PlayerState(opp, True))
            first = want["bank"][dice - 1]
            dump = {CLASSIC.dump_truck_score - own}
            star = "*" if set(want["rolls"][dice - 1]) - dump else ""
            assert cells[(own, opp)] == ("—" if first is None else str(first)) + star, (dice, own, opp)
    wins = grid(lines, "Your chance to win")
    i, j = maps["scores"].index(500), maps["scores"].index(0)
    assert wins[(500, 0)] == str(round(maps["situations"]["plain"]["win"][i][j] * 100))


def test_the_cli_one_dice_count_in_russian_and_as_json() -> None:
    lines = cli("--dice", "3", "--situation", "bolts", lang="ru")
    assert max(len(line) for line in lines) <= 80
    assert "У вас 2 болта" in " ".join(line.strip() for line in lines)
    assert sum("кубиками в руке записывать" in line for line in lines) == 1
    out = runner.invoke(app, ["strategy", "thousand", "--json", "--step", "200", "--situation", "falls"])
    data = json.loads(out.output)
    assert data["scores"] == [0, 200, 400, 600, 800, 880] and list(data["situations"]) == ["falls"]
    want = expected_cell(shipped(), PlayerState(800, True, falls=2), PlayerState(400, True))
    assert data["situations"]["falls"]["bank"][4][2] == want["bank"]


RATES = ("first_player_wins", "games_with_dump_truck", "games_with_barrel_fall", "games_with_pit_refusal")


def check_estimates(estimates: list[dict[str, float]], games: int) -> None:
    for e in estimates:
        assert (e["low"], e["high"]) == pytest.approx(wilson_interval(e["value"] * games, games))
        assert e["low"] <= e["value"] <= e["high"]


def check_row(row: dict[str, Any], games: int) -> None:
    check_estimates([row[key] for key in RATES] + list(row["decided_by"].values()), games)
    assert row["turns"]["low"] < row["turns"]["value"] < row["turns"]["high"]
    for kind, rate in row["decided_by"].items():  # a game an event decided is one it came into
        happened = {"dump_truck": "games_with_dump_truck", "barrel": "games_with_barrel_fall"}
        assert rate["value"] <= row[happened.get(kind, "games_with_pit_refusal")]["value"]


def check_exact(exact: dict[str, Any]) -> None:
    check_estimates(
        [exact["first_player_wins"], *exact["games_with"].values(), *exact["decided_by"].values()],
        exact["games"],
    )
    for kind, swing in exact["swing"].items():
        assert exact["decided_by"][kind]["value"] <= exact["games_with"][kind]["value"]
        assert swing is None or swing["low"] <= swing["value"] <= swing["high"] <= 0.05


def test_the_house_rules_rows_recount_the_games_one_by_one() -> None:
    """The command's rows (the engine's fast path, the lead followed) equal the same games played one by one
    through the engine's plain loop (``play_games`` for the old columns, ``play_game(fast=False)`` for the new),
    counted here; the exact row's games are those ``dicehall simulate`` plays with ``bot:optimal``."""
    args = [
        "strategy",
        "thousand",
        "--presets",
        "--games",
        "60",
        "--exact-games",
        "20",
        "--seed",
        "3",
        "--json",
    ]
    out = runner.invoke(app, args)
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)  # the skipped exact rows are said on stderr
    assert [r["preset"] for r in data["presets"]] == list(house_rules.PRESETS)
    assert data["command"] == "dicehall " + " ".join(args)
    for row in data["presets"]:
        check_row(row, 60)
        rules = ThousandRules.from_preset(row["preset"])
        seats = tuple(PlayerSpec("bot:expert", "expert") for _ in range(2))
        games = list(play_games(SimulationJob("thousand", rules, seats, 3), range(60)))
        assert row["first_player_wins"]["value"] == sum(g.returns[0] for g in games) / 60
        turns = [g.stats["turns"] for g in games]
        assert row["turns"]["value"] == pytest.approx(sum(turns) / 60)
        assert row["games_with_dump_truck"]["value"] == sum(g.stats["dump_trucks"] > 0 for g in games) / 60
        agents = [make_bot("thousand", "expert", rules) for _ in range(2)]
        refused, fell, decided = 0, 0, dict.fromkeys(KINDS, 0)
        for i in range(60):
            state = ThousandState(rules, 2)
            watch = state.follow_lead()
            seed = game_seed(3, i)
            play_game(state, agents, seeded_rng(seed), agent_rng(seed), fast=False)
            assert state.scores() == games[i].scores
            refused += watch.pit_refusals > 0
            # any barrel event: a fall, or (variant 2) a knock-back
            barrel_event = any(e.kind == KINDS["barrel"] for e in watch.events)
            fell += games[i].stats["barrel_falls"] > 0 or barrel_event
            for kind, bit in KINDS.items():
                decided[kind] += bool(watch.decided(state.winner) & bit)
        assert row["games_with_pit_refusal"]["value"] == refused / 60
        assert row["games_with_barrel_fall"]["value"] == fell / 60
        assert {k: v["value"] for k, v in row["decided_by"].items()} == {
            k: v / 60 for k, v in decided.items()
        }
    # a fresh data directory: only classic's table (shipped), every other preset's exact row skipped, saying how
    (exact,) = data["exact"]
    assert exact["preset"] == "classic"
    assert data["too_large"] == ["classic-open"]  # the solver refuses it (docs/thousand-solved.md)
    assert data["unsolved"] == [p for p in house_rules.PRESETS if p not in ("classic", "classic-open")]
    said = " ".join(out.stderr.split())
    for preset in data["unsolved"]:
        assert f"dicehall solve thousand --preset {preset}" in said
    assert "--preset classic-open" not in said and "too large to make on this computer" in said
    check_exact(exact)
    assert exact["solver_first_player_wins"] == start_value(shipped())
    seats = tuple(PlayerSpec("bot:optimal", "optimal") for _ in range(2))
    kernel = list(play_games(SimulationJob("thousand", CLASSIC, seats, 3), range(20)))  # the compiled games
    assert exact["first_player_wins"]["value"] == sum(g.returns[0] for g in kernel) / 20


def test_the_shipped_house_rules_table_and_its_terminal_print() -> None:
    data = house_rules.shipped_effects()
    assert [r["preset"] for r in data["presets"]] == list(house_rules.PRESETS) and data["games"] >= 20000
    exact = {row["preset"]: row for row in data["exact"]}
    assert list(exact) == [
        "classic",
        "classic-nobarrel",
        "variant2",
        "yard",
    ]  # the tables stored where it was made: classic's shipped, classic-nobarrel's, variant 2's and yard's
    assert data["unsolved"] == []
    assert data["too_large"] == ["classic-open"]
    assert sorted(data["unsolved"]) == sorted(set(house_rules.PRESETS) - set(exact) - {"classic-open"})
    games = {row["games"] for row in data["exact"]}
    assert (
        data["command"].endswith(
            f"--games {data['games']} --exact-games {games.pop()} --seed {data['seed']} --json"
        )
        and not games
    )
    for row in data["presets"]:
        check_row(row, data["games"])
    for row in exact.values():
        check_exact(row)
        assert row["games"] >= 10000
    # the solver's own first-player chance: classic's shipped table at the start, the others' as their runs stored it
    assert exact["classic"]["solver_first_player_wins"] == start_value(shipped())
    assert exact["yard"]["solver_first_player_wins"] == pytest.approx(0.5023440903, abs=1e-7)  # float32
    assert exact["variant2"]["solver_first_player_wins"] == pytest.approx(0.5053249083, abs=1e-7)
    for lang, title in (("en", "House rules' effects"), ("ru", "Как влияют домашние правила")):
        lines = cli("--presets", lang=lang)
        assert max(len(line) for line in lines) <= 80 and lines[0].startswith(title)
        text = "\n".join(lines)
        decided = {"en": "How often a house rule decided", "ru": "Как часто домашнее правило решало"}[lang]
        assert decided in text and {"en": "exact", "ru": "точная"}[lang] in text


@pytest.mark.slow
def test_the_shipped_house_rules_row_is_reproduced() -> None:
    """One preset (the quickest) played again in full with the shipped seed gives the shipped row."""
    data = house_rules.shipped_effects()
    row = next(r for r in data["presets"] if r["preset"] == "variant2")
    assert house_rules.preset_effects("variant2", data["games"], data["seed"]) == row


@pytest.mark.slow
def test_the_shipped_exact_row_is_reproduced() -> None:
    """The exact table's row played again in full (bot:optimal through the engine, valued) gives the shipped row."""
    data = house_rules.shipped_effects()
    (row,) = (r for r in data["exact"] if r["preset"] == "classic")
    values = house_exact.stored_values(CLASSIC)
    assert values is not None
    assert house_exact.exact_effects("classic", values, row["games"], data["seed"]) == row


def test_the_terminal_decided_table_shows_the_shipped_figures() -> None:
    """``--presets``: the second table's rows (every preset, the exact row under classic) are the shipped JSON's
    figures, and the swings under it."""
    data = house_rules.shipped_effects()
    lines = cli("--presets")
    start = next(k for k, line in enumerate(lines) if line.startswith("How often a house rule decided"))
    end = next(k for k in range(start, len(lines)) if lines[k].startswith("└"))
    firsts = []
    for line in lines[start:end]:
        cells = [c.strip() for c in line.split("│")[2:-1]]
        if cells and all(c.endswith("%") or c == "—" for c in cells):
            firsts.append(cells)

    def shown(rate: dict[str, float], applies: bool = True) -> str:
        return f"{100 * rate['value']:.1f} %" if applies else "—"

    want = []
    exact_rows = {row["preset"]: row for row in data["exact"]}
    for row in data["presets"]:
        by, pits = row["decided_by"], bool(row["pits"])
        want.append(
            [
                shown(by["dump_truck"], row["dump_truck"]),
                shown(by["barrel"], row["barrel"] != "none"),
                shown(row["games_with_pit_refusal"], pits),
                shown(by["pit"], pits),
            ]
        )
        exact = exact_rows.get(row["preset"])
        if exact is not None:
            by = exact["decided_by"]
            want.append(
                [
                    shown(by["dump_truck"], row["dump_truck"]),
                    shown(by["barrel"], row["barrel"] != "none"),
                    shown(exact["games_with"]["pit"], pits),
                    shown(by["pit"], pits),
                ]
            )
    assert firsts == want
    text = " ".join(" ".join(lines).split())  # the note wraps at 80 columns
    for exact in exact_rows.values():
        fall = exact["swing"]["barrel"]  # None: no barrel in these rules
        assert (f"barrel fall {100 * fall['value']:.2f}" if fall else "barrel fall —") in text
        assert f"first player {100 * exact['solver_first_player_wins']:.2f} %" in text
    names = "; ".join(cli_name(p) for p in house_rules.PRESETS if p in data["unsolved"])
    assert (f"No exact row, not solved yet: {names}." in text) == bool(
        names
    )  # every preset solvable is solved
    assert f"No exact row, too large to solve on this computer: {cli_name('classic-open')}." in text

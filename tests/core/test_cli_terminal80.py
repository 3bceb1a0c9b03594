"""The rest of issue 29, each defect driven through the real ``dicehall`` on a pseudo-terminal of 80×40, in
English and Russian: real dice typed without ceremony and taken back step by step, Clever's dice entry speaking
of dice, the compact Clever view fitting the screen, Clever and Der große Wurf commands in the player's
language, tables that never cut a value at 80 columns, hints with their unit and the number to type, ``--help``
readable and ``--version``."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest

from tests.core.terminal import Terminal

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]")

RU = "ru"


def shown(term: Terminal) -> str:
    """What stays on the screen: a line redrawn in place (a progress bar) as last drawn."""
    text = ESCAPES.sub("", term.raw).replace("\r\n", "\n")
    return "\n".join(line.rsplit("\r", 1)[-1] for line in text.split("\n"))


def run(*args: str, lang: str = "en", timeout: float = 120, env: dict[str, str] | None = None) -> str:
    """A command that needs no keyboard: its screen text once it ends (exit code 0)."""
    term = Terminal("--lang", lang, *args, env=env)
    try:
        assert term.wait(timeout=timeout) == 0, term.text[-3000:]
        return shown(term)
    finally:
        term.close()


def screen(term: Terminal, rows: int = 40) -> list[str]:
    """The last ``rows`` lines the terminal shows now (what is on screen without scrolling back)."""
    return term.text.rstrip("\n").split("\n")[-rows:]


def assert_fits(text: str, where: str) -> None:
    assert "…" not in text, f"{where}: a value cut to '…'\n{text}"
    wide = [line for line in text.split("\n") if len(line) > 80]
    assert not wide, f"{where}: lines wider than 80 columns: {wide}"


# -- real dice ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "undo", "taken", "nothing"), [
    ("en", "undo", "taken back: ", "Nothing to take back"),
    (RU, "отмена", "отменено: ", "Отменять нечего"),
])  # fmt: skip
def test_dice_1000_faces_typed_at_the_roll_prompt_and_undone_step_by_step(
    lang: str, undo: str, taken: str, nothing: str
) -> None:
    term = Terminal("--lang", lang, "play", "thousand", "--players", "ann,bob", "--real-dice", "--no-save")
    try:
        term.expect(r"ann .*> ")
        term.line("1 5 3 3 2")  # the turn's first throw: set aside 1 and 5
        term.expect(r"ann \[.*\] > ")
        term.line("4 4 6")  # the dice that fell, no 'r' first: a zero roll, bob's turn
        said = term.expect(r"bob .*> ")
        assert "cannot read" not in said and "не понимаю" not in said
        term.line(undo)  # the dice 4 4 6
        term.expect(re.escape(taken) + "4,4,6")
        term.expect(r"ann .*> ")
        term.line(undo)  # the roll that asked for them
        term.expect(re.escape(taken) + "roll")
        term.expect(r"ann \[.*\] > ")
        term.line(undo)  # the first throw
        term.expect(re.escape(taken) + "1,5,3,3,2")
        term.expect(r"ann .*> ")
        term.line(undo)  # nothing is left
        term.expect(nothing)
        term.line("q")
        term.expect(r"\[y/N\]")
        term.line("")
        assert term.wait() == 0
    finally:
        term.close()


@pytest.mark.parametrize(("lang", "missing"), [
    ("en", "Missing: the purple die. Type every die thrown (W Y B G O P)."),
    (RU, "Не хватает: фиолетовый кубик. Введите все брошенные кубики (W Y B G O P)."),
])  # fmt: skip
def test_clever_real_dice_entry_speaks_of_dice(lang: str, missing: str) -> None:
    term = Terminal("--lang", lang, "play", "clever", "--players", "me", "--real-dice", "--no-save")
    try:
        term.expect(r"W\d Y\d.*> ")
        term.line("W3 Y4 B5 G6 O1")
        said = term.expect(r"> ")
        assert missing in " ".join(said.split()), said
        term.line("3 4 5 6 1 9")
        said = term.expect(r"> ")
        assert ("cannot show 9" if lang == "en" else "не может показать 9") in said
        term.line("3 4 5 6 1 2")  # the faces alone, in the order W Y B G O P
        said = term.expect(r"\n> ")
        assert "Clever move" not in said and "как ход" not in said
        assert "W3" in said and "P2" in said
        term.line("q")
        term.expect(r"\[y/N\]")
        term.line("")
        assert term.wait() == 0
    finally:
        term.close()


# -- Clever with other players --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "rolled", "view"), [("en", "Rolled:", "view"), (RU, "Брошено:", "вид")])
def test_the_compact_clever_view_fits_80x40_and_the_view_key_switches(
    lang: str, rolled: str, view: str
) -> None:
    players = "me,bot:greedy,bot:greedy,bot:greedy"
    term = Terminal("--lang", lang, "play", "clever", "--players", players, "--seed", "3", "--no-save")
    try:
        term.expect(r"\n> ")
        shown = screen(term)
        where = "\n".join(shown)
        assert any(line.startswith("── me ") for line in shown), f"your sheet scrolled away:\n{where}"
        assert any(line.startswith(rolled) for line in shown), where
        assert sum(line.startswith("── bot:greedy") for line in shown) == 3, where
        assert shown[-1].startswith(">") and re.search(r"^\s+13\s", where, re.M), where
        assert_fits(where, "compact view")
        term.line(view)  # every sheet in full
        said = term.expect(r"\n> ")
        assert sum(line.startswith("── bot:greedy") for line in said.split("\n")) == 3
        assert said.count("Yellow" if lang == "en" else "Жёлтая") == 4
        term.line("q")
        term.expect(r"\[y/N\]")
        term.line("")
        assert term.wait() == 0
    finally:
        term.close()


@pytest.mark.parametrize(("lang", "unit", "typed"), [
    ("en", "expected points", "type"), (RU, "ожидаемые очки", "ввод"),
])  # fmt: skip
def test_clever_hints_say_their_unit_and_the_number_to_type(lang: str, unit: str, typed: str) -> None:
    term = Terminal("--lang", lang, "play", "clever", "--players", "me", "--seed", "3", "--no-save")
    try:
        menu = term.expect(r"\n> ")
        choices = dict(re.findall(r"^\s+(\d+)\s+(\S+)", menu, re.M))  # number → notation
        term.line("?")
        table = term.expect(r"\n> ")
        table = table[table.rindex("\n", 0, table.index("┏")) :]  # (the spinner before it is erased)
        assert all(word in table for word in unit.split()) and typed in table  # (the heading may wrap)
        rows = re.findall(r"^│\s+(\d+) │ (.+?)\s+│\s+(\d+[.,]\d)", table, re.M)
        assert len(rows) == len(choices), table
        assert_fits(table, "hints")
        term.line("q")
        term.expect(r"\[y/N\]")
        term.line("")
        assert term.wait() == 0
    finally:
        term.close()


def test_dice_1000_hints_with_two_players_are_a_chance_to_win() -> None:
    for lang, unit, roll in (("en", "chance to win", "r"), (RU, "шанс на победу", "к")):
        term = Terminal("--lang", lang, "play", "thousand", "--players", "me,bot:cautious", "--seed", "2")
        try:
            term.expect(r"\] > ")
            term.line("?")
            table = term.expect(r"\] > ")
            table = table[table.rindex("\n", 0, table.index("┏")) :]
            assert_fits(table, "hints")
            assert unit in table and re.search(rf"│\s+{roll} │", table), table
            assert re.search(r"\d[.,]\d%", table)
            term.line("q")
            term.expect(r"\[y/N\]")
            term.line("")
            assert term.wait() == 0
        finally:
            term.close()


# -- commands in the player's language -----------------------------------------------------------------------------
def test_clever_and_wurf_commands_in_russian() -> None:
    term = Terminal("--lang", RU, "play", "clever", "--players", "me,bot:greedy", "--seed", "3", "--no-save")
    try:
        term.expect(r"\n> ")
        term.line("доска")
        said = term.expect(r"\n> ")
        assert "не понимаю" not in said and "── me " in said
        term.line("помощь")
        said = term.expect(r"\n> ")
        assert "Цель" in said
        term.line("переброс")
        said = term.expect(r"\n> ")
        assert "перебросить" in said.lower() or "переброс" in said.lower()
        assert "не понимаю" not in said and "как ход" not in said, said
        term.line("в")
        term.expect(r"\[y/N\]")
        term.line("")
        assert term.wait() == 0
    finally:
        term.close()
    term = Terminal("--lang", RU, "play", "wurf", "--players", "me,bot:cautious", "--seed", "1", "--no-save")
    try:
        term.expect(r"\n> ")
        term.line("помощь")
        said = term.expect(r"\n> ")
        assert "Цель" in said
        term.line("б c3")  # throw at c3
        said = term.expect(r"\n> ", timeout=60)
        assert "me " in said and "не понимаю" not in said, said
        term.line("выход")
        term.expect(r"\[y/N\]")
        term.line("")
        assert term.wait() == 0
    finally:
        term.close()


# -- tables at 80 columns ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", RU])
def test_analyze_and_simulate_never_cut_a_value(lang: str, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    players = "bot:expert,bot:cautious"
    run(
        "play", "thousand", "--players", players, "--seed", "4", "--save", str(record), "--no-save", lang=lang
    )
    out = run("analyze", str(record), lang=lang)
    assert_fits(out, f"analyze ({lang})")
    assert re.search(r"bot:expert\s+\d+\s+\d+[.,]\d", out), out  # the totals: accuracy in full
    assert re.search(r"[+-]\d+[.,]\d%\s*$", out, re.M), out  # luck in full
    # Clever's expert takes about a second a game: a few games give the same table's widths
    for game, bots, games in (
        ("thousand", "bot:bold,bot:expert,bot:cautious", "20"),
        ("clever", "bot:greedy,bot:expert", "4"),
    ):
        out = run("simulate", game, "--players", bots, "--games", games, lang=lang)
        assert_fits(out, f"simulate {game} ({lang})")
        assert "bot:greedy" in out or "bot:cautious" in out


def test_polish_simulate_shows_whole_names() -> None:
    out = run("simulate", "clever", "--players", "bot:greedy,bot:expert", "--games", "4", lang="pl")
    assert_fits(out, "simulate (pl)")
    assert re.search(r"bot:greedy .*\d+,\d–\d+,\d%", out), out


# -- --help and --version ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", ["en", RU])
def test_help_at_80_columns_reads_well(lang: str) -> None:
    # the config file's path is part of --name's help: as short as a home directory's (a test's is longer)
    config = tempfile.mkdtemp(prefix="c", dir="/tmp")
    try:
        out = run("play", "thousand", "--help", lang=lang, env={"XDG_CONFIG_HOME": config})
    finally:
        shutil.rmtree(config)
    assert_fits(out, "help")
    assert not re.search(r"<bool>|<str>|<list\[|<int>|<path>|\{game\}", out), out
    assert "KEY=VALUE" in out and re.search(r"--seed\s+N\b", out)
    assert ("Examples:" if lang == "en" else "Примеры:") in out
    assert re.match(r"dicehall \d+\.\d+", run("--version", lang=lang).strip())


def test_a_table_solved_during_a_game_leaves_no_progress_lines(tmp_path: Path) -> None:
    """Custom rules have no shipped table: the first '?' solves one (its progress shows meanwhile) and the
    transcript keeps the hints only."""
    # (without bolts: 4,900 positions, solved in about a second, its progress drawn meanwhile all the same)
    rules = ["--set", "target=50", "--set", "barrel=none", "--set", "open_min=0", "--set", "bolts=false"]
    term = Terminal(
        "--lang", RU, "play", "thousand", "--players", "me,bot:cautious", *rules, "--seed", "2", "--no-save",
        env={"XDG_CACHE_HOME": str(tmp_path / "cache")},
    )  # fmt: skip
    try:
        term.expect(r"\] > ")
        term.line("?")
        term.expect("шанс на победу", timeout=300)
        term.expect(r"\] > ")
        after = shown(term)
        assert "невязка" in term.text, "the solve's progress was not shown"
        assert "невязка" not in after and "residual" not in after, after[-2000:]
        term.line("в")
        term.expect(r"\[y/N\]")
        term.line("")
        assert term.wait() == 0
    finally:
        term.close()

"""The end of ``dicehall play`` (dicehall/core/proficiency_cli.py): each player's mean loss per decision, band and
costliest decision's number, equal to the analysis of the kept game, at 80 columns, in the CLI's languages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.core.analysis import analyze
from dicehall.core.analysis_cli import fmt
from dicehall.core.history import history_files
from dicehall.core.record import GameRecord
from dicehall.i18n import reset_language, set_language, translator

_register_games()
runner = CliRunner()


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    yield tmp_path / "data"


def rows(out: str) -> dict[str, list[str]]:
    """The table's body rows by player name (cells split on the borders)."""
    found = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip().strip("│").split("│")]
        if len(cells) == 5 and cells[0].startswith("bot:"):
            found[cells[0]] = cells[1:]
    return found


@pytest.mark.parametrize(
    ("lang", "args", "unit_words"),
    [
        ("en", ("thousand", "--players", "bot:random,bot:cautious", "--seed", "3"), "in win-% points"),
        ("ru", ("clever", "--players", "bot:greedy,bot:random", "--seed", "2"), "в очках"),
        ("uk", ("thousand", "--players", "bot:bold,bot:expert", "--seed", "5"), "шансу на перемогу"),
        ("pl", ("clever", "--players", "bot:expert", "--seed", "4"), "w punktach"),
    ],
)
def test_the_end_of_a_game_shows_each_players_proficiency(
    lang: str, args: tuple[str, ...], unit_words: str
) -> None:
    result = runner.invoke(app, ["play", *args, "--lang", lang], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    out = result.output
    t = translator(lang)
    # the section, from its title to its hint (the history line before it holds a path, printed unbroken)
    section = out[
        out.index(t("proficiency.cli.title", unit="")[:20]) : out.index(t("proficiency.cli.see", number="1"))
    ]
    assert max(len(line) for line in section.splitlines()) <= 80
    assert unit_words in " ".join(section.split())
    [kept] = history_files()
    a = analyze(GameRecord.load(kept))
    shown = rows(out)
    assert set(shown) == set(a.players)
    set_language(lang)  # fmt words numbers in the process's language, as the CLI did
    try:
        for totals in a.totals:
            mean, said, number, lost = shown[totals.name]
            assert mean == fmt(totals.mean_loss, a.unit, digits=2)
            band = a.band(totals.seat)
            assert band is not None and said == t(f"proficiency.band.{band}")
            worst = a.costliest(totals.seat)
            assert worst is not None and number == f"#{worst.n}" and lost == fmt(worst.loss, a.unit, digits=2)
    finally:
        reset_language()
    # the costliest decision is found by its number in the analysis the CLI names already
    assert t("proficiency.cli.see", number="1") in out and "dicehall analyze 1" in out
    assert out.index(t("proficiency.cli.see", number="1")) < out.index(
        t("cli.history.analyze_later", number="1")
    )

"""Rule sets that adapt (issue 29): a changed target moves the pits, barrel, opening and dump truck the player
left out and that no longer fit; options the player set are never changed, and a conflict among them is refused
once, naming every problem and a set that works (docs/thousand.md, "Rule sets that adapt")."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.core.errors import RuleConfigError
from dicehall.thousand.rules import ThousandRules
from tests.core.terminal import Terminal

_register_games()
runner = CliRunner()


def test_a_smaller_target_moves_what_no_longer_fits() -> None:
    r = ThousandRules.from_preset("classic", {"target": 300})
    assert (r.open_min, r.barrel_score, r.pits, r.dump_truck, r.dump_truck_score) == (
        50, 265, ((60, 90), (180, 210)), True, 165,
    )  # fmt: skip
    assert ThousandRules.from_preset("classic", r.overrides()) == r  # a record replays the same rules
    none = ThousandRules.from_preset("classic", {"target": 300, "barrel": "none"})
    assert none.pits == ((200, 300),) and none.dump_truck_score == 165  # the first pit still fits; the second
    # would overlap it when moved, so it is dropped
    big = ThousandRules.from_preset("classic", {"target": 2000})
    assert big.pits == ((200, 300), (600, 700)) and big.dump_truck_score == 555  # still fit: kept
    assert big.barrel_score == 1760  # 880 × 2, within 300 of the target
    tiny = ThousandRules.from_preset("variant2", {"target": 20})
    assert tiny.open_min < tiny.barrel_score < 20
    rules, errors = ThousandRules.check("yard", {"target": 400})  # what the web form and API call
    assert errors == [] and rules is not None and rules.barrel_score < 400


def test_options_the_player_set_are_kept_and_conflicts_refused_once_with_a_working_set() -> None:
    kept = ThousandRules.from_preset("classic", {"target": 300, "pits": [[100, 150]]})
    assert kept.pits == ((100, 150),)
    with pytest.raises(RuleConfigError) as caught:
        ThousandRules.from_preset("classic", {"target": 300, "pits": [[600, 700]], "dump_truck_score": 555})
    err = caught.value
    assert [p.option for p in err.problems] == ["pits", "dump_truck_score"]  # every conflict at once
    said = str(err)
    assert said.startswith("pit [600, 700] reaches past the barrel at 265; dump_truck_score must be below")
    assert "Rules that work: dump_truck_score=165 pits=[[180,210]]" in said
    ThousandRules.from_preset("classic", {"target": 300, "pits": [[180, 210]], "dump_truck_score": 165})


def test_pits_none_and_a_rules_file() -> None:
    code = runner.invoke(app, ["rules", "thousand", "--set", "pits=none"], env={"COLUMNS": "200"})
    assert code.exit_code == 0 and "cannot read" not in code.output
    assert ThousandRules.from_cli(None, ["pits=none", "target=500"]).pits == ()


def test_a_rules_file_with_another_target(tmp_path: Path) -> None:
    path = tmp_path / "short.toml"
    path.write_text('preset = "classic"\ntarget = 300\n', encoding="utf-8")
    assert ThousandRules.from_cli(None, [], path).barrel_score == 265
    assert ThousandRules.from_cli(None, ["barrel=none"], path).pits == ((200, 300),)


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "error: pit [600, 700] reaches past the barrel at 265. Rules that work: pits=[[180,210]]"),
        ("ru", "ошибка: яма [600, 700] заходит за границу бочки (265). Подойдёт: pits=[[180,210]]"),
    ],
)
def test_the_terminal_says_the_refusal_once_with_what_works(lang: str, said: str) -> None:
    term = Terminal("--lang", lang, "play", "thousand", "--set", "target=300", "--set", "pits=[[600,700]]")
    try:
        assert term.wait() == 2
        assert said in " ".join(term.text.split())
        assert term.text.count("\n") <= 3  # one refusal, wrapped at 80 columns
    finally:
        term.close()


def test_solve_takes_a_short_game_without_a_barrel() -> None:
    term = Terminal("solve", "thousand", "--set", "target=300", "--set", "barrel=none", "--set", "pits=none")
    try:  # it starts solving (refused rules end at once with code 2); the solution itself is not waited for
        term.expect(r"step|sweep|positions|first player")
        assert "error" not in term.text
    finally:
        term.close()

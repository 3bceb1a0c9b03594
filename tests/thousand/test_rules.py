"""ThousandRules: presets, TOML and --set loading, validation."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from dicehall.core.errors import RuleConfigError
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.scoring import CLASSIC_KINDS, YARD_KINDS


def test_presets_exist_and_classic_is_default() -> None:
    assert list(ThousandRules.PRESETS) == ["classic", "classic-open", "classic-nobarrel", "variant2", "yard"]
    r = ThousandRules.from_preset()
    assert r.preset == "classic" and r.barrel == "score" and r.barrel_score == 880
    assert r.open_min == 50 and r.pits == ((200, 300), (600, 700)) and r.overtake_penalty == 50
    assert r.dump_truck and r.dump_truck_score == 555
    assert (r.bolts, r.bolts_count, r.bolt_penalty, r.bolts_everywhere) == (True, 3, 100, False)
    assert (r.barrel_attempts, r.barrel_fall_penalty, r.barrel_falls_to_zero) == (3, 100, 3)
    assert (r.open_points_limit, r.open_point_penalty, r.open_fall_limit) == (6, 100, 1)
    assert r.hot_dice == "mandatory" and r.max_rolls == 0 and not r.free_set_aside
    assert r.kinds is CLASSIC_KINDS


def test_preset_differences() -> None:
    assert ThousandRules.from_preset("classic-open").barrel == "open"
    assert ThousandRules.from_preset("classic-nobarrel").barrel == "none"
    v2 = ThousandRules.from_preset("variant2")
    assert (v2.open_min, v2.hot_dice, v2.pits, v2.overtake_penalty, v2.dump_truck, v2.bolts) == (
        75,
        "confirm",
        (),
        0,
        False,
        False,
    )
    assert (v2.barrel_score, v2.barrel_attempts, v2.barrel_knock, v2.barrel_cap) == (850, 0, "opening", True)
    y = ThousandRules.from_preset("yard")
    assert y.kinds is YARD_KINDS and y.golden_win and y.open_min == 100 and y.max_rolls == 3
    assert y.hot_dice == "confirm" and y.reconfirm_hot and y.pair_reroll and y.exact_reset
    assert y.barrel_score == 905 and y.barrel_exact and not y.barrel_cap and y.skip_on_zero_first


def test_every_option_is_documented() -> None:
    for name, _value, doc in ThousandRules.from_preset().describe():
        assert doc, name
    fields = {f.name: f for f in dataclasses.fields(ThousandRules)}
    assert fields["barrel"].metadata["choices"] == ("none", "score", "open")
    assert fields["hot_dice"].metadata["choices"] == ("mandatory", "confirm")


def test_set_assignments() -> None:
    r = ThousandRules.from_cli(
        "classic", ["open_min=75", "bolts-everywhere=yes", "pits=[[100, 150]]", "barrel=open"]
    )
    assert r.open_min == 75 and r.bolts_everywhere and r.pits == ((100, 150),) and r.barrel == "open"
    assert r.overrides() == {"open_min": 75, "bolts_everywhere": True, "pits": [[100, 150]], "barrel": "open"}
    assert ThousandRules.from_preset("classic", r.overrides()) == r


def test_toml_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text('preset = "variant2"\n[rules]\nopen_min = 100\nbolts = true\n', encoding="utf-8")
    r = ThousandRules.from_toml(path)
    assert r.preset == "variant2" and r.open_min == 100 and r.bolts and r.barrel_score == 850


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"open_min": -5}, "open_min must be between 0 and 300, got -5"),
        ({"pits": ((300, 200),)}, r"pit \[300, 200\]: need low < high"),
        ({"pits": ((200, 200),)}, "low < high"),
        ({"pits": ((200, 300), (250, 400))}, "pits overlap"),
        ({"pits": ((900, 1100),)}, "reaches past the barrel at 880"),
        (
            {"barrel_score": 1000},
            "barrel_score must be above the opening minimum 50 and below the target 1000",
        ),
        ({"barrel_score": 0}, "barrel_score must be between 5 and 4995, got 0"),
        ({"dump_truck_score": 0}, "dump_truck_score"),
        ({"bolts_count": 0}, "bolts_count must be between 1 and 10, got 0"),
        ({"bolt_penalty": -100}, "bolt_penalty must be between 0 and 200, got -100"),
        ({"barrel_attempts": -1}, "barrel_attempts must be between 0 and 10, got -1"),
        ({"open_points_limit": 0}, "open_points_limit must be between 1 and 20, got 0"),
        ({"max_rolls": -1}, "max_rolls must be between 0 and 10, got -1"),
        ({"open_min": 1000}, "open_min must be between 0 and 300, got 1000"),
        (
            {"barrel": "open", "barrel_exact": True, "barrel_cap": False},
            "barrel_exact applies to the score barrel",
        ),
        ({"barrel_exact": True}, "barrel_exact needs barrel_cap = false"),
        ({"reconfirm_hot": True}, "reconfirm_hot needs hot_dice = 'confirm'"),
        ({"barrel": "wooden"}, "barrel must be one of none, score, open"),
        ({"open_min": "fifty"}, "open_min must be int"),
        ({"bogus": 1}, "unknown rule option 'bogus'"),
        ({"target": 0}, "target must be between 100 and 5000, got 0"),
    ],
)
def test_impossible_values_are_refused(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(RuleConfigError, match=message):
        ThousandRules.from_preset("classic", overrides)


def test_unknown_preset() -> None:
    with pytest.raises(RuleConfigError, match="unknown preset 'house'; choose one of: classic"):
        ThousandRules.from_preset("house")


def test_pit_of() -> None:
    r = ThousandRules.from_preset()
    assert r.pit_of(199) is None and r.pit_of(200) == (200, 300) and r.pit_of(299) == (200, 300)
    assert r.pit_of(300) is None and r.pit_of(650) == (600, 700)

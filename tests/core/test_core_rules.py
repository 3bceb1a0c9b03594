"""The shared RuleSet machinery: presets, coercion, TOML, --set, overrides."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, ClassVar

import pytest

from dicehall.core.errors import RuleConfigError
from dicehall.core.rules import RuleSet, option


@dataclasses.dataclass(frozen=True)
class Toy(RuleSet):
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {"plain": {}, "big": {"n": 5, "mode": "y"}}
    DEFAULT_PRESET: ClassVar[str] = "plain"

    n: int = option(1, "a count")
    mode: str = option("x", "a mode", choices=("x", "y"))
    flag: bool = option(False, "a switch")
    ratio: float = option(0.5, "a ratio")
    pair: tuple[int, int] = option((1, 2), "two numbers")
    seq: tuple[int, ...] = option((), "any numbers")
    limit: int | None = option(None, "optional limit")

    def validate(self) -> None:
        if self.n < 0:
            raise RuleConfigError(f"n must not be negative, got {self.n}")


def test_presets_and_default() -> None:
    assert Toy.from_preset().preset == "plain" and Toy.from_preset().n == 1
    big = Toy.from_preset("big")
    assert (big.n, big.mode, big.preset) == (5, "y", "big")
    with pytest.raises(RuleConfigError, match="unknown preset 'huge'; choose one of: plain, big"):
        Toy.from_preset("huge")


def test_coercion() -> None:
    t = Toy.from_preset("plain", {"n": 3, "ratio": 2, "pair": [4, 5], "seq": [1, 2, 3], "limit": 7})
    assert (t.n, t.ratio, t.pair, t.seq, t.limit) == (3, 2.0, (4, 5), (1, 2, 3), 7)
    assert isinstance(t.ratio, float)
    assert Toy.from_preset("plain", {"limit": None}).limit is None
    for key, value, msg in [
        ("n", True, "n must be int"),
        ("n", "3", "n must be int"),
        ("flag", 1, "flag must be bool"),
        ("ratio", "x", "ratio must be float"),
        ("pair", [1, 2, 3], "pair must be"),
        ("pair", 5, "pair must be"),
        ("limit", "x", "limit must be"),
        ("mode", "z", "mode must be one of x, y; got 'z'"),
        ("nope", 1, "unknown rule option 'nope'; known options: n, mode"),
    ]:
        with pytest.raises(RuleConfigError, match=msg):
            Toy.from_preset("plain", {key: value})


def test_validate_runs_on_every_construction() -> None:
    with pytest.raises(RuleConfigError, match="n must not be negative"):
        Toy.from_preset("plain", {"n": -1})
    with pytest.raises(RuleConfigError, match="n must not be negative"):
        Toy.from_preset().with_overrides({"n": -2})


def test_assignments() -> None:
    parsed = Toy.parse_assignments(["n=4", "flag=on", "mode=y", "pair=[3, 4]", "ratio=0.25", "limit=null"])
    assert parsed == {"n": 4, "flag": True, "mode": "y", "pair": [3, 4], "ratio": 0.25, "limit": None}
    assert Toy.parse_assignments(["flag=No"]) == {"flag": False}
    with pytest.raises(RuleConfigError, match="--set needs key=value, got 'n'"):
        Toy.parse_assignments(["n"])
    with pytest.raises(RuleConfigError, match="flag must be true or false, got 'maybe'"):
        Toy.parse_assignments(["flag=maybe"])
    with pytest.raises(RuleConfigError, match="n: cannot read 'four' as int"):
        Toy.parse_assignments(["n=four"])
    t = Toy.from_cli("big", ["n=6"])
    assert (t.preset, t.n, t.mode) == ("big", 6, "y")


def test_toml(tmp_path: Path) -> None:
    top = tmp_path / "top.toml"
    top.write_text('preset = "big"\nn = 9\n', encoding="utf-8")
    assert (Toy.from_toml(top).preset, Toy.from_toml(top).n) == ("big", 9)
    table = tmp_path / "table.toml"
    table.write_text('[rules]\npreset = "big"\nflag = true\n', encoding="utf-8")
    t = Toy.from_toml(table)
    assert (t.preset, t.flag, t.n) == ("big", True, 5)
    # --preset given with a file switches preset but keeps the file's options
    t2 = Toy.from_cli("plain", ["mode=y"], table)
    assert (t2.preset, t2.flag, t2.n, t2.mode) == ("plain", True, 1, "y")
    bad = tmp_path / "bad.toml"
    bad.write_text("n = = 3", encoding="utf-8")
    with pytest.raises(RuleConfigError, match="cannot read rules file"):
        Toy.from_toml(bad)
    with pytest.raises(RuleConfigError, match="cannot read rules file"):
        Toy.from_toml(tmp_path / "missing.toml")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text("preset = 3\n", encoding="utf-8")
    with pytest.raises(RuleConfigError, match="'preset' must be a string"):
        Toy.from_toml(wrong)


def test_overrides_to_dict_describe() -> None:
    t = Toy.from_preset("big", {"flag": True, "pair": [7, 8]})
    assert t.overrides() == {"flag": True, "pair": [7, 8]}
    assert Toy.from_preset("big", t.overrides()) == t
    d = t.to_dict()
    assert d["preset"] == "big" and d["pair"] == [7, 8] and list(d)[1:] == Toy.option_names()
    assert ("n", 5, "a count") in t.describe()
    assert all(doc for _, _, doc in t.describe())


def test_option_refuses_mutable_defaults() -> None:
    with pytest.raises(TypeError, match="immutable"):
        option([1], "a list")


@dataclasses.dataclass(frozen=True)
class Ranged(RuleSet):
    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {"plain": {}}
    DEFAULT_PRESET: ClassVar[str] = "plain"

    points: int = option(100, "points", min=0, max=500, step=5)
    ratio: float = option(0.5, "a ratio", min=0.0, max=1.0)
    floor: int = option(1, "at least one", min=1)
    spans: tuple[tuple[int, int], ...] = option(((0, 10),), "spans", min=0, max=100, max_items=2)


def test_ranges_steps_items_and_finite_numbers() -> None:
    for overrides, message in [
        ({"points": 505}, "points must be between 0 and 500, got 505"),
        ({"points": -1}, "points must be between 0 and 500, got -1"),
        ({"points": 7}, "points must be a multiple of 5, got 7"),
        ({"ratio": float("nan")}, "ratio must be a finite number, got nan"),
        ({"ratio": float("inf")}, "ratio must be a finite number, got inf"),
        ({"ratio": 1.5}, "ratio must be between 0.0 and 1.0, got 1.5"),
        ({"floor": 0}, "floor must be at least 1, got 0"),
        ({"spans": [[0, 1], [2, 3], [4, 5]]}, "spans may hold at most 2 entries, got 3"),
        ({"spans": [[0, 101]]}, "every number in spans must be between 0 and 100, got 101"),
    ]:
        with pytest.raises(RuleConfigError) as info:
            Ranged.from_preset(None, overrides)
        assert str(info.value) == message and info.value.option == next(iter(overrides))
    assert Ranged.from_preset(None, {"points": 500, "ratio": 1, "floor": 10**6}).ratio == 1.0


def test_every_construction_is_checked() -> None:
    with pytest.raises(RuleConfigError, match="points must be between"):
        Ranged(points=10**9)
    with pytest.raises(RuleConfigError, match=r"points must be int, got 2\.5"):
        Ranged(points=2.5)  # type: ignore[arg-type]
    with pytest.raises(RuleConfigError, match="spans must be"):
        Ranged(spans=[[0, 1]])  # type: ignore[arg-type]
    with pytest.raises(RuleConfigError, match="ratio must be"):
        dataclasses.replace(Ranged.from_preset(), ratio=2.0)


def test_range_metadata_and_text() -> None:
    assert Ranged.range_of("points") == {"min": 0, "max": 500, "step": 5}
    assert Ranged.allowed("points") == "0–500, multiple of 5"
    assert Ranged.allowed("floor") == "at least 1"
    assert Ranged.allowed("spans") == "each 0–100; at most 2 entries"
    assert Toy.allowed("mode") == "x | y" and Toy.allowed("flag") == ""


def test_check_collects_every_problem_then_cross_checks() -> None:
    rules, errors = Ranged.check(None, {"points": 7, "ratio": "x", "nope": 1, "floor": 3})
    assert rules is None
    assert [(e.option, str(e)) for e in errors] == [
        ("points", "points must be a multiple of 5, got 7"),
        ("ratio", "ratio must be float, got 'x'"),
        ("nope", "unknown rule option 'nope'; known options: points, ratio, floor, spans"),
    ]
    rules, errors = Toy.check("plain", {"n": -1})
    assert rules is None and [str(e) for e in errors] == ["n must not be negative, got -1"]
    assert errors[0].option is None  # Toy's own check does not name it
    rules, errors = Ranged.check(None, {"points": 10})
    assert errors == [] and rules is not None and rules.points == 10
    assert Ranged.check("huge", {})[1][0].option is None

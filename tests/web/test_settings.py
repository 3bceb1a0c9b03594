"""Server settings: defaults are valid, files and overrides are checked key by key."""

from __future__ import annotations

from pathlib import Path

import pytest

from dicehall.web.settings import ServerSettings, SettingsError


def test_defaults_are_valid_and_documented() -> None:
    s = ServerSettings()
    assert s.worker_count >= 1
    assert all(doc for _, _, doc in ServerSettings.describe())


def test_file_and_overrides(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text("[server]\ntables_per_hour = 5\nbot_budget = 0.5\n", encoding="utf-8")
    s = ServerSettings.from_toml(f)
    assert (s.tables_per_hour, s.bot_budget) == (5, 0.5)
    assert s.with_values({"tables_per_hour": None}).tables_per_hour == 5


@pytest.mark.parametrize(
    ("values", "words"),
    [
        ({"tables_per_hour": 0}, "between 1"),
        ({"tables_per_hour": 2.5}, "whole number"),
        ({"bot_budget": "fast"}, "must be a number"),
        ({"bot_budget": True}, "must be a number"),
        ({"nonsense": 1}, "unknown setting"),
    ],
)
def test_bad_values_are_refused(values: dict[str, object], words: str) -> None:
    with pytest.raises(SettingsError, match=words):
        ServerSettings().with_values(values)


def test_unreadable_file(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_bytes(b"\xff\xfe = 1")
    with pytest.raises(SettingsError, match="cannot read settings file"):
        ServerSettings.from_toml(f)

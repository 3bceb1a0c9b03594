"""Settings from the environment (docs/web.md, "Settings"): every ``dicehall serve`` option and settings key as a
``DICEHALL_`` variable, a flag over the environment over the file over the default, a bad value refused at start
with the variable named, and ``.env.example`` listing them all."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path

import httpx
import pytest

from dicehall.web.server import SERVE_ENV
from dicehall.web.settings import ServerSettings, SettingsError, env_name
from tests.web.served import EXE, clean_env, serving
from tools.env_example import render
from tools.server import free_port

ROOT = Path(__file__).resolve().parents[2]


def test_env_example_lists_every_variable_with_its_default() -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert text == render(), "regenerate: python -m tools.env_example > .env.example"
    named = {
        line.split("=")[0].lstrip("# ") for line in text.splitlines() if "=" in line and "DICEHALL_" in line
    }
    assert named == SERVE_ENV | {env_name(f.name) for f in dataclasses.fields(ServerSettings)}


def test_the_environment_wins_over_the_file_and_a_bad_value_is_named(tmp_path: Path) -> None:
    file = tmp_path / "s.toml"
    file.write_text("bot_workers = 2\ntables_per_hour = 7\n", encoding="utf-8")
    base = ServerSettings.from_toml(file)
    got = base.with_env({"DICEHALL_BOT_WORKERS": "4", "DICEHALL_PUBLIC_ORIGIN": "https://dice.example"})
    assert (got.bot_workers, got.tables_per_hour, got.public_origin) == (4, 7, "https://dice.example")
    assert base.with_env({"DICEHALL_BOT_WORKERS": ""}).bot_workers == 2  # empty: not set
    for env, said in (
        ({"DICEHALL_BOT_WORKERS": "four"}, "DICEHALL_BOT_WORKERS: must be a whole number, got 'four'"),
        (
            {"DICEHALL_BOT_BUDGET": "0"},
            "DICEHALL_BOT_BUDGET: setting bot_budget must be between 0.05 and 120",
        ),
        (
            {"DICEHALL_PUBLIC_ORIGIN": "ftp://x"},
            "DICEHALL_PUBLIC_ORIGIN: setting public_origin must be an origin",
        ),
    ):
        with pytest.raises(SettingsError) as exc:
            base.with_env(env)
        assert str(exc.value).startswith(said)


def test_a_bad_variable_stops_serve_before_it_listens(tmp_path: Path) -> None:
    env = clean_env(
        DICEHALL_PORT=str(free_port()),
        DICEHALL_DB=f"sqlite:///{tmp_path / 'x.sqlite'}",
        DICEHALL_BOT_WORKERS="lots",
    )
    done = subprocess.run([str(EXE), "serve"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "DICEHALL_BOT_WORKERS" in done.stdout + done.stderr
    bad_port = subprocess.run(
        [str(EXE), "serve"], env=clean_env(DICEHALL_PORT="eighty"), capture_output=True, text=True, timeout=60
    )
    assert bad_port.returncode != 0 and "DICEHALL_PORT" in bad_port.stdout + bad_port.stderr


def test_serve_configured_by_the_environment_alone(tmp_path: Path) -> None:
    """Port, database and a limit from variables; the limit's variable beats the settings file's value."""
    settings = tmp_path / "s.toml"
    settings.write_text("tables_per_hour_per_address = 5\n", encoding="utf-8")
    env = clean_env(
        DICEHALL_DB=f"sqlite:///{tmp_path / 'env.sqlite'}",
        DICEHALL_SETTINGS=str(settings),
        DICEHALL_TABLES_PER_HOUR_PER_ADDRESS="2",
        DICEHALL_BOT_DELAY="0",
    )
    with serving(env, tmp_path / "serve.log") as base:  # (a free port of its own, from the variable too)
        body = {
            "game": "thousand",
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        }
        codes = [httpx.post(f"{base}/api/tables", json=body, timeout=10).status_code for _ in range(3)]
        assert codes == [201, 201, 429]  # a new guest each time: the address's limit, 2 from the variable
        assert (tmp_path / "env.sqlite").exists()

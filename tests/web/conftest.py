"""Fixtures for the web server tests: a fresh SQLite database per test and a TestClient around the real app."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import tinygame
from fastapi.testclient import TestClient

from dicehall.web.app import create_app
from dicehall.web.settings import ServerSettings

UNLIMITED = ServerSettings(
    tables_per_hour=1_000_000,
    unfinished_per_client=1_000_000,
    tables_per_hour_per_address=10_000_000,
    unfinished_per_address=10_000_000,
    ws_messages_per_second=10_000,
    ws_burst=100_000,
)
"""Most tests play faster than any person: the limits get tests of their own (test_web_limits.py)."""
BOT_SETUP = ("tinygame:install",)
"""Bot workers are separate processes: they register the test game too."""


@pytest.fixture(autouse=True)
def tiny_game() -> Iterator[None]:
    """The test-only game is registered for the web tests only, never for other test packages."""
    tinygame.install()
    yield
    tinygame.uninstall()


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite'}"


@pytest.fixture
def server(db_url: str) -> Callable[..., contextmanager[TestClient]]:
    """``with server() as client:`` starts the app on the test's database (again after a 'restart')."""

    @contextmanager
    def start(bot_delay: float = 0.0, **settings: Any) -> Iterator[TestClient]:
        """``settings``: :class:`ServerSettings` fields (``UNLIMITED`` otherwise)."""
        app = create_app(
            db_url,
            bot_delay=bot_delay,
            settings=dataclasses.replace(UNLIMITED, **settings),
            bot_setup=BOT_SETUP,
        )
        with TestClient(app) as client:
            yield client

    return start  # type: ignore[return-value]


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Any]:
    """One throw-away PostgreSQL cluster per test process, started by the first test that asks for it."""
    from pg import Cluster

    with Cluster() as cluster:
        yield cluster

"""Suite-wide: the messages are English unless a test asks for a language (a developer's LANG=ru_RU must not
change what the CLI tests read), and a language a test chose does not leak into the next test. The user data
directory (solver tables, training runs, the default database) and the user config directory (the name
``play --name`` remembers) are fresh ones per session, as on a new machine: what a developer has computed or
saved must not change what a test sees. Servers do not warm up analyses ahead (``DICEHALL_WARM_UP=0``)
nor store analyses in the background (``DICEHALL_ANALYST=0``)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator

import pytest

from dicehall.i18n import reset_language
from dicehall.i18n.cli import start_invocation


def pytest_configure(config: pytest.Config) -> None:
    os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="dicehall-test-data-")
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="dicehall-test-config-")
    # Servers started by tests (in this process or as subprocesses) make no evaluators or analyses ahead: each would
    # spend seconds of CPU on it (tests/web/test_web_warmup.py turns it on where it is the subject).
    os.environ["DICEHALL_WARM_UP"] = "0"
    # nor analyse finished games in the background (tests/web/test_web_profile.py runs the analyst itself)
    os.environ["DICEHALL_ANALYST"] = "0"


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(os.environ["XDG_DATA_HOME"], ignore_errors=True)
    shutil.rmtree(os.environ["XDG_CONFIG_HOME"], ignore_errors=True)


@pytest.fixture(autouse=True)
def _own_user_config(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each test starts with an empty user config (saved name, how-tos seen): no test sees what another saved."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    reset_language()
    start_invocation()  # a `dicehall --lang X …` run by an earlier test must not choose this test's language
    yield
    reset_language()
    start_invocation()

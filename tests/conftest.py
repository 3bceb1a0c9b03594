"""Suite-wide: the messages are English unless a test asks for a language (a developer's LANG=ru_RU must not
change what the CLI tests read), and a language a test chose does not leak into the next test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dicehall.i18n import reset_language


@pytest.fixture(autouse=True)
def _english_unless_asked(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    reset_language()
    yield
    reset_language()

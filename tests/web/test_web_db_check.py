"""`dicehall serve` refuses a database it cannot use with one clear line, before starting."""

from __future__ import annotations

from pathlib import Path

import pytest

from dicehall.web.db import check_database


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("nonsense", "bad --db URL"),
        ("mysql://user@127.0.0.1/db", "driver for mysql is not installed"),
        ("postgresql+psycopg://u:p@127.0.0.1:1/none", "cannot open the database"),
    ],
)
def test_unusable_databases_are_refused(url: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_database(url)


def test_a_new_sqlite_file_is_fine(tmp_path: Path) -> None:
    check_database(f"sqlite:///{tmp_path / 'sub' / 'new.sqlite'}")
    assert (tmp_path / "sub" / "new.sqlite").exists()

"""The player's history: every game played at this terminal kept as one record file in the user data directory.

The folder is ``platformdirs.user_data_dir("dicehall")/games`` (``$XDG_DATA_HOME/dicehall/games`` on Linux). A
record's file name is made of the time it was first kept, its game and its id
(``20261105-143012-123456-thousand-1a2b3c4d.json``): the same game is always written to the same file (a resumed
game writes back to it) and the names sort in the order the games were kept. The number ``dicehall games`` shows
is a game's place in that order, 1 for the oldest, and stays the same as new games are added.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import platformdirs

from dicehall.core.errors import RecordError
from dicehall.core.record import GameRecord
from dicehall.i18n.message import Message

_NAME = re.compile(r"\d{8}-\d{6}-\d{6}-[a-z]+-[0-9a-f]{8}\.json")


def history_dir() -> Path:
    return Path(platformdirs.user_data_dir("dicehall")) / "games"


def started(record: GameRecord) -> dt.datetime:
    """When the game started (UTC); a record without a readable time counts as started now."""
    try:
        when = dt.datetime.fromisoformat(record.created)
    except ValueError:
        return dt.datetime.now(dt.UTC)
    return when if when.tzinfo is not None else when.replace(tzinfo=dt.UTC)


def history_path(record: GameRecord) -> Path:
    """The file that keeps ``record`` in the history: the one it was kept in before, else a new name from the
    time now (to the microsecond, so that the names sort in the order the games were first kept)."""
    game_id = re.sub(r"[^0-9a-f]", "", record.game_id.lower())[:8].ljust(8, "0")
    tail = f"-{record.game}-{game_id}.json"
    for path in history_files():
        if path.name.endswith(tail):
            return path
    return history_dir() / (dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S-%f") + tail)


def keep(record: GameRecord) -> tuple[int, Path]:
    """Write ``record`` to its history file (atomically; :class:`RecordError` when it cannot be written); its
    number in the history and the path."""
    path = record.save(history_path(record))
    return number_of(path), path


def history_files() -> list[Path]:
    """The history's record files, oldest first (the list ``dicehall games`` numbers from 1)."""
    folder = history_dir()
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if _NAME.fullmatch(p.name) and p.is_file())


def number_of(path: Path) -> int:
    """The number of the history file ``path`` (0 when it is not one)."""
    files = history_files()
    return files.index(path) + 1 if path in files else 0


def find(number: int) -> Path:
    """The history file numbered ``number``; :class:`RecordError` saying how many there are when none is."""
    files = history_files()
    if not files:
        raise RecordError(Message("history.error.empty", number=str(number)))
    if not 1 <= number <= len(files):
        raise RecordError(Message("history.error.no_game", number=str(number), n=len(files)))
    return files[number - 1]

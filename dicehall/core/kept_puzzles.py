"""Puzzles in the games kept at this terminal (``dicehall games``), for every game: each kept game a game's judging
can use is walked at the people's decisions (``thousand/found_puzzles.py``, ``clever/found_puzzles.py``), each
position once. Where judging costs seconds a game (Clever), what was found is kept in a cache file beside the
history, by the record's content and the judge's fingerprint, so the next run judges only new or changed games
(docs/puzzles.md, "Puzzles from games played here")."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Generic

import platformdirs

from dicehall.core.errors import DicehallError
from dicehall.core.history import history_files
from dicehall.core.puzzles import P
from dicehall.core.record import GameRecord

FORMAT = "dicehall-found-puzzles/1"

Progress = Callable[[int, int], None]
"""Told (games judged, games to judge) before the first game is judged and after each one."""


def people(record: GameRecord) -> list[int]:
    """The seats people held in a game played at the terminal (bots' seats are named ``bot:NAME``)."""
    return [i for i, p in enumerate(record.players) if not str(p.get("name", "")).startswith("bot:")]


def fingerprint(files: Iterable[Path]) -> str:
    """A judge's fingerprint: the SHA-256 of its files (code, network), so a changed judge judges again."""
    h = hashlib.sha256()
    for path in sorted(files):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


@dataclasses.dataclass
class Cache(Generic[P]):
    """What a judge found in each kept game, by the record's digest; a file that does not read, or another
    judge's, counts as empty."""

    judge: str
    to_json: Callable[[P], dict[str, Any]]
    from_json: Callable[[dict[str, Any]], P]
    path: Path
    games: dict[str, list[dict[str, Any]]] = dataclasses.field(default_factory=dict)

    @classmethod
    def named(cls, game: str, judge: str, to_json: Any, from_json: Any) -> Cache[P]:
        path = Path(platformdirs.user_data_dir("dicehall")) / f"found-puzzles-{game}.json"
        cache = cls(judge, to_json, from_json, path)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data["format"] == FORMAT and data["judge"] == judge and isinstance(data["games"], dict):
                cache.games = data["games"]
        except (OSError, ValueError, KeyError, TypeError):
            pass
        return cache

    def get(self, digest: str) -> list[P] | None:
        lines = self.games.get(digest)
        try:
            return None if lines is None else [self.from_json(d) for d in lines]
        except (ValueError, KeyError, TypeError):  # an entry of an older shape: judge the game again
            return None

    def put(self, digest: str, found: list[P]) -> None:
        self.games[digest] = [self.to_json(p) for p in found]
        self.write()

    def keep_only(self, digests: set[str]) -> None:
        """Forget the games no longer kept (deleted or changed since)."""
        if set(self.games) - digests:
            self.games = {d: v for d, v in self.games.items() if d in digests}
            self.write()

    def write(self) -> None:
        # atomically; a cache that cannot be written only costs judging again next time
        tmp = self.path.with_name(self.path.name + ".tmp")
        data = {"format": FORMAT, "judge": self.judge, "games": self.games}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            tmp.unlink(missing_ok=True)


def history_puzzles(
    qualifies: Callable[[GameRecord], bool],
    judge: Callable[[GameRecord, list[int]], list[P]],
    cache: Cache[P] | None = None,
    progress: Progress | None = None,
) -> tuple[list[P], int]:
    """The puzzles ``judge`` finds at the people's decisions in the kept games that ``qualifies``, each position
    once (where first met, oldest game first), and how many kept games qualify. A file that does not read is
    passed over; a game in ``cache`` is not judged again, and each one judged is added to it at once (so an
    interrupted run keeps what it judged)."""
    records: list[tuple[GameRecord, str]] = []
    for path in history_files():
        try:
            record = GameRecord.load(path)
        except DicehallError:
            continue
        if qualifies(record):
            records.append((record, hashlib.sha256(record.dumps().encode()).hexdigest()))
    known = {d: cache.get(d) for _, d in records} if cache is not None else {}
    todo = sum(known.get(d) is None for _, d in records)
    done = 0
    if progress is not None and todo:
        progress(done, todo)
    found: dict[str, P] = {}
    for record, digest in records:
        puzzles = known.get(digest)
        if puzzles is None:
            puzzles = known[digest] = judge(record, people(record))
            done += 1
            if cache is not None:
                cache.put(digest, puzzles)
            if progress is not None:
                progress(done, todo)
        for p in puzzles:
            found.setdefault(p.key, p)
    if cache is not None:
        cache.keep_only({d for _, d in records})
    return list(found.values()), len(records)

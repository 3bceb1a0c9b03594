"""Dice anyone can verify (docs/fair-dice.md): games made through the server's real path verify, every forged
roll is caught, a seed that is not the committed one is refused, the seed stays secret until the end, a restarted
server rolls on from the same seed, and real-dice tables have none."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from webtools import connect, create, latest, pick, tokens, wait_for

from dicehall.core.errors import DicehallError
from dicehall.core.fairdice import VerifyError, commitment, event_rng, verify_record
from dicehall.core.record import Event, GameRecord, apply_event, new_state
from dicehall.web.db import Store
from tools.fairgames import manager_on, play_on, play_table

GAMES = ("thousand", "clever", "wurf")
DEFAULT_GAMES = 10
"""Stored games per game in the default suite (30 in all); the slow suite checks 1,000 of each."""


def _check_many(tmp_path: Path, game: str, n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``n`` games with dice seeds fixed by the test (``sha256(game, i)``), so that each run checks the same games."""
    import hashlib

    import dicehall.web.manager as manager_module

    with manager_on(tmp_path / "fair.sqlite") as manager:
        for i in range(n):
            seed = hashlib.sha256(f"{game} {i}".encode()).hexdigest()
            monkeypatch.setattr(manager_module, "new_seed", lambda seed=seed: seed)
            players = 2 + i % 3 if game != "wurf" else 2 + i % 2
            record = manager.record(play_table(manager, game, players=players, seed=i))
            assert record.dice_seed is not None and commitment(record.dice_seed) == record.dice_commit
            verdict = verify_record(record)
            assert verdict.ok and verdict.committed, (game, i, verdict)
            assert verdict.rolls == sum(1 for e in record.events if e.actor == "chance") > 0


@pytest.mark.parametrize("game", GAMES)
def test_stored_games_verify(tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    _check_many(tmp_path, game, DEFAULT_GAMES, monkeypatch)


@pytest.mark.slow
@pytest.mark.timeout(3600)  # Der große Wurf's live tables throw with the MuJoCo arena: about 0.5 s a game
@pytest.mark.parametrize("game", GAMES)
def test_a_thousand_stored_games_of_each_game_verify(
    tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _check_many(tmp_path, game, 1000, monkeypatch)


def _another_outcome(record: GameRecord, number: int) -> str:
    """A different dice outcome for event ``number`` (the game's own drawing, from another generator)."""
    _, state = new_state(record)
    for k, event in enumerate(record.events[: number - 1], start=1):
        apply_event(state, event, k)
    recorded = record.events[number - 1].move
    for attempt in range(1000):
        text = state.action_to_string(state.sample_chance(np.random.default_rng([number, attempt])))
        if text != recorded:
            return text
    raise AssertionError(f"event {number}: no other outcome drawn")


@pytest.mark.parametrize("game", GAMES)
def test_every_forged_roll_is_caught(tmp_path: Path, game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each chance event of a stored game forged in turn (the first 60 of a Dice 1000 game and every 25th after,
    its games being long): verify names that event, what the seed gives and what the record says. The dice seed
    is the test's, so that each run forges the same game (a new secret made a short Wurf game now and then)."""
    import hashlib

    import dicehall.web.manager as manager_module

    seed = hashlib.sha256(f"forge {game}".encode()).hexdigest()
    monkeypatch.setattr(manager_module, "new_seed", lambda: seed)
    with manager_on(tmp_path / "forge.sqlite") as manager:
        record = manager.record(play_table(manager, game, seed=7))
    chances = [n for n, e in enumerate(record.events, start=1) if e.actor == "chance"]
    sample = chances if game != "thousand" else chances[:60] + chances[60::25] + chances[-1:]
    assert len(sample) >= 10
    for number in sample:
        forged = dataclasses.replace(record, events=list(record.events))
        true_move = record.events[number - 1].move
        fake = _another_outcome(record, number)
        forged.events[number - 1] = Event("chance", fake)
        verdict = verify_record(forged)
        assert verdict.mismatch is not None, f"{game}: forged event {number} passed"
        assert (verdict.mismatch.event, verdict.mismatch.expected, verdict.mismatch.recorded) == (
            number,
            true_move,
            fake,
        )
        assert verdict.rolls == chances.index(number) + 1


def test_a_seed_that_is_not_the_committed_one_is_refused(tmp_path: Path) -> None:
    with manager_on(tmp_path / "seed.sqlite") as manager:
        record = manager.record(play_table(manager, "clever", seed=3))
    for seed in ("ab" * 32, record.dice_commit):
        _refused(dataclasses.replace(record, dice_seed=seed), "verify.error.commit")
    _refused(dataclasses.replace(record, dice_commit=None), "verify.error.no_commit")
    _refused(dataclasses.replace(record, dice_seed=None), "verify.error.not_revealed")
    _refused(dataclasses.replace(record, dice_seed=None, dice_commit=None), "verify.error.no_seed")


def _refused(record: GameRecord, msgid: str) -> None:
    with pytest.raises(VerifyError) as caught:
        verify_record(record)
    assert caught.value.msgid == msgid


def test_a_restarted_server_rolls_on_from_the_same_seed(tmp_path: Path) -> None:
    db = tmp_path / "restart.sqlite"
    with manager_on(db) as manager:
        table_id = play_table(manager, "thousand", seed=1, stop_after=40)
        assert manager.get(table_id).seq >= 40
    with manager_on(db) as manager:  # a fresh process: the table is rebuilt from its log
        play_on(manager, table_id, seed=2)
        record = manager.record(table_id)
    assert len(record.events) > 40
    assert verify_record(record).ok
    # the first roll after the restart is the one the seed gives for its event number
    first_after = next(n for n, e in enumerate(record.events, start=1) if n > 40 and e.actor == "chance")
    _, state = new_state(record)
    for k, event in enumerate(record.events[: first_after - 1], start=1):
        apply_event(state, event, k)
    assert record.dice_seed is not None
    drawn = state.sample_chance(event_rng(record.dice_seed, first_after))
    assert state.action_to_string(drawn) == record.events[first_after - 1].move


def _texts(client: Any, table_id: str) -> list[str]:
    """Everything a player or spectator can ask the server about the table, as text."""
    paths = [
        f"/api/tables/{table_id}",
        f"/api/tables/{table_id}/record",
        f"/api/tables/{table_id}/verify",
        f"/api/tables/{table_id}/positions",
        f"/api/tables/{table_id}/analysis",
        "/api/tables?status=all",
    ]
    return [client.get(p).text for p in paths]


def test_the_seed_stays_secret_until_the_end(server: Any, db_url: str) -> None:
    with server() as client:
        table = create(client, "thousand")
        assert len(table["dice_commit"]) == 64
        store = Store(db_url)
        try:
            meta = store.get_table(table["table_id"])
        finally:
            store.close()
        assert meta is not None and meta.dice_seed is not None
        seed, commit = meta.dice_seed, meta.dice_commit
        assert commit == table["dice_commit"] == commitment(seed)
        seen: list[str] = [json.dumps(table)]
        with connect(client) as ws, connect(client) as watcher:
            first = ws.join(table["table_id"], tokens(table))
            seen += [json.dumps(m) for m in first + watcher.join(table["table_id"])]
            view = latest(first)
            assert client.get(f"/api/tables/{table['table_id']}").json()["dice_commit"] == commit
            assert client.get(f"/api/tables/{table['table_id']}/verify").json()["verdict"] == "playing"
            for _ in range(5000):
                seen += _texts(client, table["table_id"])
                st = view["state"]
                if st["terminal"]:
                    break
                got = ws.act(st["current_player"], view["seq"], pick(st))
                seen += [json.dumps(m) for m in got + watcher.drain()]
                view = latest(got)
                if view["state"]["terminal"]:
                    break
            else:
                raise AssertionError("the game did not end")
        assert not [t for t in seen if seed in t], "the seed was sent before the game ended"
        record = client.get(f"/api/tables/{table['table_id']}/record").json()
        assert (record["dice_commit"], record["dice_seed"]) == (commit, seed)
        answer = client.get(f"/api/tables/{table['table_id']}/verify").json()
        assert answer["verdict"] == "ok" and answer["rolls"] > 0
        assert verify_record(GameRecord.from_json(record)).rolls == answer["rolls"]


def test_a_forged_stored_roll_and_a_wrong_seed_are_reported(server: Any, db_url: str, tmp_path: Path) -> None:
    """The endpoint's verdicts, with the database changed behind the server's back."""
    with server() as client:
        with manager_on(Path(db_url.removeprefix("sqlite:///"))) as manager:
            table_id = play_table(manager, "clever", seed=4)
        store = Store(db_url)
        try:
            events = store.events(table_id)
            roll = next(e for e in events if e.actor == "chance" and e.seq > 3)
            store._conn.exec_driver_sql(
                "UPDATE dh_events SET move = ? WHERE table_id = ? AND seq = ?",
                (_another_outcome(client_record(client, table_id), roll.seq), table_id, roll.seq),
            )
            store._conn.commit()
        finally:
            store.close()
        answer = client.get(f"/api/tables/{table_id}/verify").json()
        assert answer["verdict"] == "mismatch" and answer["event"] == roll.seq
        assert answer["expected"] == roll.move
        store = Store(db_url)
        try:
            store._conn.exec_driver_sql(
                "UPDATE dh_tables SET dice_seed = ? WHERE id = ?", ("cd" * 32, table_id)
            )
            store._conn.commit()
        finally:
            store.close()
        assert client.get(f"/api/tables/{table_id}/verify").json()["verdict"] == "bad_seed"


def client_record(client: Any, table_id: str) -> GameRecord:
    return GameRecord.from_json(client.get(f"/api/tables/{table_id}/record").json())


def test_real_dice_tables_have_no_seed(server: Any, db_url: str) -> None:
    with server() as client:
        table = create(client, "thousand", dice="real")
        assert table["dice_commit"] is None
        assert client.get(f"/api/tables/{table['table_id']}").json()["dice_commit"] is None
        assert client.get(f"/api/tables/{table['table_id']}/verify").json() == {"verdict": "real_dice"}
        store = Store(db_url)
        try:
            meta = store.get_table(table["table_id"])
        finally:
            store.close()
        assert meta is not None and meta.dice_seed is None and meta.dice_commit is None


def test_bot_tables_verify_and_bots_draw_apart(server: Any) -> None:
    """Bots through the real bot workers: their randomness is not the dice's (the dice still follow the seed)."""
    bots = [{"kind": "bot", "bot": "bold"}, {"kind": "bot", "bot": "random"}]
    with server() as client:
        table = create(client, "thousand", seats=bots)
        with connect(client) as ws:
            ws.join(table["table_id"])
            wait_for(ws, lambda got: any(m.get("status") == "finished" for m in got), timeout=60)
        record = client_record(client, table["table_id"])
        assert verify_record(record).ok
        assert client.get(f"/api/tables/{table['table_id']}/verify").json()["verdict"] == "ok"


def test_unreadable_dice_fields_are_refused() -> None:
    base = {"game": "thousand", "rules": {"preset": "classic"}, "players": [{"name": "a"}], "events": []}
    assert GameRecord.from_json(base).dice_commit is None  # records from before read unchanged
    with pytest.raises(DicehallError) as caught:
        GameRecord.from_json({**base, "dice_commit": "xyz"})
    assert caught.value.msgid == "record.error.dice_hex"
    upper = GameRecord.from_json({**base, "dice_seed": "AB" * 32, "dice_commit": "0" * 64})
    assert upper.dice_seed == "ab" * 32
    assert GameRecord.from_json(upper.to_json()).dice_seed == "ab" * 32


def test_the_recipe_in_the_doc_checks_a_table_record(tmp_path: Path) -> None:
    """docs/fair-dice.md's few lines of Python, run as written on a downloaded record, pass; forged, they fail."""
    doc = (Path(__file__).parents[2] / "docs" / "fair-dice.md").read_text()
    recipe = doc.split("```python\n", 1)[1].split("```", 1)[0]
    with manager_on(tmp_path / "recipe.sqlite") as manager:
        record = manager.record(play_table(manager, "clever", seed=5))
    path = record.save(tmp_path / "dicehall-TABLE.json")
    exec(compile(recipe.replace("dicehall-TABLE.json", str(path)), "fair-dice.md", "exec"), {})
    data = json.loads(path.read_text())
    roll = next(e for e in data["events"] if e["actor"] == "chance" and e["n"] > 5)
    roll["move"] = _another_outcome(record, roll["n"])
    path.write_text(json.dumps(data))
    with pytest.raises(AssertionError, match=f"event {roll['n']}"):
        exec(compile(recipe.replace("dicehall-TABLE.json", str(path)), "fair-dice.md", "exec"), {})

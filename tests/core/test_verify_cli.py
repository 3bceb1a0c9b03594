"""``dicehall verify``: terminal-play records (one dice stream from ``seed``) and committed table records (one
generator per event from ``dice_seed``, made here by the recipe of docs/fair-dice.md), in four languages."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.core.agents import make_bot
from dicehall.core.fairdice import commitment, event_rng, verify_record
from dicehall.core.game import CHANCE, get_game
from dicehall.core.record import GameRecord

_register_games()
runner = CliRunner()


def flat(text: str) -> str:
    return " ".join(text.split())


def committed_game(game: str, seed: str, path: Path) -> Path:
    """A bot game whose roll number ``n`` (its event number) is drawn as docs/fair-dice.md says a table draws it:
    ``default_rng(int.from_bytes(sha256(seed ‖ n as 8 bytes big-endian), "big"))``."""
    rules = get_game(game).rules_type.from_preset(get_game(game).rules_type.DEFAULT_PRESET)
    bots = [make_bot(game, "random", rules) for _ in range(2)]
    state = get_game(game).new_initial_state(rules, 2)
    record = GameRecord.start(game, rules, ["ann", "bob"])
    record.dice_seed, record.dice_commit = seed, hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    bot_rng = np.random.default_rng(1)
    while not state.is_terminal():
        n = len(record.events) + 1
        if state.current_player() == CHANCE:
            digest = hashlib.sha256(bytes.fromhex(seed) + n.to_bytes(8, "big")).digest()
            action = state.sample_chance(np.random.default_rng(int.from_bytes(digest, "big")))
        else:
            action = bots[state.current_player()].choose(state, bot_rng)
        record.add(state, action)
        state.apply_action(action)
    record.finish(state)
    return record.save(path)


def test_the_recipe_is_the_servers_derivation() -> None:
    seed = "0f" * 32
    assert commitment(seed) == hashlib.sha256(bytes([0x0F] * 32)).hexdigest()
    digest = hashlib.sha256(bytes([0x0F] * 32) + (7).to_bytes(8, "big")).digest()
    ours = np.random.default_rng(int.from_bytes(digest, "big")).random(4).tolist()
    assert event_rng(seed, 7).random(4).tolist() == ours


@pytest.mark.parametrize("game", ["thousand", "clever", "wurf"])
def test_a_terminal_game_verifies_and_a_forged_roll_is_named(tmp_path: Path, game: str) -> None:
    saved = tmp_path / "game.json"
    played = runner.invoke(
        app,
        [
            "play",
            game,
            "--players",
            "bot:random,bot:random",
            "--seed",
            "11",
            "--save",
            str(saved),
            "--no-save",
        ],
    )
    assert played.exit_code == 0, played.output
    record = GameRecord.load(saved)
    rolls = sum(1 for e in record.events if e.actor == "chance")
    res = runner.invoke(app, ["verify", str(saved)])
    assert res.exit_code == 0, res.output
    assert f"All {rolls} rolls follow from the record's seed." in flat(res.output)
    data = json.loads(saved.read_text())
    chance = [e for e in data["events"] if e["actor"] == "chance"]
    victim = chance[len(chance) // 2]
    true_move = victim["move"]
    later = [e["move"] for e in chance if e["move"] != true_move and e["n"] > victim["n"]]
    victim["move"] = later[0] if later else "1"
    saved.write_text(json.dumps(data))
    res = runner.invoke(app, ["verify", str(saved)])
    assert res.exit_code == 1, res.output
    said = flat(res.output)
    assert f"Roll {len(chance) // 2 + 1} of {len(chance)} (event {victim['n']} of the record)" in said
    assert f"The seed gives: {true_move}" in said and f"The record says: {victim['move']}" in said


def test_a_committed_record_in_four_languages(tmp_path: Path) -> None:
    seed = "5a" * 32
    path = committed_game("clever", seed, tmp_path / "table.json")
    record = GameRecord.load(path)
    assert verify_record(record).ok
    rolls = verify_record(record).rolls
    words = {
        "en": f"All {rolls} rolls follow from the committed seed.",
        "ru": f"Каждый из {rolls} бросков следует из зерна, заявленного заранее.",
        "uk": f"Кожен із {rolls} кидків випливає із зерна, заявленого наперед.",
        "pl": f"Każdy z {rolls} rzutów wynika z ziarna ogłoszonego z góry.",
    }
    assert rolls % 10 != 1 or rolls % 100 == 11, "the plural form chosen above (not 21, 31, …: 'броска')"
    for lang, said in words.items():
        res = runner.invoke(app, ["verify", str(path), "--lang", lang])
        assert res.exit_code == 0, res.output
        assert said in flat(res.output) and commitment(seed) in res.output
        assert max(len(line) for line in res.output.splitlines()) <= 80
    res = runner.invoke(app, ["verify", str(path), "--json"])
    assert json.loads(res.output) == {
        "record": str(path),
        "events": len(record.events),
        "ok": True,
        "rolls": rolls,
        "committed": True,
        "commit": commitment(seed),
    }


def test_a_seed_that_is_not_the_committed_one_fails(tmp_path: Path) -> None:
    path = committed_game("thousand", "77" * 32, tmp_path / "table.json")
    data = json.loads(path.read_text())
    data["dice_seed"] = "78" * 32
    path.write_text(json.dumps(data))
    res = runner.invoke(app, ["verify", str(path)])
    assert res.exit_code == 1
    assert "the revealed seed is not the one committed to" in flat(res.output)
    del data["dice_seed"]
    path.write_text(json.dumps(data))
    res = runner.invoke(app, ["verify", str(path), "--lang", "uk"])
    assert res.exit_code == 1 and "зерно розкривається, коли партія закінчиться" in flat(res.output)


def test_a_record_without_a_seed_cannot_be_verified(tmp_path: Path) -> None:
    path = committed_game("thousand", "01" * 32, tmp_path / "table.json")
    data = json.loads(path.read_text())
    for key in ("dice_seed", "dice_commit"):
        del data[key]
    path.write_text(json.dumps(data))
    res = runner.invoke(app, ["verify", str(path), "--lang", "pl"])
    assert res.exit_code == 1 and "zapis nie ma ziarna" in flat(res.output)

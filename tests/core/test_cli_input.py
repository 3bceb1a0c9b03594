"""Every command refuses bad input with one clear line (exit code 2) and changes nothing.

One test per class of bad input, parametrised over the commands it applies to: negative, zero, huge, wrong type,
a file where a directory belongs and back, a missing file, an unwritable path, non-UTF-8, a truncated record and
a tampered one (an illegal move, an impossible dice outcome, a forged result).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app

_register_games()
GAMES = ("thousand", "clever", "wurf")
runner = CliRunner()


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """One finished record (as JSON data) of each game, played by random bots."""
    out: dict[str, dict[str, Any]] = {}
    for game in GAMES:
        folder = tmp_path_factory.mktemp(game)
        players = "bot:random,bot:random"
        res = runner.invoke(
            app,
            ["simulate", game, "--players", players, "--games", "1", "--json", "--save-records", str(folder)],
        )
        assert res.exit_code == 0, res.output
        (path,) = folder.glob("*.json")
        out[game] = json.loads(path.read_text(encoding="utf-8"))
    return out


def tree(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*")}


def refused(args: list[str], cwd: Path, *needles: str, code: int = 2) -> str:
    """Run the command in ``cwd``; it must exit with ``code``, say one ``error:`` line and change no file."""
    before = tree(cwd)
    old = os.getcwd()
    os.chdir(cwd)
    try:
        res = runner.invoke(app, args, input="")
    finally:
        os.chdir(old)
    text = res.output
    assert res.exit_code == code, (args, res.exit_code, text)
    assert res.exception is None or isinstance(res.exception, SystemExit), (args, res.exception)
    assert "Traceback" not in text, text
    errors = [line for line in text.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, (args, text)
    for needle in needles:
        assert needle in errors[0], (args, needle, errors[0])
    assert tree(cwd) == before, (args, "files changed")
    return errors[0]


def write_record(folder: Path, data: Any, name: str = "rec.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# -- negative and zero -------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--seed", "-1"], "--seed must be a whole number from 0"),
        (["--games", "0"], "--games must be from 1"),
        (["--games", "-3"], "--games must be from 1"),
        (["--jobs", "0"], "--jobs must be from 1"),
    ],
)
def test_simulate_refuses_negative_and_zero(game: str, extra: list[str], needle: str, tmp_path: Path) -> None:
    refused(
        ["simulate", game, "--players", "bot:random,bot:random", "--games", "2", *extra], tmp_path, needle
    )


@pytest.mark.parametrize("game", GAMES)
def test_play_refuses_negative_seed(game: str, tmp_path: Path) -> None:
    refused(["play", game, "--players", "bot:random,bot:random", "--seed", "-1"], tmp_path, "--seed")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("upto", ["-5", "-1"])
def test_replay_refuses_negative_upto(game: str, upto: str, records: dict[str, Any], tmp_path: Path) -> None:
    path = write_record(tmp_path, records[game])
    refused(["replay", str(path), "--upto", upto], tmp_path, "--upto must be from 0 to")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["render", "wurf", "REC", "--size", "-1"], "--size must be from 64"),
        (["render", "wurf", "REC", "--size", "0"], "--size must be from 64"),
        (["render", "wurf", "REC", "--throw", "0"], "--throw counts throws from 1"),
        (["render", "wurf", "REC", "--throw", "-2"], "--throw counts throws from 1"),
        (["serve", "--port", "-1"], "--port must be from 1 to 65535"),
        (["serve", "--port", "0"], "--port must be from 1 to 65535"),
        (["serve", "--bot-delay", "-1"], "--bot-delay must not be negative"),
        (["serve", "--bot-delay", "nan"], "--bot-delay must be from 0"),
    ],
)
def test_other_commands_refuse_negative_and_zero(
    args: list[str], needle: str, records: dict[str, Any], tmp_path: Path
) -> None:
    path = write_record(tmp_path, records["wurf"])
    refused([str(path) if a == "REC" else a for a in args], tmp_path, needle)


# -- huge ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--seed", str(2**128)], "--seed must be a whole number from 0 to 2**128-1"),
        (["--games", str(10**13)], "--games must be from 1 to 1,000,000,000,000"),
        (["--jobs", "100000"], "--jobs must be from 1 to"),
    ],
)
def test_simulate_refuses_huge(game: str, extra: list[str], needle: str, tmp_path: Path) -> None:
    refused(["simulate", game, "--players", "bot:random,bot:random", *extra], tmp_path, needle)


@pytest.mark.parametrize("game", GAMES)
def test_replay_refuses_upto_past_the_end(game: str, records: dict[str, Any], tmp_path: Path) -> None:
    path = write_record(tmp_path, records[game])
    n = len(records[game]["events"])
    refused(["replay", str(path), "--upto", str(10**9)], tmp_path, f"--upto must be from 0 to {n}")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["render", "wurf", "REC", "--size", "1000000"], "--size must be from 64 to 4096"),
        (["render", "wurf", "REC", "--throw", "1000000"], "there is no throw 1000000"),
        (["serve", "--port", "70000"], "--port must be from 1 to 65535"),
        (["serve", "--bot-delay", "1e9"], "--bot-delay must be from 0 to 60"),
        (["play", "thousand", "--seed", str(2**200)], "--seed"),
    ],
)
def test_other_commands_refuse_huge(
    args: list[str], needle: str, records: dict[str, Any], tmp_path: Path
) -> None:
    path = write_record(tmp_path, records["wurf"])
    refused([str(path) if a == "REC" else a for a in args], tmp_path, needle)


def test_huge_record_file_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dicehall.core import record as record_module

    monkeypatch.setattr(record_module, "MAX_RECORD_BYTES", 1000)
    path = tmp_path / "big.json"
    path.write_text(" " * 2000 + "{}", encoding="utf-8")
    refused(["replay", str(path)], tmp_path, "a record is at most")


# -- wrong type ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "thousand", "--games", "many"],
        ["simulate", "clever", "--seed", "1.5"],
        ["simulate", "wurf", "--jobs", "two"],
        ["play", "wurf", "--seed", "abc"],
        ["replay", "REC", "--upto", "x"],
        ["render", "wurf", "REC", "--size", "big"],
        ["serve", "--port", "http"],
    ],
)
def test_wrong_option_types_are_usage_errors(
    args: list[str], records: dict[str, Any], tmp_path: Path
) -> None:
    path = write_record(tmp_path, records["wurf"])
    res = runner.invoke(app, [str(path) if a == "REC" else a for a in args])
    assert res.exit_code == 2 and "Invalid value" in res.output and "Traceback" not in res.output


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("mutate", "needle"),
    [
        (lambda d: d.update(events="all of them"), "field 'events' must be list"),
        (lambda d: d.update(players="Ann"), "field 'players' must be list"),
        (lambda d: d.update(result="Ann won"), "'result' must be an object"),
        (lambda d: d["result"].update(scores=["lots", 3]), "result.scores must be a list of numbers"),
        (lambda d: d.update(seed=1.5), "seed must be an integer"),
        (lambda d: d.update(seed=-4), "seed must be an integer from 0"),
        (lambda d: d["events"][0].update(move=7), "event 1: an event must be an object with a 'move' string"),
        (lambda d: d["rules"].update(overrides="none"), "rules.overrides must be an object"),
    ],
)
def test_records_with_wrong_types(
    game: str, mutate: Callable[[dict[str, Any]], None], needle: str, records: dict[str, Any], tmp_path: Path
) -> None:
    data = json.loads(json.dumps(records[game]))
    mutate(data)
    path = write_record(tmp_path, data)
    refused(["replay", str(path)], tmp_path, needle)


# -- a file where a directory belongs, and back ---------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_save_records_into_a_file(game: str, tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    args = ["simulate", game, "--players", "bot:random,bot:random", "--games", "1", "--save-records", "afile"]
    refused(args, tmp_path, "--save-records afile: that is a file")


@pytest.mark.parametrize(
    "args",
    [
        *(["play", g, "--players", "bot:random,bot:random", "--save", "adir"] for g in GAMES),
        ["referee", "wurf", "--players", "Ann,Bob", "--save", "adir"],
        ["simulate", "thousand", "--players", "bot:random,bot:random", "--games", "1", "--plot", "adir"],
        ["render", "wurf", "REC", "--out", "adir"],
    ],
)
def test_file_options_given_a_directory(args: list[str], records: dict[str, Any], tmp_path: Path) -> None:
    (tmp_path / "adir").mkdir()
    path = write_record(tmp_path, records["wurf"])
    line = refused([str(path) if a == "REC" else a for a in args], tmp_path, "adir", "it is a directory")
    assert not (tmp_path / "adir.tmp").exists(), line


@pytest.mark.parametrize(
    "args",
    [
        ["replay", "adir"],
        ["render", "wurf", "adir"],
        ["rules", "clever", "--rules", "adir"],
        *(["play", g, "--resume", "adir"] for g in GAMES),
    ],
)
def test_input_files_given_a_directory(args: list[str], tmp_path: Path) -> None:
    (tmp_path / "adir").mkdir()
    refused(args, tmp_path, "adir", "directory")


# -- missing file ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ["replay", "nothing.json"],
        ["render", "wurf", "nothing.json"],
        ["rules", "thousand", "--rules", "nothing.json"],
        ["serve", "--settings", "nothing.json"],
        *(["play", g, "--resume", "nothing.json"] for g in GAMES),
    ],
)
def test_missing_files(args: list[str], tmp_path: Path) -> None:
    refused(args, tmp_path, "nothing.json", "no such file")


# -- unwritable path ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        *(["play", g, "--players", "bot:random,bot:random", "--save", "afile/sub/game.json"] for g in GAMES),
        ["referee", "wurf", "--players", "Ann,Bob", "--save", "afile/game.json"],
        ["simulate", "clever", "--players", "bot:random", "--games", "1", "--plot", "afile/plot.png"],
        ["simulate", "wurf", "--games", "1", "--save-records", "afile/records"],
        ["render", "wurf", "REC", "--out", "afile/x.png"],
    ],
)
def test_paths_under_a_file_cannot_be_written(
    args: list[str], records: dict[str, Any], tmp_path: Path
) -> None:
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    path = write_record(tmp_path, records["wurf"])
    refused([str(path) if a == "REC" else a for a in args], tmp_path, "afile")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_read_only_directory(tmp_path: Path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        refused(["play", "thousand", "--save", "ro/game.json"], tmp_path, "not writable")
    finally:
        ro.chmod(0o700)


def test_save_failure_leaves_no_temporary_file(records: dict[str, Any], tmp_path: Path) -> None:
    from dicehall.core.errors import RecordError
    from dicehall.core.record import GameRecord

    record = GameRecord.from_json(records["thousand"])
    (tmp_path / "adir").mkdir()
    with pytest.raises(RecordError, match="it is a directory"):
        record.save(tmp_path / "adir")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["adir"]


# -- non-UTF-8 ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["replay", "bad.json"], "not UTF-8 text"),
        (["render", "wurf", "bad.json"], "not UTF-8 text"),
        (["rules", "wurf", "--rules", "bad.json"], "not UTF-8 text"),
        *((["play", g, "--resume", "bad.json"], "not UTF-8 text") for g in GAMES),
    ],
)
def test_non_utf8_files(args: list[str], needle: str, records: dict[str, Any], tmp_path: Path) -> None:
    text = json.dumps(records["wurf"]).replace('"bot:random#1"', '"Ann"')
    (tmp_path / "bad.json").write_bytes(text.encode("utf-8").replace(b"Ann", b"\xc4nn"))  # Latin-1 Ä
    refused(args, tmp_path, needle)


# -- truncated ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("command", ["replay", "resume", "render"])
def test_truncated_records(game: str, command: str, records: dict[str, Any], tmp_path: Path) -> None:
    text = json.dumps(records[game], indent=1)
    (tmp_path / "cut.json").write_text(text[: len(text) // 2], encoding="utf-8")
    args = {
        "replay": ["replay", "cut.json"],
        "resume": ["play", game, "--resume", "cut.json"],
        "render": ["render", "wurf", "cut.json"],
    }[command]
    refused(args, tmp_path, "not valid JSON (truncated or damaged?)")


def test_deeply_nested_json(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    refused(["replay", "deep.json"], tmp_path, "nested too deeply")


# -- tampered -------------------------------------------------------------------------------------------------
TAMPERED = {
    # game: [(event index, new move, expected words)]
    "thousand": [
        (0, "1,1,1", "event 1: impossible dice outcome '1,1,1'"),
        (0, "7,7,7,7,7", "event 1: cannot read dice outcome '7,7,7,7,7'"),
        (1, "bank", "event 2: illegal move 'bank'"),
    ],
    "clever": [
        (2, "W2 Y3 B6 G3 O6 P1", "event 3: impossible dice outcome"),
        (1, "stop", "event 2: illegal move 'stop'"),
        (1, "Y:Y.r9c9", "event 2: cannot read move"),
    ],
    "wurf": [
        (0, "start 1@100,100,0", "event 1: impossible dice outcome"),
        (2, "lands 5@100,100,0 3@192,63.3,23 4@10,10,0", "event 3: impossible dice outcome"),
        (1, "end", "event 2: illegal move 'end'"),
    ],
}


@pytest.mark.parametrize(
    ("game", "index", "move", "needle"), [(g, *c) for g, cs in TAMPERED.items() for c in cs]
)
def test_tampered_moves_name_the_event_and_rule(
    game: str, index: int, move: str, needle: str, records: dict[str, Any], tmp_path: Path
) -> None:
    data = json.loads(json.dumps(records[game]))
    original = data["events"][index]["move"]
    if game != "wurf" or index != 2:
        assert original != move
    data["events"][index]["move"] = move
    path = write_record(tmp_path, data)
    line = refused(["replay", str(path)], tmp_path, needle)
    if "cannot read" not in needle:
        assert "[rule: " in line


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("mutate", "needle"),
    [
        (lambda r: r.update(winners=[1 - r["winners"][0]]), "stored result.winners"),
        (lambda r: r.update(scores=[s + 5 for s in r["scores"]]), "stored result.scores"),
        (lambda r: r.update(returns=list(reversed(r["returns"]))), "stored result.returns"),
    ],
)
def test_forged_results_are_refused(
    game: str, mutate: Callable[[dict[str, Any]], None], needle: str, records: dict[str, Any], tmp_path: Path
) -> None:
    data = json.loads(json.dumps(records[game]))
    mutate(data["result"])
    if data["result"] == records[game]["result"]:
        pytest.skip("this mutation changes nothing for this game (a symmetric result)")
    path = write_record(tmp_path, data)
    refused(["replay", str(path)], tmp_path, needle, "differs from the replayed")


@pytest.mark.parametrize("game", GAMES)
def test_a_result_on_an_unfinished_game_is_refused(
    game: str, records: dict[str, Any], tmp_path: Path
) -> None:
    data = json.loads(json.dumps(records[game]))
    data["events"] = data["events"][:3]
    path = write_record(tmp_path, data)
    refused(["replay", str(path)], tmp_path, "do not finish the game")


@pytest.mark.parametrize("game", GAMES)
def test_honest_records_replay_and_upto_stops_early(
    game: str, records: dict[str, Any], tmp_path: Path
) -> None:
    path = write_record(tmp_path, records[game])
    res = runner.invoke(app, ["replay", str(path), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["winners"] == records[game]["result"]["winners"]
    res = runner.invoke(app, ["replay", str(path), "--upto", "0"])
    assert res.exit_code == 0 and "0 events replayed" in res.output


# -- the public record functions, called directly -------------------------------------------------------------
@pytest.mark.parametrize("bad", [None, 3, ["x"], {"game": "wurf"}])
def test_record_functions_refuse_wrong_types(bad: Any, records: dict[str, Any], tmp_path: Path) -> None:
    from dicehall.core.errors import RecordError
    from dicehall.core.record import GameRecord, replay

    with pytest.raises(RecordError):
        GameRecord.loads(bad)
    if not isinstance(bad, dict):
        with pytest.raises(RecordError):
            GameRecord.load(bad)
        with pytest.raises(RecordError):
            GameRecord.from_json(bad)
    record = GameRecord.from_json(records["clever"])
    with pytest.raises(RecordError):
        record.save(bad)
    for upto in (-1, len(record.events) + 1, 2.5, True, "3"):
        with pytest.raises(RecordError, match=r"upto|cannot stop after"):
            replay(record, upto)  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []

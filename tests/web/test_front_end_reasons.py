"""Differential tests of the front end's second copies of the rules (docs/ARCHITECTURE.md, "Second copies of the
rules"): the page says why a click or a bank is refused, and what a move changed, from the public view alone. These
tests feed the TypeScript functions the views the page gets (:func:`dicehall.web.live.page_view`) of positions from
seeded random games and hold each answer against the engine.

The TypeScript runs in Node: ``tests/web/front_end_reasons.mjs`` (the cases on stdin, the answers on stdout) bundled
with the modules it imports by the esbuild of ``web/node_modules`` (``make web`` installs it; ``make pytest`` depends
on it). No browser.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from dicehall.clever import actions as A
from dicehall.clever import sheet as S
from dicehall.clever.rules import CleverRules
from dicehall.clever.state import PH_PASSIVE_PICK, PH_PICK, PH_PLUS, CleverState
from dicehall.core.game import CHANCE, TERMINAL, get_game
from dicehall.i18n.message import message_json
from dicehall.thousand.notation import BANK
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import ThousandState
from dicehall.thousand.tables import DECIDING, KEEPING
from dicehall.web.live import page_view
from dicehall.web.together import Together
from dicehall.wurf.actions import Outcome
from dicehall.wurf.rules import WurfRules
from dicehall.wurf.state import WurfState

ROOT = Path(__file__).resolve().parents[2]
ESBUILD = ROOT / "web" / "node_modules" / ".bin" / "esbuild"
SCRIPT = Path(__file__).with_name("front_end_reasons.mjs")


@pytest.fixture(scope="module")
def front_end(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The script and the TypeScript it imports, bundled into one ES module for Node."""
    if not ESBUILD.exists():
        pytest.fail(
            f"{ESBUILD} is missing: `make web` installs the front end's packages (esbuild among them)"
        )
    if shutil.which("node") is None:
        pytest.fail("node is not on PATH (the front end's build needs it too)")
    out = tmp_path_factory.mktemp("front_end") / "front_end_reasons.mjs"
    command = [str(ESBUILD), "--bundle", "--format=esm", "--platform=node", "--log-level=warning"]
    subprocess.run(
        [*command, str(SCRIPT), f"--outfile={out}"],
        check=True,
        cwd=ROOT,
        timeout=60,
    )
    return out


def ask(bundle: Path, cases: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """The TypeScript's answers to ``cases``, case by case."""
    done = subprocess.run(
        ["node", str(bundle)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, f"the front end's script failed:\n{done.stderr}"
    answers: dict[str, list[dict[str, Any]]] = json.loads(done.stdout)
    return answers


def names(n: int) -> list[str]:
    return [f"P{i + 1}" for i in range(n)]


# -- Ganz schön clever: the server's reasons shown (and read / parseMove / targetKey, which find the legal entries) --

DIE_NAMES = list(S.DIE_NAMES)
AREA_NAMES = ["yellow", "blue", "green", "orange", "purple"]


def clever_positions(
    seed: int, n: int, rules: CleverRules, tracks: bool
) -> list[tuple[str, CleverState, int, dict[str, Any]]]:
    """Every decision of a seeded random game where a die may be entered (a pick, a +1, a passive pick), as the page
    deciding for the seat to move sees it: (where, the position, the seat, the view). In a simultaneous phase each
    seat decides on its own branch of the position (what its ``private`` message carries). With ``tracks`` the
    players prefer the green, orange and purple tracks, so that they fill up before the game ends."""
    game = get_game("clever")
    state = game.new_initial_state(rules, n)
    assert isinstance(state, CleverState)
    rng = np.random.default_rng(seed)
    out: list[tuple[str, CleverState, int, dict[str, Any]]] = []
    step = 0
    while state.current_player() != TERMINAL:
        cp = state.current_player()
        if cp == CHANCE:
            state.apply_action(state.sample_chance(rng))
            continue
        where = (
            f"clever seed={seed} players={n} rules={rules.preset}{' tracks' if tracks else ''} step {step}"
        )
        together = Together.open(state)
        seats = [(s, state.simultaneous_branch(s)) for s in together.group] if together else [(cp, state)]
        for seat, pos in seats:
            if (
                pos.current_player() == seat
                and not pos.choice_pending
                and pos.phase in (PH_PICK, PH_PLUS, PH_PASSIVE_PICK)
            ):
                view = page_view(pos, names(n), seat)  # (as the seat's private message has it)
                view["dice_mode"] = "virtual"
                if together is not None:
                    view["simultaneous"] = together.public()
                out.append((f"{where} seat {seat}", pos.clone(), seat, view))
        legal = state.legal_actions()
        if tracks and rng.random() < 0.9:
            legal = [a for a in legal if a < A.CHANCE_FLAG and A.area_of(a) >= S.AREA_GREEN] or legal
        state.apply_action(legal[int(rng.integers(len(legal)))])
        step += 1
    return out


UNCLICKABLE = {
    (name, r, c)
    for name, grid in (("yellow", S.YELLOW_AREA), ("blue", S.BLUE_AREA))
    for r, row in enumerate(grid.values)
    for c, v in enumerate(row)
    if v is None or (r, c) in grid.printed
}
"""The grids' printed crosses and blue's blank (blue + white) slot: the page draws no cell there to click."""


def clever_target(action: int) -> tuple[str, str, int, int]:
    """(die, area, row, column) of an entry or +1 as the page names its target (tracks: row and column 0)."""
    d, area, cell = A.die_of(action), A.area_of(action), A.cell_of(action)
    r, c = (cell // 4, cell % 4) if area in (S.AREA_YELLOW, S.AREA_BLUE) else (0, 0)
    return DIE_NAMES[d], AREA_NAMES[area], r, c


EN = json.loads((ROOT / "web" / "src" / "locales" / "en.json").read_text(encoding="utf-8"))


def as_shown(why: dict[str, Any]) -> dict[str, Any]:
    """A server reason as the test's marked English catalogue shows it: the parameters its text uses, the words
    nested in them in English."""
    used = set(re.findall(r"\{(\w+)\}", EN[why["id"]]))
    return {
        "id": why["id"],
        "params": {
            k: EN[v["id"]] if isinstance(v, dict) else v for k, v in why["params"].items() if k in used
        },
    }


def test_clever_page_shows_the_servers_reason_for_every_refused_click(front_end: Path) -> None:
    """For every die on every cell of every area in each position: the page finds the engine's legal entries (read,
    parseMove, targetKey), shows no reason for them, and for every other click shows the reason the server sent in
    the view's ``refused`` (the die's when it cannot be taken at all, else the cell's). That the server's reasons
    are true of the engine's position is tests/clever/test_reasons.py's."""
    positions: list[tuple[str, CleverState, int, dict[str, Any]]] = []
    for seed in range(3):
        for n in (1, 2, 3, 4):
            preset = "no-fallback" if seed == 2 else "standard"
            positions += clever_positions(seed, n, CleverRules.from_preset(preset), tracks=seed == 1)
    answers = ask(front_end, {"clever": [{"view": v} for _, _, _, v in positions]})["clever"]
    assert len(answers) == len(positions)
    problems: list[str] = []
    probes = 0
    shown: set[str] = set()
    for (where, pos, _seat, view), answer in zip(positions, answers, strict=True):
        assert answer["legal"] == view["legal_actions"], f"{where}: read/parseMove lost moves"
        engine = {clever_target(a): a for a in pos.legal_actions() if A.kind_of(a) in (A.K_ENTRY, A.K_PLUS)}
        refused = view["refused"]
        assert refused is not None, where
        for p in answer["probes"]:
            die, area, r, c = p["die"], p["area"], p["r"], p["c"]
            if (area, r, c) in UNCLICKABLE:
                continue
            probes += 1
            here = f"{where} ({answer['step']}), {die} die on {area} r{r + 1}c{c + 1}"
            key = f"{area}.r{r + 1}c{c + 1}" if area in ("yellow", "blue") else area
            server = refused["dice"].get(die) or next(
                (
                    g["why"]
                    for g in refused["cells"]
                    if die in g["dice"] and (key in g["at"] or area in g["at"])
                ),
                None,
            )
            want = None if server is None else as_shown(server)
            if want is not None:
                shown.add(want["id"])
            if (die, area, r, c) in engine:
                if not p["legal"] or p["shown"] is not None or want is not None:
                    problems.append(f"{here}: the engine has it; the page {p}, the server {want}")
            elif p["legal"] or want is None or p["shown"] != want:
                problems.append(f"{here}: the page {p['legal']} {p['shown']}, the server {want}")
            if refused["dice"].get(die) and p["dieShown"] != want:
                problems.append(f"{here}: a click on the die shows {p['dieShown']}, the server {want}")
    assert not problems, f"{len(problems)} disagreements of {probes} probes, e.g.:\n" + "\n".join(
        problems[:15]
    )
    assert len(shown) >= 11, shown
    assert probes > 50_000, probes


# -- Dice 1000: refusalText (why not bank) and consequences (what a roll or a bank did to the scores) -------------

THOUSAND_RULES = [
    ("classic", {}),
    ("classic-open", {}),
    ("classic-nobarrel", {"open_fail_penalty": 50, "free_set_aside": True}),
    ("variant2", {}),
    ("yard", {}),
    (
        "classic",
        {
            "exact_reset": True,
            "dump_truck_score": 300,
            "pits": ((100, 200),),
            "target": 600,
            "barrel_score": 500,
        },
    ),
]


def thousand_steps(
    seed: int, preset: str, overrides: dict[str, Any], n: int, steps: int
) -> list[dict[str, Any]]:
    """The steps of a seeded random game (at most ``steps`` actions) as the page gets them: the view before and
    after each action, the action, and the engine's positions and narration."""
    game = get_game("thousand")
    rules = ThousandRules.from_preset(preset, overrides)
    state = game.new_initial_state(rules, n)
    assert isinstance(state, ThousandState)
    seats = names(n)
    rng = np.random.default_rng(seed)
    out: list[dict[str, Any]] = []
    before = page_view(state, seats)
    for step in range(steps):
        cp = state.current_player()
        if cp == TERMINAL:
            break
        old = state.clone()
        if cp == CHANCE:
            action: Any = state.sample_chance(rng)
        else:
            legal = list(state.legal_actions())
            action = legal[int(rng.integers(len(legal)))]
        state.apply_action(action)
        view = page_view(state, seats)
        out.append(
            {
                "where": f"thousand seed={seed} players={n} rules={preset} {overrides or ''} step {step}",
                "old": old,
                "new": state.clone(),
                "action": action,
                "actor": cp,
                "events": [message_json(e) for e in state.events],
                "case": {
                    "before": before,
                    "view": view,
                    "rules": rules.to_dict(),
                    "banker": cp if action == BANK else None,
                    "names": seats,
                },
            }
        )
        before = view
    return out


SCORE_IDS = {"bolt_penalty", "barrel_fall", "dump", "overtaken", "exact_reset", "score"}
"""The announcements that carry a seat's new score."""


def narrated(
    events: list[dict[str, Any]], msgid: str, name: str, why: str | None = None
) -> dict[str, Any] | None:
    """The engine's narration ``thousand.narrate.<msgid>`` of the seat called ``name`` (with a ``why`` of that id)."""
    for e in events:
        params = e["params"]
        if e["id"] != f"thousand.narrate.{msgid}" or params.get("name") != name:
            continue
        if why is None or (
            isinstance(params.get("why"), dict) and params["why"]["id"] == f"thousand.why.{why}"
        ):
            return params
    return None


def consequence_problem(step: dict[str, Any], said: dict[str, Any]) -> str | None:
    """None when the engine's step bears out an announcement of ``consequences``, else what the engine did."""
    old: ThousandState = step["old"]
    new: ThousandState = step["new"]
    events = step["events"]
    kind, params = said["id"].removeprefix("thousand.event."), said["params"]
    if kind == "hot":
        ok = new.hot_dice and not old.hot_dice and params["total"] == new.turn_total
        # (the engine's hot dice, which the yard's pair re-roll also sets: it narrates that as "pair")
        return (
            None
            if ok
            else f"the engine: hot dice {new.hot_dice}, {new.turn_total} this turn, narrated {events}"
        )
    seat = step["case"]["names"].index(params["name"])
    was, now = old.score[seat], new.score[seat]
    engine = f"the engine: {params['name']} {was} → {now}, narrated {events}"
    if kind in SCORE_IDS - {"dump"} and (params["old"], params.get("score", 0)) != (was, now):
        return engine
    if kind == "bolt":
        ok = new.bolts[seat] == params["n"] > old.bolts[seat] and params["limit"] == new.rules.bolts_count
        return None if ok else engine
    if kind == "bolt_penalty":
        return None if narrated(events, "penalty", params["name"], "bolts") else engine
    if kind == "barrel_on":
        return None if new.on_barrel[seat] and narrated(events, "barrel_on", params["name"]) else engine
    if kind == "barrel_fall":  # off the score barrel, or the open barrel's last point
        return None if new.falls[seat] > old.falls[seat] else engine
    if kind == "open_point":
        point = narrated(events, "point", params["name"])
        return (
            None if point and point["points"] == params["n"] and point["limit"] == params["limit"] else engine
        )
    if kind == "skip":
        return None if new.skip_next[seat] and narrated(events, "zero_first", params["name"]) else engine
    if kind == "dump":
        return None if now == 0 and narrated(events, "dump", params["name"]) else engine
    if kind == "overtaken":
        penalty = narrated(events, "penalty", params["name"], "overtaken")
        return None if penalty and penalty["amount"] == params["penalty"] else engine
    if kind == "exact_reset":
        return None if narrated(events, "set", params["name"], "exact_reset") else engine
    if kind == "score":
        return None
    return f"an announcement the test does not know: {said}"


def test_thousand_refusal_and_consequences_agree_with_the_engine(front_end: Path) -> None:
    """``refusalText``: where the player to move may not bank, the page's reason is the engine's (message id and
    parameters; while dice are to be set aside, the minimum bank's rule); where banking is legal, none.
    ``consequences`` (after every roll and bank): each announcement is borne out by the engine (its old and new
    scores, its narration of bolts, falls, overtakes, dump truck, ...), every score the engine changed besides the
    banker's is announced once, and what the engine narrates of hot dice, bolts, the barrel, points and skipped
    turns is announced."""
    steps: list[dict[str, Any]] = []
    for k, (preset, overrides) in enumerate(THOUSAND_RULES):
        for seed in range(3):
            steps += thousand_steps(100 * k + seed, preset, overrides, 2 + seed, 700)
    answers = ask(front_end, {"thousand": [s["case"] for s in steps]})["thousand"]
    assert len(answers) == len(steps)
    problems: list[str] = []
    seen: dict[str, int] = {}
    for step, answer in zip(steps, answers, strict=True):
        new: ThousandState = step["new"]
        where = step["where"]
        refusal = answer["refusal"]
        if refusal is not None:
            seen[refusal["id"]] = seen.get(refusal["id"], 0) + 1
        cp = new.current_player()
        if cp < 0 or BANK in new.legal_actions():
            want = None
        elif new.phase == DECIDING:
            want = message_json(new.bank_refusal())
        elif new.phase == KEEPING:
            want = None if new.turn_total >= new.min_bank() else message_json(new._need_reason())
        else:
            want = {"id": f"a phase the test does not know: {new.phase}"}
        if refusal != want:
            problems.append(f"{where}: refusalText {refusal}, the engine {want} ({new.render()!r})")
        if step["actor"] != CHANCE and step["action"] != BANK:
            continue  # the page words only rolls and banks by consequences
        said = answer["consequences"]
        for s in said:
            seen[s["id"]] = seen.get(s["id"], 0) + 1
            wrong = consequence_problem(step, s)
            if wrong:
                problems.append(f"{where} ({step['action']!r}): consequences say {s}, but {wrong}")
        banker = step["case"]["banker"]
        for seat in range(new.n):
            name = step["case"]["names"][seat]
            told = [
                s
                for s in said
                if s["id"].removeprefix("thousand.event.") in SCORE_IDS and s["params"]["name"] == name
            ]
            changed = step["old"].score[seat] != new.score[seat]
            if seat == banker:
                told_dump = any(s["id"] == "thousand.event.dump" for s in told)
                if told_dump != bool(narrated(step["events"], "dump", name)):
                    problems.append(
                        f"{where}: the banker's dump truck: consequences {said}, the engine {step['events']}"
                    )
            elif len(told) != (1 if changed else 0):
                problems.append(
                    f"{where}: {name} {step['old'].score[seat]} → {new.score[seat]}, consequences {said}"
                )
        # what the engine narrates and the view after it still shows (a hot dice roll that ended the turn, the
        # open barrel's last point that made the player fall, the page cannot see)
        for seat, name in enumerate(step["case"]["names"]):
            shown = {
                "barrel_on": new.on_barrel[seat] and not step["old"].on_barrel[seat],
                "open_point": new.points[seat] > step["old"].points[seat],
                "skip": new.skip_next[seat] and not step["old"].skip_next[seat],
            }
            for event, narration in (
                ("barrel_on", "barrel_on"),
                ("open_point", "point"),
                ("skip", "zero_first"),
            ):
                told = any(s["id"] == f"thousand.event.{event}" and s["params"]["name"] == name for s in said)
                if shown[event] and narrated(step["events"], narration, name) and not told:
                    problems.append(f"{where}: the engine narrates {step['events']}, consequences say {said}")
        if (
            new.hot_dice
            and not step["old"].hot_dice
            and not any(s["id"] == "thousand.event.hot" for s in said)
        ):
            problems.append(f"{where}: the engine has hot dice now, consequences say {said}")
    assert not problems, f"{len(problems)} disagreements in {len(steps)} steps, e.g.:\n" + "\n".join(
        problems[:15]
    )
    refusals = {"opening", "pit", "barrel", "barrel_exact", "hot_mandatory", "hot_confirm"}
    events = {
        "hot",
        "bolt",
        "bolt_penalty",
        "barrel_on",
        "barrel_fall",
        "open_point",
        "skip",
        "dump",
        "overtaken",
    }
    events |= {"exact_reset", "score"}
    want = {f"thousand.refusal.{r}" for r in refusals} | {f"thousand.event.{e}" for e in events}
    assert set(seen) >= want, f"not every reason came up: {sorted(want - set(seen))}"


# -- Der große Wurf: parseLands (the outcome's notation) and fates (what becomes of each die) --------------------


def mutated(token: str, rng: np.random.Generator) -> str:
    """A die of an outcome's notation, now and then cocked (its face or X on the re-throw) or on the rim."""
    if "@" not in token or token.startswith("c"):
        return token
    u = rng.random()
    return (
        f"c{token}"
        if u < 0.1
        else "cX" + token[token.index("@") :]
        if u < 0.15
        else "rim"
        if u < 0.2
        else token
    )


def wurf_throws(seed: int, n: int, preset: str, steps: int, mutate: bool) -> list[dict[str, Any]]:
    """Every throw's outcome of a seeded random game (at most ``steps`` actions): the outcome, its notation, the
    view after it (what the page reads the taken numbers from) and the engine's positions before and after. The
    outcome is applied as its notation reads (as a table's log replays it); with ``mutate`` some dice of the arena
    model's outcomes are made cocked or put on the rim, as a referee may type them in."""
    game = get_game("wurf")
    state = game.new_initial_state(WurfRules.from_preset(preset), n)
    assert isinstance(state, WurfState)
    seats = names(n)
    rng = np.random.default_rng(seed)
    out: list[dict[str, Any]] = []
    for step in range(steps):
        cp = state.current_player()
        if cp == TERMINAL:
            break
        if cp != CHANCE:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            continue
        move = state.action_to_string(state.sample_chance(rng))
        if mutate and move.startswith(
            "lands"
        ):  # cocked dice and the rim are rare in the arena model's throws
            move = " ".join(mutated(tok, rng) for tok in move.split())
        outcome = state.string_to_action(move)
        old = state.clone()
        state.apply_action(outcome)
        if isinstance(outcome, Outcome):
            where = (
                f"wurf seed={seed} players={n} rules={preset}{' typed' if mutate else ''} step {step}: {move}"
            )
            view = page_view(state, seats)
            out.append(
                {
                    "where": where,
                    "outcome": outcome,
                    "old": old,
                    "new": state.clone(),
                    "move": move,
                    "view": view,
                }
            )
    return out


def test_wurf_parse_lands_and_fates_agree_with_the_engine(front_end: Path) -> None:
    """``parseLands`` reads every die of a throw's outcome as the engine does (status, face, place), and ``fates``
    says what the engine did with each: the dice it says stay are the engine's arena after the throw (in order, with
    their faces and places), and as many dice left the arena, showed X (cocked or not) and were taken by the thrower
    as the engine's report of the throw counts."""
    throws: list[dict[str, Any]] = []
    for seed in range(6):
        throws += wurf_throws(
            seed, 2 + seed % 4, "match" if seed % 3 == 2 else "standard", 400, seed % 2 == 1
        )
    answers = ask(front_end, {"wurf": [{"move": t["move"], "view": t["view"]} for t in throws]})["wurf"]
    assert len(answers) == len(throws)
    problems: list[str] = []
    seen: dict[str, int] = {}
    for throw, answer in zip(throws, answers, strict=True):
        where, outcome, new = throw["where"], throw["outcome"], throw["new"]
        dice, fates = answer["dice"], answer["fates"]
        engine_dice = [
            {"status": d.status, "face": d.face, "x": d.x, "y": d.y, "yaw": d.yaw} for d in outcome.dice
        ]
        for d in engine_dice:
            if d["status"] in ("out", "rim"):
                d.update(face=0, x=None, y=None, yaw=0)
        if dice != engine_dice:
            problems.append(f"{where}: parseLands {dice}, the engine {engine_dice}")
            continue
        for f in fates:
            seen[f] = seen.get(f, 0) + 1
        stays = [
            {"face": d["face"], "x": d["x"], "y": d["y"], "yaw": d["yaw"]}
            for d, f in zip(dice, fates, strict=True)
            if f == "stays"
        ]
        arena = [{"face": d.face, "x": d.x, "y": d.y, "yaw": d.yaw} for d in new.arena]
        if new.game_index == throw["old"].game_index and stays != arena:  # (a match's next game: a new arena)
            problems.append(f"{where}: fates {fates} keep {stays}, the engine's arena after is {arena}")
        report = new.last
        assert report is not None
        counts = {
            "out or rim": (fates.count("out") + fates.count("rim"), report.left),
            "cocked X": (fates.count("cocked-x"), report.cocked_lost),
            "X": (fates.count("x"), report.x_removed),
            "taken": (fates.count("taken"), report.taken),
            "cocked": (sum(d["status"] == "cocked" for d in dice), report.cocked),
        }
        for what, (page, engine) in counts.items():
            if page != engine:
                problems.append(f"{where}: fates {fates} have {page} {what}, the engine {engine}")
    assert not problems, f"{len(problems)} disagreements in {len(throws)} throws, e.g.:\n" + "\n".join(
        problems[:15]
    )
    assert set(seen) >= {"stays", "out", "rim", "x", "cocked-x", "taken"}, seen


# -- resigning: what the confirm says follows (resign-words.ts) -----------------------------------------------------


def resign_outcome(game: str, n: int) -> str | None:
    """What the engine does when seat 0 of an ``n``-seat ``game`` resigns early in the game: ``other`` (the game
    ends, the one other seat wins), ``ends`` (alone: the game ends), ``bot`` (a bot plays the seat on), ``out``
    (the seat is out, the others play on); None when the game has no table of ``n`` seats."""
    g = get_game(game)
    if not g.min_players <= n <= g.max_players:
        return None
    state = g.new_initial_state(g.rules_type.from_preset(None), n)
    rng = np.random.default_rng(n)
    while state.is_chance_node():
        state.apply_action(state.sample_chance(rng))
    state.resign(0)
    if state.is_terminal():
        return (
            "other" if n == 2 and state.winners() == [1] else "ends" if n == 1 else f"ends {state.winners()}"
        )
    assert 0 not in state.seats_in(), f"{game} {n}: seat 0 resigned and still plays for itself"
    return "bot" if state.plays_on_after_resign else "out"


def test_resign_words_agree_with_the_engine(front_end: Path) -> None:
    """The confirm before a resign says what the engine then does, for every game and table size."""
    said_for = {
        "other": "resign.what.other",
        "ends": "resign.what.{game}.solo",
        "out": "resign.what.{game}.many",
    }
    said_for["bot"] = said_for["out"]  # (Clever's "many" is the bot playing on: checked below)
    cases, expected = [], []
    for game in ("thousand", "clever", "wurf"):
        for n in range(1, 7):
            outcome = resign_outcome(game, n)
            if outcome is None:
                continue
            cases.append({"game": game, "others": names(n)[1:]})
            expected.append((game, n, outcome))
    answers = ask(front_end, {"resign": cases})["resign"]
    seen = set()
    for (game, n, outcome), answer in zip(expected, answers, strict=True):
        assert outcome in said_for, (game, n, outcome)
        assert answer is not None, f"{game} with {n}: the page says nothing of what follows ({outcome})"
        assert answer["id"] == said_for[outcome].format(game=game), (game, n, outcome, answer)
        if outcome == "other":
            assert answer["params"] == {"name": "P2"}
        seen.add((game, outcome))
    assert ("clever", "bot") in seen and ("thousand", "out") in seen and ("wurf", "out") in seen
    assert {("thousand", "other"), ("clever", "other"), ("wurf", "other")} <= seen

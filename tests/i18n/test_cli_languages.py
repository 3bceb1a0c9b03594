"""The CLI in Russian, Ukrainian and Polish: ``rules``, a scripted ``play thousand``, ``simulate`` and ``replay``
leave no English catalogue text in their output, and engine refusals read in every language."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.core.errors import DicehallError, IllegalActionError, RuleConfigError
from dicehall.i18n import LANGUAGES, load_catalog, translator
from dicehall.thousand.rules import ThousandRules
from dicehall.thousand.state import BANK, ThousandState

_register_games()
runner = CliRunner()
SLAVIC = ("ru", "uk", "pl")


def invoke(*args: str, stdin: str | None = None) -> str:
    result = runner.invoke(app, list(args), input=stdin, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


@cache
def english_fragments(lang: str) -> tuple[tuple[str, str], ...]:
    """Pieces of English catalogue text (between parameters, without markup) that ``lang`` does not keep:
    finding one in ``lang``'s output means an English message was left there."""
    theirs = {m.id: m.string for m in load_catalog(lang) if m.id}
    out = []
    for msg in load_catalog("en"):
        if not msg.id:
            continue
        english = list(msg.string) if isinstance(msg.string, tuple) else [msg.string]
        translated = theirs[msg.id]
        kept = " ".join(" ".join(translated if isinstance(translated, tuple) else [translated]).split())
        for text in english:
            for piece in re.split(r"\{\w+\}|\[/?[a-z ]*\]", text):
                piece = " ".join(piece.split()).strip(" ;:,.()—-«»\"'?")
                if len(piece) >= 8 and re.search(r"[A-Za-z]{4}", piece) and piece not in kept:
                    out.append((str(msg.id if isinstance(msg.id, str) else msg.id[0]), piece))
    return tuple(out)


def english_left(output: str, lang: str) -> list[tuple[str, str]]:
    return [(msgid, piece) for msgid, piece in english_fragments(lang) if piece in output]


def test_the_english_check_catches_english() -> None:
    out = invoke("rules", "thousand", "--lang", "en")
    assert english_left(out, "ru"), "an English page must fail the check"


@pytest.mark.parametrize("lang", SLAVIC)
def test_rules_in_each_language(lang: str) -> None:
    thousand = invoke("rules", "thousand", "--preset", "yard", "--lang", lang)
    clever = invoke("rules", "clever", "--lang", lang)
    assert {"ru": "Тысяча", "uk": "Тисяча", "pl": "Tysiąc"}[lang] in thousand
    assert {"ru": "Хитрый ход", "uk": "Влучний хід", "pl": "Ganz schön clever"}[lang] in clever
    assert english_left(thousand, lang) == [] and english_left(clever, lang) == []


@pytest.mark.parametrize("lang", SLAVIC)
def test_a_scripted_game_of_dice_1000_in_each_language(lang: str, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    script = "\n".join(["xyzzy", "", "?", "b", "r", "r", "r", "r", "r", "board", "q"]) + "\n"
    out = invoke(
        "play", "thousand", "--players", "me,bot:expert", "--seed", "5", "--save", str(save), "--lang", lang,
        stdin=script,
    )  # fmt: skip
    assert english_left(out, lang) == []
    words = {
        "ru": ("не понимаю 'xyzzy'", "«хватит» сейчас нельзя: игра не открыта", "Вы вышли из игры"),
        "uk": ("не розумію 'xyzzy'", "«досить» зараз не можна: гру не відкрито", "Ви вийшли з гри"),
        "pl": ("nie rozumiem 'xyzzy'", "„dość” teraz nie wolno: gra nie otwarta", "Opuszczono grę"),
    }[lang]
    for said in words:
        assert said in out
    replayed = invoke("replay", str(save), "--lang", lang)
    assert english_left(replayed, lang) == []


def test_a_clever_replay_shows_the_translated_board(tmp_path: Path) -> None:
    """``replay`` of a Clever record prints the board ``play clever`` shows, in the language asked for."""
    save = tmp_path / "clever.json"
    invoke("play", "clever", "--players", "bot:greedy,bot:greedy", "--seed", "3", "--save", str(save))
    english = invoke("replay", str(save), "--lang", "en")
    russian = invoke("replay", str(save), "--lang", "ru")
    assert "Yellow" in english and "Winner: bot:greedy#" in english
    assert english_left(english, "ru"), "the English board must fail the check"
    assert english_left(russian, "ru") == []
    assert "Жёлтая" in russian and "Победитель: bot:greedy#" in russian and "bot:greedy#1 итого" in russian
    for word in ("Yellow", "Blue", "Green", "Orange", "Purple", "round", "total", "foxes", "Winner"):
        assert word not in russian, word


@pytest.mark.parametrize("lang", SLAVIC)
def test_simulate_reports_in_each_language(lang: str) -> None:
    out = invoke("simulate", "thousand", "--games", "6", "--jobs", "1", "--lang", lang)
    assert {"ru": "6 партий", "uk": "6 партій", "pl": "6 partii"}[lang] in out
    assert english_left(out, lang) == []
    # the tables' numbers with the locale's decimal comma (win rates, means, statistics), none with a point
    assert re.search(r"\d+,\d%", out) and re.search(r"\d,\d\d", out) and not re.search(r"\d\.\d", out)


def test_simulate_json_keeps_bare_numbers() -> None:
    import json

    out = runner.invoke(
        app, ["simulate", "thousand", "--games", "4", "--jobs", "1", "--json", "--lang", "ru"]
    )
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    assert isinstance(report["seats"][0]["win_rate"], float)


def _refusals() -> list[DicehallError]:
    """One refusal of each kind: a move the rules forbid, a nested reason, a rule set that cannot be."""
    state = ThousandState(ThousandRules.from_preset("classic"), 2)
    state.apply_action((2, 3, 4, 6, 6))  # a zero roll: the next seat to move has not opened
    state.apply_action((1, 2, 3, 4, 6))
    errors: list[DicehallError] = []
    for bad in (
        lambda: state.apply_action(BANK),
        lambda: ThousandRules.from_preset("classic", {"pits": [[900, 950]]}),
    ):
        try:
            bad()
        except DicehallError as exc:
            errors.append(exc)
    return errors


@pytest.mark.parametrize("lang", LANGUAGES)
def test_engine_refusals_in_each_language(lang: str) -> None:
    opening, pit = _refusals()
    assert isinstance(opening, IllegalActionError) and isinstance(pit, RuleConfigError)
    assert str(opening) == "not opened: bank at least 50"  # str() stays English whatever the language
    assert str(pit).startswith("pit [900, 950] reaches past the barrel at 880. ")
    expected = {
        "en": ("not opened: bank at least 50", "pit [900, 950] reaches past the barrel at 880. Rules that work: "
               "pits=none (or leave out pits: what you leave out is fitted to the rest)"),
        "ru": ("игра не открыта: запишите не меньше 50", "яма [900, 950] заходит за границу бочки (880). Подойдёт: "
               "pits=none (или не задавайте pits: незаданное подгоняется под остальное)"),
        "uk": ("гру не відкрито: запишіть щонайменше 50", "яма [900, 950] заходить за межу бочки (880). Підійде: "
               "pits=none (або не задавайте pits: незадане підганяється під решту)"),
        "pl": ("gra nie otwarta: zapisz co najmniej 50", "dołek [900, 950] sięga poza granicę beczki (880). "
               "Zadziała: pits=none (albo nie ustawiaj pits: to, czego nie ustawisz, zostanie dopasowane do reszty)"),
    }[lang]  # fmt: skip
    assert (opening.localized(lang), pit.localized(lang)) == expected
    assert translator(lang).message(opening.text) == expected[0]
    assert opening.localized("en") == str(opening)  # the English catalogue is the engine's own text


def test_option_errors_are_said_in_the_language_asked_for() -> None:
    """``--lang`` is read before the other options, so their checks already speak it (exit 2, one line)."""
    bad = runner.invoke(app, ["simulate", "thousand", "--games", "0", "--lang", "ru"], env={"COLUMNS": "200"})
    assert (
        bad.exit_code == 2
        and "ошибка: --games должен быть от 1 до 1\xa0000\xa0000\xa0000\xa0000" in bad.output
    )
    unknown = runner.invoke(app, ["rules", "thousand", "--set", "nonsense=1", "--lang", "pl"])
    assert unknown.exit_code == 2 and "nieznana opcja zasad 'nonsense'" in " ".join(unknown.output.split())


@pytest.mark.parametrize("lang", SLAVIC)
def test_real_dice_prompts_in_each_language(lang: str) -> None:
    """The score pad's prompts, its help and its undo line are the chosen language's (the input ends mid-game)."""
    answers = "?\n1,1,5,5,2\nundo\n1,1,5,5,3\nq\nn\n"
    result = runner.invoke(
        app,
        ["play", "thousand", "--players", "ann,bob", "--real-dice", "--lang", lang],
        input=answers,
        env={"COLUMNS": "200"},
    )
    out = " ".join(result.output.split())
    t = translator(lang)
    assert t("cli.realdice.prompt", who="ann", example="").split("(")[0].strip() in out
    assert (
        t("cli.realdice.taken_back", move="11552") in out
        or t("cli.realdice.taken_back", move="1,1,5,5,2") in out
    )
    assert not [(m, p) for m, p in english_left(out, lang) if m.startswith("cli.realdice.")]


WURF_SCRIPT = "\n".join(
    [
        "xyzzy",
        "",
        "help",
        "t c3 0.5 0.5 extra",
        "end",
        "m 7 c3",
        "t c3 0.5",
        "board",
        "t c2 0.4",
        "t c3 0.9",
        "q",
    ]
)


@pytest.mark.parametrize("lang", SLAVIC)
def test_wurf_rules_play_simulate_and_referee_in_each_language(lang: str, tmp_path: Path) -> None:
    """``rules wurf``, a scripted ``play wurf`` against the bot (bad input, help, refusals, throws, the board, the
    bot's narrated moves, quit with save), its ``replay``, ``simulate wurf`` and a referee match leave no English."""
    rules = invoke("rules", "wurf", "--lang", lang)
    assert {"ru": "Меткий бросок", "uk": "Великий кидок", "pl": "Mistrzowski rzut"}[lang] in rules
    save = tmp_path / "wurf.json"
    out = invoke(
        "play", "wurf", "--players", "me,bot:expert", "--seed", "4", "--lang", lang, "--save", str(save),
        stdin=WURF_SCRIPT + "\ny\n",
    )  # fmt: skip
    said = {
        "ru": ("не могу прочитать 'xyzzy'", "ход нельзя закончить до обязательного броска", "бросает в c3"),
        "uk": ("не можу прочитати 'xyzzy'", "хід не можна закінчити до обов'язкового кидка", "кидає в c3"),
        "pl": (
            "nie mogę odczytać 'xyzzy'",
            "nie można zakończyć ruchu przed obowiązkowym rzutem",
            "rzuca na c3",
        ),
    }[lang]
    for words in said:
        assert words in out, words
    replayed = invoke("replay", str(save), "--lang", lang)
    simulated = invoke("simulate", "wurf", "--games", "3", "--jobs", "1", "--lang", lang)
    referee = invoke(
        "referee", "wurf", "--players", "Ann,Bob", "--match", "--lang", lang,
        stdin="start\nstart 1\nstart 4\n4 1\nout*9\n4 5\nshow\n3 3 3\nhelp\n2 3 4 5 6 x out out rim\nfoo\nundo\nend\n",
    )  # fmt: skip
    for text in (rules, out, replayed, simulated, referee):
        assert english_left(text, lang) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_wurf_refusals_in_each_language(lang: str) -> None:
    from dicehall.wurf.rules import WurfRules
    from dicehall.wurf.state import WurfState

    state = WurfState(WurfRules.from_preset("standard"), 2)
    state.apply_action(state.string_to_action("start 4@100,100,0"))
    with pytest.raises(IllegalActionError) as end:
        state.apply_action(state.string_to_action("end"))
    with pytest.raises(RuleConfigError) as box:
        WurfRules.from_preset("standard", {"dice_per_player": 15}).dice_for(3)
    assert str(end.value) == "the turn cannot end before the mandatory throw"
    expected = {
        "en": "the turn cannot end before the mandatory throw",
        "ru": "ход нельзя закончить до обязательного броска",
        "uk": "хід не можна закінчити до обов'язкового кидка",
        "pl": "nie można zakończyć ruchu przed obowiązkowym rzutem",
    }[lang]
    assert end.value.localized(lang) == expected
    assert end.value.message_json() == {"id": "wurf.refusal.mandatory_throw", "params": {}}
    assert "15" in box.value.localized(lang) and "31" in box.value.localized(lang)


@pytest.mark.parametrize("lang", SLAVIC)
def test_wurf_bot_descriptions_in_each_language(lang: str) -> None:
    """Wurf's bots describe themselves with message ids of their own (not Dice 1000's bots of the same names)."""
    from dicehall.core.agents import bots_for

    docs = bots_for("wurf")
    assert sorted(docs) == ["cautious", "expert", "random"]
    t = translator(lang)
    for name, doc in docs.items():
        assert getattr(doc, "msgid", None) == f"bot.wurf.{name}.doc"
        said = t.message(doc)
        assert said == t(f"bot.wurf.{name}.doc") and said != str(doc) and english_left(said, lang) == []
    assert str(docs["cautious"]) == "stops after the mandatory throw unless the odds clearly favour going on"


def test_the_thousand_solver_reports_in_russian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``solve thousand``: its progress and result lines (value iteration, the cached table, policy iteration) say
    numbers with a decimal comma and leave no English catalogue text."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    small = [
        "--set", "target=30", "--set", "barrel=none", "--set", "pits=[[15,20]]", "--set", "open_min=10",
        "--set", "bolts_count=2", "--set", "bolt_penalty=10", "--set", "overtake_penalty=5",
        "--set", "dump_truck_score=10", "--floor", "-20",
    ]  # fmt: skip
    english = invoke("solve", "thousand", *small, "--lang", "en")
    assert "first player wins with probability 0." in english and english_left(english, "ru")
    cached = invoke("solve", "thousand", *small, "--lang", "ru")
    solved = invoke("solve", "thousand", *small, "--method", "pi", "--fresh", "--lang", "ru")
    assert "результат из кэша" in cached and "итерация по стратегиям" in solved
    for out in (cached, solved):
        assert "первый игрок выигрывает с вероятностью 0," in out and "счёт ниже -20 держится на -20" in out
        assert english_left(out, "ru") == []


@pytest.mark.parametrize("lang", SLAVIC)
@pytest.mark.parametrize("game", ["thousand", "clever"])
def test_bot_descriptions_in_each_language(game: str, lang: str) -> None:
    """Dice 1000's and Clever's bots describe themselves by ``bot.<game>.<bot>.doc``, English by default."""
    from dicehall.core.agents import bots_for

    docs = bots_for(game)
    assert len(docs) >= 4
    t, english = translator(lang), translator("en")
    for name, doc in docs.items():
        assert getattr(doc, "msgid", None) == f"bot.{game}.{name}.doc"
        said = t.message(doc)
        assert str(doc) == english.message(doc) and said != str(doc) and english_left(said, lang) == []
    assert str(bots_for("thousand")["cautious"]) == "banks at 200 or with 2 dice left (when the rules allow)"


@pytest.mark.parametrize("lang", SLAVIC)
def test_solve_policy_in_words_in_each_language(lang: str, tmp_path: Path) -> None:
    """``solve thousand --policy`` words its thresholds in the language, with the locale's decimal comma."""
    from thousand.test_solver_cli import SMALL_ARGS

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_DATA_HOME", str(tmp_path))
        out = invoke("solve", "thousand", *SMALL_ARGS, "--policy", "--lang", lang)
    t = translator(lang)
    assert t("solve.thousand.policy.opened")[:30] in out and t("solve.thousand.policy.win", win="") in out
    assert re.search(r"0,\d{4}\.", out) and english_left(out, lang) == []


@pytest.mark.parametrize("lang", ["en", *SLAVIC])
def test_optimal_bot_explains_in_each_language(lang: str) -> None:
    from thousand.test_solver import FLOOR, SMALL

    from dicehall.thousand.solver.bot import OptimalBot
    from dicehall.thousand.solver.solve import Table, solve

    solution = solve(SMALL, floor=FLOOR, threads=1)
    table = Table(solution.space, ((solution.lower + solution.upper) / 2).astype("float32"), {})
    bot = OptimalBot(SMALL, table)
    bot.explain = True
    state = ThousandState.from_position(SMALL, [0, 0], opened=[True, True])
    state.apply_action((1, 2, 3, 4, 6))  # 10 with 4 dice left
    bot.choose(state, __import__("numpy").random.default_rng(0))
    reason = bot.last_reason
    assert getattr(reason, "msgid", "").startswith("thousand.bot.optimal_")
    said = translator(lang).message(reason)
    if lang == "en":
        assert said == str(reason) and re.match(r"(rolls|banks): win chance rolling \d+\.\d%", said)
    else:
        assert said != str(reason) and english_left(said, lang) == [] and "," in said


CROSS_OPTION = [
    {"target": 200, "open_min": 200},
    {"barrel_score": 40},
    {"barrel_score": 500},
    {"pits": [[900, 950]]},
    {"dump_truck": True, "dump_truck_score": 900},
    {"bolts_count": 1, "bolt_penalty": 100},
    {"barrel": "none", "barrel_exact": True, "barrel_cap": False},
    {"barrel_exact": True},
    {"reconfirm_hot": True},
]


@pytest.mark.parametrize("overrides", CROSS_OPTION, ids=lambda o: "+".join(o))
def test_cross_option_refusals_name_options_by_key(overrides: dict[str, object]) -> None:
    """Dice 1000's cross-option refusals carry the options they name as keys (``option``, ``*_option``) and a
    choice as ``*_choice`` of its option: the browser shows these by their names (web/src/errors.ts), so each must
    be a real option and choice; the terminal says the key one types, and no option key is written into the text."""
    with pytest.raises(RuleConfigError) as caught:
        ThousandRules.from_preset("classic", overrides)
    assert caught.value.problems[0].option == caught.value.option  # a form points at the first problem
    for err in caught.value.problems:  # one refusal names every conflict (and, when it can, what would work)
        check_option_keys(err)


def check_option_keys(err: RuleConfigError) -> None:
    assert err.msgid is not None and err.msgid.startswith("thousand.rules_error.")
    params = err.params
    assert params["option"] == err.option
    fields = ThousandRules.__dataclass_fields__
    for key, value in params.items():
        if key == "option" or key.endswith("_option"):
            assert value in fields, f"{err.msgid}: {key}={value!r} is no option"
        if key.endswith("_choice"):
            choices = fields[params[key.removesuffix("_choice") + "_option"]].metadata["choices"]
            assert value in choices, f"{err.msgid}: {key}={value!r} is no choice"
    for lang in LANGUAGES:
        text = load_catalog(lang).get(err.msgid)
        said = re.sub(r"\{\w+\}", "", text.string if text is not None else "")
        keys = [name for name in fields if "_" in name]  # (one-word keys such as "barrel" are ordinary words)
        assert not any(re.search(rf"\b{name}\b", said) for name in keys), f"{lang} {err.msgid}: {said!r}"

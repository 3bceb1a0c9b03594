"""typer's own parse errors (unknown option, missing argument, a value that is not a number, no such command, ...)
in every language (dicehall.i18n.usage), and no language carried from one in-process invocation to the next."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from dicehall.cli import _register_games, app
from dicehall.i18n import translator

_register_games()
runner = CliRunner()

# each kind of usage error typer raises, with the English words typer itself would print
CASES = {
    "not_integer": (["simulate", "thousand", "--games", "abc"], "is not a valid int"),
    "not_integer_float": (["simulate", "clever", "--seed", "1.5"], "is not a valid int"),
    "no_such_option": (["play", "thousand", "--bogus"], "No such option"),
    "no_such_short_option": (["play", "thousand", "-Z"], "No such option"),
    "option_requires": (["play", "thousand", "--hints"], "requires an argument"),
    "missing_argument": (["replay"], "Missing argument"),
    "no_such_command": (["nosuch"], "No such command"),
    "did_you_mean": (["play", "thousnd"], "Did you mean"),
    "extra_arguments": (["rules", "thousand", "extra", "more"], "unexpected extra"),
}
# what each language must say instead (a word of our own catalogue)
SAID = {
    "ru": {
        "not_integer": "не целое число",
        "not_integer_float": "не целое число",
        "no_such_option": "Нет такого параметра: --bogus",
        "no_such_short_option": "Нет такого параметра: -Z",
        "option_requires": "нужно 1 значение",
        "missing_argument": "Не указан аргумент",
        "no_such_command": "Нет такой команды: 'nosuch'",
        "did_you_mean": "имелось в виду 'thousand'",
        "extra_arguments": "Лишние аргументы: extra more",
    },
    "uk": {
        "not_integer": "не ціле число",
        "not_integer_float": "не ціле число",
        "no_such_option": "Немає такого параметра: --bogus",
        "no_such_short_option": "Немає такого параметра: -Z",
        "option_requires": "потрібне 1 значення",
        "missing_argument": "Не вказано аргумент",
        "no_such_command": "Немає такої команди: 'nosuch'",
        "did_you_mean": "малося на увазі 'thousand'",
        "extra_arguments": "Зайві аргументи: extra more",
    },
    "pl": {
        "not_integer": "nie jest liczbą całkowitą",
        "not_integer_float": "nie jest liczbą całkowitą",
        "no_such_option": "Nie ma takiej opcji: --bogus",
        "no_such_short_option": "Nie ma takiej opcji: -Z",
        "option_requires": "wymaga 1 wartości",
        "missing_argument": "Brak argumentu",
        "no_such_command": "Nie ma polecenia 'nosuch'",
        "did_you_mean": "Czy chodziło o 'thousand'",
        "extra_arguments": "Nieoczekiwane argumenty: extra more",
    },
}


def _run(args: list[str], env: dict[str, str] | None = None) -> str:
    res = runner.invoke(app, args, env={"COLUMNS": "300", **(env or {})})
    assert res.exit_code == 2, res.output
    return " ".join(res.output.replace("│", " ").split())


@pytest.mark.parametrize("lang", sorted(SAID))
@pytest.mark.parametrize("case", sorted(CASES))
def test_usage_errors_in_each_language(case: str, lang: str) -> None:
    args, english = CASES[case]
    # --lang after the command (where the error may come before the option is read) and before it
    for line in ([*args, "--lang", lang], ["--lang", lang, *args]):
        if line[-2] == "--lang" and case in ("option_requires", "no_such_command", "did_you_mean"):
            continue  # --hints would take "--lang" as its value; an unknown command has no --lang of its own
        out = _run(line)
        assert english not in out, f"{line}: English left: {out}"
        assert SAID[lang][case] in out, f"{line}: {out}"
        assert translator(lang)("cli.usage.missing_command") not in out or case == "missing_command"


def test_usage_errors_follow_the_locale_too() -> None:
    out = _run(["play", "thousand", "--bogus"], env={"LANG": "uk_UA.UTF-8"})
    assert "Немає такого параметра: --bogus" in out and "No such option" not in out


def test_english_keeps_the_meaning() -> None:
    assert "Invalid value for '--games' / '-n': 'abc' is not a whole number" in _run(CASES["not_integer"][0])
    assert "No such option: --bogus" in _run(CASES["no_such_option"][0])
    assert "No such command 'thousnd'. Did you mean 'thousand'?" in _run(CASES["did_you_mean"][0])
    assert "Missing argument 'FILE'." in _run(CASES["missing_argument"][0])


def test_every_kind_is_recognised() -> None:
    """dicehall.i18n.usage re-words typer's errors by their kind and, for a few, by click's fixed English text: a
    typer upgrade that raises another kind or words one differently (so it would stay English) fails here, naming
    the version and what it now says."""
    from importlib.metadata import version

    import typer
    from typer._click.exceptions import UsageError

    unknown = []
    for case, (args, _) in CASES.items():
        try:
            typer.main.get_command(app).main(args, standalone_mode=False)
        except UsageError as exc:
            if not getattr(exc, "_dicehall_localized", False):
                unknown.append(f"{case} ({' '.join(args)}): {type(exc).__name__} {exc.message!r}")
        else:
            unknown.append(f"{case} ({' '.join(args)}): no usage error raised at all")
    assert not unknown, (
        f"typer {version('typer')} raises usage errors that dicehall/i18n/usage.py does not recognise, so they would "
        "stay English; teach its patterns the new kind or wording:\n  " + "\n  ".join(unknown)
    )


def test_the_root_lang_does_not_carry_over_to_the_next_invocation() -> None:
    """Two in-process runs: ``dicehall --lang ru rules thousand`` then ``dicehall rules thousand`` (English)."""
    ru = runner.invoke(app, ["--lang", "ru", "rules", "thousand"], env={"COLUMNS": "200"})
    assert ru.exit_code == 0 and any("а" <= c <= "я" for c in ru.output)
    en = runner.invoke(app, ["rules", "thousand"], env={"COLUMNS": "200"})
    assert en.exit_code == 0 and not any("а" <= c <= "я" for c in en.output), en.output[:300]
    pl = runner.invoke(app, ["--lang", "pl", "simulate", "thousand", "--games", "abc"])
    after = runner.invoke(app, ["simulate", "thousand", "--games", "abc"])
    assert "nie jest liczbą" in pl.output and "Błąd" in pl.output
    assert "is not a whole number" in after.output and "─ Error ─" in after.output
    runner.invoke(app, ["--lang", "uk", "nosuch"])
    from typer import rich_utils

    assert (
        rich_utils.ERRORS_PANEL_TITLE == "Error"
    )  # typer's words (process-wide) are English again after a run


def test_lang_after_a_group_holds_for_its_command() -> None:
    """``dicehall play --lang pl thousand ...``: a group takes --lang too, for the command after it."""
    out = _run(["play", "--lang", "pl", "thousand", "--bogus"])
    assert "Nie ma takiej opcji: --bogus" in out
    res = runner.invoke(app, ["simulate", "--lang", "uk", "thousand", "--games", "2"], env={"COLUMNS": "200"})
    assert res.exit_code == 0 and "Тисяча" in res.output, res.output

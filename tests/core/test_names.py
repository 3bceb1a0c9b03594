"""Display names (dicehall/core/names.py): what a name may be, and which names look alike."""

from __future__ import annotations

import pytest

from dicehall.core.names import MAX_CHARS, NameRefused, check_name, impersonates, skeleton
from dicehall.i18n import translator


def refused(raw: str) -> str:
    with pytest.raises(NameRefused) as caught:
        check_name(raw)
    assert caught.value.msgid is not None
    return caught.value.msgid


def test_a_name_is_normalised() -> None:
    assert check_name("  Ann \u00a0\u3000 Lee ") == "Ann Lee"  # every run of spaces is one space
    assert check_name("Zoe\u0301") == "Zoé"  # NFC
    assert check_name("Łucja") == "Łucja" and check_name("Анна") == "Анна" and check_name("李雷") == "李雷"
    assert check_name("x" * MAX_CHARS) == "x" * MAX_CHARS


@pytest.mark.parametrize(
    ("raw", "rule"),
    [
        ("", "names.error.empty"),
        ("   ", "names.error.empty"),
        ("x" * (MAX_CHARS + 1), "names.error.too_long"),
        ("😀" * 17, "names.error.too_long"),  # 17 code points but 68 UTF-8 bytes
        ("Ann\x00", "names.error.invisible"),  # C0
        ("Ann\tLee", "names.error.invisible"),
        ("Ann\nLee", "names.error.invisible"),
        ("Ann\x85", "names.error.invisible"),  # C1
        ("Ann\u202eeL", "names.error.invisible"),  # right-to-left override
        ("Ann\u2066x\u2069", "names.error.invisible"),  # bidi isolates
        ("An\u200dn", "names.error.invisible"),  # zero-width joiner
        ("An\u200bn", "names.error.invisible"),  # zero-width space
        ("Ann\u2060", "names.error.invisible"),  # word joiner
        ("\u3164", "names.error.invisible"),  # Hangul filler: looks empty
        ("Ann\ufe0f", "names.error.invisible"),  # variation selector
        ("Ann\ue000", "names.error.invisible"),  # private use
        ("Ann\u2028", "names.error.invisible"),  # line separator
        ("Z\u0301\u0302\u0303algo", "names.error.marks"),
        ("\u0301Ann", "names.error.marks"),
        ("Player 3", "names.error.reserved"),
        ("игрок 1", "names.error.reserved"),
        ("Gracz", "names.error.reserved"),
        ("Гравець 2", "names.error.reserved"),
        ("Bot (expert)", "names.error.reserved"),
        ("deleted player", "names.error.reserved"),
    ],
)
def test_name_rules(raw: str, rule: str) -> None:
    assert refused(raw) == rule


def test_refusals_name_the_rule_in_every_language() -> None:
    with pytest.raises(NameRefused) as caught:
        check_name("Ann\u202e")
    assert "U+202E" in str(caught.value)
    for lang in ("en", "ru", "uk", "pl"):
        text = translator(lang).message(caught.value.text)
        assert "U+202E" in text and "names.error" not in text, (lang, text)


def test_names_that_merely_contain_a_reserved_word_are_fine() -> None:
    assert check_name("Bottom") == "Bottom" and check_name("Player One Ready") == "Player One Ready"


def test_confusables_fold_together() -> None:
    assert skeleton("Аnn") == skeleton("Ann") == skeleton("ANN")  # Cyrillic А
    assert skeleton("Ρ0ΚΕR") == skeleton("poker")  # Greek Ρ, Κ, Ε and a zero
    assert impersonates("Аnn", ["Bob", "ann"]) and not impersonates("Anna", ["Ann"])

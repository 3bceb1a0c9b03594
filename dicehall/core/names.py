"""Player names: the rules a display name must follow, shared by the web server and the terminal.

A name is normalised (NFC, trimmed, every run of spaces one space) and then refused, with a message naming the
rule (``names.error.*``), when it is empty or too long, holds a control, format, private-use, unassigned or other
invisible character (bidi overrides, zero-width joiners, variation selectors, the Hangul filler), piles more than
two combining marks on one letter, or reads as a reserved name (a default seat name in any language, a bot,
"deleted player"). ``skeleton`` folds look-alike letters of Latin, Cyrillic and Greek (and 0/1) together, so that a
table can refuse a name that impersonates another seat's.

>>> check_name("  Ann   Lee ")
'Ann Lee'
>>> check_name("Ann\\u202eeL")
Traceback (most recent call last):
...
dicehall.core.names.NameRefused: a name cannot hold control or invisible characters (U+202E)
>>> skeleton("Аnn") == skeleton("ann")
True
"""

from __future__ import annotations

import re
import unicodedata

from dicehall.core.errors import DicehallError

MAX_CHARS = 24
MAX_BYTES = 64
MAX_MARKS = 2
"""Most combining marks one base character may carry (more is "zalgo" text that spills over its neighbours)."""

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
# Default-ignorable code points that are not of a refused category (they render as nothing).
_INVISIBLE = frozenset(
    [
        *(0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, 0x2800),  # fillers, blanks, grapheme joiner
        *range(0x180B, 0x1810),  # Mongolian variation selectors and vowel separator
        *range(0xFE00, 0xFE10),  # variation selectors
        *range(0xE0100, 0xE01F0),  # variation selectors supplement
    ]
)

# Letters that look alike across the scripts players write in here, folded to Latin (after NFKC + casefold).
_CONFUSABLE = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
        "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "һ": "h", "ӏ": "l",
        "ԛ": "q", "ԝ": "w", "ь": "b", "з": "3", "ч": "4", "п": "n", "г": "r",
        # Greek
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
        "υ": "u", "χ": "x", "γ": "y", "ζ": "z", "μ": "u", "ω": "w", "σ": "o", "ς": "c",
        # digits and marks that pass for letters
        "0": "o", "1": "l", "|": "l", "!": "l", "$": "s", "5": "s", "@": "a",
    }
)  # fmt: skip

RESERVED = (
    # the default seat names of the four languages (any number after them), bots, a deleted account
    re.compile(r"^(player|игрок|гравець|gracz)( ?\d+)?$"),
    re.compile(r"^(bot|бот)\b"),
    re.compile(r"^deleted ?player$"),
)


class NameRefused(DicehallError):
    """A display name that breaks one of the rules; its message (``names.error.*``) names the rule."""


def skeleton(name: str) -> str:
    """What ``name`` looks like: NFKC, case folded, marks dropped, look-alike letters folded to Latin, no spaces."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    bare = "".join(c for c in folded if not unicodedata.combining(c) and not c.isspace())
    return bare.translate(_CONFUSABLE)


def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) in _REFUSED_CATEGORIES or ord(ch) in _INVISIBLE


def check_name(
    raw: str, *, max_chars: int = MAX_CHARS, max_bytes: int = MAX_BYTES, reserved: bool = True
) -> str:
    """``raw`` normalised, or :class:`NameRefused` naming the first rule it breaks. A player's display name is
    checked with the defaults; a name typed for one seat of one table (hot seat) with ``reserved=False`` and the
    table's own length bound (check_seat_name)."""
    for ch in raw:  # before normalising: NFC and strip must not hide a control character (a tab, a newline)
        if _invisible(ch) and ch != " ":
            raise NameRefused(msgid="names.error.invisible", params={"code": f"U+{ord(ch):04X}"})
    name = unicodedata.normalize("NFC", raw)
    name = " ".join(part for part in re.split(r"\s+", name) if part)
    if not name:
        raise NameRefused(msgid="names.error.empty")
    if len(name) > max_chars or len(name.encode("utf-8")) > max_bytes:
        raise NameRefused(msgid="names.error.too_long", params={"max": max_chars})
    marks = 0
    for ch in unicodedata.normalize("NFD", name):  # a precomposed letter counts its marks too
        marks = marks + 1 if unicodedata.combining(ch) else 0
        if marks > MAX_MARKS:
            raise NameRefused(msgid="names.error.marks", params={"max": MAX_MARKS})
    if unicodedata.combining(name[0]):
        raise NameRefused(msgid="names.error.marks", params={"max": MAX_MARKS})
    plain = " ".join(unicodedata.normalize("NFKC", name).casefold().split())
    if reserved and any(rule.match(plain) for rule in RESERVED):
        raise NameRefused(msgid="names.error.reserved", params={"name": name})
    return name


SEAT_MAX_CHARS = 40
"""A seat's name as a table's creator or joiner types it (``SeatSpec.name``, ``JoinSeat.name``)."""


def check_seat_name(raw: str) -> str:
    """A name typed for a seat: the same characters as a display name, up to 40 of them, any words (a hot-seat
    table may call its seats "Player 1" or "Bot")."""
    return check_name(raw, max_chars=SEAT_MAX_CHARS, max_bytes=4 * SEAT_MAX_CHARS, reserved=False)


def impersonates(name: str, others: list[str]) -> bool:
    """Whether ``name`` looks like one of ``others`` (the other names at the same table)."""
    mine = skeleton(name)
    return any(skeleton(other) == mine for other in others)

"""Helpers for Wurf's message parameters (the texts themselves are ids in ``dicehall/i18n/locales``)."""

from __future__ import annotations


def num(value: float, digits: int = 1) -> int | float:
    """A coordinate or bound as a message parameter: a whole number stays whole (``100``, not ``100.0``), anything
    else is rounded to ``digits`` decimals (the catalogues format it for the locale: ``117,3`` in ru/uk/pl)."""
    r = round(float(value), digits)
    return int(r) if r == int(r) else r

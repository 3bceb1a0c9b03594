"""Engine texts as message ids with parameters that still read as plain English.

A :class:`Message` *is* a ``str`` (its English text, numbers as plain digits, as logs, records and tests have
always shown them), so code that prints, compares or JSON-encodes engine texts keeps working; it also carries
``msgid`` and ``params``, so a front end renders it in its reader's language
(``dicehall.i18n.current().message(m)``) or sends ``m.to_json()`` to a browser that has the same ids.
Parameters may be messages themselves (a reason inside a sentence); they are rendered in the same language.

>>> m = Message("thousand.refusal.opening", min=50)
>>> m, m.msgid, m.params
('not opened: bank at least 50', 'thousand.refusal.opening', {'min': 50})
>>> m.to_json()
{'id': 'thousand.refusal.opening', 'params': {'min': 50}}
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any


class Message(str):
    """A message id with named parameters whose ``str`` value is its plain English rendering."""

    msgid: str
    params: dict[str, Any]

    def __new__(cls, msgid: str, /, **params: Any) -> Message:
        self = super().__new__(cls, _english(msgid, params))
        self.msgid = msgid
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickles (bot workers) and copies as id + params
        return (_rebuild, (self.msgid, self.params))

    def to_json(self) -> dict[str, Any]:
        """``{"id", "params"}`` for a front end (nested messages the same way)."""
        return {"id": self.msgid, "params": {k: _json(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        params = {k: cls.from_json(v) if _is_json_message(v) else v for k, v in dict(data["params"]).items()}
        return cls(str(data["id"]), **params)


@functools.cache
def _templates() -> tuple[dict[str, str], dict[str, tuple[str, str]]]:
    """The English catalogue as format strings: singular ids, and plural ids' (one, other) forms."""
    from dicehall.i18n import catalogs  # read on first use, not at import

    singular: dict[str, str] = {}
    forms: dict[str, dict[int, str]] = {}
    for key, text in catalogs.entries(catalogs.english()).items():
        if isinstance(key, tuple):
            forms.setdefault(key[0], {})[key[1]] = text
        elif key:  # not the header
            singular[key] = text
    return singular, {msgid: (f.get(0, msgid), f.get(1, msgid)) for msgid, f in forms.items()}


def _english(msgid: str, params: Mapping[str, Any]) -> str:
    # Nested messages are str already (their English), numbers stay bare digits: a plain str.format does it.
    singular, plural = _templates()
    template = singular.get(msgid)
    if template is None:
        forms = plural.get(msgid)
        if forms is None:
            return msgid  # an id no catalogue has (the completeness tests keep this from shipping)
        template = forms[0] if params.get("n") == 1 else forms[1]
    return template.format(**params)


def _rebuild(msgid: str, params: dict[str, Any]) -> Message:
    return Message(msgid, **params)


def _json(value: Any) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    return value


def _is_json_message(value: Any) -> bool:
    return isinstance(value, Mapping) and set(value) == {"id", "params"}


def message_json(text: str | None) -> dict[str, Any] | None:
    """The ``{"id", "params"}`` of an engine text, or ``None`` for plain text (or no text)."""
    return text.to_json() if isinstance(text, Message) else None

"""Rule sets as data: a frozen dataclass per game, named presets, TOML files and ``key=value`` overrides.

Each field carries its help text in ``metadata["doc"]``, for string options its allowed values in
``metadata["choices"]``, and for numeric options its range (``min``, ``max``, ``step``; for tuples of numbers
the range of every number in them and ``max_items``). Every construction checks types, choices and ranges, then
the game's own :meth:`RuleSet.validate`; unknown keys and impossible values raise :class:`RuleConfigError`
naming the option.
"""

from __future__ import annotations

import dataclasses
import json
import math
import tomllib
import types
import typing
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, ClassVar, Self

from dicehall.core.errors import RuleConfigError
from dicehall.i18n.message import Message as M


def option(
    default: Any,
    doc: str,
    *,
    choices: Iterable[str] | None = None,
    min: float | None = None,  # shadows the builtin on purpose: the name users read in docs and the API
    max: float | None = None,
    step: int | None = None,
    max_items: int | None = None,
) -> Any:
    """Declare a rule field with its help text and what values it allows.

    ``choices`` lists a string option's values; ``min``/``max`` (inclusive) and ``step`` (the value must be a
    multiple of it) bound a number, or every number inside a tuple option, whose length ``max_items`` bounds.
    """
    meta: dict[str, Any] = {"doc": doc}
    if choices is not None:
        meta["choices"] = tuple(choices)
    for key, value in (("min", min), ("max", max), ("step", step), ("max_items", max_items)):
        if value is not None:
            meta[key] = value
    if isinstance(default, list | dict):
        raise TypeError("rule defaults must be immutable (use tuples)")
    return dataclasses.field(default=default, metadata=meta)


def range_text(meta: Mapping[str, Any]) -> str:
    """The allowed values of an option in words, e.g. ``"20–5000, multiple of 5"`` (empty when unbounded)."""
    lo, hi, step = meta.get("min"), meta.get("max"), meta.get("step")
    parts = []
    if lo is not None and hi is not None:
        parts.append(f"{lo}–{hi}")
    elif lo is not None:
        parts.append(f"at least {lo}")
    elif hi is not None:
        parts.append(f"at most {hi}")
    if step:
        parts.append(f"multiple of {step}")
    text = ", ".join(parts)
    if "max_items" in meta:
        text = f"{'each ' + text + '; ' if text else ''}at most {meta['max_items']} entries"
    if "choices" in meta:
        text = " | ".join(meta["choices"])
    return text


def _numbers(value: Any) -> Iterator[int | float]:
    if isinstance(value, tuple):
        for v in value:
            yield from _numbers(v)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield value


def _range_problem(name: str, meta: Mapping[str, Any], value: Any) -> RuleConfigError | None:
    """The error for a value outside its option's range, or ``None``."""
    lo, hi, step = meta.get("min"), meta.get("max"), meta.get("step")
    subject = name
    if isinstance(value, tuple):
        if "max_items" in meta and len(value) > meta["max_items"]:
            return RuleConfigError(
                M("rules.error.max_items", option=name, max=meta["max_items"], got=len(value)), option=name
            )
        subject = M("rules.error.every_number", option=name)
    for number in _numbers(value):
        if isinstance(number, float) and not math.isfinite(number):
            return RuleConfigError(M("rules.error.finite", subject=subject, got=str(number)), option=name)
        if (lo is not None and number < lo) or (hi is not None and number > hi):
            if lo is not None and hi is not None:
                bounds = M("rules.error.between", subject=subject, min=lo, max=hi, got=number)
            elif lo is not None:
                bounds = M("rules.error.at_least", subject=subject, min=lo, got=number)
            else:
                bounds = M("rules.error.at_most", subject=subject, max=hi, got=number)
            return RuleConfigError(bounds, option=name)
        if step and number % step:
            return RuleConfigError(M("rules.error.step", subject=subject, step=step, got=number), option=name)
    return None


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:  # get_type_hints is slow and every construction needs the hints
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


@dataclasses.dataclass(frozen=True)
class RuleSet:
    """Base of every game's rules. Subclasses add fields with :func:`option` and fill ``PRESETS``."""

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {}
    DEFAULT_PRESET: ClassVar[str] = ""

    preset: str = dataclasses.field(default="", metadata={"doc": "the preset these rules start from"})

    def __post_init__(self) -> None:
        # Every construction (presets, overrides, ``dataclasses.replace``, a direct call) is checked, so an engine
        # never sees an option of the wrong type or outside its range.
        for f in dataclasses.fields(self):
            if f.name != "preset":
                problem = self._value_problem(f.name, getattr(self, f.name))
                if problem is not None:
                    raise problem
        self.validate()

    # -- construction -----------------------------------------------------------------------------------------
    @classmethod
    def from_preset(cls, name: str | None = None, overrides: Mapping[str, Any] | None = None) -> Self:
        name = name or cls.DEFAULT_PRESET
        if name not in cls.PRESETS:
            raise RuleConfigError(
                M("rules.error.unknown_preset", name=repr(name), choices=", ".join(cls.PRESETS))
            )
        values = cls._coerce_all(cls.PRESETS[name])
        values.update(cls._coerce_all(overrides or {}))
        return cls._build(name, values, frozenset(overrides or {}))

    @classmethod
    def adapt(cls, values: dict[str, Any], explicit: frozenset[str]) -> dict[str, Any]:
        """The options the player did not set (not in ``explicit``) that no longer fit those they did, moved to
        fit: each game's ruling (Dice 1000 fits its pits, barrel and dump truck to the target). Options set
        explicitly are never changed. By default nothing moves."""
        return values

    @classmethod
    def _build(cls, name: str, values: dict[str, Any], explicit: frozenset[str]) -> Self:
        """The rules from a preset's ``values`` with ``explicit`` options set by the player, after
        :meth:`adapt`; a refusal of options the player set says which values would work instead."""
        values = {**cls._defaults(), **values}  # adapt sees every option
        try:
            return cls(**cls.adapt(dict(values), explicit), preset=name)
        except RuleConfigError as exc:
            raise cls._with_suggestion(exc, name, values, explicit) from None

    @classmethod
    def _defaults(cls) -> dict[str, Any]:
        return {
            f.name: f.default
            for f in dataclasses.fields(cls)
            if f.name != "preset" and f.default is not dataclasses.MISSING
        }

    @classmethod
    def _with_suggestion(
        cls, exc: RuleConfigError, name: str, values: dict[str, Any], explicit: frozenset[str]
    ) -> RuleConfigError:
        """``exc`` with the values of the refused options that would work (those :meth:`adapt` gives when the
        player leaves them out), when there are such values."""
        refused = {p.option for p in exc.problems if p.option} & explicit
        fixed = None
        while refused and fixed is None:  # leaving one option out may show the next that does not fit
            try:
                fixed = cls(**cls.adapt(dict(values), explicit - refused), preset=name)
            except RuleConfigError as again:
                more = {p.option for p in again.problems if p.option} & (explicit - refused)
                if not more:
                    return exc
                refused |= more
        if fixed is None:
            return exc
        changes = [k for k in sorted(refused) if getattr(fixed, k) != values[k]]
        if not changes:
            return exc
        suggestion = " ".join(f"{k}={assignment_text(getattr(fixed, k))}" for k in changes)
        said = M("rules.error.suggest", problem=exc.text, suggestion=suggestion, options=", ".join(changes))
        better = RuleConfigError(said, option=exc.option)
        better.problems = exc.problems
        return better

    def with_overrides(self, overrides: Mapping[str, Any]) -> Self:
        return dataclasses.replace(self, **self._coerce_all(overrides))

    @classmethod
    def check(
        cls, preset: str | None, overrides: Mapping[str, Any]
    ) -> tuple[Self | None, list[RuleConfigError]]:
        """The rules for ``preset`` + ``overrides``, or every problem found (for a form that shows them all).

        Each option is checked on its own first (name, type, choices, range) and all such errors are returned;
        only when there are none do the game's cross-option checks run (they report the first problem).
        """
        name = preset or cls.DEFAULT_PRESET
        if name not in cls.PRESETS:
            return None, [
                RuleConfigError(
                    M("rules.error.unknown_preset", name=repr(name), choices=", ".join(cls.PRESETS))
                )
            ]
        errors: list[RuleConfigError] = []
        values = cls._coerce_all(cls.PRESETS[name])
        for key, raw in overrides.items():
            try:
                values[key] = cls._coerce(key, raw)
            except RuleConfigError as exc:
                errors.append(exc)
                continue
            problem = cls._value_problem(key, values[key])
            if problem is not None:
                errors.append(problem)
        if errors:
            return None, errors
        try:
            return cls._build(name, values, frozenset(overrides)), []
        except RuleConfigError as exc:
            return None, [exc]

    @classmethod
    def from_toml(cls, path: str | Path) -> Self:
        """Load ``preset = "name"`` plus option keys (top level or under ``[rules]``) from a TOML file."""
        return cls.from_preset(*cls._toml_table(path))

    @classmethod
    def _toml_table(cls, path: str | Path) -> tuple[str | None, dict[str, Any]]:
        """A rules file's preset and options."""
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise RuleConfigError(M("rules.error.file", path=str(path), reason=str(exc))) from exc
        table = dict(data.pop("rules", {}))
        preset = data.pop("preset", table.pop("preset", None))
        table.update(data)
        if preset is not None and not isinstance(preset, str):
            raise RuleConfigError(M("rules.error.preset_type"))
        return preset, table

    @classmethod
    def from_cli(
        cls, preset: str | None, assignments: Iterable[str] = (), toml_file: str | Path | None = None
    ) -> Self:
        """Rules from a ``--preset``, an optional ``--rules FILE`` and ``--set key=value`` flags."""
        # one construction with every option the player set (the file's and the flags'), so that the options left
        # out are fitted to them (adapt) and every conflict is reported at once
        explicit = cls.parse_assignments(assignments)
        if not toml_file:
            return cls.from_preset(preset, explicit)
        file_preset, table = cls._toml_table(toml_file)
        if preset and preset != (file_preset or cls.DEFAULT_PRESET):
            table = cls.from_preset(file_preset, table).overrides()  # the file's rules on another preset
            file_preset = preset
        return cls.from_preset(file_preset, {**table, **explicit})

    # -- parsing ------------------------------------------------------------------------------------------
    @classmethod
    def option_names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls) if f.name != "preset"]

    @classmethod
    def parse_assignments(cls, assignments: Iterable[str]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for item in assignments:
            key, sep, raw = item.partition("=")
            key = key.strip().replace("-", "_")
            if not sep:
                raise RuleConfigError(M("rules.error.assignment", got=repr(item)), option=key or None)
            out[key] = cls._parse_text(key, raw.strip())
        return out

    @classmethod
    def _field(cls, key: str) -> dataclasses.Field[Any]:
        for f in dataclasses.fields(cls):
            if f.name == key and key != "preset":
                return f
        names = ", ".join(cls.option_names())
        raise RuleConfigError(M("rules.error.unknown_option", option=repr(key), choices=names), option=key)

    @classmethod
    def _hint(cls, key: str) -> Any:
        return _hints(cls)[key]

    @classmethod
    def _value_problem(cls, key: str, value: Any) -> RuleConfigError | None:
        """The error for a value of the wrong type, not among the choices or outside the range, or ``None``."""
        f = cls._field(key)
        hint = cls._hint(key)
        try:
            coerced = _coerce_to(hint, value)
            ok = (coerced is value or coerced == value) and type(coerced) is type(value)
        except (TypeError, ValueError):
            ok = False
        if not ok:
            return RuleConfigError(
                M("rules.error.type", option=key, type=cls._type_name(hint), got=repr(value)), option=key
            )
        choices = f.metadata.get("choices")
        if choices and value not in choices:
            return RuleConfigError(
                M("rules.error.choice", option=key, choices=", ".join(choices), got=repr(value)), option=key
            )
        return _range_problem(key, f.metadata, value)

    @classmethod
    def range_of(cls, key: str) -> dict[str, Any]:
        """``min``, ``max``, ``step`` and ``max_items`` of an option (those it has)."""
        meta = cls._field(key).metadata
        return {k: meta[k] for k in ("min", "max", "step", "max_items") if k in meta}

    @classmethod
    def _parse_text(cls, key: str, raw: str) -> Any:
        hint = cls._hint(cls._field(key).name)
        if hint is bool:
            low = raw.lower()
            if low in ("true", "yes", "on", "1"):
                return True
            if low in ("false", "no", "off", "0"):
                return False
            raise RuleConfigError(M("rules.error.bool", option=key, got=repr(raw)), option=key)
        if hint is str:
            return raw
        if typing.get_origin(hint) is tuple and raw.lower() in ("none", "no", "off"):
            return ()  # pits=none: no pits
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            raise RuleConfigError(
                M("rules.error.unreadable", option=key, got=repr(raw), type=cls._type_name(hint)), option=key
            ) from None

    @staticmethod
    def _type_name(hint: Any) -> str:
        return getattr(hint, "__name__", str(hint))

    @classmethod
    def _coerce_all(cls, values: Mapping[str, Any]) -> dict[str, Any]:
        return {key: cls._coerce(key, value) for key, value in values.items()}

    @classmethod
    def _coerce(cls, key: str, value: Any) -> Any:
        f = cls._field(key)
        hint = cls._hint(f.name)
        try:
            result = _coerce_to(hint, value)
        except (TypeError, ValueError):
            raise RuleConfigError(
                M("rules.error.type", option=key, type=cls._type_name(hint), got=repr(value)), option=key
            ) from None
        choices = f.metadata.get("choices")
        if choices and result not in choices:
            raise RuleConfigError(
                M("rules.error.choice", option=key, choices=", ".join(choices), got=repr(result)), option=key
            )
        return result

    # -- checks and description -------------------------------------------------------------------------------
    def validate(self) -> None:
        """Subclasses raise :class:`RuleConfigError` for impossible combinations."""

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this rule set's preset."""
        base = type(self).from_preset(self.preset) if self.preset in self.PRESETS else None
        out: dict[str, Any] = {}
        for name in self.option_names():
            value = getattr(self, name)
            if base is None or getattr(base, name) != value:
                out[name] = _jsonable(value)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {name: _jsonable(getattr(self, name)) for name in ["preset", *self.option_names()]}

    def describe(self) -> list[tuple[str, Any, str]]:
        """(option, value, help text) for every option, for ``dicehall rules``."""
        return [
            (f.name, _jsonable(getattr(self, f.name)), str(f.metadata.get("doc", "")))
            for f in dataclasses.fields(self)
            if f.name != "preset"
        ]

    @classmethod
    def allowed(cls, key: str) -> str:
        """What values ``key`` allows, in words (``dicehall rules`` shows it)."""
        return range_text(cls._field(key).metadata)


def _coerce_to(hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if hint is bool:
        if not isinstance(value, bool):
            raise TypeError
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise TypeError
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise TypeError
        return value
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, list | tuple):
            raise TypeError
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_coerce_to(args[0], v) for v in value)
        if len(args) != len(value):
            raise ValueError
        return tuple(_coerce_to(a, v) for a, v in zip(args, value, strict=True))
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(hint):
            if arg is type(None) and value is None:
                return None
            try:
                return _coerce_to(arg, value)
            except (TypeError, ValueError):
                continue
        raise TypeError
    raise TypeError(f"unsupported rule type {hint!r}")


def assignment_text(value: Any) -> str:
    """A value as ``--set key=VALUE`` takes it: ``none`` for an empty list, ``[[60,90],[180,210]]``, ``true``.

    >>> assignment_text(()), assignment_text(((60, 90), (180, 210))), assignment_text(True), assignment_text(265)
    ('none', '[[60,90],[180,210]]', 'true', '265')
    """
    if isinstance(value, tuple) and not value:
        return "none"
    if isinstance(value, str):
        return value
    return json.dumps(_jsonable(value), separators=(",", ":"))


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value

"""Rule sets as data: a frozen dataclass per game, named presets, TOML files and ``key=value`` overrides.

Each field carries its help text in ``metadata["doc"]`` and, for string options, its allowed values in
``metadata["choices"]``. Unknown keys and impossible values raise :class:`RuleConfigError`.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
import typing
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar, Self

from dicehall.core.errors import RuleConfigError


def option(default: Any, doc: str, *, choices: Iterable[str] | None = None) -> Any:
    """Declare a rule field with its help text (and allowed values for strings)."""
    meta: dict[str, Any] = {"doc": doc}
    if choices is not None:
        meta["choices"] = tuple(choices)
    if isinstance(default, list | dict):
        raise TypeError("rule defaults must be immutable (use tuples)")
    return dataclasses.field(default=default, metadata=meta)


@dataclasses.dataclass(frozen=True)
class RuleSet:
    """Base of every game's rules. Subclasses add fields with :func:`option` and fill ``PRESETS``."""

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {}
    DEFAULT_PRESET: ClassVar[str] = ""

    preset: str = dataclasses.field(default="", metadata={"doc": "the preset these rules start from"})

    # -- construction -----------------------------------------------------------------------------------------
    @classmethod
    def from_preset(cls, name: str | None = None, overrides: Mapping[str, Any] | None = None) -> Self:
        name = name or cls.DEFAULT_PRESET
        if name not in cls.PRESETS:
            raise RuleConfigError(f"unknown preset {name!r}; choose one of: {', '.join(cls.PRESETS)}")
        values = dict(cls.PRESETS[name])
        values.update(cls._coerce_all(overrides or {}))
        values["preset"] = name
        rules = cls(**values)
        rules.validate()
        return rules

    def with_overrides(self, overrides: Mapping[str, Any]) -> Self:
        changes = self._coerce_all(overrides)
        rules = dataclasses.replace(self, **changes)
        rules.validate()
        return rules

    @classmethod
    def from_toml(cls, path: str | Path) -> Self:
        """Load ``preset = "name"`` plus option keys (top level or under ``[rules]``) from a TOML file."""
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise RuleConfigError(f"cannot read rules file {path}: {exc}") from exc
        table = dict(data.pop("rules", {}))
        preset = data.pop("preset", table.pop("preset", None))
        table.update(data)
        if preset is not None and not isinstance(preset, str):
            raise RuleConfigError("'preset' must be a string")
        return cls.from_preset(preset, table)

    @classmethod
    def from_cli(
        cls, preset: str | None, assignments: Iterable[str] = (), toml_file: str | Path | None = None
    ) -> Self:
        """Rules from a ``--preset``, an optional ``--rules FILE`` and ``--set key=value`` flags."""
        base = cls.from_toml(toml_file) if toml_file else cls.from_preset(preset)
        if toml_file and preset and preset != base.preset:
            base = cls.from_preset(preset, base.overrides())
        return base.with_overrides(cls.parse_assignments(assignments)) if assignments else base

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
                raise RuleConfigError(f"--set needs key=value, got {item!r}")
            out[key] = cls._parse_text(key, raw.strip())
        return out

    @classmethod
    def _field(cls, key: str) -> dataclasses.Field[Any]:
        for f in dataclasses.fields(cls):
            if f.name == key and key != "preset":
                return f
        names = ", ".join(cls.option_names())
        raise RuleConfigError(f"unknown rule option {key!r}; known options: {names}")

    @classmethod
    def _hint(cls, key: str) -> Any:
        return typing.get_type_hints(cls)[key]

    @classmethod
    def _parse_text(cls, key: str, raw: str) -> Any:
        hint = cls._hint(cls._field(key).name)
        if hint is bool:
            low = raw.lower()
            if low in ("true", "yes", "on", "1"):
                return True
            if low in ("false", "no", "off", "0"):
                return False
            raise RuleConfigError(f"{key} must be true or false, got {raw!r}")
        if hint is str:
            return raw
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            raise RuleConfigError(f"{key}: cannot read {raw!r} as {cls._type_name(hint)}") from None

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
            raise RuleConfigError(f"{key} must be {cls._type_name(hint)}, got {value!r}") from None
        choices = f.metadata.get("choices")
        if choices and result not in choices:
            raise RuleConfigError(f"{key} must be one of {', '.join(choices)}; got {result!r}")
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
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        for arg in typing.get_args(hint):
            if arg is type(None) and value is None:
                return None
            try:
                return _coerce_to(arg, value)
            except (TypeError, ValueError):
                continue
        raise TypeError
    raise TypeError(f"unsupported rule type {hint!r}")


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value

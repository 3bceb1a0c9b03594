"""Server settings: every limit a public site needs, with defaults for a small site, from a TOML file, the
environment and flags.

``dicehall serve --settings FILE`` reads the keys below (top level or under ``[server]``); each key can also come
from a ``DICEHALL_<KEY>`` variable (``DICEHALL_BOT_WORKERS=4``), and ``serve``'s own options from theirs
(``DICEHALL_PORT``, ``DICEHALL_DB``, ...). A flag wins over the environment, the environment over the file, the
file over the default. Unknown keys and values out of range are refused at start with a message naming the key or
the variable; an unknown ``DICEHALL_`` variable is logged as ignored (``.env.example`` lists them all).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


class SettingsError(ValueError):
    """A settings file or option the server cannot use; the message names the key and what is allowed."""


ENV_PREFIX = "DICEHALL_"
INTERNAL_ENV = frozenset({"DICEHALL_ANALYST", "DICEHALL_WARM_UP"})
"""Switches the test suite uses (background analyses, start-up warm-up), documented where they are read."""


def env_name(key: str) -> str:
    return ENV_PREFIX + key.upper()


PUSH_SERVICES = (
    "fcm.googleapis.com,updates.push.services.mozilla.com,push.services.mozilla.com,notify.windows.com,"
    "push.apple.com"
)
"""The push services of Chrome/Edge/Android, Firefox, Windows and Safari."""


def _field(default: float | int, doc: str, lo: float, hi: float) -> Any:
    return dataclasses.field(default=default, metadata={"doc": doc, "min": lo, "max": hi})


@dataclasses.dataclass(frozen=True)
class ServerSettings:
    bot_delay: float = _field(
        0.8, "seconds a bot 'thinks' before its move (times a random factor 0.7-1.3)", 0, 60
    )
    bot_workers: int = _field(0, "bot worker processes; 0 = one per CPU core", 0, 64)
    bot_budget: float = _field(
        2.0, "seconds a bot may spend on one move before a simpler fallback plays it", 0.05, 120
    )
    bot_cache_size: int = _field(
        32, "bot instances (with their tables) kept per worker, least recently used out", 1, 10_000
    )
    tables_per_hour: int = _field(30, "tables one player may create per hour", 1, 1_000_000)
    unfinished_per_client: int = _field(10, "unfinished tables one player may have at once", 1, 1_000_000)
    correspondence_per_client: int = _field(
        100, "unfinished correspondence tables (days per move) one player may have at once", 1, 1_000_000
    )
    tables_per_hour_per_address: int = _field(
        600, "tables all players behind one address (a school, an office) may create per hour", 1, 10_000_000
    )
    unfinished_per_address: int = _field(
        300, "unfinished tables all players behind one address may have at once", 1, 10_000_000
    )
    ws_messages_per_second: float = _field(
        20, "websocket messages per second per connection before rate_limited", 1, 10_000
    )
    ws_burst: int = _field(
        40, "websocket messages a connection may send at once before the rate applies", 1, 100_000
    )
    live_tables: int = _field(
        500, "unfinished tables held in memory; idle ones beyond this are unloaded", 1, 1_000_000
    )
    idle_unload_seconds: float = _field(
        900, "an unfinished table untouched this long is unloaded from memory", 1, 10**8
    )
    abandon_after_days: float = _field(
        7, "an unfinished table nobody moved in for this long is closed as abandoned", 0.0001, 3650
    )
    lease_seconds: float = _field(
        10,
        "several processes on one database (--node-url): a table's lease; a dead process's tables move after it",
        1,
        600,
    )
    shutdown_grace: float = _field(
        2.0, "seconds SIGTERM waits for in-flight work before connections are closed", 0, 60
    )
    public_origin: str = dataclasses.field(
        default="",
        metadata={
            "doc": "the address people open, https://HOST[:PORT]: passkeys are bound to its host (without it "
            "they work only on http://localhost)"
        },
    )

    push_services: str = dataclasses.field(
        default=PUSH_SERVICES,
        metadata={
            "doc": "Web Push: the push services (hosts and their subdomains, comma-separated) the server posts "
            "notifications to; 'loopback' also allows http://127.0.0.1 (tests)",
            "check": "hosts",
        },
    )
    push_contact: str = dataclasses.field(
        default="",
        metadata={
            "doc": "Web Push: how a push service reaches the operator, mailto:ADDRESS or an https address "
            "(default: the public origin)",
            "check": "contact",
        },
    )

    metrics: str = dataclasses.field(
        default="loopback",
        metadata={
            "doc": "who may read /metrics: loopback (this machine: a Prometheus beside the server), open (anyone), "
            "off (nothing is counted); with metrics_token set, whoever sends it",
            "check": "metrics",
        },
    )
    metrics_token: str = dataclasses.field(
        default="",
        metadata={
            "doc": "a secret of at least 16 characters: /metrics then answers whoever sends "
            "'Authorization: Bearer TOKEN' (Prometheus: authorization.credentials)",
            "check": "token",
        },
    )

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type in ("str", str):
                {
                    "hosts": check_hosts,
                    "contact": check_contact,
                    "metrics": check_metrics,
                    "token": check_token,
                }.get(f.metadata.get("check", ""), check_origin)(f.name, value)
                continue
            kind = int if f.type in ("int", int) else float
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise SettingsError(f"setting {f.name} must be a number, got {value!r}")
            if kind is int and not isinstance(value, int):
                raise SettingsError(f"setting {f.name} must be a whole number, got {value!r}")
            lo, hi = f.metadata["min"], f.metadata["max"]
            if not lo <= value <= hi:
                raise SettingsError(f"setting {f.name} must be between {lo} and {hi}, got {value!r}")

    @property
    def worker_count(self) -> int:
        return self.bot_workers or max(1, os.cpu_count() or 1)

    def with_values(self, values: Mapping[str, Any]) -> ServerSettings:
        """These settings with some replaced; ``None`` values are ignored (an option not given)."""
        known = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise SettingsError(f"unknown setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        changes = {k: v for k, v in values.items() if v is not None}
        return dataclasses.replace(self, **changes)

    def with_env(self, environ: Mapping[str, str], also: frozenset[str] = frozenset()) -> ServerSettings:
        """These settings with every ``DICEHALL_<KEY>`` of ``environ`` applied; ``also``: other variables of ours
        (the serve command's options). A bad value is refused, the variable named; an unknown ``DICEHALL_``
        variable is logged as ignored."""
        fields = {env_name(f.name): f for f in dataclasses.fields(self)}
        known = set(fields) | INTERNAL_ENV | also
        unknown = sorted(k for k in environ if k.startswith(ENV_PREFIX) and k not in known)
        if unknown:  # (a typo, or a developer tool's own variable: said, not refused)
            logging.getLogger("dicehall.web").warning(
                "ignored: %s (not a setting; settings: %s)",
                ", ".join(unknown),
                ", ".join(sorted(known - INTERNAL_ENV)),
            )
        out = self
        for var, f in fields.items():
            text = environ.get(var)
            if text is None or text == "":
                continue
            try:
                value: Any = (
                    text
                    if f.type in ("str", str)
                    else _number(text, int if f.type in ("int", int) else float)
                )
                out = out.with_values({f.name: value})
            except (SettingsError, ValueError) as exc:
                raise SettingsError(f"{var}: {exc}") from None
        return out

    @classmethod
    def from_toml(cls, path: str | Path) -> ServerSettings:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise SettingsError(f"cannot read settings file {path}: {exc}") from exc
        table = data.pop("server", {})
        if not isinstance(table, dict):
            raise SettingsError("[server] in the settings file must be a table")
        table.update(data)
        return cls().with_values(table)

    @property
    def push_hosts(self) -> tuple[str, ...]:
        return tuple(h.strip() for h in self.push_services.split(","))

    @property
    def push_claim(self) -> str:
        """The VAPID ``sub`` claim."""
        return self.push_contact or self.origin or "mailto:dicehall@localhost"

    @property
    def origin(self) -> str:
        """The public origin without a trailing slash ("" when none is set)."""
        return self.public_origin.rstrip("/")

    @property
    def rp_id(self) -> str | None:
        """The WebAuthn relying party id (the public origin's host), or None when no public origin is set."""
        return urlsplit(self.public_origin).hostname if self.public_origin else None

    @classmethod
    def describe(cls) -> list[tuple[str, Any, str]]:
        """(name, default, doc) of every setting, for docs and ``--help``."""
        return [(f.name, f.default, f.metadata["doc"]) for f in dataclasses.fields(cls)]


def _number(text: str, kind: type) -> int | float:
    try:
        return int(text) if kind is int else float(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise SettingsError(f"must be {what}, got {text!r}") from None


def check_metrics(name: str, value: object) -> None:
    if value not in ("loopback", "open", "off"):
        raise SettingsError(f"setting {name} must be loopback, open or off, got {value!r}")


def check_token(name: str, value: object) -> None:
    if not isinstance(value, str) or (value and (len(value) < 16 or not value.isprintable() or " " in value)):
        raise SettingsError(f"setting {name} must be empty or at least 16 characters without spaces")


def check_hosts(name: str, value: object) -> None:
    """A comma-separated list of host names (``loopback`` allowed)."""
    hosts = value.split(",") if isinstance(value, str) else None
    if hosts is None or not all(
        h.strip() and all(part.isalnum() or "-" in part for part in h.strip().split(".")) for h in hosts
    ):
        raise SettingsError(f"setting {name} must be host names separated by commas, got {value!r}")


def check_contact(name: str, value: object) -> None:
    """Empty, ``mailto:ADDRESS`` or an https address."""
    if not isinstance(value, str) or not (
        not value or (value.startswith("mailto:") and "@" in value) or value.startswith("https://")
    ):
        raise SettingsError(f"setting {name} must be mailto:ADDRESS or an https address, got {value!r}")


def check_origin(name: str, value: object) -> None:
    """A public origin is empty or ``scheme://host[:port]`` with nothing after it (http only for localhost: browsers
    offer passkeys only to secure pages)."""
    if not isinstance(value, str):
        raise SettingsError(f"setting {name} must be text like https://dice.example, got {value!r}")
    if not value:
        return
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018  # raises on a port that is not a number
    except ValueError:
        parts = None
    if (
        parts is None
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username
        or parts.scheme not in ("https", "http")
        or (parts.scheme == "http" and parts.hostname != "localhost")
    ):
        raise SettingsError(
            f"setting {name} must be an origin like https://dice.example (http only for localhost), got {value!r}"
        )

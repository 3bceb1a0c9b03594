"""The terminal player's settings: the name ``dicehall play --name`` remembers for the ``me`` seat.

The file is ``platformdirs.user_config_dir("dicehall")/config.toml`` (``$XDG_CONFIG_HOME/dicehall/config.toml``,
else ``~/.config/dicehall/config.toml`` on Linux) and holds::

    [player]
    name = "Ann"

It is written whole and atomically (a temporary file beside it, then ``os.replace``), so an interrupted save
leaves the old file. A file that cannot be used raises :class:`ConfigError` naming the path and the problem; the
command then plays on without the name.
"""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from pathlib import Path

import platformdirs

from dicehall.core.errors import DicehallError
from dicehall.core.names import NameRefused, check_name
from dicehall.i18n.message import Message


class ConfigError(DicehallError):
    """The settings file exists but cannot be used (unreadable, not TOML, a name that breaks the rules)."""


def config_file() -> Path:
    return Path(platformdirs.user_config_dir("dicehall")) / "config.toml"


def saved_name() -> str | None:
    """The remembered name, ``None`` when no file or no name was saved; :class:`ConfigError` when the file is
    broken."""
    path = config_file()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _broken(path, Message("config.reason.unreadable", problem=exc.strerror or str(exc))) from None
    except UnicodeDecodeError:
        raise _broken(path, Message("config.reason.not_utf8")) from None
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"at line (\d+)", str(exc))
        reason = Message("config.reason.not_toml", line=int(line.group(1)) if line else 1)
        raise _broken(path, reason) from None
    player = data.get("player")
    if player is None:
        return None
    name = player.get("name") if isinstance(player, dict) else None
    if not isinstance(name, str):
        raise _broken(path, Message("config.reason.no_name"))
    try:
        return check_name(name)
    except NameRefused as exc:
        raise _broken(path, exc.text) from None


def save_name(name: str) -> Path:
    """Remember ``name`` (already checked by :func:`~dicehall.core.names.check_name`); the file's path.
    ``OSError`` when the directory cannot be made or written."""
    path = config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=".config-", suffix=".toml", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(f"[player]\nname = {toml_string(name)}\n")
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise
    return path


def toml_string(text: str) -> str:
    r"""``text`` as a TOML basic string: quotes and backslashes escaped, control characters as ``\uXXXX``.

    >>> print(toml_string('Ann "the Bold" \\ Lee'))
    "Ann \"the Bold\" \\ Lee"
    """
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _broken(path: Path, reason: str) -> ConfigError:
    return ConfigError(msgid="config.broken", params={"path": str(path), "reason": reason})

"""The server's log lines: plain text (the default) or one JSON object a line (``--log-format json``).

A JSON line has ``time`` (UTC, ISO 8601), ``level``, ``logger`` and ``message``, and where the code knows them
``table``, ``seat``, ``event`` (the table's event number) and ``duration`` (seconds), given as ``extra=`` fields
of the logging call; an access-log line (``--access-log``) also has ``client``, ``method``, ``path`` and
``status``. Secrets never reach either form: the message, the path and any traceback pass through
:func:`dicehall.web.security.redact` here, whichever logger the record came from.
"""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

from dicehall.web.security import redact

LOG_FORMATS = ("text", "json")
FIELDS = ("table", "seat", "event", "duration")
"""The ``extra=`` keys a JSON line carries when a logging call gives them."""


def table_fields(
    table: str, seat: int | None = None, event: int | None = None, duration: float | None = None
) -> dict[str, Any]:
    """``extra=`` for a logging call about a table (the JSON log's fields)."""
    out: dict[str, Any] = {"table": table, "seat": seat, "event": event, "duration": duration}
    return {k: v for k, v in out.items() if v is not None}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(record.args) == 5:
            client, method, path, _version, status = record.args
            out["message"] = "request"
            out.update(client=client, method=method, path=redact(str(path)), status=status)
        else:
            out["message"] = redact(record.getMessage())
        for key in FIELDS:
            value = getattr(record, key, None)
            if value is not None:
                out[key] = round(value, 6) if key == "duration" else value
        if record.exc_info:
            out["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(out, ensure_ascii=False, default=str)


class RedactedText(logging.Formatter):
    """The text form, with the same redaction as the JSON one (a child logger's record skips its parents'
    filters, so the formatter is the one place every line passes)."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def configure(log_format: str, level: int) -> None:
    """One handler on stderr at the root; uvicorn's loggers propagate to it (uvicorn gets no config of its own)."""
    handler = logging.StreamHandler(sys.stderr)
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(RedactedText("%(levelname)s: %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)

"""Structured logs (``riichi serve --log-json``): one JSON object a line, one line an
event, for a log collector to index.

Each line holds the time (seconds since the epoch), the level, the logger, the
message, and where the event names them, the table's id and the account's: from the
record's ``table`` or ``account`` attributes (``log.info(..., extra={"table": id})``),
else from the message's own words: the site's table events begin "table ID:", and a
request's line names its path.
A request's access line keeps the path with its token redacted (``RedactTokens``).
"""

from __future__ import annotations

import json
import logging
import re

# "table ID:" in the site's events, "/tables/ID" in a request's line; an id has a digit
_TABLE = re.compile(r"\btables?[ /](?=[0-9A-Za-z_-]*\d)([0-9A-Za-z_-]{1,64})\b")
_ACCOUNT = re.compile(r"\baccount[: ](\d{1,12})\b")


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        line: dict[str, object] = {
            "time": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": message,
        }
        for key, pattern in (("table", _TABLE), ("account", _ACCOUNT)):
            given = getattr(record, key, None)
            found = pattern.search(message) if given is None else None
            if given is not None or found is not None:
                line[key] = given if given is not None else found.group(1)  # type: ignore[union-attr]
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def json_logging(config: dict[str, object]) -> dict[str, object]:
    """Uvicorn's logging configuration with every handler writing JSON lines."""
    formatters = {"json": {"()": f"{__name__}.JsonLines"}}
    handlers = config.get("handlers")
    assert isinstance(handlers, dict)
    for handler in handlers.values():
        handler["formatter"] = "json"
    return {**config, "formatters": formatters}

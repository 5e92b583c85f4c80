"""The site's words in English and Japanese: one catalogue a language, the same keys
in each, and every key the page or its scripts ask for in the catalogues."""

from __future__ import annotations

import json
import re
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "src" / "riichi" / "server" / "static"


def catalogue(lang: str) -> dict[str, str]:
    text = (STATIC / "js" / "lang" / f"{lang}.js").read_text(encoding="utf-8")
    body = text[text.index("export default ") + len("export default ") :].rstrip().rstrip(";")
    found: dict[str, str] = json.loads(body)
    return found


def asked() -> set[str]:
    """The keys the page names (data-i18n) and its scripts ask t() for, with a
    ``${...}`` part read as each of the names it takes in the catalogue."""
    keys = set(re.findall(r'data-i18n="([\w.-]+)"', (STATIC / "index.html").read_text()))
    english = catalogue("en")
    for script in (STATIC / "js").glob("*.js"):
        for key in re.findall(r"""\bt\(\s*[`"']([^`"']+)[`"']""", script.read_text()):
            if "${" in key:
                pattern = re.escape(key[: key.index("${")]) + r"[\w-]+$"
                matches = {k for k in english if re.match(pattern, k)}
                assert matches, f"{script.name}: no key matches {key}"
                keys |= matches
            else:
                keys.add(key)
    return keys


def test_every_language_has_every_key_and_the_same_placeholders() -> None:
    english, japanese = catalogue("en"), catalogue("ja")
    assert set(japanese) == set(english), set(english) ^ set(japanese)
    for key, text in english.items():
        holes = sorted(re.findall(r"\{(\w+)\}", text))
        assert sorted(re.findall(r"\{(\w+)\}", japanese[key])) == holes, key
        assert japanese[key].strip(), key


def test_every_key_asked_for_is_in_the_catalogues() -> None:
    missing = asked() - set(catalogue("en"))
    assert not missing, f"asked for but not in the catalogue: {sorted(missing)}"
    assert len(asked()) > 60


def test_a_missing_key_fails_the_check(tmp_path: Path) -> None:
    """The check above is not vacuous: a key asked for and missing is found."""
    english = catalogue("en")
    del english["act.pon"]
    assert "act.pon" in asked() - set(english)

"""The site's words in English and Japanese: one catalogue a language. The keyed
texts have the same keys in each; every text the page itself is written with has
its Japanese; every key the page or its scripts ask for is in the catalogues."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "src" / "riichi" / "server" / "static"
SKIPPED = ("script", "style", "code", "textarea")  # as the page's watcher skips them
READ = ("placeholder", "aria-label", "title")  # the attributes a person reads
EMPTY = ("meta", "link", "input", "br", "img")


def catalogue(lang: str) -> dict[str, str]:
    text = (STATIC / "js" / "lang" / f"{lang}.js").read_text(encoding="utf-8")
    body = text[text.index("export default ") + len("export default ") :].rstrip().rstrip(";")
    found: dict[str, str] = json.loads(body)
    return found


class PageTexts(HTMLParser):
    """The texts and read attributes of a page a person sees in English, less those
    marked translate="no", keyed by data-i18n, or without a letter."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, bool]] = []  # each open element: its tag, left as it is
        self.texts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        kept = (
            tag in SKIPPED
            or named.get("translate") == "no"
            or "data-i18n" in named
            or any(kept for _, kept in self.open)
        )
        if not kept:
            self.texts += [named[a] or "" for a in READ if named.get(a)]
        if tag not in EMPTY:
            self.open.append((tag, kept))

    def handle_endtag(self, tag: str) -> None:
        while self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        if not any(kept for _, kept in self.open):
            self.texts.append(data)


def page_texts(html: str) -> set[str]:
    parser = PageTexts()
    parser.feed(html)
    return {t.strip() for t in parser.texts if re.search("[A-Za-z]", t)}


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
    assert not set(english) - set(japanese), set(english) - set(japanese)
    for key, text in english.items():
        holes = sorted(re.findall(r"\{(\w+)\}", text))
        assert sorted(re.findall(r"\{(\w+)\}", japanese[key])) == holes, key
    assert all(text.strip() for text in japanese.values())


def test_every_text_the_page_is_written_with_has_its_japanese() -> None:
    texts = page_texts((STATIC / "index.html").read_text())
    assert len(texts) > 200  # the parser read the page
    missing = sorted(texts - set(catalogue("ja")))
    assert not missing, f"in the page, not in ja.js: {missing}"


def test_the_phrase_check_finds_a_new_text() -> None:
    html = (STATIC / "index.html").read_text()
    grown = html.replace("</main>", "<p>A sentence nobody translated</p></main>", 1)
    assert page_texts(grown) - page_texts(html) == {"A sentence nobody translated"}
    kept = html.replace("</main>", '<p translate="no">Left as it is</p></main>', 1)
    assert page_texts(kept) == page_texts(html)


def test_the_varying_phrases_are_patterns_that_compile_and_fill() -> None:
    patterns = {k[3:]: v for k, v in catalogue("ja").items() if k.startswith("re:")}
    for pattern, text in patterns.items():
        groups = re.compile(f"^{pattern}$").groups
        assert set(re.findall(r"\$(\d)", text)) <= {str(i) for i in range(1, groups + 1)}, pattern


def test_every_key_asked_for_is_in_the_catalogues() -> None:
    missing = asked() - set(catalogue("en"))
    assert not missing, f"asked for but not in the catalogue: {sorted(missing)}"
    assert len(asked()) > 60


def test_a_missing_key_fails_the_check(tmp_path: Path) -> None:
    """The check above is not vacuous: a key asked for and missing is found."""
    english = catalogue("en")
    del english["act.pon"]
    assert "act.pon" in asked() - set(english)

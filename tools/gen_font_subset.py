"""Cut the web font the client draws its Japanese with (run once; output is committed).

Every machine shows the yaku's Japanese names, the winds, kana and every word of the
Japanese site (its catalogue), whatever fonts it has:
the client ships ``static/fonts/riichi-ja.woff2``, the characters it needs and no
more, cut from Noto Sans JP (SIL Open Font License 1.1). The licence reserves the
name "Noto Sans", so the cut font is renamed; the licence travels beside it
(``static/fonts/OFL.txt``). ``tests/test_font.py`` checks that the font still holds
every character the client draws.

Usage: python tools/gen_font_subset.py PATH/NotoSansJP-Regular.otf
(needs fonttools and brotli; ``npm pack @embedpdf/fonts-jp`` carries the font as
``fonts/NotoSansJP-Regular.otf``, with its licence)
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

from riichi.scoring.yaku import Yaku

OUT = Path(__file__).resolve().parent.parent / "src" / "riichi" / "server" / "static" / "fonts"
FAMILY = "riichi ja"
# the winds and dragons, the round's words and the suits' characters, besides the yaku
EXTRA = "東南西北白發発中局本場萬筒索一二三四五六七八九"


# every kana (names are often written in them), the full-width punctuation the
# Japanese site uses; other kanji of names fall back to the system's CJK font
KANA = (
    "".join(chr(c) for c in range(0x3041, 0x3097))
    + "".join(chr(c) for c in range(0x30A1, 0x30FB))
    + "ー・、。「」（）！？：×"
)
LANGUAGES = OUT.parent / "js" / "lang"  # every catalogue: English names Japanese too (日本語)


def needed() -> str:
    """Every character the client draws in the Japanese font, sorted: the yaku, the
    winds, kana and every character of the catalogues beyond ASCII."""
    chars = set(EXTRA) | set(KANA)
    for y in Yaku:
        chars.update(y.ja)
    for catalogue in sorted(LANGUAGES.glob("*.js")):
        chars.update(c for c in catalogue.read_text(encoding="utf-8") if ord(c) > 0x2000)
    return "".join(sorted(chars))


def main(source: str) -> None:
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.name_IDs = []  # the names are set below
    options.notdef_outline = True
    font = subset.load_font(source, options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=needed())
    subsetter.subset(font)
    names = font["name"]
    for record in list(names.names):
        names.removeNames(nameID=record.nameID)
    for name_id, value in {
        0: "Cut from Noto Sans JP: Copyright 2014-2021 Adobe, Google Inc.",
        1: FAMILY,
        2: "Regular",
        3: f"{FAMILY} subset",
        4: FAMILY,
        5: "Version 1.0",
        6: "riichi-ja",
        13: "SIL Open Font License, Version 1.1",
        14: "https://openfontlicense.org",
    }.items():
        names.setName(value, name_id, 3, 1, 0x409)
    OUT.mkdir(parents=True, exist_ok=True)
    target = OUT / "riichi-ja.woff2"
    subset.save_font(font, str(target), options)
    check = TTFont(str(target))
    missing = [c for c in needed() if ord(c) not in check.getBestCmap()]
    if missing:
        raise SystemExit(f"the source font lacks {''.join(missing)}")
    print(f"{target}: {len(needed())} characters, {target.stat().st_size} bytes")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])

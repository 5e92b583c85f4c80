"""The bundled Japanese font holds every character the client draws with it."""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parent.parent
FONTS = ROOT / "src" / "riichi" / "server" / "static" / "fonts"
sys.path.insert(0, str(ROOT / "tools"))

from gen_font_subset import needed  # noqa: E402


def test_the_font_draws_every_yaku_name_wind_kana_and_word_and_carries_its_licence() -> None:
    font = TTFont(str(FONTS / "riichi-ja.woff2"))
    cmap = font.getBestCmap()
    missing = [c for c in needed() if ord(c) not in cmap]
    assert not missing, f"regenerate with tools/gen_font_subset.py: {''.join(missing)} missing"
    for y in (
        "立直一発平和断幺九国士無双" + "あんアンヴー" + "今すぐ対局流局"
    ):  # yaku, kana, the site's words
        assert ord(y) in cmap
    # a cut of a font under the OFL keeps the licence and drops the reserved name
    assert "SIL Open Font License" in (FONTS / "OFL.txt").read_text()
    names = {r.toUnicode() for r in font["name"].names if r.nameID in (1, 4, 6)}
    assert not any("Noto" in n for n in names), names
    assert (FONTS / "riichi-ja.woff2").stat().st_size < 200_000  # a subset, not the 4 MB font

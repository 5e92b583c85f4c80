"""Screenshots of a practice table at four screen sizes, to look at.

At 390x844 (a phone), 844x390 (the phone on its side), 1280x800 (a laptop) and
1920x1080 (a desktop): the hand with the coach on, a call prompt, and a hand's
result, into ``artifacts/screens/``; prints the board's share of the screen at
each size. Each game is left as it is done (a guest may hold three). Needs a
running site (``riichi serve``) and Debian's chromium.

Usage: python tools/screens.py [BASE_URL]
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

OUT = Path(__file__).resolve().parent.parent / "artifacts" / "screens"
SIZES = [(390, 844), (844, 390), (1280, 800), (1920, 1080)]
RESULT = "#result-panel:not([hidden])"


def play_until(page: Page, shown: str, steps: int = 600) -> bool:
    """Discard the last playable tile, pass on calls and go past results until
    ``shown`` appears."""
    for _ in range(steps):
        if page.locator(shown).count():
            return True
        if page.locator(RESULT).count():
            page.click("#result-ok")
        elif page.locator("#actions button.pass").count():
            page.click("#actions button.pass")
        elif page.locator("#my-hand .tile.playable").count():
            page.locator("#my-hand .tile.playable").last.click()
        page.wait_for_timeout(40)
    return False


def layout(page: Page) -> str:
    """The board's size and share of the screen, the gap from it to the hand, and
    whether the page scrolls."""
    m = page.evaluate(
        """() => { const b = document.querySelector('#board').getBoundingClientRect();
        const h = document.querySelector('#my-hand').getBoundingClientRect();
        return { w: b.width, share: b.width * b.height / (innerWidth * innerHeight),
                 gap: h.top - b.bottom, bottom: h.bottom,
                 page: document.documentElement.scrollHeight, height: innerHeight }; }"""
    )
    scrolls = "scrolls" if m["page"] > m["height"] else "fits"
    return (
        f"board {m['w']:.0f} px ({m['share']:.0%} of the screen), {m['gap']:.0f} px to the"
        f" hand, hand's foot at {m['bottom']:.0f}, page {m['page']:.0f} px ({scrolls})"
    )


def main(base: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        for width, height in SIZES:
            touch = width < 900
            page = browser.new_page(viewport={"width": width, "height": height}, has_touch=touch)
            page.goto(base)
            page.click("#play-now")
            page.wait_for_selector("#my-hand .tile.playable")
            if not page.is_checked("#opt-coach"):
                page.check("#opt-coach")
            page.wait_for_selector("#coach-options li")
            size = f"{width}x{height}"
            page.screenshot(path=str(OUT / f"{size}-hand-coach.png"))
            print(f"{size}: {layout(page)}")
            if play_until(page, "#actions button.pass"):
                page.screenshot(path=str(OUT / f"{size}-call.png"))
                print(f"{size} at a call: {layout(page)}")
                page.click("#actions button.pass")
            if play_until(page, RESULT):
                page.wait_for_timeout(300)
                page.screenshot(path=str(OUT / f"{size}-result.png"))
            # end the game: a guest has three practice tables at a time
            if page.locator(RESULT).count():
                page.click("#result-ok")
            page.once("dialog", lambda dialog: dialog.accept())
            page.click("#leave-table")
            page.wait_for_url(base.rstrip("/") + "/")
            page.close()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8765")

"""The real client in headless Chromium: start a game against bots from the lobby,
discard by clicking tiles, answer a call prompt, see the hand result, open the replay.

Screenshots go to ``artifacts/browser/``.
"""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from riichi.server import create_app
from server_helpers import free_port, start_server, stored_actions

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts" / "browser"
SEED = "browser-1"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Debian's chromium is needed at {CHROMIUM}: apt-get install chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def base_url(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    process = start_server(f"sqlite:///{tmp_path / 'browser.db'}", port)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=10)


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_function("() => [...document.images].every((i) => i.complete)")
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


RESULT = "#result-panel:not([hidden])"


# a tile or tiles in the notation ("9s", "45m", "0p", "1z"): never shown to people
NOTATION = re.compile(r"\b[0-9]{1,4}[mpsz]\b")


def assert_no_notation(page: Page, where: str) -> None:
    """No tile in notation in the page's text, nor in what its titles, labels and
    images' alternatives say."""
    said = page.evaluate(
        """() => [document.body.innerText, ...[...document.querySelectorAll(
          "[title], [aria-label], img[alt]")].flatMap((n) =>
          [n.getAttribute("title"), n.getAttribute("aria-label"), n.getAttribute("alt")])
        ].filter(Boolean).join(" ")"""
    )
    found = sorted(set(NOTATION.findall(said)))
    assert not found, f"{where}: tiles in notation {found}"


# what a Japanese page may show in Latin letters: names (people's, presets', bots'),
# formats and units
LATIN_KEPT = re.compile(
    r"[\w-]+ \d+ \(bot\)|player \d+|\b(?:expert|master|defensive|efficiency|random)\b"
    r"|\b(?:JSON|XML|mjai|PT|MB|kB|Plackett-Luce|Mahjong Soul|tenhou\.net/6|riichi|Enter|Esc)\b"
)
JAPANESE = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")


def english_left(page: Page, names: tuple[str, ...] = ()) -> list[str]:
    """The page's visible texts and the titles and labels a person reads that are
    still English on the Japanese site: a text with no Japanese in it and a Latin
    word left once names, presets and formats are set aside."""
    texts: list[str] = page.evaluate(
        """() => {
          const said = [];
          const mine = (n) => (n.closest("[lang]")?.lang || "ja") === document.documentElement.lang
            && !n.closest("[translate=no], code, script, style, textarea");
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const p = node.parentElement;
            if (p && mine(p) && p.checkVisibility()) said.push(node.data.trim());
          }
          for (const n of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
            if (!mine(n) || !n.checkVisibility()) continue;
            for (const a of ["title", "aria-label", "placeholder"]) {
              said.push(n.getAttribute(a) || "");
            }
          }
          return said;
        }"""
    )
    kept = re.compile("|".join([LATIN_KEPT.pattern, *map(re.escape, names)]))
    return sorted(
        {
            text
            for text in texts
            if not JAPANESE.search(text) and re.search("[A-Za-z]{2,}", kept.sub("", text))
        }
    )


def check_result_in_view(page: Page) -> None:
    """A result reads from its top (who won, the hand) and Next is in view with it."""
    box = page.evaluate(
        """() => { const top = document.querySelector("#result-body > div > *");
        const ok = document.querySelector("#result-ok");
        const a = top.getBoundingClientRect(), b = ok.getBoundingClientRect();
        return [a.top, a.bottom, b.top, b.bottom, window.innerHeight]; }"""
    )
    top, top_bottom, ok_top, ok_bottom, height = box
    assert top >= 0 and top_bottom <= height, f"the result's top is out of view: {box}"
    assert ok_top >= 0 and ok_bottom <= height, f"Next is out of view: {box}"


CALLS = (
    "#actions button.pon, #actions button.chi, #actions button.kan,"
    " #actions button.ron, #actions button.tsumo"
)
PLAYABLE = "#my-hand .tile.playable"

# at one instant: whether ``unless`` finds anything, else the first choice (a selector,
# and whether its last element is meant, else its first) that finds an element: that
# selector, the element's data-action, its middle, and whether the middle shows
_FIND = """([choices, unless]) => {
  if (unless && document.querySelector(unless)) return [unless];
  for (const [selector, last] of choices) {
    const all = document.querySelectorAll(selector);
    const n = all[last ? all.length - 1 : 0];
    if (!n) continue;
    const r = n.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    return [selector, n.getAttribute("data-action") ?? "", x, y,
      x >= 0 && y >= 0 && x < innerWidth && y < innerHeight];
  }
  return null;
}"""

# the simple player's turn: every call offered taken, else the drawn tile let go (it
# sits last, apart from the hand)
TURN = ((CALLS, False), (PLAYABLE, True))
# every call passed, else the drawn tile let go
PASSING = (("#actions button.pass", False), (PLAYABLE, True))


def tap_first(
    page: Page, choices: Sequence[tuple[str, bool]], unless: str | None = None
) -> tuple[str, str] | None:
    """Click, as a pointer does at its middle, the element the first of ``choices``
    finds (a selector, and whether its last element, else its first): that selector
    and the element's data-action ("" without one); ``(unless, "")`` and nothing
    clicked where ``unless`` finds anything; None where nothing is found. One round
    trip looks: each costs a busy machine tens of milliseconds with four pages open,
    and a locator's click waits out any navigation the click might start (a tile or a
    call never navigates). An element out of the window is scrolled to by the
    locator's click."""
    found = page.evaluate(_FIND, [[list(c) for c in choices], unless])
    if found is None or found[0] == unless:
        return None if found is None else (str(unless), "")
    selector, action, x, y, shown = found
    if shown:
        page.mouse.click(x, y)
    else:
        last = dict(choices)[selector]
        located = page.locator(selector)
        (located.last if last else located.first).click()
    return str(selector), str(action)


def tap(page: Page, selector: str, last: bool = False) -> str | None:
    """Click the first (or last) element ``selector`` finds (`tap_first`): its
    data-action, or None where there is none."""
    tapped = tap_first(page, [(selector, last)])
    return None if tapped is None else tapped[1]


def play_one_hand(page: Page) -> list[str]:
    """Click through one hand: take every call offered, else discard the drawn tile."""
    answered: list[str] = []
    for _ in range(2000):
        tapped = tap_first(page, TURN, unless=RESULT)
        if tapped is not None and tapped[0] == RESULT:
            return answered
        if tapped is not None and tapped[0] == CALLS:
            answered.append(tapped[1] or "?")
        page.wait_for_timeout(30)
    raise AssertionError("the hand did not end")


def next_deal(page: Page) -> bool:
    """At a hand's result: True if it shows the final standings, else Next, on to the
    next deal (an abortive draw is replayed, even in a one-hand game)."""
    page.wait_for_selector(RESULT)
    if "Final standings" in page.inner_text("#result-body"):
        return True
    page.click("#result-ok")
    page.wait_for_selector(RESULT, state="detached")
    return False


def play_to_the_end(page: Page) -> list[str]:
    """Click through hands (`play_one_hand`), Next after each, until the final standings
    show. The results' first lines, hand by hand."""
    results: list[str] = []
    for _ in range(30):
        play_one_hand(page)
        results.append(page.inner_text("#result-body").strip().splitlines()[0])
        if next_deal(page):
            return results
    raise AssertionError(f"the match did not end: {results}")


# A wall (found by simulating this very policy against three efficiency bots) on which
# the person calls, declares riichi and wins within one East match.
TABLE_SEED = "browser-85"


class Person:
    """Plays a match in the page as a person would: win when offered, riichi when
    offered (on the first outlined tile), the first call of the match, else pass or
    discard the drawn tile; checking the table at every step."""

    def __init__(self, page: Page, width: int) -> None:
        self.page = page
        self.width = width
        self.seen: dict[str, int] = {"call": 0, "riichi": 0, "win": 0, "results": 0}
        self.board_at: set[tuple[int, int, int]] = set()  # where the board was drawn
        self.hand_at: set[int] = set()  # the top of the hand's row, prompt or none

    def check_table(self) -> dict[str, Any] | None:
        """The table checked as it stands; what it offers (the actions' kinds, the
        playable tiles), or None while a result shows."""
        # every measure read at one instant, in one call: the page moves on between two
        # separate reads, and each round trip to the browser costs a busy machine time
        seen: dict[str, Any] | None = self.page.evaluate(
            """([phone, result]) => {
            const q = (s) => document.querySelector(s);
            if (q(result)) return null;
            const width = (s) => { const n = q(s);
              return n ? n.getBoundingClientRect().width : null; };
            const box = (s) => { const n = q(s); if (!n) return null;
              const r = n.getBoundingClientRect(); return [r.x, r.y, r.width]; };
            const d = q("#my-hand .tile.drawn"), p = d && d.previousElementSibling;
            let gap = null;
            if (d && p) { const a = p.getBoundingClientRect(), b = d.getBoundingClientRect();
              gap = [b.left - a.right, b.width]; }
            const smallest = phone ? Math.min(...[...document.querySelectorAll("#board *")]
              .filter((n) => n.getBoundingClientRect().width > 0 && [...n.childNodes]
                .some((c) => c.nodeType === 3 && c.textContent.trim()))
              .map((n) => parseFloat(getComputedStyle(n).fontSize))) : null;
            return {
              hand: document.querySelectorAll("#my-hand .tile").length,
              sets: document.querySelectorAll("#my-melds .meld").length,
              gap,
              river: width("#table .seat-zone[data-pos='0'] .river .tile:not(.sideways)"),
              handTile: width("#my-hand .tile"),
              back: width("#table .hidden-hand .tile.back"),
              marked: document.querySelectorAll("#table .river .tile.last").length,
              smallest,
              board: box("#board"),
              row: box(".hand-row"),
              kinds: [...document.querySelectorAll("#actions button")].map(
                (b) => b.getAttribute("data-action")),
              drawnPlayable: document.querySelectorAll("#my-hand .tile.drawn.playable").length,
              playable: document.querySelectorAll("#my-hand .tile.playable").length,
            }; }""",
            [self.width < 500, RESULT],
        )
        if seen is None:
            return None
        hand, sets = seen["hand"], seen["sets"]
        # 13 tiles, or 14 with the drawn one: a set stands for three of them
        assert hand + 3 * sets in (13, 14), f"{hand} tiles in hand and {sets} sets"
        # the drawn tile stands apart: a gap of a good part of a tile before it
        gap = seen["gap"]
        if gap is not None:
            assert gap[0] >= gap[1] / 4, f"the drawn tile is {gap[0]:.1f} px from the hand"
            self.seen["drawn"] = self.seen.get("drawn", 0) + 1
        # rivers at about two thirds of a hand tile, concealed tiles as standing backs
        river, hand_tile, back = seen["river"], seen["handTile"], seen["back"]
        if river and hand_tile:
            assert 0.55 <= river / hand_tile <= 0.9, (
                f"river {river:.1f} px, hand {hand_tile:.1f} px"
            )
            self.seen["sized"] = self.seen.get("sized", 0) + 1
        assert back and back >= 10, f"a concealed tile is {back} px wide"
        # the latest discard is marked, unless it went into a caller's set
        marked = seen["marked"]
        assert marked <= 1
        self.seen["marked"] = self.seen.get("marked", 0) + marked
        # on a phone, nothing written on the board is under 12 px
        if self.width < 500:
            assert seen["smallest"] >= 12, f"text of {seen['smallest']} px on the board"
        # the board never moves between turns, whatever the hand's length or a prompt
        board = seen["board"]
        assert board is not None
        self.board_at.add((round(board[0]), round(board[1]), round(board[2])))
        # ... nor does the hand when a prompt comes (a call, riichi, a win)
        row = seen["row"]
        assert row is not None
        self.hand_at.add(round(row[1]))
        return seen

    def act(self) -> bool:
        """One step; False once the match's final result is on screen."""
        page = self.page
        seen = self.check_table()
        if seen is None:
            body = page.inner_text("#result-body")
            assert "han" in body or "draw" in body
            check_result_in_view(page)
            assert_no_notation(page, "a result")
            self.seen["results"] += 1
            if page.locator("#result-body .tile.winning").count() and not self.seen.get("shot"):
                self.seen["shot"] = 1
                shot(page, f"2-hand-result-{self.width}")
            if "Final standings" in body:
                return False
            page.click("#result-ok")
            return True
        kinds = seen["kinds"]
        if "tsumo" in kinds or "ron" in kinds:
            self.seen["win"] += 1
            page.click("#actions button.tsumo, #actions button.ron")
        elif "riichi" in kinds:
            self.seen["riichi"] += 1
            page.click("#actions button.riichi")
            page.click("#my-hand .tile.riichi-ok >> nth=0")
        elif self.seen["call"] == 0 and ("pon" in kinds or "chi" in kinds):
            self.seen["call"] += 1
            # the prompt shows the tile called and its discarder; each option its tiles
            assert page.locator("#prompt .tile").count() == 1
            assert "discarded" in page.inner_text("#prompt")
            assert (
                page.locator(
                    "#actions button.pon .act-tiles .tile, #actions button.chi .act-tiles .tile"
                ).count()
                >= 3
            )
            shot(page, f"1-call-prompt-{self.width}")
            page.click(
                "#actions button.pon >> nth=0" if "pon" in kinds else "#actions button.chi >> nth=0"
            )
        elif "pass" in kinds:
            tap(page, "#actions button.pass")
        elif seen["drawnPlayable"]:
            tap(page, "#my-hand .tile.drawn.playable")
        elif seen["playable"]:
            tap(page, PLAYABLE, last=True)
        else:
            page.wait_for_timeout(20)
        return True


@pytest.mark.parametrize("width", [1280, 390])
def test_play_now_deals_a_hand_in_one_tap_and_leave_ends_it(
    browser: Browser, base_url: str, width: int
) -> None:
    """Play now is at the top of the home page, above the fold on a phone; one tap
    deals a practice hand; the table remembered in this browser is listed on the home
    page to resume; Leave ends the practice game and comes home."""
    phone = width < 500  # a touch screen, without a keyboard
    page = browser.new_context(
        viewport={"width": width, "height": 844 if phone else 800}, has_touch=phone, is_mobile=phone
    ).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base_url)
    box = page.locator("#play-now").bounding_box()
    assert box is not None and box["y"] + box["height"] < (800 if width > 500 else 844) / 2
    assert page.locator("#new-table").is_hidden()  # the rules form is folded
    page.click("#play-now")
    page.wait_for_selector("#my-hand .tile")
    # keys are hinted with a keyboard, not on a touch screen
    hinted = page.evaluate(
        "() => getComputedStyle(document.querySelector('#result-ok .key')).display !== 'none'"
    )
    assert hinted is not phone
    table = page.url.split("/table/")[1].split("#")[0]
    page.goto(base_url)
    page.wait_for_selector(f"#mine-list a[href^='/table/{table}']")
    page.click(f"#mine-list a[href^='/table/{table}']")
    page.wait_for_selector("#my-hand .tile")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#leave-table")
    page.wait_for_url(base_url + "/")
    page.wait_for_selector("#play-now")
    assert page.locator("#mine-panel").is_hidden()
    info = page.evaluate(f"() => fetch('/api/tables/{table}').then((r) => r.json())")
    assert info["over"] is False  # ended as left, not played out
    assert errors == []


# Where a tile lies on its side: a called tile in a set beside the hand and on the board,
# in the call buttons, in a result; a riichi discard in a river.
SIDEWAYS_PLACES = [
    "#table .seat-zone[data-pos='1'] .melds",
    ".hand-row .melds",
    "#actions .act-tiles",
    ".result-panel",
    "#table .seat-zone[data-pos='0'] .river",
]


@pytest.mark.parametrize("width", [1280, 390])
def test_a_tile_on_its_side_turns_whole(browser: Browser, base_url: str, width: int) -> None:
    """A tile on its side turns with its frame: the box is landscape, the upright frame
    is gone, and the turned face lies inside the box (it once kept a narrow upright
    frame with the face spilling out on both sides), wherever it is drawn."""
    page = browser.new_page(viewport={"width": width, "height": 800 if width > 500 else 844})
    page.goto(base_url)
    page.click("#play-now")
    page.wait_for_selector("#my-hand .tile")
    found = page.evaluate(
        """async (places) => {
        const { tileEl } = await import("/static/js/tiles.js");
        const out = [];
        for (const place of places) {
          let host = document.querySelector(place);
          if (!host || host.offsetParent === null) {  // not shown now: made as the page makes it
            const [outer, inner] = place.split(" .").length > 1
              ? [place.slice(0, place.lastIndexOf(" .")), place.slice(place.lastIndexOf(" .") + 2)]
              : ["body", place.replace(/^[.#]/, "")];
            host = document.createElement("div");
            host.className = inner;
            (document.querySelector(outer) || document.body).appendChild(host);
          }
          const t = tileEl(41, "m sideways");
          host.appendChild(t);
          const box = t.getBoundingClientRect();
          const face = t.querySelector("img").getBoundingClientRect();
          const frame = getComputedStyle(t, "::before");
          // its own width and height: a side seat's zone is turned as a whole
          out.push({ place, w: t.offsetWidth, h: t.offsetHeight,
            spill: Math.max(box.left - face.left, face.right - box.right,
                            box.top - face.top, face.bottom - box.bottom),
            upright: getComputedStyle(t).backgroundImage !== "none",
            turned: frame.content !== "none" && frame.transform !== "none" });
          t.remove();
        }
        return out;
      }""",
        SIDEWAYS_PLACES,
    )
    for tile in found:
        assert tile["w"] > tile["h"] > 0, tile
        assert tile["spill"] <= 1, tile
        assert not tile["upright"] and tile["turned"], tile


def test_a_call_is_said_over_the_seat_that_made_it(browser: Browser, base_url: str) -> None:
    """Pon!, Chi!, Kan!, Riichi!, Ron! and Tsumo! over the caller's side of the board
    for a moment; without motion where the person asked for reduced motion."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.emulate_media(reduced_motion="reduce")
    page.goto(base_url)
    page.click("#play-now")
    page.wait_for_selector("#my-hand .tile")
    said = page.evaluate(
        """async () => {
        const { announce, wordsOf } = await import("/static/js/announce.js");
        const events = [
          { type: "discard", seat: 2, tile: 5, riichi: true },
          { type: "call", seat: 1, call: "pon", tile: 5, tiles: [6, 7], source: 2 },
          { type: "ankan", seat: 3, tiles: [0, 1, 2, 3] },
          { type: "win", seat: 0, source: 2, tile: 9 },
          { type: "win", seat: 3, source: 3, tile: 9 },
          { type: "draw", seat: 1 },
        ];
        announce(events, 0, 4);
        const board = document.querySelector("#board").getBoundingClientRect();
        const notes = [...document.querySelectorAll("#board .announce")].map((n) => {
          const r = n.getBoundingClientRect();
          return [n.textContent, n.dataset.pos, (r.left + r.width / 2 - board.left) / board.width,
                  getComputedStyle(n).animationName];
        });
        return { words: wordsOf(events), notes };
      }"""
    )
    said_as = [[2, "Riichi!"], [1, "Pon!"], [3, "Kan!"], [0, "Ron!"], [3, "Tsumo!"]]
    assert said["words"] == said_as
    pon = next(n for n in said["notes"] if n[0] == "Pon!")
    assert pon[1] == "1" and pon[2] > 0.6  # on the right: the seat after this one
    assert all(n[3] == "none" for n in said["notes"])  # reduced motion: no animation
    page.wait_for_function("() => !document.querySelector('#board .announce')", timeout=5000)


def test_a_phone_on_its_side_shows_the_board_and_the_hand_without_scrolling(
    browser: Browser, base_url: str
) -> None:
    """At 844x390 the board, the prompt and the hand share one screen: nothing to
    scroll, hand tiles at least 40 px wide, the board beside the prompt."""
    page = browser.new_page(viewport={"width": 844, "height": 390}, has_touch=True)
    page.goto(base_url)
    page.click("#play-now")
    page.wait_for_selector("#my-hand .tile.playable")
    sizes = page.evaluate(
        """() => {
        const box = (s) => document.querySelector(s).getBoundingClientRect();
        return { page: document.documentElement.scrollHeight, board: box("#board"),
                 tile: box("#my-hand .tile"), hand: box("#my-hand"), actions: box(".action-bar") };
        }"""
    )
    assert sizes["page"] <= 390, sizes
    assert sizes["tile"]["width"] >= 40 and sizes["hand"]["bottom"] <= 390, sizes
    assert sizes["board"]["width"] >= 240, sizes
    assert sizes["actions"]["left"] >= sizes["board"]["right"], sizes  # beside the board
    shot(page, "screen-table-844x390")
    page.close()


def test_a_discard_moves_into_the_river_once(browser: Browser, base_url: str) -> None:
    """The latest discard slides into its river when it is new, and only then: the
    board drawn again with the same latest discard (a draw, a call offer) keeps it
    still; no motion where the person asked for reduced motion."""
    for motion in ("no-preference", "reduce"):
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.emulate_media(reduced_motion=motion)
        page.goto(base_url)
        page.click("#play-now")
        page.wait_for_selector("#my-hand .tile.playable")
        page.evaluate(
            """() => {
            window.lastSeen = [];
            new MutationObserver(() => {
              const last = document.querySelector("#board .river .tile.last");
              if (!last || window.lastSeen.at(-1)?.node === last) return;
              const zone = last.closest(".seat-zone");
              const key = `${zone.dataset.seat}:${zone.querySelectorAll(".river .tile").length}`;
              window.lastSeen.push({ node: last, key, arriving: last.classList.contains("arriving"),
                                     name: getComputedStyle(last).animationName });
            }).observe(document.querySelector("#board"), { childList: true, subtree: true });
            }"""
        )
        for _ in range(200):  # a few go-rounds, passing on calls, or the hand's end
            if page.locator(RESULT).count() or page.evaluate("window.lastSeen.length") >= 8:
                break
            if page.locator("#actions button.pass").count():
                page.click("#actions button.pass")
            elif page.locator("#my-hand .tile.playable").count():
                page.locator("#my-hand .tile.playable").last.click()
            page.wait_for_timeout(50)
        seen = page.evaluate("() => window.lastSeen.map(({ node, ...rest }) => rest)")
        assert sum(s["arriving"] for s in seen) >= 2, seen
        for before, now in zip([None, *seen], seen, strict=False):
            new = before is None or before["key"] != now["key"]
            assert now["arriving"] == new, seen
            if now["arriving"]:
                assert now["name"] == ("none" if motion == "reduce" else "discard-in"), now
        page.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_coach_at_a_practice_table(browser: Browser, base_url: str, width: int) -> None:
    """The coach's switch at a practice table: at each decision the computer's best
    three options with their values and reasons (in words, no notation); after the
    hand, the decisions that lost the most; the switch is kept in the browser."""
    page = browser.new_page(viewport={"width": width, "height": 800 if width > 500 else 844})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base_url)
    page.click("#play-now")
    page.wait_for_selector("#my-hand .tile")
    assert page.locator("#coach").is_hidden()  # off by default
    page.check("#opt-coach")
    advised = 0
    for _ in range(3000):
        if page.locator(RESULT).count():
            if advised > 3:
                break
            page.click("#result-ok")  # a hand a computer won at once: the next one
            continue
        if page.locator("#actions button.pass").count():
            page.click("#actions button.pass")
        elif page.locator("#my-hand .tile.playable").count():
            page.wait_for_selector("#coach-options li")
            options = page.locator("#coach-options li")
            assert 2 <= options.count() <= 3
            if not advised:
                assert re.search(r"[+-]?[\d,]+", options.first.inner_text())
                assert_no_notation(page, "the coach")
                shot(page, f"12-coach-{width}")
            advised += 1
            # the drawn tile let go: now and then not the coach's choice
            tap(page, PLAYABLE, last=True)
        page.wait_for_timeout(30)
    page.wait_for_selector(RESULT)
    assert advised > 3
    page.wait_for_selector("#coach-hand-box:not([hidden]) #coach-hand li")
    assert_no_notation(page, "the coach after a hand")
    page.reload()  # kept in this browser
    page.wait_for_selector("#my-hand .tile")
    # the panel is shown at once (empty until the next decision of this seat's)
    shown = page.eval_on_selector("#coach", "e => !e.hidden && !e.closest('[hidden]')")
    assert page.is_checked("#opt-coach") and shown
    assert errors == []


def test_the_japanese_site_plays_a_hand_to_its_result(browser: Browser, base_url: str) -> None:
    """A browser whose language is Japanese gets the Japanese site: menus, the table,
    its prompts and buttons, the result; axe finds nothing serious in either language;
    the switch in the header turns it to English, and the choice is kept."""
    from axe_playwright_python.sync_playwright import Axe

    def serious(page: Page) -> list[object]:
        found = Axe().run(page).response["violations"]
        return [
            (v["id"], v["nodes"][0]["target"])
            for v in found
            if v["impact"] in ("serious", "critical")
        ]

    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ja-JP")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base_url)
    assert page.evaluate("() => document.documentElement.lang") == "ja"
    assert page.inner_text("#nav-daily") == "デイリー牌山"
    assert page.inner_text("#play-now") == "今すぐ対局"
    page.click("#play-now")
    page.wait_for_selector("#my-hand .tile.playable")
    assert "局" in page.inner_text("#center .round")
    assert page.inner_text("#status") == "あなたの番です"
    assert page.inner_text("#show-rules") == "この卓のルール"
    assert serious(page) == []
    assert english_left(page) == []
    page.click("#show-rules")
    page.wait_for_selector("#rules-dialog[open] #rules-list dd")
    assert english_left(page, ("online", "east")) == []  # the preset's name and length
    assert serious(page) == []  # the list scrolls, and the keyboard can scroll it
    page.click("#rules-dialog button")
    for _ in range(400):
        if page.locator(RESULT).count():
            break
        if page.locator("#actions button.pass").count():
            assert page.inner_text("#actions button.pass").startswith("スキップ")
            page.click("#actions button.pass")
        else:
            tap(page, PLAYABLE, last=True)
        page.wait_for_timeout(30)
    page.wait_for_selector(RESULT)
    heading = page.inner_text("#result-body h3")
    assert "和了" in heading or "流局" in heading, heading
    assert page.inner_text("#result-ok").startswith("次へ")
    assert english_left(page) == []
    shot(page, "13-japanese-result")
    assert serious(page) == []
    # a result taller than its panel scrolls, and the keyboard can reach and scroll it
    squeezed = """() => { const body = document.querySelector('#result-body');
        body.style.maxHeight = '3rem'; return body.scrollHeight > body.clientHeight; }"""
    assert page.evaluate(squeezed)
    assert serious(page) == []
    page.click("#lang-switch")  # to English, kept in the browser
    page.wait_for_selector("#my-hand .tile, #result-panel:not([hidden])")
    assert page.evaluate("() => document.documentElement.lang") == "en"
    assert page.inner_text("#nav-daily") == "Daily Wall"
    page.goto(base_url)
    assert page.inner_text("#play-now") == "Play now"
    assert serious(page) == []
    assert errors == []


def test_missing_tables_games_and_pages_say_so(browser: Browser, base_url: str) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    for path, title in (
        ("/table/doesnotexist", "This table cannot be joined"),
        ("/replay/doesnotexist", "No such game to replay"),
        ("/nonexistent", "No page here"),
    ):
        page.goto(base_url + path)
        page.wait_for_selector(f"#gone:not([hidden]) #gone-title:has-text('{title}')")
        assert page.locator("#table").is_hidden()
        assert page.locator("#gone a[href='/']").is_visible()
    assert errors == []


@pytest.mark.parametrize("width", [1280, 390])
def test_a_game_against_bots_in_the_browser(browser: Browser, base_url: str, width: int) -> None:
    from axe_playwright_python.sync_playwright import Axe

    page = browser.new_page(
        viewport={"width": width, "height": 900 if width > 500 else 844}, reduced_motion="reduce"
    )
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # the page runs under a strict content policy: our own code must never trip it
    page.on("console", lambda m: errors.append(m.text) if "Content Security" in m.text else None)
    page.goto(base_url)
    page.click("#custom-table summary")  # folded under Play now
    page.select_option("#rules", "online")
    page.select_option("#length", "east")
    page.fill("input[name=seed]", TABLE_SEED)
    # the ladder is offered strongest first; the seed was found against efficiency bots
    seat_kinds = page.locator("select[name=seat1] option").evaluate_all(
        "options => options.map((o) => o.value)"
    )
    assert seat_kinds == ["master", "expert", "defensive", "efficiency", "random", "human"]
    for seat in (1, 2, 3):
        page.select_option(f"select[name=seat{seat}]", "efficiency")
    page.select_option("#rule-menu select[data-rule=red_fives]", "0")
    assert page.locator("#rule-menu .changed").count() == 1  # a change is marked
    page.select_option("#rule-menu select[data-rule=red_fives]", "3")
    assert page.locator("#rule-menu .changed").count() == 0
    shot(page, f"0-lobby-{width}")
    serious = [
        v for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")
    ]
    assert not serious, [(v["id"], v["nodes"][0]["target"]) for v in serious]
    page.evaluate("() => localStorage.setItem('riichi-options', JSON.stringify({pace: 0}))")
    page.click("#start")
    page.wait_for_selector("#my-hand .tile")
    names = page.locator("#table .plate .name").all_inner_texts()
    assert sum("(bot)" in n for n in names) == 3
    fits = "() => document.documentElement.scrollWidth <= window.innerWidth"
    assert page.evaluate(fits), "the table is wider than the screen"
    page.wait_for_selector("#my-hand .tile.playable")
    serious = [
        v for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")
    ]
    assert not serious, [(v["id"], v["nodes"][0]["target"]) for v in serious]
    person = Person(page, width)
    for _ in range(3000):
        if not person.act():
            break
    else:
        raise AssertionError(f"the match did not end: {person.seen}")
    assert person.seen["call"] and person.seen["riichi"] and person.seen["win"], person.seen
    assert person.seen["marked"] > 20 and person.seen.get("drawn", 0) > 10, person.seen
    assert person.seen.get("sized", 0) > 10, person.seen
    assert len(person.board_at) == 1, f"the board moved: {person.board_at}"
    assert len(person.hand_at) == 1, f"the hand moved: {person.hand_at}"
    shot(page, f"2-match-result-{width}")
    page.click("#result-ok")
    page.goto(base_url)
    page.click("#games a")
    page.wait_for_selector("#frame-label")
    page.click("button[data-step='hand']")  # to the first hand's end
    page.wait_for_selector(RESULT)
    label = page.inner_text("#frame-label")
    assert "deal" not in label, label  # the final board of the hand, not the next deal
    assert page.locator("#table .river .tile").count() > 0
    assert page.locator("#table .open-hand").count() == 4  # every hand open, apart
    shot(page, f"3-replay-{width}")
    page.click("#result-ok")
    page.click("button[data-step='1']")
    assert "deal" in page.inner_text("#frame-label")
    assert page.locator("#table .river .tile").count() == 0
    assert page.evaluate(fits), "the replay is wider than the screen"

    # the keys and the wheel step; a hand is chosen from a list that says its result;
    # any seat may sit at the bottom
    def frame() -> int:
        return int(page.inner_text("#frame-label").split("/")[0])

    at = frame()
    page.keyboard.press("ArrowRight")
    assert frame() == at + 1
    page.mouse.move(width // 2, 300)
    page.mouse.wheel(0, 120)
    page.wait_for_function(
        f"() => (document.querySelector('#frame-label')?.textContent ?? '').startsWith('{at + 2}/')"
    )
    page.keyboard.press("ArrowLeft")
    assert frame() == at + 1
    hands = page.locator("#replay-hands option").all_inner_texts()
    assert len(hands) >= 2 and all(":" in h for h in hands[:-1]), hands  # each with its result
    page.select_option("#replay-hands", "1")
    assert "deal" in page.inner_text("#frame-label")
    bottom = page.inner_text("#table .plate[data-pos='0'] .name")
    page.select_option("#replay-seat", "2")
    assert page.inner_text("#table .plate[data-pos='0'] .name") != bottom
    assert page.inner_text("#table .plate[data-pos='2'] .name") == bottom
    assert not errors, errors


def test_a_table_played_with_the_keyboard_alone(browser: Browser, base_url: str) -> None:
    import httpx

    table = httpx.post(
        f"{base_url}/api/tables",
        json={
            "rules": "online",
            "seed": "keys",
            "seats": ["human", "tsumogiri", "tsumogiri", "tsumogiri"],
        },
    ).json()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{base_url}/table/{table['id']}#{table['tokens'][0]}")
    river = "#table .seat-zone[data-pos='0'] .river .tile"
    page.wait_for_selector("#my-hand .tile.playable")
    page.keyboard.press("d")  # the drawn tile
    page.wait_for_function(f'() => document.querySelectorAll("{river}").length === 1')
    mine = "#my-hand .tile.drawn.playable"
    for _ in range(400):  # N passes the calls offered on the way
        if page.locator(mine).count():
            break
        if page.locator("#actions button.pass").count():
            page.keyboard.press("n")
        page.wait_for_timeout(50)
    page.keyboard.press("ArrowLeft")  # onto the drawn tile, then one more to its left
    page.keyboard.press("ArrowLeft")
    focused = page.evaluate("() => document.activeElement.dataset.tile")
    page.keyboard.press("Enter")
    page.wait_for_function(f'() => document.querySelectorAll("{river}").length === 2')
    assert page.locator(river).nth(1).get_attribute("data-tile") == focused
    page.click("#show-rules")
    page.wait_for_selector("#rules-dialog[open] #rules-list dd")
    assert "kuitan" in page.inner_text("#rules-list")


def test_a_bad_seat_link_says_so_once_and_stops(browser: Browser, base_url: str) -> None:
    import httpx

    table = httpx.post(f"{base_url}/api/tables", json={"rules": "online"}).json()
    page = browser.new_page()
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(f"{base_url}/table/{table['id']}#forged-token")
    # said on a page of its own, with the way home (no empty board)
    page.wait_for_function(
        "() => (document.querySelector('#gone-text')?.textContent ?? '').includes('not valid')"
    )
    page.wait_for_timeout(3000)  # the old client retried every second
    assert "not valid" in page.inner_text("#gone-text")
    assert page.locator("#table").is_hidden()
    assert len(sockets) == 1
    page.goto(f"{base_url}/table/nosuchtable")
    page.wait_for_function(
        "() => (document.querySelector('#gone-text')?.textContent ?? '').includes('no such table')"
    )


def test_a_rated_table_on_a_fake_clock_through_a_timeout_and_a_reconnect(
    browser: Browser, tmp_path: Path
) -> None:

    from riichi.server.clock import FakeClock
    from server_helpers import Running

    clock = FakeClock()
    url = f"sqlite:///{tmp_path / 'rated.db'}"
    server = Running(create_app(url, clock=clock, fill_after=30))
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url)
        page.fill("#account-name", "Rita")
        page.fill("#account-password", "correct horse")
        page.click("#register-button")
        page.wait_for_selector("#rated:not([hidden])")
        assert "signed in as Rita" in page.inner_text("#account")
        page.click("#rated .join[data-pool=standard]")
        page.wait_for_selector("#queue-state .waiting")
        shot(page, "4-queue")
        clock.advance(31)  # nobody else came: roster computers fill the table
        page.wait_for_url("**/table/**", timeout=15_000)
        page.wait_for_selector("#my-hand .tile")
        names = page.locator(".plate .name").all_inner_texts()
        assert "Rita" in names and sum("(bot)" in n for n in names) == 3
        assert page.locator(".plate .clock").count() == 4
        page.wait_for_selector("#my-hand .tile.playable", timeout=15_000)  # your turn
        mine = page.inner_text("#table .plate[data-pos='0'] .clock")
        assert mine.endswith(" s") and "+" in mine  # thinking time and reserve
        shot(page, "5-rated-clock")
        clock.advance(26)  # past 5 s and the 20 s reserve: the clock discards for you
        # stored as a timeout (a computer may call the tile, or win on it, at once)
        table_id = page.url.rsplit("/", 1)[-1]
        deadline = time.monotonic() + 15
        while not any(t for _, _, t in stored_actions(url, table_id)):
            assert time.monotonic() < deadline, "the clock did not play for her"
            time.sleep(0.05)
        # and the table says so, at the moment
        page.wait_for_selector("#notice:not([hidden])", timeout=15_000)
        assert "Your time ran out" in page.inner_text("#notice")
        shot(page, "5-rated-timeout")
        # the computers play on to her next decision (or the hand's result): the server
        # waits there, and the page shows what the server has
        deciding = f"#my-hand .tile.playable, #actions button, {RESULT}"
        while True:
            page.wait_for_selector(deciding, timeout=15_000)
            shown = page.get_attribute("#table", "data-version")
            stored = server.app.state.server.tables[table_id].version  # the live one
            if shown == str(stored):
                break
            assert time.monotonic() < deadline, f"the page shows {shown}, the server {stored}"
            time.sleep(0.05)
        # the tiles as they lie (whether the latest discard is still sliding in is no
        # part of the board)
        lying = "nodes => nodes.map((n) => n.outerHTML.replace(' arriving', ''))"
        board = page.locator("#table .river, #table .meld").evaluate_all(lying)
        page.reload()  # reconnect: the session finds your seat and the same board again
        page.wait_for_selector(deciding)
        again = page.locator("#table .river, #table .meld").evaluate_all(lying)
        assert again == board
        assert page.locator("#table .river .arriving").count() == 0  # nothing slides in
        assert not errors, errors
    finally:
        server.stop()


def test_back_during_a_result_pause_the_result_shows_first_then_the_next_deal(
    browser: Browser, tmp_path: Path
) -> None:
    import httpx

    from riichi.server.clock import FakeClock
    from server_helpers import Running

    clock = FakeClock()
    server = Running(create_app(f"sqlite:///{tmp_path / 'pause.db'}", clock=clock))
    try:
        seats = ["human", "tsumogiri", "tsumogiri", "tsumogiri"]
        body = {"kind": "private", "clock": "standard", "seed": "clock-5", "seats": seats}
        table = httpx.post(f"{server.url}/api/tables", json=body).json()
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.url}/table/{table['id']}#{table['tokens'][0]}")
        river = "#table .seat-zone[data-pos='0'] .river .tile"
        for _ in range(60):  # the clock plays each turn until the hand ends
            page.wait_for_selector(f"#my-hand .tile.playable, {RESULT}", timeout=15_000)
            if page.locator(RESULT).count():
                break
            before = page.locator(river).count()
            clock.advance(26)  # once the discard shows, the clock waits for the next turn
            page.wait_for_function(
                f'() => document.querySelectorAll("{river}").length > {before}'
                f' || document.querySelector("{RESULT}") !== null'
            )
        shown = page.inner_text("#result-body")
        discarded = page.locator(river).count()
        assert discarded > 0
        page.reload()  # back before confirming: the same result over the same board
        page.wait_for_selector(RESULT)
        assert page.inner_text("#result-body") == shown
        assert page.locator(river).count() == discarded
        page.click("#result-ok")  # confirmed: the next deal, and play goes on
        page.wait_for_selector("#my-hand .tile.playable", timeout=15_000)
        assert page.locator(river).count() == 0
        page.reload()
        page.wait_for_selector("#my-hand .tile.playable")
        assert page.locator(RESULT).count() == 0
        assert not errors, errors
    finally:
        server.stop()


def test_the_leaderboard_a_player_page_and_watching_a_table(
    browser: Browser, tmp_path: Path
) -> None:
    from riichi.platform.spectating import Delay
    from server_helpers import Running
    from test_ratings import Site

    site = Site(tmp_path)  # rated games already played, as the server stores them
    people = [site.account(name) for name in ("Uma", "Vic", "Wes")]
    for round_ in range(6):
        seating: list[int | None] = [*people, None]
        site.play(seating[round_ % 4 :] + seating[: round_ % 4])
    site.store.close()
    app = create_app(site.url, spectator_delay=Delay("actions", 2))
    server = Running(app)
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        csp = "Content Security"
        page.on("console", lambda m: errors.append(m.text) if csp in m.text else None)
        page.goto(server.url)
        page.click("#nav-leaderboard")
        page.wait_for_selector("#board-table tbody tr td a")
        rows = page.locator("#board-table tbody tr")
        # three people, and a roster computer for each seat the computer sat in
        assert rows.count() == 7
        assert page.locator("#board-table td.marks", has_text="computer").count() == 4
        assert page.locator("#board-table td.marks", has_text="provisional").count() == 7
        shot(page, "6-leaderboard")
        page.click("#board-table a:text('Uma')")
        page.wait_for_selector("#rating-plot polyline")
        assert page.locator("#rating-plot circle").count() == 6  # one point per rated game
        assert "6 rated games" in page.inner_text("#player-rating")
        stats = page.inner_text("#player-stats")
        assert "win rate" in stats and "deal-in rate" in stats
        assert page.locator("#player-games li").count() == 6
        games = page.inner_text("#player-games")
        assert re.search(r", \d{1,3},\d{3}\b", games), games  # scores with separators
        # one game is said, not drawn as a lone dot; an empty list has no "0-0 of 0"
        one = page.evaluate(
            """async () => {
            const { plotHistory } = await import("/static/js/charts.js");
            const { pager } = await import("/static/js/dom.js");
            const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
            plotHistory(svg, [{ rating: 1512, place: 2 }]);
            const box = document.createElement("div");
            pager(box, { total: 0, offset: 0, limit: 25, items: [] }, () => {});
            return [svg.querySelectorAll("circle").length, svg.textContent, box.textContent];
          }"""
        )
        assert one == [0, "game 1: place 2, rating 1512", ""], one
        shot(page, "7-player")
        page.click("#player-games li a >> nth=0")
        page.wait_for_selector("#frame-label")
        # a live table open to spectators, its person in the second seat
        import httpx

        table = httpx.post(
            f"{server.url}/api/tables",
            json={
                "rules": "online",
                "seats": ["random", "human", "random", "random"],
                "watchable": True,
            },
        ).json()
        page.goto(f"{server.url}/watch")
        page.wait_for_selector("#watch-list a")
        page.click("#watch-list a")
        page.wait_for_selector(".seat-zone .hidden-hand .tile")
        assert page.locator("#my-hand .tile").count() == 0
        assert page.locator(".hidden-hand").count() == 4  # every hand concealed
        assert "watching" in page.inner_text("#status")
        player = browser.new_page()
        player.goto(f"{server.url}/table/{table['id']}#{table['tokens'][1]}")
        player.wait_for_selector("#spectators:not([hidden])")
        assert "1 watching" in player.inner_text("#spectators")
        shot(page, "8-watching")
        assert not errors, errors
    finally:
        server.stop()


def sign_up(page: Page, base_url: str, name: str) -> None:
    page.goto(base_url)
    page.fill("#account-name", name)
    page.fill("#account-password", "correct horse")
    page.click("#register-button")
    page.wait_for_selector("#my-page")


def test_the_daily_wall_side_by_side_a_tournament_and_chips(
    browser: Browser, tmp_path: Path
) -> None:
    from riichi.platform.daily import DAY, day_of
    from riichi.server.clock import FakeClock
    from riichi.server.daily.desk import SECRET_KEY
    from server_helpers import Running

    clock = FakeClock()
    server = Running(create_app(f"sqlite:///{tmp_path / 'daily.db'}", clock=clock))
    # the site's secret fixed, so the day's walls are too: on these (found by simulating
    # play_one_hand's policy against the day's roster computers) the first hand ends in
    # an abortive draw and is dealt again
    server.app.state.server.store.accounts.setting(SECRET_KEY, lambda: "browser secret 17")
    base_url = server.url
    errors: list[str] = []
    pages = []
    for name in ("Dee", "Eli"):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on(
            "console", lambda m: errors.append(m.text) if "Content Security" in m.text else None
        )
        sign_up(page, base_url, name)
        page.click("#nav-daily")
        page.wait_for_function(
            "() => (document.querySelector('#daily-commitment')?.textContent ?? '')"
        )
        assert page.inner_text("#daily-play") == "Play today's walls"
        page.click("#daily-play")
        page.wait_for_selector("#my-hand .tile")
        results = play_to_the_end(page)
        # the attempt is not over at an abortive draw: the one hand is dealt again
        assert len(results) == 2 and results[0].startswith("Abortive draw"), results
        page.goto(f"{base_url}/daily")
        page.wait_for_selector("#daily-board tr.mine")
        assert page.is_disabled("#daily-play")  # one attempt a day
        assert "You scored" in page.inner_text("#daily-play")
        pages.append(page)
    second = pages[1]
    # accounts made today: listed, unranked, and no game opens before the day ends
    assert second.locator("#daily-board tbody tr").count() == 2
    assert "made on the day" in second.inner_text("#daily-board tbody")
    assert second.locator("#daily-board a:text('replay')").count() == 0
    assert not second.is_hidden("#daily-compare")
    assert "2" in second.inner_text("#daily-hands tbody td >> nth=1")  # two played it
    shot(second, "8-daily")
    day = day_of(clock.now())
    clock.advance(DAY)  # the day is over: the games open
    second.goto(f"{base_url}/daily?day={day}")
    second.click("text=side by side with yours")
    second.wait_for_selector("#pane-b .seat-zone .tile")
    compare = second.url.removeprefix(base_url)
    assert second.locator("#compare .board").count() == 2
    second.click("#pane-a button[data-step='hand']")
    second.wait_for_selector("#pane-a .pane-result table.deltas")
    shot(second, "9-side-by-side")

    first = pages[0]
    first.goto(f"{base_url}/tournaments")
    first.fill("#t-form input[name=name]", "Browser cup")
    first.select_option("#t-form select[name=length]", "one-hand")
    first.fill("#t-form input[name=rounds]", "2")
    first.fill("#t-form input[name=closes]", "10")
    first.click("#t-form button[type=submit]")
    first.wait_for_selector("#t-register:not([hidden])")
    tournament = first.url.removeprefix(base_url)
    first.click("#t-register")
    first.wait_for_selector("#t-standings tbody tr")
    first.fill("#t-count", "3")
    first.click("#t-add")
    first.wait_for_function("() => document.querySelectorAll('#t-standings tbody tr').length === 4")
    first.goto(f"{base_url}/chips")
    first.wait_for_selector("#chip-table tbody tr")
    assert first.inner_text("#chip-balance") == "9,890 chips"  # a bet of 100 and a fee of 10
    shot(first, "10-chips")
    assert errors == []
    every_screen_at_both_widths(first, base_url, compare, tournament)
    assert errors == []
    server.stop()


def screens_at_both_widths(page: Page, screens: dict[str, tuple[str, str]]) -> None:
    """Each screen (a URL, and a selector that shows it is drawn) at a laptop's and a
    phone's width: screenshot, no wider than the screen, and axe-core finds nothing
    serious."""
    from axe_playwright_python.sync_playwright import Axe

    fits = "() => document.documentElement.scrollWidth <= window.innerWidth"
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900 if width > 500 else 844})
        for name, (url, ready) in screens.items():
            page.goto(url)
            page.wait_for_selector(ready, timeout=60_000)
            assert page.evaluate(fits), f"{name} is wider than the screen at {width}"
            assert_no_notation(page, name)
            shot(page, f"screen-{name}-{width}")
            serious = [
                (v["id"], v["nodes"][0]["target"])
                for v in Axe().run(page).response["violations"]
                if v["impact"] in ("serious", "critical")
            ]
            assert not serious, (name, width, serious)


def every_screen_at_both_widths(page: Page, base_url: str, compare: str, tournament: str) -> None:
    """Every screen of the site at both widths (`screens_at_both_widths`)."""
    replay = compare.split("/")[-1]
    screens = {
        "lobby": ("/", "#games li"),
        "watch": ("/watch", "#watch-list li"),
        "leaderboard": ("/leaderboard", "#board-table tbody tr"),
        "player": ("/player/account:1", "#player-stats tr"),
        "daily": ("/daily", "#daily-board tbody tr"),
        "tournaments": ("/tournaments", "#t-list li"),
        "tournament": (tournament, "#t-standings tbody tr"),
        "chips": ("/chips", "#chip-table tbody tr"),
        "money": ("/money", "#money-offers tbody tr"),
        "replay": (f"/replay/{replay}", "#table .plate"),
        "compare": (compare, "#pane-b .plate"),
    }
    screens_at_both_widths(page, {k: (f"{base_url}{p}", r) for k, (p, r) in screens.items()})
    every_screen_in_japanese(page, base_url, screens)


def every_screen_in_japanese(
    page: Page, base_url: str, screens: dict[str, tuple[str, str]]
) -> None:
    """The same screens on the Japanese site: nothing English left but names and
    formats (`english_left`), axe-core finds nothing serious; then English again."""
    from axe_playwright_python.sync_playwright import Axe

    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base_url)
    page.evaluate("() => localStorage.setItem('riichi-lang', 'ja')")
    presets = page.evaluate(
        "async () => (await (await fetch('/api/presets')).json()).map((p) => p.name)"
    )
    names = ("Dee", "Eli", "Browser cup", "daily-wall", *presets)
    left = {}
    for name, (path, ready) in screens.items():
        page.goto(f"{base_url}{path}")
        page.wait_for_selector(ready, timeout=60_000)
        assert page.evaluate("() => document.documentElement.lang") == "ja"
        left[name] = english_left(page, names)
        shot(page, f"screen-{name}-ja")
        serious = [
            (v["id"], v["nodes"][0]["target"])
            for v in Axe().run(page).response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert not serious, (name, serious)
    assert not any(left.values()), {name: texts for name, texts in left.items() if texts}
    page.evaluate("() => localStorage.setItem('riichi-lang', 'en')")


def post_json(page: Page, url: str, body: dict[str, object]) -> dict[str, object]:
    """A request from the page itself, with its session."""
    result: dict[str, object] = page.evaluate(
        """async ([url, body]) => { const res = await fetch(url, {method: "POST",
        headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
        return await res.json(); }""",
        [url, body],
    )
    return result


def my_chips(page: Page) -> int:
    return int(page.inner_text("#my-chips").split()[0].replace(",", ""))


@pytest.mark.parametrize("width", [1280, 390])
def test_a_money_table_shows_the_chips_the_ledger_moved(
    browser: Browser, tmp_path: Path, width: int
) -> None:
    from riichi.server.clock import FakeClock
    from server_helpers import Running

    server = Running(create_app(f"sqlite:///{tmp_path / 'money.db'}", clock=FakeClock()))
    try:
        page = browser.new_page(viewport={"width": width, "height": 900 if width > 500 else 844})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        sign_up(page, server.url, "Moneta")
        table = post_json(
            page,
            "/api/tables",
            {
                "rules": "riichi-basic",
                "length": "one-hand",
                "switches": {"settlement": "house"},
                "seats": ["human", "expert", "expert", "expert"],
                "clock": "standard",
                "bet": 300,
            },
        )
        tokens = table["tokens"]
        assert isinstance(tokens, list)
        mine = next(s for s, t in enumerate(tokens) if t)  # the seat the table drew
        page.goto(f"{server.url}/table/{table['id']}#{tokens[mine]}")
        page.wait_for_selector("#my-hand .tile")
        before = my_chips(page)
        assert before < 10_000  # the stake is held from the start
        play_to_the_end(page)
        page.wait_for_selector("#result-body table.standings td.chips")
        check_result_in_view(page)
        shown = int(
            page.inner_text(f"#result-body table.standings tr[data-seat='{mine}'] td.chips")
            .replace(",", "")
            .replace("+", "")
        )
        statement = page.evaluate("async () => (await (await fetch('/api/chips')).json())")
        moved = sum(
            e["amount"]
            for e in statement["statement"]["items"]
            if e["event"] == f"table:{table['id']}"
        )
        assert shown == moved, (shown, moved)
        # the header follows the settlement without a reload
        page.wait_for_function(
            f"() => (document.querySelector('#my-chips')?.textContent ?? '').replace(/,/g, '')"
            f".includes('{statement['balance']}')"
        )
        assert my_chips(page) == 10_000 + moved
        shot(page, f"11-money-result-{width}")
        page.goto(f"{server.url}/chips")
        page.wait_for_selector("#chip-table tbody tr a")
        text = page.inner_text("#chip-table")
        assert "money table settled" in text and "table:" not in text and "escrow" not in text
        assert not errors, errors
    finally:
        server.stop()


def test_a_signed_in_friend_who_opens_a_seat_link_plays_as_their_account(
    browser: Browser, tmp_path: Path
) -> None:
    from server_helpers import Running

    server = Running(create_app(f"sqlite:///{tmp_path / 'friends.db'}"))
    try:
        pages = []
        for name in ("Annie", "Benno"):
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            sign_up(page, server.url, name)
            page.evaluate("() => localStorage.setItem('riichi-options', JSON.stringify({pace: 0}))")
            pages.append(page)
        ann, ben = pages
        table = post_json(
            ann,
            "/api/tables",
            {
                "kind": "private",
                "rules": "riichi-basic",
                "length": "one-hand",
                "seats": ["human", "human", "tsumogiri", "tsumogiri"],
            },
        )
        tokens = table["tokens"]
        assert isinstance(tokens, list)
        for page, token in zip(pages, tokens, strict=False):
            page.goto(f"{server.url}/table/{table['id']}#{token}")
            page.wait_for_selector("#my-hand .tile")
        assert "Benno" in ben.locator(".plate .name").all_inner_texts()
        done: set[int] = set()
        for _ in range(3000):  # both play: pass every call, discard what is drawn
            for i, page in enumerate(pages):
                if i in done:
                    continue
                tapped = tap_first(page, PASSING, unless=RESULT)
                if tapped is not None and tapped[0] == RESULT:
                    done.add(i)
            if len(done) == 2:
                break
            ann.wait_for_timeout(20)
        assert done == {0, 1}
        me = ben.evaluate("async () => (await (await fetch('/api/me')).json())")
        ben.goto(f"{server.url}/player/account:{me['account']['id']}")
        ben.wait_for_selector("#player-games li a")
        assert ben.locator("#player-games li a[href^='/replay/']").count() == 1
    finally:
        server.stop()


def test_lobby_errors_show_by_their_forms_and_seat_links_fit_with_a_copy_button(
    browser: Browser, base_url: str
) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(base_url)
    page.fill("#account-name", "nobody-here")
    page.fill("#account-password", "wrong password")
    page.click("#sign-in-button")
    page.wait_for_function("() => (document.querySelector('#sign-in-error')?.textContent ?? '')")
    assert page.inner_text("#status") == ""  # said by the form, not in the header
    page.click("#custom-table summary")
    page.select_option("#kind", "private")
    page.select_option("select[name=seat1]", "human")
    page.click("#start")
    page.wait_for_selector("#links:not([hidden]) #link-list li")
    assert page.locator("#link-list button.copy").count() == 1
    fits = "() => document.documentElement.scrollWidth <= window.innerWidth"
    assert page.evaluate(fits), "the seat link runs past the screen"
    shot(page, "0-seat-links-390")


def test_a_pasted_log_is_reviewed_beside_its_replay(browser: Browser, tmp_path: Path) -> None:
    """Paste a log, pick a seat, keep it: the board with the reviewer's options as bars
    at each decision, the played one marked, M to the next mistake, a mark on the
    timeline to click; the kept link opens the same review; both widths fit."""
    import json

    from riichi.bots import make_bot
    from riichi.bots.play import play_match
    from riichi.formats.tenhou6 import write_tenhou6
    from riichi.game import Match
    from riichi.rules import find_ruleset
    from server_helpers import Running

    match = Match(find_ruleset("tenhou"), 4, ["ann", "bob", "cy", "dee"])
    play_match(match, [make_bot("efficiency", s) for s in range(4)])
    server = Running(create_app(f"sqlite:///{tmp_path / 'review.db'}"))
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.url}/review")
        page.fill("#review-log", json.dumps(write_tenhou6(match)))
        page.select_option("#review-seat", "1")
        page.check("#review-form input[name=keep]")
        page.click("#review-form button[type=submit]")
        page.wait_for_selector("#review-decision .options li", timeout=60_000)
        kept = page.url
        assert "/review/log-" in kept and kept.endswith("/1")
        assert "bob" in page.inner_text("#review-who")
        assert page.locator("#review-decision li.played").count() == 1
        assert_no_notation(page, "a review")
        page.keyboard.press("m")
        shown = "(document.querySelector('#review-decision')?.textContent ?? '')"
        page.wait_for_function(f"() => /lost/.test({shown})")
        graded = "#review-decision .decision.small, #review-decision .decision.large"
        assert page.locator(graded).count() == 1
        marks = page.locator("#review-timeline .mark")
        assert marks.count() > 0
        marks.last.click()
        label = marks.last.get_attribute("aria-label") or ""
        page.wait_for_function(f"(t) => {shown}.includes(t)", arg=label.split(" turn")[0])
        # the loss over the game, a dot at each mistake, and the largest listed to jump to
        assert page.locator("#review-chart .mistake").count() == marks.count()
        assert "lost over the game" in (page.text_content("#review-chart") or "")
        worst = page.locator("#review-largest button")
        assert 0 < worst.count() <= 5
        first = worst.first.inner_text().split(":")[0]  # e.g. "E2-0, turn 5"
        worst.first.click()
        page.wait_for_function(f"(t) => {shown}.includes(t)", arg=first.split(",")[0])
        # a discard's options say what each leaves, with the tiles drawn (from the first
        # decision on, where the review opens)
        page.goto(kept)
        page.wait_for_selector("#review-decision .options li", timeout=60_000)
        for _ in range(200):
            if page.locator("#review-decision .gives").count():
                break
            page.keyboard.press("ArrowRight")
        gives = page.locator("#review-decision .gives").first
        assert gives.locator("img").count() > 0
        assert re.search(r"(ready on|from ready; improved by) \d+ tiles", gives.inner_text())
        assert page.locator("#review-decision .options li .label img").count() > 0
        screens_at_both_widths(
            page,
            {
                "review": (kept, "#review-decision .options li"),
                "review-upload": (f"{server.url}/review", "#review-form"),
            },
        )
        # on a phone the steps sit under the board, and the decision under the steps
        page.goto(kept)
        page.wait_for_selector("#review-decision p")
        board, steps, decision = (
            page.locator(s).bounding_box()
            for s in ("#board", "#replay-controls", "#review-decision")
        )
        assert board and steps and decision
        assert 0 <= steps["y"] - (board["y"] + board["height"]) < 40, (board, steps)
        assert 0 <= decision["y"] - (steps["y"] + steps["height"]) < 120, (steps, decision)
        assert errors == []
    finally:
        server.stop()


def play_together(pages: list[Page]) -> None:
    """Several people click through a one-hand match at one table, each in turn: every
    call offered taken, else the drawn tile let go; Next after a hand that does not end
    it (an abortive draw is replayed); until the final standings show."""
    for _ in range(6000):
        # one look a page; once one shows a result, the pages after it are not clicked
        ended = False
        for page in pages:
            tapped = tap_first(page, TURN, unless=RESULT)
            if tapped is not None and tapped[0] == RESULT:
                ended = True
                break
        if ended:
            if all([next_deal(page) for page in pages]):  # a list: every page goes on
                return
            continue
        pages[0].wait_for_timeout(20)
    raise AssertionError("the match did not end")


def test_four_people_take_a_money_table_from_the_lobby(browser: Browser, tmp_path: Path) -> None:
    """Four people, each from its own address: one offers a money table, three sit; the
    others are told at once that it starts (a notice with its link), everyone plays
    the hand, and the chips moved add up to nothing."""
    from riichi.server.clock import FakeClock
    from server_helpers import Running

    server = Running(
        create_app(f"sqlite:///{tmp_path / 'people.db'}", clock=FakeClock()), proxies=("127.0.0.1",)
    )
    errors: list[str] = []
    try:
        pages = []
        for n, name in enumerate(["Anna", "Bean", "Cyd", "Deea"]):
            context = browser.new_context(
                viewport={"width": 1280, "height": 900},
                extra_http_headers={"X-Forwarded-For": f"10.20.0.{n + 1}"},
            )
            # the others' moves shown at once, not at a person's pace
            context.add_init_script(
                "localStorage.setItem('riichi-options', JSON.stringify({pace: 0}))"
            )
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            sign_up(page, server.url, name)
            pages.append(page)
        ann, bea, cy, dee = pages
        ann.goto(f"{server.url}/money")
        ann.wait_for_selector("#money-form:not([hidden])")
        ann.select_option("#money-form select[name=length]", "one-hand")
        ann.fill("#money-form input[name=bet]", "100")
        ann.click("#money-form button[type=submit]")
        ann.wait_for_selector("#money-offers tbody tr button")
        assert "Leave" in ann.inner_text("#money-offers tbody")
        shot(ann, "11-money-lobby")
        for page in (bea, cy):
            page.goto(f"{server.url}/money")
            page.click("#money-offers tbody button:text('Sit')")
            page.wait_for_selector("#money-offers tbody button:text('Leave')")
        dee.goto(f"{server.url}/money")
        dee.click("#money-offers tbody button:text('Sit')")
        dee.wait_for_url("**/table/**")
        table = dee.url.split("/table/")[1]
        for page in (ann, bea, cy):  # told at once, with the link
            page.wait_for_selector(f"#notices a[href='/table/{table}']")
        shot(ann, "12-money-notice")
        for page in (ann, bea, cy):
            page.click(f"#notices a[href='/table/{table}']")
            page.wait_for_selector("#my-hand .tile")
        play_together(pages)
        held = [my_chips(p) for p in pages]
        for page in pages:
            page.goto(f"{server.url}/chips")
            page.wait_for_selector("#chip-table tbody tr")
        after = [int(p.inner_text("#chip-balance").split()[0].replace(",", "")) for p in pages]
        # what one won the others lost (a tie shares its places' money: four equal
        # scores give every bet back), less the odd chips of a tie, the house's
        assert 0 <= 4 * 10_000 - sum(after) < 4, (held, after)
        assert errors == []
    finally:
        server.stop()


def test_a_league_season_page_shows_standings_teams_and_pt(
    browser: Browser, tmp_path: Path
) -> None:
    """An organiser makes a team season in the page, adds eight roster computers in two
    teams, starts it; the season's page shows the standings in PT, the teams, a line
    a player over the season and every table with its replay."""
    from riichi.platform.accounts import name_key
    from riichi.server.clock import FakeClock
    from server_helpers import Running

    server = Running(create_app(f"sqlite:///{tmp_path / 'league.db'}", clock=FakeClock()))
    errors: list[str] = []
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        sign_up(page, server.url, "Organiser")
        # a season of computers alone is an operator's to start
        accounts = server.app.state.server.store.accounts
        accounts.set_role(name_key("Organiser"), "operator")
        page.goto(f"{server.url}/leagues")
        page.fill("#l-form input[name=name]", "Spring league")
        page.select_option("#l-form select[name=mode]", "team")
        page.fill("#l-form input[name=rounds]", "1")
        page.click("#l-form button[type=submit]")
        page.wait_for_url("**/league/**")
        league = page.url.split("/league/")[1]
        for team in ("North", "South"):
            page.fill("#l-team input", team)
            page.fill("#l-count", "4")
            page.click("#l-add")
            page.wait_for_function(
                f"() => document.querySelectorAll('#l-standings tbody tr').length >= "
                f"{4 if team == 'North' else 8}"
            )
        page.click("#l-start")
        page.wait_for_selector("#l-tables li")
        deadline = time.monotonic() + 120
        while "over ·" not in page.inner_text("#l-facts"):
            assert time.monotonic() < deadline, "the season did not end"
            page.wait_for_timeout(500)
            page.goto(f"{server.url}/league/{league}")
            page.wait_for_selector("#l-facts:not(:empty)")
        assert page.locator("#l-standings tbody tr").count() == 8
        assert page.locator("#l-teams tbody tr").count() == 2
        assert page.locator("#l-plot polyline").count() == 8
        assert page.locator("#l-tables a[href^='/replay/']").count() == 2
        shot(page, "13-league")
        screens_at_both_widths(page, {"league": (page.url, "#l-standings tbody tr")})
        assert errors == []
    finally:
        server.stop()


def test_an_operator_moderates_in_the_page_and_a_player_reports(
    browser: Browser, tmp_path: Path
) -> None:
    """A player reports another under a finished rated game's replay; the operator sees
    the report, suspends the account and closes the report in the page, and the log
    shows both acts with their reasons."""
    from argon2 import PasswordHasher
    from sqlalchemy import update

    from riichi.platform.accounts import name_key
    from riichi.server.clock import FakeClock
    from riichi.server.storage import accounts as accounts_table
    from server_helpers import Running
    from test_ratings import Site

    site = Site(tmp_path)  # the database the server then serves
    people = [site.account(n) for n in ("Ann", "Bob", "Cid", "Dee")]
    game = site.play(people)
    with site.store.engine.begin() as conn:  # Ann signs in with a password of her own
        conn.execute(
            update(accounts_table)
            .where(accounts_table.c.id == people[0])
            .values(password_hash=PasswordHasher().hash("correct horse"))
        )
    site.store.close()
    server = Running(create_app(site.url, clock=FakeClock()))
    errors: list[str] = []
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        sign_up(page, server.url, "Warden")
        server.app.state.server.store.accounts.set_role(name_key("Warden"), "operator")
        other = browser.new_page(viewport={"width": 1280, "height": 900})
        other.on("pageerror", lambda exc: errors.append(str(exc)))
        other.goto(server.url)
        other.fill("#account-name", "Ann")
        other.fill("#account-password", "correct horse")
        other.click("#sign-in-button")
        other.wait_for_selector("#my-page")
        other.goto(f"{server.url}/replay/{game}")
        other.wait_for_selector("#report-box:not([hidden])")
        other.click("#report-box summary")
        other.select_option("#report-who", str(people[1]))
        other.fill("#report-form textarea", "called every tile to stall")
        other.click("#report-form button[type=submit]")
        other.wait_for_selector("#report-note:has-text('sent')")
        page.goto(f"{server.url}/moderation")
        page.wait_for_selector("#m-reports li:has-text('Ann reports Bob')")
        page.select_option("#m-act", "suspend")
        page.fill("#m-form input[name=name]", "Bob")
        page.fill("#m-form input[name=reason]", "stalling, reported by Ann")
        page.click("#m-form button[type=submit]")
        page.wait_for_selector("#m-log tr:has-text('suspend')")
        page.select_option("#m-act", "report")
        assert page.locator("#m-form input[name=name]").is_hidden()
        page.fill("#m-form input[name=report]", "1")
        page.fill("#m-form input[name=reason]", "suspended")
        page.click("#m-form button[type=submit]")
        page.wait_for_selector("#m-reports li:has-text('no open report')")
        rows = page.locator("#m-log tr")
        assert rows.count() == 2
        assert "stalling, reported by Ann" in rows.nth(1).inner_text()
        shot(page, "14-moderation")
        other.goto(f"{server.url}/moderation")  # a player: refused, and told so
        other.wait_for_selector("#m-denied:has-text('only the site')")
        assert other.locator("#m-form").is_hidden()
        assert errors == []
    finally:
        server.stop()


# a tab in the background, whose browser notifications are recorded as they are shown
IN_THE_BACKGROUND = """
Object.defineProperty(document, "hidden", { get: () => true });
window.notified = [];
const Shown = window.Notification;
window.Notification = class extends Shown {
  constructor(title, options) { super(title, options); window.notified.push(options.body); }
};
"""


def test_a_tournament_entrant_sees_the_notice_of_their_table(
    browser: Browser, tmp_path: Path
) -> None:
    """The lobby open, a tournament round starts: the entrant's page says so at once,
    with the table's link, and the link seats them; with the tab in the background and
    notifications allowed (with the page's button), the browser shows it too."""
    from riichi.server.clock import FakeClock
    from server_helpers import Running

    server = Running(create_app(f"sqlite:///{tmp_path / 'cup.db'}", clock=FakeClock()))
    try:
        pages = []
        for name in ("Anna", "Bean"):
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            sign_up(page, server.url, name)
            pages.append(page)
        ann, bea = pages
        bea.context.grant_permissions(["notifications"], origin=server.url)
        bea.click("#notify-me")
        bea.wait_for_selector("#notify-me", state="detached")
        bea.context.add_init_script(IN_THE_BACKGROUND)
        bea.reload()
        bea.wait_for_selector("#sign-out")
        cup = {"name": "Cup", "rules": "riichi-basic", "length": "one-hand", "rounds": 1}
        made = post_json(ann, "/api/tournaments", {**cup, "bet": 10, "closes_in": 60})
        tid = made["id"]
        post_json(bea, f"/api/tournaments/{tid}/register", {})
        post_json(ann, f"/api/tournaments/{tid}/computers", {"count": 3})
        post_json(ann, f"/api/tournaments/{tid}/start", {})
        notice = bea.wait_for_selector("#notices a:has-text('Cup: your round 1 table')")
        assert (notice.get_attribute("href") or "").startswith("/table/")
        bea.wait_for_function("window.notified.length > 0")
        shown = bea.evaluate("window.notified")
        # (her clock's notice may follow: she has not sat down at the table yet)
        assert shown[0].startswith("Cup: your round 1 table")
        notice.click()
        bea.wait_for_selector("#my-hand .tile")
    finally:
        server.stop()

"""``riichi play``: you against three bots in the terminal (a Textual app)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import click
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Footer, Header, Static

from riichi.bots import BOT_LABEL, Agent, make_agent
from riichi.cli.options import LENGTHS, bot_names, rules_with_length, timeout_option
from riichi.game import Action, ActionType, Match, observe
from riichi.rules import RuleSet, Settlement
from riichi.tiles import EAST, dora_of, tile_name

WIND_NAMES = "ESWN"
YOU = 0
_LABELS = {
    ActionType.RIICHI: "Riichi",
    ActionType.TSUMO: "Tsumo",
    ActionType.RON: "Ron",
    ActionType.CHI: "Chi",
    ActionType.PON: "Pon",
    ActionType.KAN: "Kan",
    ActionType.ANKAN: "Kan (closed)",
    ActionType.KAKAN: "Kan (added)",
    ActionType.KITA: "North aside",
    ActionType.KYUUSHU: "Nine terminals",
    ActionType.PASS: "Pass",
}


# honours by the names the browser gives them; suits in notation, a red five as 0
HONOUR_NAMES = ("E", "S", "W", "N", "Wh", "Gr", "Rd")


def tile_label(tile: int, red_fives: int) -> str:
    """A tile as a player reads it: ``5m``, ``0p`` for a red five, ``E`` or ``Rd``."""
    kind = tile >> 2
    return HONOUR_NAMES[kind - EAST] if kind >= EAST else tile_name(tile, red_fives)


def tiles_label(tiles: Sequence[int], red_fives: int) -> str:
    return " ".join(tile_label(t, red_fives) for t in sorted(tiles))


def kind_label(kind: int) -> str:
    return tile_label(kind * 4, 0)


def says(name: str, verb: str) -> str:
    """``you win``, ``West wins``: the verb agrees with who does it."""
    return f"you {verb}" if name == "you" else f"{name} {verb}s"


def describe_result(match: Match) -> str:
    """The last hand's result as text: each winner's hand and winning tile, yaku, han,
    fu items and payments; or the draw, in words."""
    result = match.results[-1]
    names = match.players
    red = match.rules.red_fives
    shown = [e for e in match.events if e.type == "win"][-len(result.wins) :] if result.wins else []
    lines = []
    if result.kind == "win":
        for (seat, source, r), event in zip(result.wins, shown, strict=True):
            how = "by tsumo" if source is None else f"by ron from {names[source]}"
            lines.append(f"{says(names[seat], 'win')} {how}: {r}")
            hand = [t for t in event.data["hand"] if t != event.data["tile"]]
            melds = "".join(f"  [{m}]" for m in event.data["melds"])
            won_on = tile_label(event.data["tile"], red)
            lines.append(f"  hand: {tiles_label(hand, red)}{melds}  won on {won_on}")
            for y in r.yaku:
                unit = "yakuman" if r.yakuman else "han"
                lines.append(f"  {y.yaku.en} ({y.yaku.ja}) {y.han} {unit}")
            for label, count in (("Dora", r.dora), ("Red fives", r.aka), ("Ura dora", r.ura)):
                if count:
                    lines.append(f"  {label} {count} han")
            if r.fu_items:
                lines.append("  fu: " + " + ".join(f"{i.fu} {i.label}" for i in r.fu_items))
            for p in r.payments:
                lines.append(f"  {says(names[p.seat], 'pay')} {p.points}")
    elif result.kind == "exhaustive":
        tenpai = ", ".join(names[s] for s in result.tenpai) or "nobody"
        lines.append(f"Exhaustive draw: tenpai {tenpai}")
    else:
        lines.append(f"Abortive draw: {ABORTS.get(result.abort or '', result.abort)}")
    lines.append(
        "Changes: " + ", ".join(f"{n} {d:+}" for n, d in zip(names, result.deltas, strict=True))
    )
    return "\n".join(lines)


ABORTS = {
    "nine-terminals": "nine different terminals and honours (kyuushu kyuuhai)",
    "four-winds": "the same wind discarded by all four (suufon renda)",
    "four-riichi": "all four in riichi (suucha riichi)",
    "four-kans": "four kans by more than one player (suukaikan)",
    "triple-ron": "three players won on one tile (sanchahou)",
}


def points_text(rules: RuleSet, points: float) -> str:
    """A final standing's settled points; none where the settlement is the raw score."""
    if rules.settlement is Settlement.RAW:
        return ""
    if rules.settlement is Settlement.TABLE_POINTS:
        return f" ({points:g} table points)"
    return f" ({points:+.1f})"


class TableApp(App[None]):
    """The table: your hand as buttons, the other seats, and a prompt for every decision."""

    CSS = """
    #hand Button { min-width: 5; margin: 0 0; }
    #actions Button { margin: 0 1; }
    .seat { height: auto; border: round $primary; padding: 0 1; }
    #result { border: heavy $accent; padding: 0 1; height: auto; }
    """
    # the browser's keys: ← → choose a tile and Enter discards it, D the drawn tile;
    # W win, R riichi, P pon, C chi, K kan, N or Esc pass; Enter takes the next hand
    BINDINGS: ClassVar = [
        ("q", "quit", "Quit"),
        ("left", "tile(-1)", "Tile ←"),
        ("right", "tile(1)", "Tile →"),
        ("d", "drawn", "Drawn tile"),
        ("w", "choose('tsumo ron')", "Win"),
        ("r", "choose('riichi')", "Riichi"),
        ("p", "choose('pon')", "Pon"),
        ("c", "choose('chi')", "Chi"),
        ("k", "choose('kan ankan kakan')", "Kan"),
        ("n", "choose('pass')", "Pass"),
        ("escape", "choose('pass')", "Pass"),
    ]

    def __init__(self, match: Match, bots: Sequence[Agent]) -> None:
        super().__init__()
        self.match = match
        self.bots = {seat: bot for seat, bot in enumerate(bots, start=1)}
        self.fed = dict.fromkeys(self.bots, 0)  # events each bot has been shown
        self.showing_result = False
        self.results_seen = 0
        self._choices: dict[str, Action] = {}
        self._generation = 0  # new buttons get new ids: old ones may not be gone yet

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static(id="table")
            yield Static(id="result")
            yield Horizontal(id="actions")
            yield Static("Your hand (click a tile to discard it; ↓ is the tile you drew):")
            yield Horizontal(id="hand")
        yield Footer()

    async def on_mount(self) -> None:
        self.title = "riichi"
        for seat, bot in self.bots.items():  # an outside bot starts its process here
            if hasattr(bot, "start_match"):
                bot.start_match(self.match.rules, self.match.players, seat)
        await self.advance()

    def on_unmount(self) -> None:
        for seat in self.bots:
            self._feed(seat)
        for bot in self.bots.values():
            if hasattr(bot, "end_match"):
                bot.end_match()

    def _feed(self, seat: int) -> None:
        """The events a bot that follows the game (``on_events``) has not seen yet."""
        bot = self.bots[seat]
        if hasattr(bot, "on_events"):
            events = self.match.events[self.fed[seat] :]
            bot.on_events([e for e in events if e.visible_to(seat)])
            self.fed[seat] = len(self.match.events)

    # -------------------------------------------------------------- keys

    def _tile_buttons(self) -> list[Button]:
        return [b for b in self.query("#hand Button").results(Button) if not b.disabled]

    def action_tile(self, step: int) -> None:
        buttons = self._tile_buttons()
        if not buttons:
            return
        at = buttons.index(self.focused) if self.focused in buttons else len(buttons)
        buttons[(at + step) % len(buttons)].focus()

    async def action_drawn(self) -> None:
        drawn = [b for b in self._tile_buttons() if str(b.label).endswith("↓")]
        if drawn:
            await self._press(drawn[0])

    async def action_choose(self, kinds: str) -> None:
        """The first action button of one of ``kinds`` (space-separated), pressed."""
        for key, action in self._choices.items():
            if action.type.value in kinds.split() and not key.startswith("t"):
                await self._press(self.query_one(f"#{key}", Button))
                return

    async def _press(self, button: Button) -> None:
        key = button.id or ""
        if key in self._choices:
            await self.decide(self._choices[key])

    # -------------------------------------------------------------- flow

    async def advance(self) -> None:
        """Let the bots play until you must decide, a hand ends, or the match ends."""
        m = self.match
        while not m.over:
            if len(m.results) > self.results_seen:
                self.results_seen = len(m.results)
                await self.show_result()
                return
            legal = m.legal_actions()
            if YOU in legal:
                break
            seat = next(iter(legal))
            self._feed(seat)
            m.apply(seat, self.bots[seat].act(observe(m, seat)))
        if m.over and len(m.results) > self.results_seen:
            self.results_seen = len(m.results)
            await self.show_result()
            return
        await self.refresh_table()

    async def decide(self, action: Action) -> None:
        self.match.apply(YOU, action)
        await self.advance()

    # -------------------------------------------------------------- drawing

    async def refresh_table(self) -> None:
        m = self.match
        obs = observe(m, YOU)
        self.query_one("#result", Static).update("")
        self.query_one("#result", Static).display = False
        round_name = WIND_NAMES[obs.round_wind - EAST]
        red = m.rules.red_fives
        three = m.rules.players == 3
        dora = ", ".join(
            f"{kind_label(dora_of(t >> 2, three))} (indicator {tile_label(t, red)})"
            for t in obs.dora_indicators
        )
        header = (
            f"{round_name}{obs.dealer + 1}  honba {obs.honba}  sticks {obs.sticks}  "
            f"dora {dora}  left {obs.live_left}"
        )
        seats = []
        for s in range(m.rules.players):
            wind = WIND_NAMES[(s - obs.dealer) % m.rules.players]
            # a riichi tile is shown in brackets (sideways), a called one with a star
            river = " ".join(
                (f"[{tile_label(t, red)}]" if riichi else tile_label(t, red))
                + ("*" if called else "")
                for t, _tg, riichi, called in obs.discards[s]
            )
            riichi_mark = "  RIICHI" if obs.riichi[s] else ""
            melds = " ".join(obs.melds[s])
            seats.append(
                f"{wind} {m.players[s]}  {obs.scores[s]}{riichi_mark}\n"
                f"   melds: {melds or '-'}\n   river: {river or '-'}"
            )
        self.query_one("#table", Static).update(header + "\n\n" + "\n".join(seats))
        await self.show_choices(obs.hand or (), obs.drawn, obs.legal)

    async def show_choices(
        self, hand: Sequence[int], drawn: int | None, legal: Sequence[Action]
    ) -> None:
        """Your whole hand (the drawn tile apart, last), each tile a button that discards
        it when that is legal; every other legal action as a button of its own."""
        hand_box = self.query_one("#hand", Horizontal)
        action_box = self.query_one("#actions", Horizontal)
        await hand_box.remove_children()
        await action_box.remove_children()
        self._generation += 1
        self._choices = {}
        rules = self.match.rules
        discards = {a.tile: a for a in legal if a.type is ActionType.DISCARD}
        tiles = sorted(t for t in hand if t != drawn) + ([drawn] if drawn is not None else [])
        buttons = []
        for i, tile in enumerate(tiles):
            key = f"t{self._generation}-{i}"
            label = tile_label(tile, rules.red_fives) + ("↓" if tile == drawn else "")
            if tile in discards:
                self._choices[key] = discards[tile]
            buttons.append(Button(label, id=key, classes="tile", disabled=tile not in discards))
        await hand_box.mount_all(buttons)
        actions: list[Button] = []
        labels: set[str] = set()  # one button for each distinct choice
        for a in (x for x in legal if x.type is not ActionType.DISCARD):
            label = _LABELS[a.type]
            if a.tile is not None and a.type is not ActionType.PASS:
                label += " " + tile_label(a.tile, rules.red_fives)
            if a.tiles and a.type in (ActionType.CHI, ActionType.PON):
                label += " (" + tiles_label(a.tiles, rules.red_fives) + ")"
            if label in labels:
                continue
            labels.add(label)
            key = f"a{self._generation}-{len(actions)}"
            self._choices[key] = a
            actions.append(Button(label, id=key, variant="primary"))
        await action_box.mount_all(actions)

    async def show_result(self) -> None:
        m = self.match
        text = describe_result(m)
        if m.over and m.standings is not None:
            text += "\n\nFinal standings:\n" + "\n".join(
                f"  {x.place}. {x.name}: {x.score}" + points_text(m.rules, x.points)
                for x in sorted(m.standings, key=lambda x: x.place)
            )
        box = self.query_one("#result", Static)
        box.display = True
        box.update(text)
        await self.query_one("#hand", Horizontal).remove_children()
        actions = self.query_one("#actions", Horizontal)
        await actions.remove_children()
        self._choices = {}
        if not m.over:
            self._generation += 1
            following = Button("Next hand", id=f"next{self._generation}", variant="success")
            await actions.mount(following)
            following.focus()  # Enter takes the next hand
        self.showing_result = True

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        key = event.button.id or ""
        if key.startswith("next"):
            self.showing_result = False
            await self.advance()
        elif key in self._choices:
            await self.decide(self._choices[key])


@click.command("play")
@click.option("--rules", "rules_name", default="online", show_default=True, help="A preset.")
@click.option(
    "--length",
    type=click.Choice(LENGTHS),
    default=None,
    help="Match length (default: the preset's).",
)
@click.option("--seed", type=int, default=None, help="Seed the walls (default: random).")
@click.option(
    "--bots",
    "bot_names",
    default=None,
    help='The opponents, comma-separated: built-in bots, or "mjai:COMMAND ARGS" for an'
    " outside bot (default: expert,defensive,expert, as many as the rules seat).",
)
@timeout_option
def play_command(
    rules_name: str, length: str | None, seed: int | None, bot_names: str | None, timeout: float
) -> None:
    """Play a match against bots in the terminal."""
    import secrets

    rules = rules_with_length(rules_name, length)
    actual_seed: Any = seed if seed is not None else secrets.randbits(32)
    bots = opponents(bot_names, rules.players - 1, actual_seed, timeout)
    match = Match(rules, actual_seed, ["you", *seat_names(bots)])
    TableApp(match, bots).run()


DEFAULT_BOTS = ("expert", "defensive", "expert")


def seat_names(bots: Sequence[Agent]) -> list[str]:
    """The bots' names with their seat's number, as the browser names them: two
    experts are ``expert 2 (bot)`` and ``expert 4 (bot)``."""
    out = []
    for seat, bot in enumerate(bots, start=2):
        base = bot.name.removesuffix(BOT_LABEL).strip()
        out.append(f"{base} {seat} {BOT_LABEL}")
    return out


def opponents(names: str | None, count: int, seed: object, timeout: float = 2.0) -> list[Agent]:
    """The bots named (``--bots``), or the default ones, as many as ``count``."""
    chosen = bot_names(names, count, DEFAULT_BOTS)
    return [make_agent(n, f"{seed}:{i}", timeout) for i, n in enumerate(chosen, start=1)]

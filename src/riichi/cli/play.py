"""``riichi play``: you against three bots in the terminal (a Textual app)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import click
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Footer, Header, Static

from riichi.bots import Bot, make_bot
from riichi.game import Action, ActionType, Match, observe
from riichi.rules import Length, find_ruleset
from riichi.tiles import EAST, tile_name, tiles_name

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
    ActionType.KYUUSHU: "Nine terminals",
    ActionType.PASS: "Pass",
}


def describe_result(match: Match) -> str:
    """The last hand's result as text: wins with yaku, han, fu items and payments, or the draw."""
    result = match.results[-1]
    names = match.players
    lines = []
    if result.kind == "win":
        for seat, source, r in result.wins:
            how = "tsumo" if source is None else f"ron from {names[source]}"
            lines.append(f"{names[seat]} wins by {how}: {r}")
            for y in r.yaku:
                unit = "yakuman" if r.yakuman else "han"
                lines.append(f"  {y.yaku.en} ({y.yaku.ja}) {y.han} {unit}")
            for label, count in (("Dora", r.dora), ("Red fives", r.aka), ("Ura dora", r.ura)):
                if count:
                    lines.append(f"  {label} {count} han")
            if r.fu_items:
                lines.append("  fu: " + " + ".join(f"{i.fu} {i.label}" for i in r.fu_items))
            for p in r.payments:
                lines.append(f"  {names[p.seat]} pays {p.points}")
    elif result.kind == "exhaustive":
        tenpai = ", ".join(names[s] for s in result.tenpai) or "nobody"
        lines.append(f"Exhaustive draw: tenpai {tenpai}")
    else:
        lines.append(f"Abortive draw: {result.abort}")
    lines.append(
        "Changes: " + ", ".join(f"{n} {d:+}" for n, d in zip(names, result.deltas, strict=True))
    )
    return "\n".join(lines)


class TableApp(App[None]):
    """The table: your hand as buttons, the other seats, and a prompt for every decision."""

    CSS = """
    #hand Button { min-width: 5; margin: 0 0; }
    #actions Button { margin: 0 1; }
    .seat { height: auto; border: round $primary; padding: 0 1; }
    #result { border: heavy $accent; padding: 0 1; height: auto; }
    """
    BINDINGS: ClassVar = [("q", "quit", "Quit")]

    def __init__(self, match: Match, bots: Sequence[Bot]) -> None:
        super().__init__()
        self.match = match
        self.bots = {seat: bot for seat, bot in enumerate(bots, start=1)}
        self.showing_result = False
        self.results_seen = 0
        self._choices: dict[str, Action] = {}

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static(id="table")
            yield Static(id="result")
            yield Horizontal(id="actions")
            yield Static("Your hand (click a tile to discard it; ↓ is the tile you drew):")
            yield Horizontal(id="hand")
        yield Footer()

    def on_mount(self) -> None:
        self.title = "riichi"
        self.advance()

    # -------------------------------------------------------------- flow

    def advance(self) -> None:
        """Let the bots play until you must decide, a hand ends, or the match ends."""
        m = self.match
        while not m.over:
            if len(m.results) > self.results_seen:
                self.results_seen = len(m.results)
                self.show_result()
                return
            legal = m.legal_actions()
            if YOU in legal:
                break
            seat = next(iter(legal))
            m.apply(seat, self.bots[seat].act(observe(m, seat)))
        if m.over and len(m.results) > self.results_seen:
            self.results_seen = len(m.results)
            self.show_result()
            return
        self.refresh_table()

    def decide(self, action: Action) -> None:
        self.match.apply(YOU, action)
        self.advance()

    # -------------------------------------------------------------- drawing

    def refresh_table(self) -> None:
        m = self.match
        obs = observe(m, YOU)
        self.query_one("#result", Static).update("")
        self.query_one("#result", Static).display = False
        round_name = WIND_NAMES[obs.round_wind - EAST]
        header = (
            f"{round_name}{obs.dealer + 1}  honba {obs.honba}  sticks {obs.sticks}  "
            f"dora {tiles_name(obs.dora_indicators, m.rules.red_fives)}  left {obs.live_left}"
        )
        seats = []
        for s in range(m.rules.players):
            wind = WIND_NAMES[(s - obs.dealer) % m.rules.players]
            # a riichi tile is shown in brackets (sideways), a called one with a star
            river = " ".join(
                (
                    f"[{tile_name(t, m.rules.red_fives)}]"
                    if riichi
                    else tile_name(t, m.rules.red_fives)
                )
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
        self.show_choices(obs.legal, obs.drawn)

    def show_choices(self, legal: Sequence[Action], drawn: int | None) -> None:
        hand_box = self.query_one("#hand", Horizontal)
        action_box = self.query_one("#actions", Horizontal)
        hand_box.remove_children()
        action_box.remove_children()
        self._choices = {}
        rules = self.match.rules
        for i, a in enumerate(legal):
            key = f"a{i}"
            self._choices[key] = a
            if a.type is ActionType.DISCARD:
                assert a.tile is not None
                label = tile_name(a.tile, rules.red_fives) + ("↓" if a.tile == drawn else "")
                hand_box.mount(Button(label, id=key, classes="tile"))
            else:
                label = _LABELS[a.type]
                if a.tile is not None and a.type is not ActionType.PASS:
                    label += " " + tile_name(a.tile, rules.red_fives)
                if a.tiles and a.type in (ActionType.CHI, ActionType.PON):
                    label += " (" + tiles_name(a.tiles, rules.red_fives) + ")"
                action_box.mount(Button(label, id=key, variant="primary"))

    def show_result(self) -> None:
        m = self.match
        text = describe_result(m)
        if m.over and m.standings is not None:
            text += "\n\nFinal standings:\n" + "\n".join(
                f"  {x.place}. {x.name}: {x.score} ({x.points:+})"
                for x in sorted(m.standings, key=lambda x: x.place)
            )
        box = self.query_one("#result", Static)
        box.display = True
        box.update(text)
        self.query_one("#hand", Horizontal).remove_children()
        actions = self.query_one("#actions", Horizontal)
        actions.remove_children()
        if not m.over:
            actions.mount(Button("Next hand", id="next", variant="success"))
        self.showing_result = True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        key = event.button.id or ""
        if key == "next":
            self.showing_result = False
            self.advance()
        elif key in self._choices:
            self.decide(self._choices[key])


@click.command("play")
@click.option("--rules", "rules_name", default="online", show_default=True)
@click.option("--length", type=click.Choice([x.value for x in Length]), default=None)
@click.option("--seed", type=int, default=None, help="Seed the walls (default: random).")
@click.option(
    "--bots",
    "bot_names",
    default="defensive,efficiency,defensive",
    show_default=True,
    help="The three opponents.",
)
def play_command(rules_name: str, length: str | None, seed: int | None, bot_names: str) -> None:
    """Play a match against three bots in the terminal."""
    import secrets

    rules = find_ruleset(rules_name)
    if length is not None:
        chosen = Length(length)
        rules = rules.replace(length=chosen, lengths=tuple({*rules.lengths, chosen}))
    names = [n.strip() for n in bot_names.split(",")]
    if len(names) != rules.players - 1:
        raise click.UsageError(f"{rules.name} needs {rules.players - 1} bots")
    actual_seed: Any = seed if seed is not None else secrets.randbits(32)
    bots = [make_bot(n, f"{actual_seed}:{i}") for i, n in enumerate(names, start=1)]
    match = Match(rules, actual_seed, ["you", *(b.name for b in bots)])
    TableApp(match, bots).run()

"""``riichi review``: one player's every decision in a game log, valued by a reviewer."""

from __future__ import annotations

import html
import json
import sys
from pathlib import Path

import click

from riichi.bots.review import KINDS, Decision, Review, Tally, review_match, seat_of
from riichi.bots.reviewers import ReviewError, reviewer_for
from riichi.cli.options import plural
from riichi.formats import LogFormatError, UnsupportedLogError
from riichi.formats.replay import load_match


@click.command("review")
@click.argument("log", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--seat", type=int, help="The seat to review (0 = the first dealer).")
@click.option("--name", help="The player to review, by name.")
@click.option(
    "--bot",
    "bot",
    default="expert",
    show_default=True,
    help='The reviewer: expert, master (expert with its search; slower), learned, or mjai:"COMMAND"'
    " (an outside mjai bot such as Mortal).",
)
@click.option(
    "--threshold",
    type=float,
    help="The loss that makes a mistake, in the reviewer's units"
    " (expert: 400 expected points; a large one from 5 times that).",
)
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--html", "html_out", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--all", "every", is_flag=True, help="List every decision, not only mistakes.")
def review_command(
    log: Path,
    seat: int | None,
    name: str | None,
    bot: str,
    threshold: float | None,
    json_out: Path | None,
    html_out: Path | None,
    every: bool,
) -> None:
    """Review one player's decisions in a Tenhou XML, tenhou.net/6 (Tenhou or
    Mahjong Soul), mjai or riichi record LOG, four- or three-player: each decision
    with the reviewer's choice and its value of every option, the mistakes, and a
    summary by hand and by kind of decision.

    The reviewer sees only what the player saw at each decision.
    """
    try:
        report, match = load_match(log.read_bytes(), str(log))
        reviewed = seat_of(match.players, seat, name)
        notes = [str(m) for m in report.mismatches]
        review = review_match(
            match, reviewed, reviewer_for(bot), threshold, source=str(log), notes=notes
        )
    except (LogFormatError, UnsupportedLogError, ReviewError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(1)
    click.echo(summary_text(review, every))
    if json_out is not None:
        json_out.write_text(json.dumps(review.to_dict(), ensure_ascii=False, indent=1))
        click.echo(f"wrote {json_out}")
    if html_out is not None:
        html_out.write_text(review_html(review), encoding="utf-8")
        click.echo(f"wrote {html_out}")


def _tally_text(t: Tally, unit: str) -> str:
    lost = f"{t.lost:,.0f} {'expected points' if unit == 'points' else unit} lost"
    mistakes = plural(t.small + t.large, "mistake")
    return (
        f"top-choice match {t.top_choice:.0%} ({t.top} of {t.decisions}), within the best"
        f" value {t.agreement:.0%} ({t.agreed}), {lost}, {mistakes} ({t.large} large)"
    )


def _decision_line(review: Review, d: Decision) -> str:
    loss = "" if d.loss is None else f", {d.loss:,.0f} lost"
    mark = {"large": "!! ", "small": "!  "}.get(d.grade, "   ")
    drawn = f" +{d.drawn}" if d.drawn else ""
    return (
        f"{mark}{d.round} turn {d.turn + 1} {d.kind}: played {d.played_text},"
        f" {review.reviewer.split()[0]}: {d.best.text}{loss}  [{d.tiles}{drawn}]"
    )


def summary_text(review: Review, every: bool = False) -> str:
    """The review as lines of text: the summary, by kind, the mistakes."""
    lines = [
        f"review of {review.player} (seat {review.seat}) by {review.reviewer},"
        f" {plural(len(review.hands), 'hand')}, {review.rules}",
        f"  {_tally_text(review.total, review.unit)}; {review.lost_per_hand:,.0f} lost a hand",
    ]
    lines += [f"  note: {n}" for n in review.notes]
    for kind, t in review.by_kind().items():
        lines.append(f"  {kind:8} {_tally_text(t, review.unit)}")
    shown = review.decisions if every else [d for d in review.decisions if d.grade]
    if shown:
        lines.append("decisions:" if every else "mistakes:")
        lines += [_decision_line(review, d) for d in shown]
    return "\n".join(lines)


# ----------------------------------------------------------------- the page

_STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 1.5em auto; max-width: 60em;
  padding: 0 1em; color: #1b1b1b; background: #fbfaf7; }
table { border-collapse: collapse; margin: .5em 0 1em; }
th, td { padding: .2em .6em; text-align: left; border-bottom: 1px solid #ddd; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.decision { border: 1px solid #ddd; border-radius: 6px; margin: .6em 0; padding: .5em .8em;
  background: #fff; }
.decision.small { border-left: 6px solid #d8a200; }
.decision.large { border-left: 6px solid #c0392b; }
.bar { display: inline-block; height: .8em; background: #4a7bb7; vertical-align: middle; }
.played .label { font-weight: bold; }
.tiles { font-family: ui-monospace, monospace; }
nav a { margin-right: .5em; }
"""


def _esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def _bars(review: Review, d: Decision) -> str:
    valued = [o.value for o in d.options if o.value is not None]
    top = max(valued, default=0.0)
    low = min(valued, default=0.0)
    span = max(top - low, 1e-9)
    rows = []
    for o in d.options[:6] + tuple(o for o in d.options[6:] if o.action == d.played):
        played = " played" if o.action == d.played else ""
        width = 0 if o.value is None else 4 + 96 * (o.value - low) / span
        value = "" if o.value is None else f"{o.value:,.0f}"
        extra = ""
        if review.unit == "points" and o.value is not None:
            extra = f"win {o.win:.0%} of {o.points:,.0f}, risk {o.risk:,.0f}"
        rows.append(
            f'<tr class="{played.strip()}"><td class="label">{_esc(o.text)}</td>'
            f'<td><span class="bar" style="width:{width:.0f}px"></span></td>'
            f'<td class="n">{_esc(value)}</td><td>{_esc(extra)}</td></tr>'
        )
    return "<table>" + "".join(rows) + "</table>"


def _riichi_text(review: Review, d: Decision) -> str:
    return "".join(f"; {review.players[s]} in riichi" for s in d.riichi)


def review_html(review: Review) -> str:
    """The review as one page that needs nothing else: the summary, the table by kind
    and by hand, every decision with the reviewer's options as bars; mistakes marked
    and linked from the top."""
    total = review.total
    head = (
        f"<h1>Review of {_esc(review.player)} (seat {review.seat})</h1>"
        f"<p>{_esc(review.source)}: {_esc(review.rules)}, reviewed by"
        f" {_esc(review.reviewer)}. Values in {_esc(review.unit)};"
        f" a mistake from {_esc(review.threshold)} lost.</p>"
        f"<p>{_esc(_tally_text(total, review.unit))};"
        f" {review.lost_per_hand:,.0f} lost a hand.</p>"
    )
    notes = "".join(f"<p>Note: {_esc(n)}</p>" for n in review.notes)
    kinds = "".join(
        f"<tr><td>{k}</td><td class='n'>{t.decisions}</td><td class='n'>{t.top_choice:.0%}</td>"
        f"<td class='n'>{t.agreement:.0%}</td>"
        f"<td class='n'>{t.lost:,.0f}</td><td class='n'>{t.small + t.large}</td></tr>"
        for k, t in review.by_kind().items()
        if k in KINDS
    )
    by_kind = (
        "<h2>By kind of decision</h2><table><tr><th>kind</th><th>decisions</th>"
        "<th>top-choice match</th><th>within the best value</th><th>lost</th><th>mistakes</th>"
        f"</tr>{kinds}</table>"
    )
    hands = "".join(
        f"<tr><td><a href='#hand-{i}'>{_esc(r)}</a></td><td class='n'>{t.decisions}</td>"
        f"<td class='n'>{t.top_choice:.0%}</td><td class='n'>{t.agreement:.0%}</td>"
        f"<td class='n'>{t.lost:,.0f}</td><td class='n'>{t.small + t.large}</td></tr>"
        for i, (r, t) in enumerate(zip(review.hands, review.by_hand(), strict=True))
    )
    by_hand = (
        "<h2>By hand</h2><table><tr><th>hand</th><th>decisions</th><th>top-choice match</th>"
        f"<th>within the best value</th><th>lost</th><th>mistakes</th></tr>{hands}</table>"
    )
    mistakes = "".join(
        f"<a href='#d{review.decisions.index(d)}'>{_esc(d.round)} turn {d.turn + 1}</a>"
        for d in review.largest(10)
    )
    body = []
    hand = -1
    for i, d in enumerate(review.decisions):
        if d.hand != hand:
            hand = d.hand
            body.append(f"<h3 id='hand-{hand}'>{_esc(review.hands[hand])}</h3>")
        loss = "" if d.loss is None else f", {d.loss:,.0f} lost"
        drawn = f" + {d.drawn}" if d.drawn else ""
        body.append(
            f"<div class='decision {d.grade}' id='d{i}'>"
            f"<b>turn {d.turn + 1}, {_esc(d.kind)}</b>: played {_esc(d.played_text)};"
            f" reviewer: {_esc(d.best.text)}{_esc(loss)}"
            f"<div class='tiles'>{_esc(d.tiles)}{_esc(drawn)}</div>"
            f"<div>dora indicators {_esc(d.dora)}{_esc(_riichi_text(review, d))};"
            f" scores {_esc(', '.join(f'{x:,}' for x in d.scores))}</div>{_bars(review, d)}</div>"
        )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>Review of {_esc(review.player)}</title><style>{_STYLE}</style></head><body>"
        f"{head}{notes}<nav>Largest mistakes: {mistakes or 'none'}</nav>"
        f"{by_kind}{by_hand}<h2>Decisions</h2>{''.join(body)}</body></html>"
    )

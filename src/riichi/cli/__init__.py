"""The ``riichi`` command."""

from __future__ import annotations

import click

from riichi import __version__, core
from riichi.cli.arena import arena_command
from riichi.cli.backup import backup_command, restore_command
from riichi.cli.convert import convert_command
from riichi.cli.hand import hand_command
from riichi.cli.info import info_command
from riichi.cli.league import league_command
from riichi.cli.learn import learn_command
from riichi.cli.moderate import moderate_command
from riichi.cli.play import play_command
from riichi.cli.ratings import ratings_command
from riichi.cli.replay import replay_command
from riichi.cli.review import review_command
from riichi.cli.score import score_command
from riichi.cli.selfplay import selfplay_command
from riichi.cli.serve import serve_command
from riichi.cli.staff import audit_command, operator_command
from riichi.cli.verify import verify_command
from riichi.cli.walls import walls_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(
    __version__, prog_name="riichi", message=f"%(prog)s %(version)s ({core()} core)"
)
def main() -> None:
    """Riichi mahjong: hand analysis, scoring and play."""


main.add_command(hand_command)
main.add_command(score_command)
main.add_command(replay_command)
main.add_command(review_command)
main.add_command(convert_command)
main.add_command(arena_command)
main.add_command(learn_command)
main.add_command(play_command)
main.add_command(selfplay_command)
main.add_command(serve_command)
main.add_command(verify_command)
main.add_command(ratings_command)
main.add_command(league_command)
main.add_command(walls_command)
main.add_command(info_command)
main.add_command(operator_command)
main.add_command(audit_command)
main.add_command(moderate_command)
main.add_command(backup_command)
main.add_command(restore_command)

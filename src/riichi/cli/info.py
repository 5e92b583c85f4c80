"""``riichi info``: the version, which core is loaded, and the Python running it."""

from __future__ import annotations

import platform

import click

from riichi import __version__, core


@click.command("info")
def info_command() -> None:
    """Show the version and whether the core is the compiled one or the pure source
    (RIICHI_PURE=1 makes it the source)."""
    from riichi import tiles

    click.echo(f"riichi {__version__}")
    click.echo(f"core   {core()} ({tiles.__file__})")
    click.echo(f"python {platform.python_implementation()} {platform.python_version()}")

"""``riichi serve``: the web server (tables over websockets, game records)."""

from __future__ import annotations

import click

from riichi.server.storage import DEFAULT_URL


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option(
    "--db",
    "db_url",
    default=DEFAULT_URL,
    show_default=True,
    help="SQLAlchemy URL: a SQLite file, or postgresql+psycopg://user:pass@host/db",
)
def serve_command(host: str, port: int, db_url: str) -> None:
    """Serve the platform; live tables survive a restart on the same --db."""
    import uvicorn

    from riichi.server import create_app

    click.echo(f"riichi serving on http://{host}:{port}/ (database {db_url})")
    uvicorn.run(create_app(db_url), host=host, port=port, log_level="info")

"""The platform: an ASGI app with durable tables played over websockets.

A small core (the app factory, request helpers, auth, limits, storage and its writer,
the registry of live tables, a table and its audience, sockets, the relay, metrics,
backups) and a package a feature (accounts, play, games, ratings, daily, tournaments,
money, leagues, review, channel), each with its routes, its tables and its desk;
DESIGN.md: the server.
"""

from riichi.platform.tables import HUMAN, SeatSpec
from riichi.server.app import create_app
from riichi.server.hub import Server
from riichi.server.limits import Limits
from riichi.server.protocol import ProtocolError, Viewer
from riichi.server.storage import DEFAULT_URL, StorageError, Store
from riichi.server.table import LiveTable

__all__ = [
    "DEFAULT_URL",
    "HUMAN",
    "Limits",
    "LiveTable",
    "ProtocolError",
    "SeatSpec",
    "Server",
    "StorageError",
    "Store",
    "Viewer",
    "create_app",
]

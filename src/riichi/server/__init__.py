"""The platform: an ASGI app with durable tables played over websockets."""

from riichi.server.app import Server, create_app
from riichi.server.storage import DEFAULT_URL, StorageError, Store
from riichi.server.table import HUMAN, LiveTable, ProtocolError, SeatSpec, Viewer

__all__ = [
    "DEFAULT_URL",
    "HUMAN",
    "LiveTable",
    "ProtocolError",
    "SeatSpec",
    "Server",
    "StorageError",
    "Store",
    "Viewer",
    "create_app",
]

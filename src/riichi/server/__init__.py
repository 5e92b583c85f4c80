"""The platform: an ASGI app with durable tables played over websockets."""

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

"""Who is online to a person, and the live tables a person sits at."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from riichi.server.feature import INVITATIONS, Missing
from riichi.server.hub import Server
from riichi.server.protocol import NotFound
from riichi.server.storage import Account


class Presence:
    def __init__(self, hub: Server) -> None:
        self.hub = hub

    async def online(self, account: Account) -> list[dict[str, Any]]:
        """Who is online (a live channel open) among the people this account played
        with or invited, or who invited it: no one else."""
        known = await asyncio.to_thread(self.hub.store.accounts.acquaintances, account.id)
        with contextlib.suppress(Missing):  # a site without money tables
            known |= await asyncio.to_thread(self.hub.desk(INVITATIONS).invited_with, account.id)
        here = self.hub.notices.online_here()
        on = {a for a in known if a in here}
        if self.hub.relay is not None:
            with contextlib.suppress(Exception):  # Redis away: this process's own
                on |= await self.hub.relay.online(sorted(known - on))
        names = await asyncio.to_thread(self.hub.store.accounts.names, sorted(on))
        return [{"account": a, "name": names[a]} for a in sorted(on) if a in names]

    async def mine(self, account: Account) -> list[dict[str, Any]]:
        """The live tables this account sits at, to rejoin."""
        rows = await asyncio.to_thread(self.hub.store.accounts.tables_of, account.id)
        out = []
        for table_id, seat, _ in rows:
            try:
                info = await self.hub.info(table_id)
            except NotFound:
                continue
            out.append({**info, "my_seat": seat})
        return out

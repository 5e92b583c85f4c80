"""Tables and play: practice, private and rated tables, the rated queue, a table's
facts and the presets they are made from. The live table itself (seats, clocks, the
websocket protocol) is the core's (``riichi.server.table``, ``riichi.server.sockets``)."""

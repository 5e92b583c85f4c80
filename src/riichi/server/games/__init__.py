"""Games finished and in play: the list of finished games, their files (tenhou.net/6,
mjai, the replay) and the tables open to spectators, with the pages that show them."""

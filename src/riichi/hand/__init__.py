"""Hand analysis on 34-count vectors: shanten, waits, acceptance, complete-hand readings.

Every function takes the concealed tiles as a 34-long count vector (a list or
bytes) and optionally the number of called sets; without it the number of
sets still needed is inferred from the tile count (13/14 tiles: four sets,
10/11: three, and so on).
"""

from riichi.hand.decompose import Block, Form, Reading, Wait, decompositions, is_agari
from riichi.hand.shanten import shanten, shanten_chiitoi, shanten_kokushi, shanten_standard
from riichi.hand.waits import DiscardOption, Ukeire, Waits, ukeire, waits

__all__ = [
    "Block",
    "DiscardOption",
    "Form",
    "Reading",
    "Ukeire",
    "Wait",
    "Waits",
    "decompositions",
    "is_agari",
    "shanten",
    "shanten_chiitoi",
    "shanten_kokushi",
    "shanten_standard",
    "ukeire",
    "waits",
]

"""Money: chips (``ledger.ChipStore``: statements and the audit of the site's ledger,
whose postings always sum to zero), buy-ins and settlements, and money tables between
people (``desk.MoneyDesk``: offers, seats drawn from the table's seed, the switches
each seat confirms); ``opening`` is what a table's opening writes of it (registered
with storage when this package is imported)."""

from riichi.server.money import opening as opening  # registers its part

"""Money: chips and their ledger (``ledger.ChipStore``: postings that always sum to
zero), buy-ins and settlements, and money tables between people (``desk.MoneyDesk``:
offers, seats drawn from the table's seed, the switches each seat confirms)."""

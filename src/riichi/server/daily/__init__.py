"""Daily Wall: one wall a day for everyone, played once against roster computers, its
standings shown when the day is over (``desk.DailyDesk``)."""

"""Review: a finished game's seat, or an uploaded log, reviewed by a computer in worker
processes, one at a time a person, kept when asked (``desk.ReviewDesk``)."""

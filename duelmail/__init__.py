"""duelmail: hidden-information card duels by email or git, with no server and no trusted dealer."""

__version__ = "0.1.0"

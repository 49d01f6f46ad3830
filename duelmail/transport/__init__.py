"""Carrying files between players: the local archive, and (later) mail and git."""

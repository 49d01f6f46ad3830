"""Grid Duel deck files (TOML), read by ``duelmail.games.grid.library``; one file per deck (G-2, G-3)."""

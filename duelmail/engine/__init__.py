"""The engine: folds a game's log into a state, knows who is awaited for what, keeps each
player's private view, composes files (with every decision-free answer filled in) and audits."""

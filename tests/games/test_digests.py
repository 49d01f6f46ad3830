"""Every game's rules digest (seeds/<id>.md) numbers its rules without a gap, and the code names no rule the
digest lacks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PREFIX = {"warlords": "W", "summoner": "S", "grid": "G", "skirmish": "K", "wizard": "Z"}


@pytest.mark.parametrize("game", sorted(PREFIX))
def test_digest_numbers_every_rule_and_the_code_names_only_those(game):
    letter = PREFIX[game]
    text = (ROOT / "seeds" / f"{game}.md").read_text()
    defined = set(re.findall(rf"\*\*({letter}-\d+) ", text))
    assert defined and defined == {f"{letter}-{i}" for i in range(1, len(defined) + 1)}
    named = set()
    for f in (ROOT / "duelmail" / "games" / game).glob("*.py"):
        named |= set(re.findall(rf"\b{letter}-\d+\b", f.read_text()))
    assert named and named <= defined, sorted(named - defined)
    assert "## Rulings made for play by mail" in text or "**Ruling:**" in text


def test_every_shipped_game_has_a_digest():
    games = {p.name for p in (ROOT / "duelmail" / "games").iterdir() if (p / "__init__.py").exists()}
    assert games == set(PREFIX)

"""Untrusted files never execute, load or write anything outside the game folder; every parser
turns garbage into a clean error."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from clitable import Table, dm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duelmail.errors import DuelmailError
from duelmail.games.base import game_names, get_game
from duelmail.protocol.turnfile import SignedFile, parse_toml

FUZZ_EXAMPLES = 400


def files_outside(root: Path, inside: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file() and inside not in p.parents}


def test_hostile_names_in_files_write_nothing_outside(tmp_path):
    t = Table(tmp_path)
    genesis = parse_toml((t.out / "genesis.toml").read_text(), "g")
    alice = t.alice
    baseline = files_outside(tmp_path, alice)
    for field, value in [("game_kind", "../../../evil"), ("game_kind", "/etc/passwd")]:
        content = copy.deepcopy(genesis.content)
        content[field] = value
        evil = tmp_path / "evil-genesis.toml"
        evil.write_text(SignedFile(content, genesis.signature).to_toml())
        out = dm(alice, "receive", str(evil), code=1)
        assert "no game called" in out or "refused" in out
    turn = parse_toml((t.out / "r0001-s1.toml").read_text(), "t")
    for field, value in [("game", "../../../../tmp/evil"), ("round", "../x"), ("seat", "../../x")]:
        content = copy.deepcopy(turn.content)
        content[field] = value
        evil = tmp_path / "evil-turn.toml"
        evil.write_text(SignedFile(content, turn.signature).to_toml())
        dm(alice, "receive", str(evil), code=1)
    assert files_outside(tmp_path, alice) - baseline <= {tmp_path / "evil-genesis.toml", tmp_path / "evil-turn.toml"}
    assert not list(Path("/tmp").glob("evil*"))


@pytest.mark.parametrize("game", game_names())
@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(st.text(max_size=60), st.from_regex(r"[a-z]{2,9}( [a-z#0-9=\-.]{0,8}){0,4}", fullmatch=True)))
def test_every_notation_parser_survives_garbage(game, text):
    g = get_game(game)
    try:
        action = g.parse_action(text)
    except DuelmailError:
        return
    assert g.parse_action(str(action)) == action

"""Issue 29, section 4: commands that fit a person's habits: play by files needs no email address, game names are
case-insensitive."""

from __future__ import annotations

from clitable import dm


def test_two_people_play_by_files_without_email_addresses(tmp_path):
    """'id new NAME' alone makes an identity; a game between two such homes is opened, joined and played."""
    alice, bob, out = tmp_path / "alice", tmp_path / "bob", tmp_path / "outbox"
    assert "created identity alice (no email" in dm(alice, "id", "new", "alice")
    dm(bob, "id", "new", "bob")
    (tmp_path / "bob-card.toml").write_text(dm(bob, "id", "card"))
    dm(alice, "new", "Warlords", "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"), "--out", str(out))
    assert "joined game" in dm(bob, "join", str(out / "genesis.toml"), "--out", str(out))
    dm(alice, "receive", str(out / "r0001-s1.toml"), "--out", str(out))
    dm(bob, "receive", str(out / "r0002-s0.toml"), "--out", str(out))
    dm(alice, "receive", str(out / "r0003-s1.toml"))
    assert "alice ends the turn" in dm(alice, "play", "end", "the", "turn", "--out", str(out))

"""``--out DIR`` never overwrites another game's files (issue 28, item 9): a player with two games writing both
to one folder keeps every file, and the other players receive each under its name."""

from __future__ import annotations

from clitable import dm


def test_two_games_written_to_one_folder_keep_every_file(tmp_path):
    alice, bob, out = tmp_path / "alice", tmp_path / "bob", tmp_path / "out"
    dm(alice, "id", "new", "alice", "--email", "alice@example.org")
    dm(bob, "id", "new", "bob", "--email", "bob@example.org")
    (tmp_path / "bob-card.toml").write_text(dm(bob, "id", "card"))
    first = dm(alice, "new", "summoner", "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"),
               "--out", str(out))
    kept = (out / "genesis.toml").read_text()
    second = dm(alice, "new", "warlords", "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"),
                "--out", str(out))
    assert (out / "genesis.toml").read_text() == kept, "the first game's genesis was overwritten"
    (other,) = [p for p in out.iterdir() if p.name.endswith("-genesis.toml")]
    assert str(other) in second and "genesis.toml" in first
    for g in (out / "genesis.toml", other):  # bob joins both, each written where the other game's file is
        dm(bob, "join", str(g), "--out", str(out))
    names = sorted(p.name for p in out.iterdir())
    assert len(names) == 4 and "r0001-s1.toml" in names, names
    refs = {p.name[:12] for p in out.iterdir() if p.name[0] != "r" and p.name != "genesis.toml"}
    assert len(refs) == 1
    dm(alice, "receive", *(str(p) for p in out.iterdir() if "r0001-s1" in p.name), "--no-auto")
    assert len(list((alice / "games").iterdir())) == 2

"""``--out DIR`` never overwrites another game's files (issue 28, item 9): a player with two games writing both
to one folder keeps every file, and the other players receive each under its name."""

from __future__ import annotations

from clitable import dm

from duelmail import app


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


def _two_games(tmp_path):
    """Alice and Bob with two games (Summoner and Warlords), each joined, each home at its first decision."""
    alice, bob, inbox = tmp_path / "alice", tmp_path / "bob", tmp_path / "inbox"
    dm(alice, "id", "new", "alice", "--email", "alice@example.org")
    dm(bob, "id", "new", "bob", "--email", "bob@example.org")
    (tmp_path / "bob-card.toml").write_text(dm(bob, "id", "card"))
    games = []
    for kind in ("summoner", "warlords"):
        folder = inbox / kind
        dm(alice, "new", kind, "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"), "--out", str(folder))
        dm(bob, "join", str(folder / "genesis.toml"), "--out", str(folder))
        games.append(next(p for p in (alice / "games").iterdir() if p.name.startswith(kind)).name[-12:])
    return alice, bob, inbox, games


def _kept_apart(out, games) -> None:
    """Every file in ``out`` is whole and the two games' files sit under different names."""
    from duelmail.protocol.turnfile import parse_any

    by_game = {}
    for p in out.iterdir():
        (f,) = parse_any(p.read_text(), str(p))
        by_game.setdefault(f.game[:12], []).append(p.name)
    assert sorted(by_game) == sorted(games), by_game


def test_receive_play_and_say_write_two_games_to_one_folder_without_overwriting(tmp_path):
    """[issue 28 item 9] every command that writes a turn file into ``--out`` goes through the same rule."""
    alice, bob, inbox, games = _two_games(tmp_path)
    for cmd in (["receive", "--auto"], ["say", "hello"]):
        out = tmp_path / cmd[0]
        for kind, gid in zip(("summoner", "warlords"), games, strict=True):
            if cmd[0] == "receive":  # alice takes bob's acceptance in and answers on her own
                dm(alice, "receive", str(inbox / kind / "r0001-s1.toml"), "--out", str(out))
            else:
                dm(alice, "say", "hello", "--game", gid, "--out", str(out))
        assert len(list(out.iterdir())) == 2, sorted(p.name for p in out.iterdir())
        _kept_apart(out, games)
    out = tmp_path / "play"
    for gid in games:  # bob answers each game (its deck pass) into one folder
        dm(bob, "receive", str(tmp_path / "receive" / next(p.name for p in (tmp_path / "receive").iterdir()
                                                          if _game(p) == gid)), "--no-auto")
        dm(bob, "play", gid, "--out", str(out))
    assert len(list(out.iterdir())) == 2
    _kept_apart(out, games)


def _game(p):
    from duelmail.protocol.turnfile import parse_any

    return parse_any(p.read_text(), str(p))[0].game[:12]


def test_a_demo_never_deletes_what_a_folder_holds(tmp_path):
    """[issue 28 item 9] ``demo --out DIR`` with another game's files in DIR plays beside them, in a folder of its
    own; the same demo again replaces only itself."""
    alice, out = tmp_path / "alice", tmp_path / "out"
    dm(alice, "id", "new", "alice", "--email", "alice@example.org")
    dm(alice, "id", "new", "bob", "--email", "bob@example.org")
    (tmp_path / "bob-card.toml").write_text(dm(alice, "--as", "bob", "id", "card"))
    dm(alice, "new", "summoner", "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"), "--out", str(out))
    kept = (out / "genesis.toml").read_text()
    first = dm(tmp_path, "demo", "summoner", "--option", "life=1", "--out", str(out), "-q")
    assert (out / "genesis.toml").read_text() == kept, "the demo deleted the folder's own file"
    assert f"archive: {out / 'summoner-seed0'}/homes/alice/games/summoner-" in first, first
    assert sorted(p.name for p in out.iterdir()) == ["genesis.toml", "summoner-seed0"]
    assert app.demo_folder(out, "summoner", 0) == out / "summoner-seed0"  # played again: in its own place
    assert app.demo_folder(out, "summoner", 1) == out / "summoner-seed1"
    assert app.demo_folder(out / "summoner-seed0", "warlords", 0) == out / "summoner-seed0" / "warlords-seed0"

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


def test_new_help_lists_every_game_and_its_options_and_examples_exist(tmp_path):
    """'new --help' ends with each game, its players and options; 'demo --help' documents --players; the archive
    'verify --help' names as its example exists and verifies."""
    import re
    from pathlib import Path

    from duelmail.games.base import game_names, get_game

    shown = dm(tmp_path, "new", "--help")
    for name in game_names():
        spec = get_game(name).spec
        assert f"{name}: {spec.title}, {spec.min_players}-{spec.max_players} players" in shown
        assert all(f"{o.name} (default" in shown for o in spec.options)
    assert "How many bots play" in dm(tmp_path, "demo", "--help")
    example = re.search(r"duelmail verify (examples/\S+)", dm(tmp_path, "verify", "--help")).group(1)
    root = Path(__file__).resolve().parents[2]
    assert "VERIFIED" in dm(tmp_path, "verify", str(root / example))


def test_every_command_on_a_game_takes_it_as_g_or_as_the_positional_id(tmp_path):
    """Two games in one home: each command that acts on a game refuses to guess, and picks the one named by
    '-g ID', '--game ID' or the positional ID alike; two different names are refused; --help says it."""
    import io

    from duelmail.cli.cached import answer

    alice, bob = tmp_path / "alice", tmp_path / "bob"
    dm(alice, "id", "new", "alice")
    dm(bob, "id", "new", "bob")
    (tmp_path / "bob.toml").write_text(dm(bob, "id", "card"))
    for game in ("warlords", "summoner"):
        dm(alice, "new", game, "--seat", "alice", "--seat", str(tmp_path / "bob.toml"), "--out", str(tmp_path / game))
    gid = next((alice / "games").glob("summoner-*")).name.partition("-")[2][:6]
    for command in ("status", "show", "history", "moves", "undo", "claim", "archive"):
        if command != "archive":  # archive never picks the only game: it asks for one
            assert "name one" in dm(alice, command, code=1)
        assert "-g, --game GAME" in dm(alice, command, "--help")
        code = 1 if command in ("undo", "claim", "archive") else 0
        said = [dm(alice, command, *how, code=code) for how in (["-g", gid], ["--game", gid], [gid])]
        assert said[0] == said[1] == said[2] and "name one" not in said[0], command
        assert "Warlords" not in said[0] and "warlords" not in said[0], command
        assert command in ("moves", "claim") or "Summoner" in said[0] or gid in said[0], (command, said[0])
    dm(alice, "say", "-g", gid, "hello")
    dm(alice, "draw", "offer", gid)
    summoner, warlords = dm(alice, "history", "-g", gid), dm(alice, "history", "--game", "warlords")
    assert "hello" in summoner and "offers a draw" in summoner and "hello" not in warlords
    assert "two games named" in dm(alice, "status", gid, "-g", "warlords", code=2)
    texts = []
    for args in (["status", gid], ["status", "-g", gid], ["status", f"--game={gid}"]):
        out = io.StringIO()
        assert answer(args, {"DUELMAIL_HOME": str(alice)}, out)  # from the cache, without click
        texts.append(out.getvalue())
    assert texts[0] == texts[1] == texts[2] and "Summoner" in texts[0]

"""``show`` from its cache (issue 18): a plain ``show`` keeps the text it printed in ``.show.json`` (mode 0600: it
names the cards of the seat's hand), keyed by everything the text depends on (the game's files, the seat, this
home's identities and default, the moves noted for the turn, the code); the next ``show`` with nothing changed
prints it without folding. It must print, byte for byte, what the fold prints: each check compares it with
``show --as NAME`` (never cached) and with a ``show`` that folds (its cache deleted)."""

from __future__ import annotations

import json
import os

from clitable import Table, dm

from duelmail.home import Home


def shows(home, name: str, folder) -> str:
    """``show`` three ways (folded and cached, from the cache, never cached): the same text, or the test fails."""
    (folder / ".show.json").unlink(missing_ok=True)
    folded = dm(home, "show")
    assert (folder / ".show.json").exists()
    cached = dm(home, "show")
    assert cached == folded == dm(home, "--as", name, "show")
    assert os.stat(folder / ".show.json").st_mode & 0o777 == 0o600
    return cached


def test_show_from_its_cache_prints_what_the_fold_prints_as_the_game_goes_on(tmp_path):
    t = Table(tmp_path)
    (fa,) = (t.alice / "games").iterdir()
    (fb,) = (t.bob / "games").iterdir()
    seen = set()
    for _ in range(6):
        t.play_turns(2)
        seen.add(shows(t.alice, "alice", fa))
        shows(t.bob, "bob", fb)
    assert len(seen) > 3  # the table changed, and so did what the cache printed


def test_a_new_file_a_noted_move_or_another_identity_is_never_answered_from_an_old_cache(tmp_path):
    t = Table(tmp_path)
    for i in range(40):  # play on until the awaited seat has a move that leaves its turn open (the deal is random)
        t.settle()
        (s,) = t.todo(t.status(t.alice))
        home, name = (t.alice, "alice") if s == "0" else (t.bob, "bob")
        moves = [m["move"] for m in json.loads(dm(home, "moves", "--json"))]
        first = next((m for m in moves if m.split()[0] in ("warlord", "exchange")), None)  # an Ace may end it (W-19)
        if first:
            break
        (folder,) = (home / "games").iterdir()
        before = shows(home, name, folder)
        t.turn(home, "--bot", "heuristic", "--seed", str(i))  # a new file: the cache no longer answers
        assert dm(home, "show") == dm(home, "--as", name, "show") != before
    else:
        raise AssertionError("no open-ended move came up")
    (folder,) = (home / "games").iterdir()
    before = shows(home, name, folder)
    means = next(m["means"] for m in json.loads(dm(home, "moves", "--json")) if m["move"] == first)
    assert f"noted: {means}" in dm(home, "play", first)
    after = dm(home, "show")
    assert after != before and f"noted, not sent (the table above is after them): {means}" in after
    assert after == dm(home, "--as", name, "show") == dm(home, "show")
    dm(home, "undo", "--all")
    assert dm(home, "show") == before
    key = json.loads((folder / ".show.json").read_text())["key"]
    dm(home, "id", "new", "zoe", "--email", "zoe@example.org")  # another identity in this home
    assert dm(home, "show") == dm(home, "--as", name, "show") == before
    assert json.loads((folder / ".show.json").read_text())["key"] != key


def test_show_of_an_identity_sealed_by_a_passphrase_is_never_cached(tmp_path, monkeypatch):
    t = Table(tmp_path)
    t.play_turns(2)
    home = Home(t.alice)
    ident = home.load_identity(None)
    monkeypatch.setenv("DUELMAIL_PASSPHRASE", "correct horse battery")
    home.add_identity(ident, "correct horse battery", replace=True)
    (folder,) = (t.alice / "games").iterdir()
    (folder / ".show.json").unlink(missing_ok=True)
    assert dm(t.alice, "show") == dm(t.alice, "show")
    assert not (folder / ".show.json").exists()


def test_show_says_what_is_missing_in_the_order_it_did_before_its_cache(tmp_path):
    """The cache is tried first, but a home without an identity still hears about the identity, not the games."""
    assert "no identity in" in dm(tmp_path, "show", code=1)
    dm(tmp_path, "id", "new", "zed", "--email", "z@example.org")
    assert "no games in" in dm(tmp_path, "show", code=1)


def test_receive_and_play_leave_the_show_cache_fresh(tmp_path, monkeypatch):
    """The command that changed the game writes what a plain ``show`` would print, so that ``show`` folds nothing:
    it prints, byte for byte, what a ``show`` that folds prints."""
    from duelmail import app

    t = Table(tmp_path)
    for _ in range(5):
        t.play_turns(1)  # one turn written by ``play`` and taken in by ``receive`` at the other home
        for home, name in ((t.alice, "alice"), (t.bob, "bob")):
            (folder,) = (home / "games").iterdir()
            cached = json.loads((folder / ".show.json").read_text())["text"]
            with monkeypatch.context() as m:
                m.setattr(app, "fold", lambda *a, **k: (_ for _ in ()).throw(AssertionError("show folded")))
                assert dm(home, "show") == cached
            assert dm(home, "--as", name, "show") == cached

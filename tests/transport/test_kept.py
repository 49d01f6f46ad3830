"""The kept state (transport/kept.py): the kept match plus the new files is exactly a fold from scratch, in any
order of arrival, with talk, claims and void files; it is a cache (deleted, copied in, or tampered with: ignored
and rebuilt) and holds no seat's secret."""

from __future__ import annotations

import os
import random
import sys
from datetime import timedelta
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from helpers import Players  # noqa: E402

from duelmail import app  # noqa: E402
from duelmail.errors import DuelmailError  # noqa: E402
from duelmail.home import Home  # noqa: E402
from duelmail.protocol.turnfile import SignedFile  # noqa: E402
from duelmail.testing.selfplay import SelfPlay  # noqa: E402
from duelmail.transport import archive, kept  # noqa: E402
from duelmail.transport.archive import fold  # noqa: E402

SEC = timedelta(seconds=1)


def same(a, b) -> None:
    """Two folds of one log are the same game: chain, files counted and set aside, events, talk, duties, faces."""
    assert (a.round, a.prev, a.applied, set(a.void)) == (b.round, b.prev, b.applied, set(b.void))
    assert a.events == b.events
    assert [(t.seat, t.text) for t in a.talk] == [(t.seat, t.text) for t in b.talk]
    assert a.duties == b.duties and a.faces == b.faces and a.over() == b.over()
    assert a.state.render(None, {}) == b.state.render(None, {})
    assert (a.audit is None) == (b.audit is None) and a.violations == b.violations


def fresh(p: Players):
    return fold([(f"f{i}", f) for i, f in enumerate(p.files)])


def note(p: Players, seat: int, **fields) -> SignedFile:
    return p.matches[seat].compose_note(seat, p.ids[seat], p.tick(), **fields)


def talkative_game(seed: int, game: str = "highcard", rounds: int = 10_000) -> Players:
    """A High Card game (or ``game`` up to ``rounds``) with talk from both seats now and then."""
    p = Players(game, n=2, seed=seed)
    rng = random.Random(seed)
    while not p.match.finished and p.match.round < rounds:
        p.step()
        if rng.random() < 0.3 and not p.match.over():
            seat = rng.randrange(2)
            p.deliver(note(p, seat, say=f"round {p.match.round}, seat {seat}"))
    return p


def deliver_shuffled(home: Home, files: list[SignedFile], seed: int, check: bool = True) -> None:
    """Receive ``files`` in a random order, again and again until each is taken (one arriving before the file it
    builds on is refused, as by mail); after each, the kept state must be the fold from scratch."""
    todo = [(f"in-{i}.toml", f) for i, f in enumerate(files)]
    random.Random(seed).shuffle(todo)
    while todo:
        left = []
        for wf in todo:
            try:
                app.receive_files(home, None, [wf])
            except DuelmailError:
                left.append(wf)
                continue
            if check and wf[1].kind != "genesis":
                (folder,) = home.game_folders()
                same(folder.fold(), fold(folder.files()))
        assert len(left) < len(todo), "no file could be taken"
        todo = left


@pytest.mark.parametrize("seed", range(4))
def test_kept_state_plus_new_files_is_the_fold_in_any_order(tmp_path, seed):
    p = talkative_game(seed)
    home = Home(tmp_path / "home")
    deliver_shuffled(home, p.files, seed)
    (folder,) = home.game_folders()
    assert (folder.path / kept.NAME).exists()
    same(folder.fold(), fresh(p))
    assert folder.fold().finished


def test_a_warlords_game_with_talk_received_in_any_order_keeps_the_fold(tmp_path):
    p = talkative_game(2, "warlords", rounds=24)
    home = Home(tmp_path / "home")
    deliver_shuffled(home, p.files, 2)
    (folder,) = home.game_folders()
    same(folder.fold(), fresh(p))


def test_a_late_note_of_an_old_round_folds_the_log_again_and_is_placed_in_order(tmp_path):
    p = Players(n=2, seed=2)
    p.run(until=lambda m: m.round >= 3)
    early = note(p, 1, say="said early, arrives late")
    p.deliver(early)
    p.run(until=lambda m: m.round >= 8)
    home = Home(tmp_path / "home")
    app.receive_files(home, None, [(f"f{i}", f) for i, f in enumerate(p.files) if f is not early])
    (folder,) = home.game_folders()
    before = folder.fold()
    assert kept.extend(before, [("late.toml", early)]) is None  # it folds before files the log holds
    (r,) = app.receive_files(home, None, [("late.toml", early)])
    assert [e.text for e in r.events] == [f'{p.match.cards[1].name} says: "said early, arrives late"']
    same(folder.fold(), fold(folder.files()))
    same(folder.fold(), fresh(p))


def claim(p: Players, by: int, against: int, when) -> SignedFile:
    m = p.match
    return SignedFile.sign({"duelmail": 1, "kind": "claim", "game": m.game_ref, "round": m.round, "prev": m.prev,
                            "seat": by, "time": when.isoformat(), "against": against}, p.ids[by])


def move_at(p: Players, seat: int, when, actions=None) -> SignedFile:
    p.clock = when - timedelta(minutes=5)
    return p.compose(seat, actions)


def to_decision(p: Players) -> int:
    p.run(until=lambda m: any(d.decide for d in m.duties.values()))
    return next(s for s, d in p.match.duties.items() if d.decide)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("timely", [True, False])
def test_claims_and_void_files_fold_alike_kept_or_not(tmp_path, seed, timely):
    """A timeout claim and the claimed seat's move, signed in time (the claim is void) or late (the move is void),
    received in any order after the log: the kept state always ends as the fold from scratch."""
    p = Players(n=2, seed=seed)
    x = to_decision(p)
    due = p.match.deadline(x)
    move = move_at(p, x, due - SEC if timely else due + 5 * SEC)
    c = claim(p, 1 - x, x, due + (timedelta(days=1) if timely else SEC))
    home = Home(tmp_path / "home")
    deliver_shuffled(home, p.files, seed)
    (folder,) = home.game_folders()
    for wf in random.Random(seed).sample([("claim.toml", c), ("move.toml", move)], 2):
        try:
            app.receive_files(home, None, [wf], now=due + 2 * timedelta(days=1))
        except DuelmailError as e:
            assert "P-timeout" in str(e) or "does not stand" in str(e)
        same(folder.fold(), fold(folder.files()))


def test_a_move_crossing_a_resignation_counts_kept_or_not(tmp_path):
    """The resignation names a round the other seat's move closed; files of the next round built without it come
    after: they count (no note undoes a move, issue 27), the result stays, kept or folded from scratch."""
    p = Players(n=2, seed=5)
    decider = to_decision(p)
    resign = note(p, 1 - decider, resign=True)
    p.step()
    later = [p.compose(s) for s in sorted(p.match.duties)]
    home = Home(tmp_path / "home")
    app.receive_files(home, None, [(f"f{i}", f) for i, f in enumerate(p.files)])
    (folder,) = home.game_folders()
    app.receive_files(home, None, [("resign.toml", resign)])
    result = folder.fold().describe_outcome()
    assert result.endswith("resigned")
    same(folder.fold(), fold(folder.files()))
    for i, f in enumerate(later):
        app.receive_files(home, None, [(f"later{i}.toml", f)])
        same(folder.fold(), fold(folder.files()))
    assert folder.fold().describe_outcome() == result and {f.file_hash for f in later} <= folder.fold().applied


def test_receive_folds_at_most_once(tmp_path, monkeypatch):
    p = talkative_game(1, "warlords", rounds=30)
    home = Home(tmp_path / "home")
    half = len(p.files) - 8
    app.receive_files(home, None, [(f"f{i}", f) for i, f in enumerate(p.files[:half])])
    folds = []
    real = archive.fold
    monkeypatch.setattr(archive, "fold", lambda *a, **k: folds.append(1) or real(*a, **k))
    monkeypatch.setattr(kept, "fold", archive.fold)
    monkeypatch.setattr(app, "fold", archive.fold)
    for i, f in enumerate(p.files[half:half + 6]):
        app.receive_files(home, None, [(f"g{i}", f)])
    assert folds == []  # every file went after the kept log: applied to it, never a fold
    (folder,) = home.game_folders()
    (folder.path / kept.NAME).unlink()  # a cache: deleting it loses nothing
    app.receive_files(home, None, [("next.toml", p.files[half + 6])])
    assert len(folds) == 1
    monkeypatch.undo()
    same(folder.fold(), fold(folder.files()))


def test_a_kept_state_from_elsewhere_or_tampered_with_is_ignored_never_unpickled(tmp_path, monkeypatch):
    p = Players(n=2, seed=1)
    p.run(until=lambda m: m.round >= 6)
    homes = [Home(tmp_path / name) for name in ("a", "b")]
    for h in homes:
        app.receive_files(h, None, [(f"f{i}", f) for i, f in enumerate(p.files)])
    (fa,), (fb,) = homes[0].game_folders(), homes[1].game_folders()
    assert (tmp_path / "a" / kept.KEY_NAME).read_bytes() != (tmp_path / "b" / kept.KEY_NAME).read_bytes()
    for path in (tmp_path / "a" / kept.KEY_NAME, fa.path / kept.NAME):
        assert os.stat(path).st_mode & 0o777 == 0o600
    data = (fa.path / kept.NAME).read_bytes()
    loads = []
    monkeypatch.setattr(kept.pickle, "loads", lambda data: loads.append(1) or pytest.fail("unpickled"))
    (fb.path / kept.NAME).write_bytes(data)  # copied in from another home
    assert kept.load(fb, fb.kept_key()) is None
    tampered = bytearray(data)
    tampered[-5] ^= 1
    (fa.path / kept.NAME).write_bytes(bytes(tampered))
    assert kept.load(fa, fa.kept_key()) is None
    (fa.path / kept.NAME).write_bytes(b"garbage")
    assert kept.load(fa, fa.kept_key()) is None
    assert loads == []
    monkeypatch.undo()
    same(fa.fold(), fresh(p))  # ignored and rebuilt
    assert kept.load(fa, fa.kept_key()) is not None


def test_a_kept_state_holds_no_seat_secret(tmp_path):
    p = Players(n=2, seed=1)
    p.run(until=lambda m: m.round >= 4 and 0 in m.duties)
    home = Home(tmp_path / "home")
    home.add_identity(p.ids[0])
    app.receive_files(home, p.ids[0], [(f"f{i}", f) for i, f in enumerate(p.files)])
    folder, match, seat = app.open_game(home, None, p.ids[0])
    app.write_turn(folder, match, seat, p.ids[0], app.bot_actions(match, seat, p.ids[0], p.bots[0],
                                                                  random.Random(1)), p.tick())
    data = (folder.path / kept.NAME).read_bytes()
    assert match.own and match.masters
    for secret in (p.ids[0].master, p.ids[0].seed, *match.own.values(), *match.fresh.values()):
        assert secret not in data
    assert kept.load(folder, folder.kept_key()) is not None  # what the turn left is kept
    same(folder.fold(), fold(folder.files()))


def test_a_kept_state_holds_no_key_the_seat_opened_its_cards_with(tmp_path):
    """The faces a seat opened in this process are remembered with the keys that opened them (``DeckBook.unlocked``,
    its own unpublished keys among them): never on disk."""
    p = Players(n=2, seed=3)
    p.run(until=lambda m: m.round >= 6 and 0 in m.duties)
    home = Home(tmp_path / "home")
    home.add_identity(p.ids[0])
    app.receive_files(home, p.ids[0], [(f"f{i}", f) for i, f in enumerate(p.files)])
    folder, match, seat = app.open_game(home, None, p.ids[0])
    match.seen(seat)  # opens every card of its hand
    opened = match.book.__dict__.get("_opened", {})
    published = {k for d in match.book.decks.values() for ks in d.keys.values() for k in ks.values()}
    own = {k for entry in opened for k in entry[1:]} - published
    assert own  # the seat's own keys opened its hand
    app.write_turn(folder, match, seat, p.ids[0], app.bot_actions(match, seat, p.ids[0], p.bots[0],
                                                                  random.Random(1)), p.tick())
    data = (folder.path / kept.NAME).read_bytes()
    published = {k for d in match.book.decks.values() for ks in d.keys.values() for k in ks.values()}
    assert all(k not in data for k in own - published)
    assert "_opened" in match.book.__dict__ and kept.load(folder, folder.kept_key()) is not None


def test_a_file_changed_or_replaced_under_its_name_makes_the_kept_state_stale(tmp_path, monkeypatch):
    p = Players(n=2, seed=1)
    p.run(until=lambda m: m.round >= 6)
    home = Home(tmp_path / "home")
    app.receive_files(home, None, [(f"f{i}", f) for i, f in enumerate(p.files)])
    (folder,) = home.game_folders()
    folder.fold()
    victim = sorted(folder.path.glob("r0003-*.toml"))[0]
    text = victim.read_text()
    tmp = victim.with_name(".swap")
    tmp.write_text(text.replace("duelmail:", "duelmail;", 1))  # same length, another file in its place
    os.replace(tmp, victim)
    folds = []
    real = kept.fold
    monkeypatch.setattr(kept, "fold", lambda *a, **k: folds.append(1) or real(*a, **k))
    same(folder.fold(), fresh(p))
    assert folds == [1]
    folder.fold()
    assert folds == [1]  # kept again


def test_a_new_file_that_does_not_read_is_refused_as_by_a_full_fold(tmp_path):
    p = Players(n=2, seed=1)
    p.run(until=lambda m: m.round >= 4)
    home = Home(tmp_path / "home")
    app.receive_files(home, None, [(f"f{i}", f) for i, f in enumerate(p.files)])
    (folder,) = home.game_folders()
    folder.fold()
    (folder.path / "r0099-s1.toml").write_bytes(b"\xff\xfe not text")
    with pytest.raises(DuelmailError, match="r0099-s1.toml"):
        folder.fold()


def test_files_applied_one_by_one_are_kept_only_one_at_a_time(tmp_path):
    """A match that took several files by ``apply`` since it was kept (their order unknown) is not kept; the next
    command folds the rest from the kept state, in the fold's order, and skips the proofs ``.proven`` lists."""
    p = Players(n=2, seed=4)
    p.run(until=lambda m: m.round >= 3)
    home = Home(tmp_path / "home")
    app.receive_files(home, None, [(f"f{i}", f) for i, f in enumerate(p.files)])
    (folder,) = home.game_folders()
    match = folder.fold()
    start = len(p.files)
    p.run(until=lambda m: m.round >= 7)
    for f in p.files[start:]:
        match.apply(f, "x")
        path = folder.store(f, match)
        match.applied.add(f.file_hash)
    folder.remember_proven(match.applied)
    folder.keep(match)
    assert match.kept.stale and kept.load(folder, folder.kept_key())[1].round < match.round
    same(folder.fold(), fresh(p))
    assert path.exists()


@pytest.mark.parametrize(("game", "n"), [("grid", 2), ("skirmish", 2), ("summoner", 2), ("wizard", 3),
                                         ("warlords", 3)])
def test_every_game_is_kept_and_read_back_as_it_was(game, n):
    from duelmail.testing.selfplay import SelfPlay

    sp = SelfPlay(game, n=n, seed=1)
    sp.run(until=lambda m: m.round >= 12 or m.finished)
    m = fold([(f"f{i}", f) for i, f in enumerate(sp.files)])
    index = kept.Index(files={f"f{i}": ((0, 0, i), (f.file_hash,)) for i, f in enumerate(sp.files)})
    back = kept.loads(kept.dumps(m, index, b"k" * 32), b"k" * 32)[1]
    same(back, m)
    assert back.game is m.game  # the game itself is never pickled: found again by its name


def test_a_state_kept_by_other_code_is_folded_again(monkeypatch):
    """After an upgrade (any module of duelmail changed), a kept match pickled by the old code is never read: its
    attributes may not be the new code's. The stamp changes with any module's size or time."""
    from duelmail.testing.selfplay import SelfPlay

    sp = SelfPlay("summoner", seed=1)
    sp.run(until=lambda m: m.round >= 4)
    m = fold([(f"f{i}", f) for i, f in enumerate(sp.files)])
    index = kept.Index(files={f"f{i}": ((0, 0, i), (f.file_hash,)) for i, f in enumerate(sp.files)})
    data = kept.dumps(m, index, b"k" * 32)
    assert kept.loads(data, b"k" * 32) is not None
    monkeypatch.setattr(kept, "_STAMP", [bytes(32)])  # the code that reads it is not the code that wrote it
    assert kept.loads(data, b"k" * 32) is None
    stamp = kept.code_stamp()
    monkeypatch.setattr(kept, "_STAMP", [])
    assert kept.code_stamp() != stamp and len(kept.code_stamp()) == 32


def claim_against(sp: SelfPlay, by: int, against: int, when) -> SignedFile:
    m = sp.matches[by]
    return SignedFile.sign({"duelmail": 1, "kind": "claim", "game": m.game_ref, "round": m.round, "prev": m.prev,
                            "seat": by, "time": when.isoformat(), "against": against}, sp.ids[by])


def several_awaited(escrow: dict | None) -> tuple[SelfPlay, object, list[int]]:
    """A four-seat Wizard game played to a round that awaits three or more seats, two of them for files that
    need no decision; with those two seats."""
    sp = SelfPlay("wizard", n=4, seed=1, escrow=escrow)
    for _ in range(3000):
        m = sp.match
        quiet = [s for s, d in m.duties.items() if not d.needs_human and s not in m.current]
        if len(m.duties) >= 3 and len(quiet) >= 2 and m.round > 5:
            return sp, m, quiet[:2]
        sp.step()
    raise AssertionError("no round awaited three seats")


@pytest.mark.parametrize("escrow", [{"off": True}, None])
def test_a_claim_and_another_seats_file_of_its_round_fold_alike_in_either_order(tmp_path, escrow):
    """Protocol section 6b: in a round that awaits several seats, one sends its file and another lets its deadline
    pass; homes that receive that file and the claim in either order reach the same round (the fold weighs a claim
    after the other seats' files), kept or folded from scratch. With escrow (None: the default) the claim removes
    the silent seat (section 6c); without it a default answer is played or the game is forfeit."""
    sp, m, (b, c) = several_awaited(escrow)
    by = next(s for s in range(4) if s not in (b, c))
    sent = sp.compose(b)
    due = m.deadline(c)
    claim = claim_against(sp, by, c, due + SEC)
    folds = []
    for i, order in enumerate(([("b.toml", sent), ("claim.toml", claim)], [("claim.toml", claim), ("b.toml", sent)])):
        home = Home(tmp_path / f"home{i}")
        app.receive_files(home, None, [(f"f{j}", f) for j, f in enumerate(sp.files)])
        for wf in order:
            app.receive_files(home, None, [wf], now=due + timedelta(days=1))
        (folder,) = home.game_folders()
        kept_match = folder.fold()
        same(kept_match, fold(folder.files()))
        folds.append(kept_match)
    same(*folds)
    assert sent.file_hash in folds[0].applied and claim.file_hash in folds[0].applied
    assert folds[0].round == m.round + 1
    if escrow is None:
        assert folds[0].removing == c


def test_a_claim_waits_for_the_other_files_of_its_round(tmp_path):
    """Protocol section 6b: 'duelmail claim' refuses to close a round in which the claimant itself (or another
    seat not past its deadline) still owes a file, which would cross the claim; once it is in, the claim is taken."""
    sp, m, (by, c) = several_awaited({"off": True})
    home = Home(tmp_path / "home")
    home.add_identity(sp.ids[by])
    app.receive_files(home, sp.ids[by], [(f"f{j}", f) for j, f in enumerate(sp.files)])
    (folder,) = home.game_folders()
    late = m.deadline(c) + SEC
    match = folder.fold()
    with pytest.raises(DuelmailError, match=f"not yet: round {m.round} also awaits yourself"):
        app.write_claim(folder, match, by, sp.ids[by], late)
    assert not [p for p in folder.path.iterdir() if "claim" in p.name]  # nothing written
    own = sp.compose(by)
    app.receive_files(home, sp.ids[by], [("own.toml", own)])
    played = app.write_claim(folder, folder.fold(), by, sp.ids[by], late)
    assert played.file.kind == "claim" and played.match.round == m.round + 1

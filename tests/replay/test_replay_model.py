"""Snapshots: one per closed round, folded once; what each seat could see at each round; public only
before the audit; the same result as the archive's own fold, timeout claims included."""

from __future__ import annotations

from types import SimpleNamespace

from helpers import Players
from replay_archives import CHEAT, GAME, cheat

from duelmail.games.base import in_words
from duelmail.games.cards import Card, CardRef
from duelmail.protocol.turnfile import SignedFile
from duelmail.replay import build_replay, load_replay
from duelmail.replay.model import _Recorder
from duelmail.transport.archive import fold, read_files


def test_one_step_per_closed_round_and_the_same_fold_as_the_archive():
    for path in (GAME, CHEAT):
        files = read_files(path)
        replay = load_replay(path)
        match = fold(files)
        assert len(replay.steps) == len(match.rounds) == len({f.round for _, f in files})
        assert [s.round for s in replay.steps] == list(range(len(match.rounds)))
        assert [s.index for s in replay.steps] == list(range(len(replay.steps)))
        assert replay.match.prev == match.prev and replay.match.applied == match.applied
        # the same events in the same order, each said with the faces public when its round closed (issue 15)
        raw = iter(match.events)
        for s in replay.steps:
            for e in s.events:
                r = next(raw)
                assert e.said == r.said and e.text == in_words(replay.match.named(r.text), s.public)
        assert next(raw, None) is None
        assert replay.steps[-1].over and not replay.steps[-1].partial
        assert replay.steps[-1].state.render(None, {}) == match.state.render(None, {})


def test_snapshots_are_independent_states():
    c = cheat()
    replay, played = c.replay, c.played
    before = replay.steps[played.index - 1]
    assert before.state is not played.state
    assert c.fake not in before.state.warlords[1] and c.fake in played.state.warlords[1]
    assert f"Warlords: [??] {c.fake}" in replay.render(played, None)
    assert f"[??] {c.fake}" not in replay.render(before, None)


def test_each_seat_sees_its_own_cards_once_the_game_is_audited():
    c = cheat()
    replay, step = c.replay, c.played
    assert replay.audited and replay.verdict()[0] == "CHEATING FOUND"
    alice, bob = step.seen
    assert set(c.hand(1)) | {c.fake} <= bob and all(r.deck == "b" for r in bob)
    assert set(c.hand(0)) | {c.alice_warlord} <= alice and all(r.deck == "a" for r in alice)
    assert replay.known(step, 1)[c.fake] == c.face  # bob knows his false Warlord
    assert c.fake not in replay.known(step, 0)  # alice does not
    assert c.fake not in replay.known(step, None)  # nor does the table
    assert replay.known(step, None, everything=True)[c.alice_warlord] == replay.all_faces[c.alice_warlord]
    assert f"Warlords: {c.face} {c.fake}" in replay.render(step, 1)
    assert f"Warlords: [??] {c.fake}" in replay.render(step, 0)
    assert f"Hand: {c.line(c.hand(1))}" in replay.render(step, 1)
    assert f"Hand: {c.line(c.hand(0))}" in replay.render(step, 0)
    # sight only grows as key shares arrive: nothing before the decks are locked and shared
    assert replay.steps[0].seen == (frozenset(), frozenset())
    assert all(a <= b for s0, s1 in zip(replay.steps, replay.steps[1:], strict=False)
               for a, b in zip(s0.seen, s1.seen, strict=True))


def test_everything_view_shows_every_hand_and_the_deck_orders():
    c = cheat()
    replay, step = c.replay, c.played
    alice, bob = replay.render_all(step, 0), replay.render_all(step, 1)
    assert f"Warlords: {replay.all_faces[c.alice_warlord]} {c.alice_warlord}" in bob
    assert f"Warlords: {c.face} {c.fake}" in alice
    assert f"Hand: {c.line(c.hand(0))}" in alice and f"Hand: {c.line(c.hand(1))}" in bob
    assert "holds" not in alice + bob  # Warlords' own table lists each hand
    orders = replay.deck_orders()
    assert sorted(orders) == ["a", "b"] and len(orders["b"]) == 52 and orders["b"][c.fake.index] == c.face
    assert sorted(map(str, orders["a"])) == sorted(map(str, orders["b"]))  # each a whole deck


def test_before_the_audit_only_public_faces_are_shown(in_progress):
    c = cheat()
    replay = load_replay(in_progress)
    assert not replay.audited and replay.verdict()[0] == "IN PROGRESS"
    step = replay.steps[-1]
    assert step.round == c.played.round and not step.over
    assert c.hand(1)[0] in step.seen[1]  # bob could see it, but this archive cannot show it
    for seat in (None, 0, 1):
        assert replay.known(step, seat) == step.public
        assert replay.known(step, seat, everything=True) == step.public
    assert f"Hand: [??] {c.hand(1)[0]}" in replay.render(step, 1)
    assert replay.deck_orders() == {}


def test_a_round_still_open_is_a_last_partial_step():
    p = Players(n=3, seed=4)
    p.run(until=lambda m: len(m.duties) > 1 and m.round > 3)
    seat = min(p.match.duties)
    p.deliver(p.compose(seat))
    replay = build_replay([(f"f{i}.toml", f) for i, f in enumerate(p.files)])
    last = replay.steps[-1]
    assert last.partial and last.round == p.match.round and last.files == (f"f{len(p.files) - 1}.toml",)
    assert [s.round for s in replay.steps[:-1]] == list(range(p.match.round))


def _claim(p: Players, by: int, against: int, when) -> SignedFile:
    m = p.match
    game = getattr(m, "game_ref", m.gid)  # how a claim names its game (the engine's own claim files do the same)
    return SignedFile.sign({"duelmail": 1, "kind": "claim", "game": game, "round": m.round, "prev": m.prev,
                            "seat": by, "time": when.isoformat(), "against": against}, p.ids[by])


def test_timeout_claims_settle_as_in_the_archive_fold():
    from datetime import timedelta

    for late in (True, False):
        p = Players(n=2, seed=1)
        p.run(until=lambda m: any(d.decide for d in m.duties.values()))
        x = next(s for s, d in p.match.duties.items() if d.decide)
        due = p.match.deadline(x)
        p.clock = due + (timedelta(seconds=5) if late else -timedelta(seconds=5)) - timedelta(minutes=5)
        move = p.compose(x)
        files = [("genesis.toml", p.genesis), *((f"f{i}", f) for i, f in enumerate(p.files[1:])),
                 ("claim.toml", _claim(p, 1 - x, x, due + timedelta(seconds=1))), ("move.toml", move)]
        m = fold(files)
        replay = build_replay(files)
        assert replay.match.void == m.void and replay.match.prev == m.prev
        assert len(replay.steps) == len(m.rounds)
        assert [w for w, _ in m.void.values()] == (["move.toml"] if late else ["claim.toml"])
        assert replay.set_aside()[0].startswith("move.toml: " if late else "claim.toml: ")
        if late:
            assert replay.steps[-1].over and "timeout" in " ".join(e.text for e in replay.steps[-1].events)


def test_refs_seen_are_cards_of_locked_decks():
    replay = load_replay(GAME)
    decks = replay.match.book.decks
    for step in replay.steps:
        for seen in step.seen:
            assert all(isinstance(r, CardRef) and r.deck in decks for r in seen)


def test_face_up_cards_show_their_faces_once_audited():
    """Issue 15: the cheat archive's page drew alice's face-up Warlord as a card back: the battle that caught bob
    turned it up and the game ended before its keys were shared. Audited, a card face up is drawn by its face."""
    c = cheat()
    step = c.replay.steps[c.caught.index]
    face = c.replay.all_faces[c.alice_warlord]
    for seat in (None, 0, 1):
        assert f"Warlords: {face} {c.alice_warlord} (face up)" in c.replay.render(step, seat)
    assert c.alice_warlord not in step.public  # its face was never opened in play


def test_holding_rows_sight_and_faces_are_those_of_each_steps_state(monkeypatch):
    """Each step's holding rows are the refs its state's visibility shows each seat alone, in its order, and its sight
    what that seat could open then (a locked deck's ref once every other locker published its key), also for a step
    that takes the last one's rows because the rules gave the same visibility again (issue 42: a Warlords move that
    moves no card keeps it); its public faces are every face the state and the match had opened by then, also when the
    step read only the faces opened since the last one."""
    snap = _Recorder.snap
    expected, faces = [], []

    def checked(self, rnd, files, partial):
        m = self.match
        public = dict(faces[-1]) if faces else {}
        public.update(m.state.public_faces())
        for ref, face in m.faces.items():
            if ref not in public:
                public[ref] = m.card_of(ref, face)
        faces.append(public)
        sight = [set(s) for s in self.seen]
        for ref, who in m.state.visibility().items():
            deck = m.book.decks.get(ref.deck)
            if who >= 0 and deck is not None and deck.locked and all(
                    ref.index in deck.keys.get(s, ()) for s in deck.lockers if s != who):
                sight[who].add(ref)
        snap(self, rnd, files, partial)
        expected.append(tuple(map(frozenset, sight)))

    monkeypatch.setattr(_Recorder, "snap", checked)
    for path in (GAME, CHEAT):
        expected.clear()
        faces.clear()
        replay = load_replay(path)
        steps = replay.steps
        assert [s.seen for s in steps] == expected
        assert [s.public for s in steps] == faces and [list(s.public) for s in steps] == [list(f) for f in faces]
        for step in steps:
            vis = step.state.visibility()
            assert step.holding == tuple(tuple(r for r, who in vis.items() if who == s) for s in range(replay.n))
        pairs = list(zip(steps, steps[1:], strict=False))
        same = [(a, b) for a, b in pairs if b.state.visibility() is a.state.visibility()]
        assert same and all(b.holding is a.holding for a, b in same)


def test_a_step_reads_the_faces_a_state_revealed_since_the_last_step():
    """A state's public faces only grow, in the order revealed: a step reads those after the last step's from the same
    mapping, and all of a mapping the state gives anew (here a state whose faces no match opened, so only the state
    tells them)."""
    revealed = {CardRef("a", 0): Card.parse("QH")}
    state = SimpleNamespace(public_faces=lambda: revealed, visibility=dict, card_words=None,
                            snapshot=lambda previous: None)
    match = SimpleNamespace(n=1, state=state, faces={}, book=SimpleNamespace(decks={}), events=[], rounds=[],
                            duties={}, over=lambda: False)
    recorder = _Recorder(match)
    recorder.snap(0, [], partial=False)
    revealed[CardRef("a", 1)] = Card.parse("2S")
    recorder.snap(1, [], partial=False)
    recorder.snap(2, [], partial=False)
    revealed = {CardRef("b", 0): Card.parse("3D")}  # another mapping: read whole
    recorder.snap(3, [], partial=False)
    assert [[str(r) for r in s.public] for s in recorder.steps] == [["a#0"], ["a#0", "a#1"], ["a#0", "a#1"],
                                                                    ["a#0", "a#1", "b#0"]]
    assert recorder.steps[2].public is recorder.steps[1].public

"""Notes (protocol §5a): table talk, resignation and agreed draws, out of turn, folded alike in any order."""

from __future__ import annotations

import random

import pytest
from helpers import Players

from duelmail.app import verify_archive
from duelmail.engine.log import Duplicate
from duelmail.engine.talk import MAX_SAY
from duelmail.errors import FileRefused, IllegalMove
from duelmail.protocol.turnfile import SignedFile
from duelmail.transport.archive import fold
from duelmail.transport.folder import GameFolder


def to_decision(p: Players) -> int:
    p.run(until=lambda m: any(d.decide for d in m.duties.values()))
    return next(s for s, d in p.match.duties.items() if d.decide)


def note(p: Players, seat: int, **fields) -> SignedFile:
    return p.matches[seat].compose_note(seat, p.ids[seat], p.tick(), **fields)


def raw_note(p: Players, seat: int, n: int, **fields) -> SignedFile:
    m = p.match
    return SignedFile.sign({"duelmail": 1, "kind": "note", "game": m.game_ref, "round": m.round, "prev": m.prev,
                            "seat": seat, "time": p.tick().isoformat(), "n": n, **fields}, p.ids[seat])


def archive(p: Players, tmp_path) -> GameFolder:
    folder = GameFolder(tmp_path / "game")
    folder.path.mkdir()
    m = p.fresh()
    for f in p.files:
        folder.store(f, m)
    return folder


def test_talk_out_of_turn_takes_no_round_slot(tmp_path):
    p = Players(n=2, seed=3)
    decider = to_decision(p)
    other = 1 - decider
    before = (p.match.round, p.match.prev, dict(p.match.duties))
    f = note(p, other, say="good luck")
    p.deliver(f)
    assert (p.match.round, p.match.prev, dict(p.match.duties)) == before  # nobody waits on talk
    assert [(t.seat, t.text) for t in p.match.talk] == [(other, "good luck")]
    assert f'{p.match.cards[other].name} says: "good luck"' in [e.text for e in p.match.events]
    p.run()
    assert p.match.finished
    assert verify_archive(archive(p, tmp_path).path).ok
    with pytest.raises(Duplicate):
        p.match.apply(f, "again")


def test_say_rides_in_a_turn_file_and_shows_in_order():
    p = Players(n=2, seed=3)
    decider = to_decision(p)
    m = p.matches[decider]
    f = m.compose(decider, p.ids[decider], ["keep"], p.tick(), extra={"say": "I keep it"})
    p.deliver(f)
    p.deliver(note(p, 1 - decider, say="bold"))
    assert [t.text for t in p.fresh().talk] == ["I keep it", "bold"]


@pytest.mark.parametrize("text, words", [("x" * (MAX_SAY + 1), "at most"), ("two\nlines", "control character"),
                                         ("bell\x07", "control character"), ("rtl\u202etxet", "control character"),
                                         ("   ", "empty")])
def test_bad_talk_is_refused_before_signing_and_on_arrival(text, words):
    p = Players(n=2, seed=3)
    to_decision(p)
    with pytest.raises(IllegalMove, match=words):
        note(p, 0, say=text)
    with pytest.raises(FileRefused, match=rf"{words}.*\(rule P-say\)$"):
        p.match.apply(raw_note(p, 0, 1, say=text), "bad.toml")


def test_two_notes_with_one_number_are_equivocation():
    p = Players(n=2, seed=3)
    to_decision(p)
    p.deliver(raw_note(p, 0, 1, say="one"))
    with pytest.raises(FileRefused, match=r"EQUIVOCATION.*\[P-equivocation\]"):
        p.match.apply(raw_note(p, 0, 1, say="two"), "r-n1.toml")


@pytest.mark.parametrize("in_turn", [True, False])
def test_resignation_in_or_out_of_turn_ends_the_game_audited(in_turn, tmp_path):
    p = Players(n=2, seed=5)
    decider = to_decision(p)
    quitter = decider if in_turn else 1 - decider
    p.deliver(note(p, quitter, resign=True, say="you win"))
    m = p.match
    assert m.over() and m.outcome().winners == (1 - quitter,)
    assert m.describe_outcome() == f"{m.cards[1 - quitter].name} won: {m.cards[quitter].name} resigned"
    assert all(d.seed for d in m.duties.values()) and set(m.duties) == {0, 1}
    with pytest.raises(IllegalMove, match=r"it is over"):
        note(p, 1 - quitter, draw="offer")
    p.run()
    assert m.finished and m.audit.ok
    verdict = verify_archive(archive(p, tmp_path).path)
    assert verdict.ok, verdict.lines
    assert f"result: {m.describe_outcome()}" in verdict.lines and "audit: PASSED" in verdict.lines


def test_draw_needs_every_other_player_and_ends_audited(tmp_path):
    p = Players(n=3, seed=2)
    to_decision(p)
    p.deliver(note(p, 1, draw="offer"))
    with pytest.raises(IllegalMove, match="your own"):
        note(p, 1, draw="accept")
    with pytest.raises(IllegalMove, match="still open"):
        note(p, 2, draw="offer")
    p.deliver(note(p, 0, draw="accept"))
    assert not p.match.over()  # seat 2 has not accepted yet
    rnd = p.match.round
    p.step()  # the game goes on meanwhile
    assert p.match.round > rnd and not p.match.over()
    p.deliver(note(p, 2, draw="accept"))
    m = p.match
    assert m.over() and m.outcome().winners == () and m.describe_outcome() == "draw: agreed by every player"
    p.run()
    verdict = verify_archive(archive(p, tmp_path).path)
    assert verdict.ok and "audit: PASSED" in verdict.lines, verdict.lines


def test_a_declined_offer_is_closed_and_a_late_answer_changes_nothing():
    p = Players(n=3, seed=2)
    to_decision(p)
    offer = note(p, 0, draw="offer")
    p.deliver(offer)
    late = note(p, 2, draw="accept")  # written while the offer was open, arrives after the decline
    p.deliver(note(p, 1, draw="decline"))
    assert p.match.draw_offer is None
    with pytest.raises(IllegalMove, match="no draw offer is open"):
        note(p, 2, draw="accept")
    p.deliver(late)
    assert not p.match.over()
    assert "no longer open" in p.match.events[-1].text


def test_an_answer_must_name_a_real_offer():
    p = Players(n=2, seed=2)
    to_decision(p)
    p.deliver(raw_note(p, 0, 1, say="hello"))
    with pytest.raises(FileRefused, match=r"no draw offer.*\[P-draw\]"):
        p.match.apply(raw_note(p, 1, 1, draw="accept", offer={"seat": 0, "n": 1}), "r-n1.toml")


def test_resignation_and_the_crossing_move_settle_alike_in_any_order():
    """The awaited seat moves while the other resigns, both for the same round: every order of arrival folds to
    the same game (the move counts, then the resignation ends the game)."""
    p = Players(n=2, seed=5)
    decider = to_decision(p)
    move = p.compose(decider, ["keep"])
    resign = note(p, 1 - decider, resign=True)
    files = [(f"f{i}", f) for i, f in enumerate(p.files)] + [("move", move), ("resign", resign)]
    results = set()
    for seed in range(4):
        random.Random(seed).shuffle(files)
        m = fold(files)
        results.add((m.prev, m.describe_outcome(), m.applied >= {move.file_hash, resign.file_hash}))
    assert len(results) == 1 and next(iter(results))[2]


def test_a_file_built_on_the_round_before_a_resignation_counts_and_the_resignation_follows(tmp_path):
    """Seat A resigns in round R; unaware, seat B's move closes R and a file of round R+1 follows. No note undoes a
    move made without it (issue 27): the R+1 files count, then the resignation ends the game, in every order."""
    p = Players(n=2, seed=5)
    decider = to_decision(p)
    resign = note(p, 1 - decider, resign=True)
    p.step()  # the decider's move closes the round the resignation names
    later = [p.compose(s) for s in sorted(p.match.duties)]
    files = [(f"f{i}", f) for i, f in enumerate(p.files)] + [("resign", resign)] + \
        [(f"later{i}", f) for i, f in enumerate(later)]
    m = fold(files)
    assert m.over() and m.describe_outcome().endswith("resigned")
    assert {f.file_hash for f in later} <= m.applied and not m.void
    assert fold(list(reversed(files))).prev == m.prev


def test_an_altered_note_is_refused_by_its_signature():
    p = Players(n=2, seed=3)
    to_decision(p)
    f = note(p, 0, say="I will win")
    altered = SignedFile({**f.content, "say": "I resign, you win"}, f.signature)
    with pytest.raises(FileRefused, match=r"signature does not verify.*\[P-signature\]"):
        p.match.apply(altered, "r-n1.toml")
    forged_resign = SignedFile({**f.content, "resign": True}, f.signature)
    with pytest.raises(FileRefused, match=r"\[P-signature\]"):
        p.match.apply(forged_resign, "r-n1.toml")
    assert not p.match.over() and not p.match.talk


@pytest.mark.parametrize("against", ["1", None, True])
def test_a_claim_built_without_a_whole_against_is_refused_by_the_library(against):
    """Issue 27 item 5: a claim a caller signed itself (never parsed) whose ``against`` is a string, missing or a
    bool is refused by ``Match.apply``, by ``header_for`` and by ``fold`` (issue 37 item 5) with a narrow error
    naming the field, not a TypeError or KeyError."""
    from duelmail.protocol.turnfile import FormatError
    from duelmail.transport.archive import header_for

    p = Players(n=2, seed=3)
    to_decision(p)
    m = p.match
    content = {"duelmail": 1, "kind": "claim", "game": m.game_ref, "round": m.round, "prev": m.prev, "seat": 0,
               "time": p.tick().isoformat()}
    if against is not None:
        content["against"] = against
    f = SignedFile.sign(content, p.ids[0])
    with pytest.raises(FileRefused, match=r"field 'against' missing or not a int.*\[P-format\]"):
        m.apply(f, "claim.toml")
    with pytest.raises(FormatError, match="'against'"):
        header_for(m, f)
    with pytest.raises(FormatError, match=r"claim\.toml: field 'against' missing or not a int"):
        fold([*((f"{i}.toml", g) for i, g in enumerate(p.files)), ("claim.toml", f)])
    assert not m.over() and not m.current_claims


def signed_note(p: Players, seat: int, n: int, rnd: int, when, **fields) -> SignedFile:
    """A note signed by hand: naming round ``rnd`` (and the hash it opened with), dated ``when``, numbered ``n``."""
    m = p.match
    return SignedFile.sign({"duelmail": 1, "kind": "note", "game": m.game_ref, "round": rnd, "prev": m.prevs[rnd],
                            "seat": seat, "time": when.isoformat(), "n": n, **fields}, p.ids[seat])


def every_order(p: Players, extra: list[SignedFile]) -> set[tuple]:
    files = [(f"f{i}", f) for i, f in enumerate(p.files)] + [(f"x{i}", f) for i, f in enumerate(extra)]
    out = set()
    for seed in range(3):
        random.Random(seed).shuffle(files)
        m = fold(files)
        out.add((m.describe_outcome(), m.prev))
    return out


@pytest.mark.parametrize("first", ["resign", "accept"])
def test_a_backdated_note_cannot_rewrite_a_recorded_result(first):
    """Issue 27 item 3: alice offers a draw; play goes on; bob resigns (or accepts). Later bob signs the other
    end (an acceptance, or a resignation) naming the round of the offer, dated then. It follows his first end in
    his numbers, so in the home that recorded the result and in a fold from scratch of every file it changes
    nothing. (The older fold put it in the offer's round, before the recorded end, and rewrote the result.)"""
    p = Players(n=2, seed=5)
    to_decision(p)
    p.deliver(note(p, 0, draw="offer"))
    then, when = p.match.round, p.clock
    p.step()
    p.step()
    assert p.match.round > then
    p.deliver(note(p, 1, resign=True) if first == "resign" else note(p, 1, draw="accept"))
    result = p.match.describe_outcome()
    assert result == ("alice won: bob resigned" if first == "resign" else "draw: agreed by every player")
    p.run()
    assert p.match.finished and p.match.audit.ok
    late = signed_note(p, 1, 2, then, when, **({"draw": "accept", "offer": {"seat": 0, "n": 1}}
                                               if first == "resign" else {"resign": True}))
    p.deliver(late)
    assert p.match.describe_outcome() == result and "already over: nothing changes" in p.match.events[-1].text
    assert every_order(p, []) == {(result, p.match.prev)}


def test_a_note_naming_an_old_round_cannot_undo_a_win_by_the_rules():
    """The loser accepts a draw offer left open since early in the game, naming that round and dated then, once the
    rules have ended the game: the note folds after every move made without it, so the win stands everywhere."""
    p = Players(n=2, seed=5)
    to_decision(p)
    p.deliver(note(p, 1, draw="offer"))
    then, when = p.match.round, p.clock
    p.run()
    result = p.match.describe_outcome()
    assert p.match.finished and "won" in result
    assert p.match.outcome().winners == (1,)  # (this deal: bob wins by the rules)
    late = signed_note(p, 0, 1, then, when, draw="accept", offer={"seat": 1, "n": 1})
    p.deliver(late)
    assert p.match.describe_outcome() == result
    assert every_order(p, []) == {(result, p.match.prev)}


def test_a_note_with_a_gap_in_its_seat_numbers_waits_for_its_predecessor():
    """A seat numbers its notes 1, 2, 3...: note 3 is refused (P-wait, held by a home that fetches) until note 2
    comes, then applied; a fold of all of them takes them in order, whatever their dates and rounds."""
    p = Players(n=2, seed=3)
    to_decision(p)
    rnd, when = p.match.round, p.clock
    p.deliver(note(p, 1, say="one"))
    two = signed_note(p, 1, 2, rnd, p.tick(), say="two")
    three = signed_note(p, 1, 3, rnd, when, say="three")  # dated before note 1
    far = signed_note(p, 1, 2 ** 62, rnd, when, resign=True)
    for early in (three, far):
        with pytest.raises(FileRefused, match=r"before its note \d+ arrives.*\[P-wait\]"):
            p.match.apply(early, "early.toml")
    assert not p.match.over()
    p.deliver(two)
    p.deliver(three)
    assert {t.text for t in p.match.talk} == {"one", "two", "three"} and (1, 3) in p.match.notes
    files = [(f"f{i}", f) for i, f in enumerate(p.files)]
    assert {(1, n) for n in (1, 2, 3)} <= set(fold(list(reversed(files))).notes)

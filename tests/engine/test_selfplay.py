"""The in-memory driver: one Match per seat, or one shared Match (the fast mode of the seeded game tests)
that must write exactly the same files."""

from __future__ import annotations

from helpers import Players


def test_a_shared_match_writes_the_very_same_files_as_one_match_per_seat():
    for n, options in ((2, {}), (3, {"reshuffle": True})):
        apart = Players(n=n, seed=5, options=options).run()
        shared = Players(n=n, seed=5, options=options, shared=True).run()
        assert [f.file_hash for f in shared.files] == [f.file_hash for f in apart.files]
        assert shared.match.book.deferred and all(p.proof for p in shared.match.book.deferred)
        receiver = shared.fresh()
        assert receiver.audit.ok and receiver.prev == apart.match.prev


def test_a_draft_carries_no_proof_and_the_file_sent_does():
    p = Players(n=2, seed=6)
    seat = sorted(p.match.duties)[0]
    draft = p.matches[seat].draft(seat, p.ids[seat])
    sent = p.compose(seat)
    table = next(iter(sent.content["deck"].values()))
    assert table["proof"]
    drafted = draft.current.get(seat) or draft.rounds[p.match.round][seat]
    assert drafted.content["deck"] and all("proof" not in t for t in drafted.content["deck"].values())

"""Secret choices: committed in the open, sealed to their author, opened on demand, audited at the end."""

from __future__ import annotations

import copy

import pytest
from helpers import Players

from duelmail.crypto.encoding import b64e
from duelmail.engine.match import Match
from duelmail.errors import FileRefused
from duelmail.protocol.turnfile import SignedFile


def bidding(seed=0, n=3) -> Players:
    return Players(n=n, seed=seed, options={"bid": True})


def test_bids_are_sealed_then_opened_and_audited():
    p = bidding()
    p.run()
    m = p.match
    assert m.finished and m.audit.ok, m.audit.lines
    assert len(m.opened) == 3 and all(v.startswith("bid ") for v in m.opened.values())
    assert any("sealed choices" in line for line in m.audit.lines)
    # in the log the bids travelled as 'sealed bid' with a commitment, never in the clear
    first = [f for f in p.files[1:] if "commits" in f.content]
    assert len(first) == 3
    for f in first:
        assert f.content["actions"][-1] == "sealed bid" and "bid " not in f.to_toml().split("memo")[0]


def deciding(p: Players) -> list[int]:
    """Play on until at least two seats must bid at once; return them."""
    p.run(until=lambda m: sum(d.decide for d in m.duties.values()) >= 2)
    return sorted(s for s, d in p.match.duties.items() if d.decide)


def test_concurrent_commitments_need_no_order():
    p = bidding(seed=2)
    files = [p.compose(s) for s in deciding(p)]
    a, b = p.fresh(), p.fresh()
    for f in files:
        a.apply(f, "x")
    for f in reversed(files):
        b.apply(f, "x")
    assert a.prev == b.prev


def test_choice_is_recovered_from_the_log_and_the_identity_alone():
    p = bidding(seed=3)
    p.run(until=lambda m: m.state.openings())
    seat = 1
    before = p.matches[seat].sealed_choices(seat)
    lost = Match(p.genesis)  # a new machine: only the identity and the files
    for f in p.files[1:]:
        lost.apply(f, "x")
    lost.attach(seat, p.ids[seat])
    assert lost.sealed_choices(seat) == before and list(before) == ["bid"]


def _opening_file(p: Players) -> tuple[int, SignedFile]:
    p.run(until=lambda m: m.state.openings())
    seat = sorted(p.match.duties)[0]
    f = p.compose(seat)
    assert "opens" in f.content
    return seat, f


def test_opening_to_another_value_is_a_provable_cheat():
    p = bidding(seed=4)
    seat, f = _opening_file(p)
    content = copy.deepcopy(f.content)
    real = content["opens"]["bid"]["value"]
    content["opens"]["bid"]["value"] = "bid 3" if real != "bid 3" else "bid 1"
    with pytest.raises(FileRefused) as info:
        p.fresh().apply(SignedFile.sign(content, p.ids[seat]), "liar.toml")
    assert info.value.rule == "P-open" and "does not match the commitment" in str(info.value)


def test_withholding_an_opening_is_refused():
    p = bidding(seed=4)
    seat, f = _opening_file(p)
    content = {k: v for k, v in f.content.items() if k != "opens"}
    with pytest.raises(FileRefused) as info:
        p.fresh().apply(SignedFile.sign(content, p.ids[seat]), "mute.toml")
    assert info.value.rule == "P-withheld" and "bid" in str(info.value)


def test_secret_choice_in_the_clear_is_refused():
    p = bidding(seed=5)
    seat = deciding(p)[0]
    f = p.compose(seat)
    content = copy.deepcopy(f.content)
    content["actions"] = ["bid 2"]
    del content["commits"], content["memo"]
    with pytest.raises(FileRefused) as info:
        p.fresh().apply(SignedFile.sign(content, p.ids[seat]), "clear.toml")
    assert info.value.rule == "P-sealed"


def test_committing_to_an_illegal_choice_is_caught_at_the_opening():
    from duelmail.crypto.commit import commit, commit_salt

    p = bidding(seed=6)
    seat, *others = deciding(p)
    m = p.matches[seat]
    seed, made = m.own[seat], m.round
    content = copy.deepcopy(p.compose(seat).content)
    content["commits"]["bid"] = commit("bid", m.gid, made, seat, commit_salt(seed, "bid", made), b"bid 9")
    p.deliver(SignedFile.sign(content, p.ids[seat]))
    for s in others:
        p.deliver(p.compose(s))
    p.run(until=lambda mm: seat in mm.duties and mm.duties[seat].opens)
    honest = p.fresh()
    opening = {"duelmail": 1, "kind": "turn", "game": honest.game_ref, "round": honest.round, "prev": honest.prev,
               "seat": seat, "time": p.tick().isoformat(), "actions": [],
               "opens": {"bid": {"value": "bid 9", "salt": b64e(commit_salt(seed, "bid", made))}}}
    with pytest.raises(FileRefused) as info:
        p.fresh().apply(SignedFile.sign(opening, p.ids[seat]), "nine.toml")
    assert info.value.rule == "H-5" and "illegal choice" in str(info.value)


@pytest.mark.parametrize("memo", ["short", "long", "missing", "stray"])
def test_a_memo_of_any_other_size_is_refused(memo):
    """Issue 14.1: a memo's size is fixed by the kinds of its sealed choices (a bid: one 8-byte block), so a
    client that sealed the bare text (leaking its length) is refused on arrival, as is a missing or stray memo."""
    from duelmail.crypto.seal import memo_key, seal

    p = bidding(seed=5)
    seat = deciding(p)[0]
    content = copy.deepcopy(p.compose(seat).content)
    key = memo_key(p.matches[seat].own[seat])
    if memo == "missing":
        del content["memo"]
    elif memo == "stray":
        content = {k: v for k, v in content.items() if k != "commits"}
        content["actions"] = []
    else:
        content["memo"] = seal(key, b"bid 2" if memo == "short" else bytes(9), b"", bytes(12))
    with pytest.raises(FileRefused) as info:
        p.fresh().apply(SignedFile.sign(content, p.ids[seat]), "leaky.toml")
    assert info.value.rule == "P-commit" and "leaky.toml" in str(info.value), str(info.value)
    if memo in ("short", "long"):
        assert f"sealed choices ['bid'] make it exactly {12 + 8 + 16}" in str(info.value)

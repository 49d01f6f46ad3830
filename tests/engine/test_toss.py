"""Who starts Summoner (S-3): a commit-reveal coin toss in the set-up files (protocol section 6a, "Who starts")."""

from __future__ import annotations

import copy
import hashlib

import pytest

from duelmail.crypto.encoding import b64e, lp
from duelmail.engine import toss
from duelmail.engine.match import Match
from duelmail.errors import FileRefused
from duelmail.protocol.turnfile import SignedFile
from duelmail.testing.selfplay import SelfPlay


def first_decision(sp: SelfPlay) -> SelfPlay:
    return sp.run(lambda m: m.state.turn > 1)


def resigned(sp: SelfPlay, f: SignedFile, **changes) -> SignedFile:
    content = copy.deepcopy(f.content)
    for k, v in changes.items():
        if v is None:
            content.pop(k, None)
        else:
            content[k] = v
    return SignedFile.sign(content, sp.ids[f.seat])


def refused(sp: SelfPlay, f: SignedFile) -> FileRefused:
    with pytest.raises(FileRefused) as e:
        sp.fresh().apply(f, f"r{f.round:04d}-s{f.seat}.toml")
    return e.value


def test_known_answers():
    """The commitment and the result, against hashlib over the length-prefixed fields (protocol 6a)."""
    nonce, salt, v0, v1 = b"n" * 16, b"s" * 32, b"\x00" * 16, b"\xff" * 16
    assert toss.commitment(nonce, salt, v0) == hashlib.sha256(lp("duelmail/toss/v1", nonce, salt, v0)).hexdigest()
    assert lp("duelmail/toss/v1", b"ab") == (16).to_bytes(4, "big") + b"duelmail/toss/v1" + b"\0\0\0\x02ab"
    digest = hashlib.sha256(lp("duelmail/toss-result/v1", v0, v1)).digest()
    assert toss.starter({0: v0, 1: v1}, 2) == digest[-1] & 1
    assert toss.starter({1: v1, 0: v0}, 2) == toss.starter({0: v0, 1: v1}, 2)  # by seat, not by arrival
    # known answers: a change of any tag or encoding changes these
    assert toss.commitment(nonce, salt, v0) == "ddc786bf7466063118a575cfe327bd74e6b8240d8f56b48e07af3bcc3cc1273d"
    assert toss.creator_secret(b"m" * 32, nonce)[1].hex() == "7ee73c6280706dd1f6843c1f0ce14afe"
    assert toss.call(b"k" * 32).hex() == "0e14013cc93833d07fabd7a49d124f73"
    assert toss.starter({0: v0, 1: v1, 2: b"\x01" * 16}, 3) == 1
    with pytest.raises(Exception, match="every seat"):
        toss.starter({0: v0}, 2)


def test_the_toss_decides_who_plays_first_and_the_log_says_so():
    """S-3: the rules' first decider is the toss's starter; every seat computes the same; both seats start in some
    games; the set-up costs no extra file."""
    starters = set()
    for seed in range(8):
        sp = first_decision(SelfPlay("summoner", seed=seed))
        m = sp.match
        assert m.starter is not None and {x.starter for x in sp.matches} == {m.starter}
        first = next(f for f in sp.files[1:] if [a for a in f.content["actions"] if a != "join"])
        assert first.seat == m.starter  # the first decision is the starter's
        said = [m.words(e) for e in m.events if "coin toss" in e.text]
        assert said == [f"the coin toss: {m.cards[m.starter].name} plays first"]
        opened = [f for f in sp.files[1:] if "toss_open" in f.content]
        assert [(f.round, f.seat) for f in opened] == [(2, m.creator)]  # the creator's first deck pass
        assert [f.seat for f in sp.files[1:] if "toss" in f.content] == [1]  # the acceptance
        assert sp.fresh().starter == m.starter  # a fresh fold agrees
        starters.add(m.starter)
    assert starters == {0, 1}


def test_neither_side_can_steer_it():
    """The creator's value is bound by the genesis before it sees the joiner's (a different value is refused as a
    cheat); the joiner's value, sent in the clear, is the joiner's own (it changes the result in some games)."""
    sp = SelfPlay("summoner", seed=1)
    sp.step()
    f = sp.compose(0)
    other = dict(f.content["toss_open"], value=b64e(bytes(16)))
    e = refused(sp, resigned(sp, f, toss_open=other))
    assert e.rule == "P-toss" and "CHEAT" in str(e) and "does not match the genesis commitment" in str(e)
    salt = dict(f.content["toss_open"], salt=b64e(bytes(32)))
    assert refused(sp, resigned(sp, f, toss_open=salt)).rule == "P-toss"


def test_toss_fields_in_the_wrong_files_are_refused():
    """P-toss: the acceptance carries a 16-byte value, the creator's next file the opening, no other file either."""
    sp = SelfPlay("summoner", seed=2)
    join = sp.compose(1)
    e = refused(sp, resigned(sp, join, toss=None))
    assert e.rule == "P-toss" and e.round == 1 and e.seat == 1 and "acceptance carries its toss value" in str(e)
    assert refused(sp, resigned(sp, join, toss=b64e(bytes(15)))).rule == "P-toss"
    assert refused(sp, resigned(sp, join, toss_open={"value": b64e(bytes(16)), "salt": b64e(bytes(32))})
                   ).rule == "P-toss"
    sp.deliver(join)
    opening = sp.compose(0)
    e = refused(sp, resigned(sp, opening, toss_open=None))
    assert e.rule == "P-toss" and "opens the coin toss" in str(e)
    assert refused(sp, resigned(sp, opening, toss=b64e(bytes(16)))).rule == "P-toss"
    sp.deliver(opening)
    later = sp.compose(1)
    assert refused(sp, resigned(sp, later, toss_open=opening.content["toss_open"])).rule == "P-toss"


def test_only_games_that_draw_lots_toss():
    """A Summoner genesis must commit to the toss (P-genesis); a Warlords genesis must not, and its files carry none."""
    sp = SelfPlay("summoner", seed=0)
    bare = {k: v for k, v in sp.genesis.content.items() if k != "toss"}
    with pytest.raises(FileRefused, match="draws lots") as e:
        Match(SignedFile.sign(bare, sp.ids[0]))
    assert e.value.rule == "P-genesis"
    w = SelfPlay("warlords", seed=0)
    with pytest.raises(FileRefused, match="draws no lots"):
        Match(SignedFile.sign({**w.genesis.content, "toss": "0" * 64}, w.ids[0]))
    f = w.compose(1)
    assert "toss" not in f.content
    assert refused(w, resigned(w, f, toss=b64e(bytes(16)))).rule == "P-toss"
    assert first_decision(w).match.starter is None

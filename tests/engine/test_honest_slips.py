"""DESIGN 8, an honest slip is never a cheat: at every decision of whole games, every legal move is bent into the
false claims about the seat's own cards it could make (another of its cards, another face, another count), and
each one the rules' audit would pin on the seat is refused before signing, naming its rule, while the cheat
harness (``honest=False``) gets past this check. Each game's every claim rule must come up."""

from __future__ import annotations

import itertools
import re

import pytest

from duelmail.errors import DuelmailError, FileRefused
from duelmail.testing.selfplay import SelfPlay

# every rule under which a seat makes a claim about its own cards, per game (the digests' rule ids)
CLAIMS = {
    "warlords": {"W-7", "W-8", "W-10", "W-11", "W-12", "W-18", "W-19", "W-25"},
    "summoner": {"S-9", "S-11", "S-17", "S-19", "S-20", "S-21", "S-22"},
    "wizard": {"Z-7", "Z-9"},
    "grid": {"G-23", "G-24", "G-25"},
    "skirmish": {"K-5", "K-6"},
}
REF = re.compile(r"^([a-z]+[0-9]*(?:\.[0-9]+)?#[0-9]+)(=[0-9a-z]+)?$")
STAT = re.compile(r"^([a-z]+)([0-9]+)(!?)$")
SPACE = re.compile(r"^[a-e][1-5]$")
FACES = ("2c", "7d", "9h", "jc", "qs", "kh", "as", "xr")
SPACES = [c + r for c in "abcde" for r in "12345"]
VERBS = ("ally", "merge", "win", "counter", "stop", "joker")  # verbs of claims a legal move's shape may take
FIRST_SEEDS = {"grid": (2,)}
OPTIONS = {"warlords": {"reinforcements": True}, "grid": {"deck0": "bastion", "deck1": "bastion"}}  # jokers, Rooted


def bends(text: str, own: list[str]) -> set[str]:
    """False variants of a legal move: one token changed to another of the seat's cards, face, count, space or
    claiming verb."""
    words = text.split()
    out = {" ".join([v, *words[1:]]) for v in VERBS}
    for i, w in enumerate(words):
        m, s = REF.match(w), STAT.match(w)
        alts = SPACES if SPACE.match(w) else []
        if m:
            alts += [r + (m.group(2) or "") for r in own if r != m.group(1)]
            alts += [m.group(1) + "=" + f for f in FACES if m.group(2)]
        elif s:
            alts += [f"{s.group(1)}{int(s.group(2)) + 1}{s.group(3)}", f"{s.group(1)}{s.group(2)}"
                     f"{'' if s.group(3) else '!'}"]
        out |= {" ".join([*words[:i], a, *words[i + 1:]]) for a in alts}
    return out - {text}


def slips_at(sp: SelfPlay, seat: int, limit: int = 60):
    """(bent move, rule) for the false claims the seat could make now."""
    m = sp.matches[seat]
    draft = m.draft(seat, sp.ids[seat])
    if seat not in draft.state.deciders() or not draft.ready(seat):
        return
    known = draft.known(seat)
    own = [str(r) for r, who in draft.state.visibility().items() if who == seat and r in known]
    legal = [str(a) for a in draft.state.legal_actions(seat, known)]
    wins = {f"win {a}=xr {b}=xr" for a, b in itertools.combinations(own[:4], 2)}  # Summoner's instant win (S-22)
    for text in itertools.islice(sorted(({b for a in legal[:limit] for b in bends(a, own)} | wins) - set(legal)), 600):
        st = draft.state.clone()
        try:
            before = {v for v in st.audit(known) if v.seat == seat}
            action = m.game.parse_action(text)
            if action.sealed():
                continue
            st.apply(seat, action)
        except DuelmailError:
            continue  # refused by the public rules already
        broken = [v for v in st.audit(known) + st.audit_sealed({(seat, lb): a for lb, a in known.sealed.items()})
                  if v.seat == seat and v not in before]
        if broken:
            yield text, broken[0].rule


@pytest.mark.parametrize("game", sorted(CLAIMS))
def test_every_false_claim_about_own_cards_is_refused_before_signing(game):
    found: set[str] = set()
    # until every claim has come up (the rules version decides which games show which); Grid's G-25 (a Rooted
    # card's claim) comes up in few deals: seed 2's is one, so it goes first
    first = FIRST_SEEDS.get(game, ())
    for seed in [*first, *(s for s in range(10) if s not in first)]:
        sp = SelfPlay(game, n=3 if game == "wizard" else 2, seed=seed, shared=True,
                      options=OPTIONS.get(game))
        for _ in range(300):
            if sp.match.over() or found >= CLAIMS[game]:
                break
            for seat in sorted(s for s, d in sp.match.duties.items() if d.decide):
                for text, rule in slips_at(sp, seat):
                    if rule in found:
                        continue
                    with pytest.raises(FileRefused) as e:
                        sp.matches[seat].compose(seat, sp.ids[seat], [text], sp.clock)
                    assert e.value.rule == rule and repr(text) in str(e.value) and "Legal now:" in str(e.value)
                    try:  # the harness's way round: signed, unless another check of the sender's own stops it
                        assert sp.matches[seat].compose(seat, sp.ids[seat], [text], sp.clock, honest=False)
                    except FileRefused as other:
                        assert "says something false" not in str(other)
                    found.add(rule)
            sp.step()
        if found >= CLAIMS[game]:
            break
    assert found >= CLAIMS[game], f"{game}: no chance came up for {sorted(CLAIMS[game] - found)}"

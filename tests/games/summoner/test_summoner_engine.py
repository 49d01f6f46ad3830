"""Summoner through the real engine: the shared mental-poker deck, signed files, reveals, refusals and the audit."""

from __future__ import annotations

import os
import random
import re

import pytest

from duelmail.errors import FileRefused
from duelmail.games.base import Bot, RandomBot, get_game
from duelmail.games.cards import Card, CardRef
from duelmail.games.simulate import Table
from duelmail.games.summoner.notation import End, Pass, Summon, Take, face_text
from duelmail.games.summoner.rules import PRE
from duelmail.testing.selfplay import SelfPlay

GAME = get_game("summoner")
# the suite plays 40 seeded games (every option combination more than once); `make soak` plays 200
SEEDS = range(int(os.environ.get("DUELMAIL_SEEDS", "40")))


@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_random_game_folds_and_verifies(seed):
    """S-28: every seeded game ends, the audit passes (S-26), and a fresh fold reaches the same chain head."""
    options = {"life": 40} if seed % 2 else {}
    sp = SelfPlay("summoner", n=2, seed=seed, options=options, bots=[RandomBot(), RandomBot()],
                  shared=True)  # one process plays both seats; fresh() below checks every file
    sp.rng = random.Random(seed)
    sp.run()
    m = sp.match
    assert m.finished and m.audit.ok, m.audit.lines
    assert m.state.outcome() is not None and not m.violations
    receiver = sp.fresh()  # every signature, pass proof, key share and move checked, then the audit
    assert receiver.prev == m.prev and receiver.audit.ok, receiver.audit.lines


def test_engine_and_plain_simulator_agree():
    """The crypto engine and the reference simulator give the same game from the same choices."""
    sp = SelfPlay("summoner", n=2, seed=11)
    sp.run()
    faces = sp.match.audit.faces
    truth = {ref: sp.match.card_of(ref, f) for ref, f in faces.items()}
    table = Table(GAME, GAME.new_state(2, GAME.spec.resolve_options({})), truth, [{}, {}], random.Random(0))
    table.state.apply_toss(sp.match.starter)  # S-3: the engine's coin toss is the simulator's chance too
    table.settle()
    for f in sp.files[1:]:
        for text in f.content["actions"]:
            if text != "join":
                table.play(f.content["seat"], GAME.parse_action(text))
    assert table.state.outcome() == sp.match.state.outcome()
    assert table.state.life == sp.match.state.life


def test_shortcuts_one_file_per_turn_and_joker_windows_cost_two():
    """S-6, S-18, S-21, S-23 with the option mail-shortcuts: draws, answers and reveals ride in files sent anyway."""
    for seed in range(2):
        sp = SelfPlay("summoner", n=2, seed=seed, options={"mail-shortcuts": True})
        sp.run()
        turns = sp.match.state.turn
        play = [f for f in sp.files[1:] if f.content["actions"] and f.content["actions"] != ["join"]]
        windows = sum(1 for f in play if f.content["actions"][0] == "pass" or
                      f.content["actions"][0].startswith("counter"))
        assert windows
        assert all(f.content["actions"] for f in sp.files[1:] if "deck" not in f.content and "seed" not in f.content)
        assert len(play) <= turns + 2 * windows + 1, (seed, len(play), turns, windows)


def view(sp: SelfPlay, seat: int):
    """The seat's own view of the open round: its state and the faces it can see."""
    draft = sp.matches[seat].draft(seat, sp.ids[seat])
    return draft.state, draft.known(seat)


def awaited(seat: int, phase: int = PRE):
    def at(m) -> bool:
        d = m.duties.get(seat)
        return bool(d and d.decide) and m.state.phase == phase and m.state.budget == 0
    return at


def refused(sp: SelfPlay, seat: int, actions: list[str], rule: str) -> str:
    with pytest.raises(FileRefused) as err:
        sp.compose(seat, actions)
    assert err.value.rule == rule, str(err.value)
    assert f"(rule {rule})" in str(err.value)
    return str(err.value)


class Hoarder(Bot):
    """Summons its cheapest cards and never attacks: fills its field (for the S-10 and S-11 refusals)."""

    def choose(self, state, seat, known, rng):
        legal = state.legal_actions(seat, known)
        summons = [a for a in legal if isinstance(a, Summon)]
        if summons:
            return min(summons, key=lambda a: (a.face.rank, str(a.card)))
        return next(a for a in legal if isinstance(a, (End, Take, Pass)))


class Idle(Bot):
    def choose(self, state, seat, known, rng):
        return next(a for a in state.legal_actions(seat, known) if isinstance(a, (End, Take, Pass)))


def test_over_summoning_is_refused_through_the_engine():
    """S-9: two cards worth more than 14 in one turn; the file is refused and nothing changes."""
    for seed in range(20):
        sp = SelfPlay("summoner", n=2, seed=seed, bots=[Idle(), Idle()])
        sp.run(until=awaited(0))
        st, known = view(sp, 0)
        cards = sorted((known[r].rank, r) for r in st.hands[0] if not known[r].is_joker)
        if len(cards) < 2 or cards[-1][0] + cards[-2][0] <= 14:
            continue
        (a, ra), (_, rb) = cards[-1], cards[-2]
        before = sp.match.prev, len(sp.files)
        msg = refused(sp, 0, [f"summon {ra}={face_text(known[ra])}", f"summon {rb}={face_text(known[rb])}", "end"],
                      "S-9")
        assert f"summoned {a} of 14" in msg
        assert (sp.match.prev, len(sp.files)) == before
        sp.run()
        assert sp.match.audit.ok
        return
    pytest.fail("no seed dealt two cards worth more than 14")


def test_sixth_field_card_is_refused_through_the_engine():
    """S-10: a field holds five cards; the sixth summon is refused."""
    sp = SelfPlay("summoner", n=2, seed=3, bots=[Hoarder(), Idle()])
    sp.run(until=lambda m: len(m.state.field[0]) == 5 and awaited(0)(m))
    st, known = view(sp, 0)
    card = next(r for r in st.hands[0] if not known[r].is_joker)
    refused(sp, 0, [f"summon {card}={face_text(known[card])}", "end"], "S-10")


def test_double_card_of_the_wrong_suit_is_refused_through_the_engine():
    """S-11: a card of the same rank but another suit may not be laid on a summoned card."""
    for seed in range(40):
        sp = SelfPlay("summoner", n=2, seed=seed, bots=[Hoarder(), Idle()])
        for _ in range(12):
            sp.run(until=lambda m: awaited(0)(m) or m.finished)
            if sp.match.finished:
                break
            st, known = view(sp, 0)
            for unit in st.field[0]:
                twin = st.face(unit.refs[0])
                wrong = [r for r in st.hands[0] if known[r].rank == twin.rank and known[r].suit != twin.suit]
                if len(unit.refs) == 1 and wrong:
                    msg = refused(sp, 0, [f"double {wrong[0]}={face_text(known[wrong[0]])} {unit.refs[0]}", "end"],
                                  "S-11")
                    assert "same suit and rank" in msg
                    return
            sp.step()
    pytest.fail("no seed gave a card of the same rank and another suit")


def test_counter_joker_outside_its_window_is_refused_through_the_engine():
    """S-20: a counter-joker answers a joker just thrown; in a player's own turn it is refused."""
    for seed in range(40):
        sp = SelfPlay("summoner", n=2, seed=seed, bots=[Hoarder(), Hoarder()])
        for _ in range(6):
            sp.run(until=lambda m: any(d.decide for d in m.duties.values()) or m.finished)
            if sp.match.finished:
                break
            seat = next(s for s, d in sp.match.duties.items() if d.decide)
            st, known = view(sp, seat)
            jokers = [r for r in st.hands[seat] if known[r].is_joker]
            if jokers and st.phase == PRE:
                msg = refused(sp, seat, [f"counter {jokers[0]}={face_text(known[jokers[0]])}"], "S-20")
                assert "counter-joker only answers a joker" in msg
                return
            sp.step()
    pytest.fail("no seed dealt a joker")


def test_false_face_is_caught_and_recorded_by_the_engine():
    """S-26: a card summoned under a false face is revealed in the same file; the cheater loses, provably."""
    sp = SelfPlay("summoner", n=2, seed=5, bots=[Idle(), Idle()])
    sp.run(until=awaited(0))
    st, known = view(sp, 0)
    card = next(r for r in st.hands[0] if not known[r].is_joker and known[r].rank > 2)
    lie = f"summon {card}=2{known[card].suit.lower()}"
    sp.deliver(sp.compose(0, [lie, "end"], honest=False))  # accepted: the file is the proof
    sp.run()
    m = sp.match
    assert [(v.seat, v.rule) for v in m.violations] == [(0, "S-9")] and str(card) in m.violations[0].message
    assert m.state.outcome().cheaters == (0,) and m.state.outcome().winners == (1,)
    assert not m.audit.ok and any(c[0] == 0 for c in m.audit.cheats)
    assert sp.fresh().violations == m.violations  # anyone refolding the files finds it again


def test_false_instant_win_claim_is_a_provable_cheat():
    """S-22, S-26: a win claim reveals its 'jokers'; two kings are no jokers, and the claimer loses."""
    sp = SelfPlay("summoner", n=2, seed=8, bots=[Idle(), Idle()])
    sp.run(until=awaited(0))
    st, known = view(sp, 0)
    fakes = [r for r in st.hands[0] if not known[r].is_joker][:2]
    sp.deliver(sp.compose(0, [f"win {fakes[0]}=xr {fakes[1]}=xr"], honest=False))
    sp.run()
    m = sp.match
    assert m.state.is_terminal() and m.state.outcome().winners == (1,) and m.state.outcome().cheaters == (0,)
    assert {v.rule for v in m.violations} == {"S-22"} and not m.audit.ok


def test_files_name_positions_and_only_the_faces_of_cards_played_face_up():
    """S-26, S-27: a file names refs; the only faces in it are claims for cards played, and honest claims hold."""
    sp = SelfPlay("summoner", n=2, seed=2)
    sp.run()
    faces = sp.match.audit.faces
    named = 0
    for f in sp.files[1:]:
        for text in f.content["actions"]:
            for token in re.split(r"[ +]", text)[1:]:
                ref, _, face = token.partition("=")
                if ref == "life":
                    continue
                r = CardRef.parse(ref)
                if face:
                    named += 1
                    assert sp.match.card_of(r, faces[r]) == Card.parse(face), text
    assert named > 10


def test_s6_look_costs_one_file_of_shares_then_the_drawn_card_is_played():
    """S-6 by default, through the engine: after a summon the drawer writes 'look'; the opponent's next file
    carries only the key share (no decision); then the drawer sees the card it drew and may play it in the
    same turn. The game still folds and passes the audit."""
    sp = SelfPlay("summoner", n=2, seed=3)
    sp.run(until=lambda m: m.state.phase == PRE and m.state.turn > 2 and any(d.decide for d in m.duties.values()))
    m = sp.match
    seat = m.state.current
    known = sp.matches[seat].known(seat)
    summon = next(a for a in m.state.legal_actions(seat, known) if isinstance(a, Summon))
    sp.deliver(sp.compose(seat, [str(summon), "look"]))
    drawn = m.state.hands[seat][-1]
    assert m.state.unseen[seat] == set() and m.state.visibility()[drawn] == seat
    duties = m.duties
    assert set(duties) == {1 - seat} and duties[1 - seat].shares and not duties[1 - seat].decide
    shares = sp.compose(1 - seat)
    assert shares.content["actions"] == [] and str(drawn) in shares.content["keys"]
    sp.deliver(shares)
    assert m.duties[seat].decide and drawn in sp.matches[seat].known(seat)
    assert drawn not in sp.matches[1 - seat].known(1 - seat)
    sp.run()
    assert m.finished and m.audit.ok, m.audit.lines


def test_s6_with_mail_shortcuts_look_is_refused_at_the_sender():
    sp = SelfPlay("summoner", n=2, seed=3, options={"mail-shortcuts": True})
    sp.run(until=lambda m: m.state.phase == PRE and m.state.turn > 2 and any(d.decide for d in m.duties.values()))
    m = sp.match
    seat = m.state.current
    summon = next(a for a in m.state.legal_actions(seat, sp.matches[seat].known(seat)) if isinstance(a, Summon))
    with pytest.raises(Exception, match="S-6"):
        sp.compose(seat, [str(summon), "look"])

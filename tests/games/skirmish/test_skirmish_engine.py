"""Skirmish through the real engine: refusals that name the rule, the round, the seat and the input; cheats found
at the opening or at the audit; and the engine paths the game needs (chained openings, a seat's own sealed choices
in its view)."""

from __future__ import annotations

import copy
import re

import pytest

from duelmail.crypto.commit import commit, commit_salt
from duelmail.crypto.encoding import b64e
from duelmail.engine.memo import make_memo
from duelmail.errors import FileRefused, IllegalMove
from duelmail.games.base import Bot
from duelmail.games.skirmish.bots import HeuristicBot
from duelmail.games.skirmish.notation import Build, Reveal
from duelmail.protocol.turnfile import SignedFile
from duelmail.testing.selfplay import SelfPlay


def waiting(kind: str, seat: int | None = None):
    def at(m) -> bool:
        w = m.state.wait
        return bool(w) and w[0] == kind and (seat is None or seat in m.state.deciders()) and not m.state.openings()
    return at


def test_moving_farther_than_speed_allows_is_refused_K11():
    sp = SelfPlay("skirmish", n=2, seed=1)
    sp.run(until=waiting("move"))
    seat = sp.match.state.deciders()[0]
    x, y = sp.match.state.pos[seat]
    far = f"run {x + 5},{y}" if x < 20 else f"run {x - 5},{y}"
    before = sp.match.prev, len(sp.files)
    with pytest.raises(FileRefused) as e:
        sp.compose(seat, [far])
    msg = str(e.value)
    assert e.value.rule == "K-11" and e.value.seat == seat and e.value.round == sp.match.round
    assert far.split()[1].rstrip("0").rstrip(".") in msg.replace(".0,", ",") and "farther than the Speed" in msg
    assert (sp.match.prev, len(sp.files)) == before
    sp.run()
    assert sp.match.audit.ok


def _plan_openings(seed: int):
    """Play until every fighter has committed its plan and the rules want them opened."""
    sp = SelfPlay("skirmish", n=2, seed=seed)
    sp.run(until=lambda m: any(lb.startswith("p") for lbs in m.state.openings().values() for lb in lbs))
    seat = next(s for s, lbs in sorted(sp.match.state.openings().items()) if any(lb.startswith("p") for lb in lbs))
    label = next(lb for lb in sp.match.state.openings()[seat] if lb.startswith("p"))
    return sp, seat, label


def test_a_plan_that_does_not_match_its_commitment_is_a_provable_cheat_K17():
    sp, seat, label = _plan_openings(0)
    f = sp.compose(seat)
    content = copy.deepcopy(f.content)
    real = content["opens"][label]["value"]
    forged = real[:-1] + ("1" if real[-1] != "1" else "2")
    content["opens"][label]["value"] = forged
    with pytest.raises(FileRefused) as e:
        sp.fresh().apply(SignedFile.sign(content, sp.ids[seat]), "liar.toml")
    msg = str(e.value)
    assert e.value.rule == "P-open" and e.value.seat == seat and e.value.round == sp.match.round
    assert "liar.toml" in msg and repr(forged) in msg and "does not match the commitment" in msg


def test_a_plan_of_the_wrong_length_is_caught_at_its_opening_K17():
    sp = SelfPlay("skirmish", n=2, seed=0)
    sp.run(until=waiting("plan"))
    seat, *others = sp.match.state.deciders()
    m = sp.matches[seat]
    label, made = m.state.wait[2], m.round
    wrong = f"plan {label}: " + " ".join(["1"] * (m.state.fight["len"][seat] + 1))
    content = copy.deepcopy(sp.compose(seat).content)
    content["commits"][label] = commit(label, m.gid, made, seat, commit_salt(m.own[seat], label, made),
                                       wrong.encode())
    if "opens" in content:  # the last seat to commit opens in the same file
        content["opens"][label]["value"] = wrong
        file, receiver = SignedFile.sign(content, sp.ids[seat]), sp.fresh()
    else:
        sp.deliver(SignedFile.sign(content, sp.ids[seat]))
        for s in others:
            sp.deliver(sp.compose(s))
        receiver = sp.fresh()
        file = SignedFile.sign({
            "duelmail": 1, "kind": "turn", "game": receiver.game_ref, "round": receiver.round, "prev": receiver.prev,
            "seat": seat, "time": sp.tick().isoformat(), "actions": [],
            "opens": {label: {"value": wrong, "salt": b64e(commit_salt(m.own[seat], label, made))}}}, sp.ids[seat])
    with pytest.raises(FileRefused) as e:
        receiver.apply(file, "long.toml")
    assert e.value.rule == "K-17" and e.value.seat == seat and repr(wrong) in str(e.value)
    assert "has speed" in str(e.value) and "long.toml" in str(e.value)


class Quiet(Bot):
    """Reveals nothing it need not, so it never shows more than the 13 cards anyone may (K-5); otherwise it plays
    like the heuristic bot."""

    def __init__(self):
        self.inner = HeuristicBot()

    def choose(self, state, seat, known, rng):
        if state.wait[0] in ("reveal", "dual") and state.wait[-1] == "reveal phase":
            return state.legal_actions(seat, known)[0]
        return self.inner.choose(state, seat, known, rng)


class Overdraw(Quiet):
    """In its first Reveal phase alone, reveals 3 more Strength cards than it committed to, and never says so."""

    done = False

    def choose(self, state, seat, known, rng):
        w = state.wait
        if not self.done and w[0] == "reveal" and w[3] == "reveal phase":
            self.done = True  # a public reveal: only the audit can tell (a sealed one its own client refuses)
            return Reveal((("str", state.own_totals(known)["str"] - state.rev[seat]["str"] + 3, False),))
        return super().choose(state, seat, known, rng)


def test_revealing_beyond_the_committed_total_is_found_at_the_audit_K5_K35():
    for seed in range(10):
        bot = Overdraw()
        sp = SelfPlay("skirmish", n=2, seed=seed, bots=[bot, HeuristicBot()], honest=False)  # an honest client
        sp.run()                                                                               # refuses to sign it
        if not bot.done:
            continue
        report = sp.match.audit
        assert not report.ok
        assert [(s, r) for s, r, _ in report.cheats] == [(0, "K-5")], report.lines
        assert any("CHEAT by seat 0 [K-5]" in line and "but committed to" in line for line in report.lines)
        return
    pytest.fail("the overdrawing seat was never asked to reveal alone")


def forged_build(sp: SelfPlay, seat: int, cards: dict[str, int]) -> SignedFile:
    """The seat's build file with other totals than its client allows: commitments and memo made by hand, as a
    modified client would, correctly signed."""
    m = sp.matches[seat]
    seed, rnd = m.own[seat], m.round
    texts = {st: f"build {st} {n}" for st, n in cards.items()}
    texts["d0"] = "dual d0: " + " ".join(f"{st}1{'!' if n == 1 else ''}" for st, n in cards.items())
    content = copy.deepcopy(m.compose(seat, sp.ids[seat], [], sp.tick()).content)
    content["actions"] += [f"sealed {lb}" for lb in texts]
    content["commits"] = {lb: commit(lb, m.gid, rnd, seat, commit_salt(seed, lb, rnd), t.encode())
                          for lb, t in texts.items()}
    content["memo"] = make_memo(m.game, seed, m.gid, rnd, seat, texts)
    return SignedFile.sign(content, sp.ids[seat])


def test_a_14_card_character_is_found_at_the_audit_K2_K35():
    sp = SelfPlay("skirmish", n=2, seed=2, bots=[HeuristicBot(), Quiet()])
    assert sp.match.round == 1 and list(sp.match.duties) == [1]  # bob accepts and builds in one file
    with pytest.raises(FileRefused) as e:  # an honest client refuses to seal it
        sp.compose(1, ["build str 9", "build spd 2", "build end 2", "build dex 1"])
    assert e.value.rule == "K-2" and "14 cards" in str(e.value) and (e.value.round, e.value.seat) == (1, 1)
    assert "build str 9" in str(e.value)
    sp.deliver(forged_build(sp, 1, {"str": 9, "spd": 2, "end": 2, "dex": 1}))
    sp.run()
    report = sp.match.audit
    assert not report.ok
    assert [(s, r) for s, r, _ in report.cheats] == [(1, "K-2")], report.lines
    assert "14 cards" in report.cheats[0][2]


def test_an_exhaustion_claimed_in_a_dual_reveal_is_shown_in_the_same_file():
    """Engine: an opening that makes the rules want another (the stat a dual reveal exhausts) is applied in the
    same file; and openings go first, so the seat's own decisions that follow ride along too."""
    for seed in range(30):
        sp = SelfPlay("skirmish", n=2, seed=seed)
        sp.run()
        for f in sp.files[1:]:
            opens = f.content.get("opens", {})
            duals = [lb for lb in opens if lb.startswith("d") and "!" in opens[lb]["value"]]
            if duals and any(lb in ("str", "spd", "end", "dex") for lb in opens):
                assert sp.match.audit.ok
                return
    pytest.fail("no dual reveal exhausted a stat")


def test_a_seat_sees_its_own_sealed_choices_and_nobody_elses():
    sp = SelfPlay("skirmish", n=2, seed=4)
    sp.run(until=lambda m: m.state.turn == 1)
    mine = sp.matches[0].known(0).sealed
    assert set(mine) == {"str", "spd", "end", "dex", "d0"}
    assert sum(a.cards for a in mine.values() if isinstance(a, Build)) <= 13
    assert sp.matches[1].known(0).sealed == {} and sp.matches[0].known(None).sealed == {}


@pytest.mark.parametrize("name", ["plan that does not match its commitment",
                                  "stat revealed beyond its committed total"])
def test_the_cheat_harness_catches_the_skirmish_cheats(name):
    """duelmail.testing.adversary's skirmish cheats: a forged plan opening on arrival (P-open), an overdrawn stat at the
    audit (K-5)."""
    from duelmail.testing.adversary import GAME_CHEATS, run_cheat

    for seed in range(6):
        caught = run_cheat("skirmish", name, GAME_CHEATS["skirmish"][name], seed=seed)
        if caught.when == "n/a":
            continue
        assert caught.caught, caught
        assert (caught.when, caught.rule) == (("on arrival", "P-open") if "plan" in name else ("at the audit", "K-5"))
        return
    pytest.fail(f"no opportunity for {name!r} in six seeds")


def test_no_decision_rides_on_the_openings_of_a_round_several_seats_answer():
    """Engine (protocol §6a): several seats open a dual reveal in one round; the last, having seen the others'
    files, may not add the decision that only then exists (its file's validity would depend on the order of the
    round's files); it decides in the next round, and the game goes on."""
    for seed in range(10):
        sp = SelfPlay("skirmish", n=3, seed=seed)
        for _ in range(300):
            m = sp.match
            if m.over():
                break
            duties = m.duties
            if len(duties) >= 2 and all(d.opens and not d.decide for d in duties.values()):
                *first, last = sorted(duties)
                for s in first:
                    sp.deliver(sp.compose(s))
                mine = sp.matches[last]
                view = mine.draft(last, sp.ids[last])
                if last in view.state.deciders() and not view.over():
                    action = str(view.state.legal_actions(last, view.known(last))[0])
                    with pytest.raises(FileRefused) as e:
                        mine.compose(last, sp.ids[last], [action], sp.tick())
                    assert e.value.rule == "P-turn" and "decide in the next round" in str(e.value)
                    f = sp.compose(last)
                    assert f.content["actions"] == [] and f.content["opens"]  # the bot waits too
                    sp.deliver(f)
                    assert last in sp.match.duties and sp.match.duties[last].decide
                    sp.run()
                    assert sp.match.audit.ok
                    return
                sp.deliver(sp.compose(last))
                continue
            sp.step()
    pytest.fail("no round where a decision could have ridden on shared openings")


RING_OF_EIGHT = """name = "Ring of eight"
width = 48
height = 48
starts = [[4, 24], [44, 24], [24, 4], [24, 44], [8, 8], [40, 40], [8, 40], [40, 8]]
"""


def test_more_than_six_players_where_the_battlefield_has_their_start_points_K1_K33():
    """K-1: the source is "intended for multiple players"; a battlefield with a start point per seat takes them
    (a custom one here, eight), and one with fewer start points refuses the game by K-33 before anything is
    played (the shipped ones have six)."""
    sp = SelfPlay("skirmish", n=8, seed=8, options={"battlefield": RING_OF_EIGHT}, shared=True)
    sp.run(until=lambda m: m.state.turn >= 2)
    st = sp.match.state
    assert st.n == len(st.pos) == len(st.field.starts) == 8 and not sp.match.violations
    assert sp.fresh().prev == sp.match.prev
    table = st.render(None, sp.match.known(None))
    assert re.search(r"seat 7, (?:[0-9.]+ in from|by) ", table) and st.picture(None, sp.match.known(None))  # no x,y
    with pytest.raises(IllegalMove) as e:
        SelfPlay("skirmish", n=7, seed=7)  # open-field
    assert e.value.rule == "K-33" and "6 start points, not enough for 7 players" in str(e.value)

"""A refusal carries its parts from where the rules raise it (``IllegalMove``'s ``seat``, ``move``, ``must``,
``now``, ``case``), and ``choosing.refusal`` composes a player's words from them: one test per kind of part, each
checking the parts, the words said to the seat refused, and the rules' own text (``str(error)``, what
``play --verbose`` and ``verify`` show), which speaks of that seat in the third person, by seat number or name."""

from __future__ import annotations

from collections.abc import Callable

from duelmail.choosing import choices, refusal
from duelmail.engine.match import Match
from duelmail.errors import DuelmailError, FileRefused
from duelmail.games.base import Awaited, Committed, FalseClaim, NotHeld, face_words
from duelmail.games.cards import Card, CardRef
from duelmail.testing.selfplay import SelfPlay


def deciding(sp: SelfPlay, wanted: Callable[[Match, int], bool], limit: int = 600) -> int:
    """Bots play until a seat decides in a state ``wanted`` by it; that seat."""
    for _ in range(limit):
        m = sp.match
        for s, d in sorted(m.duties.items()):
            if d.decide and s not in m.current and wanted(m, s):
                return s
        sp.step()
    raise AssertionError("no such state came up")


def refused(sp: SelfPlay, seat: int, *moves: str) -> FileRefused:
    """``moves`` noted for ``seat`` and refused as its own file: the refusal, nothing written."""
    try:
        sp.match.draft(seat, sp.ids[seat], list(moves))
    except FileRefused as e:
        assert e.illegal is not None and e.illegal.seat == seat, e
        return e
    raise AssertionError(f"{moves} accepted")


def listed(sp: SelfPlay, seat: int, verb: str) -> list[str]:
    return [c.move for c in choices(sp.match, seat, sp.ids[seat]) if c.move.split()[0] == verb]


def test_an_order_refused_says_what_you_must_do_now():
    sp = SelfPlay("warlords", n=2, seed=1, shared=True)
    s = deciding(sp, lambda m, s: bool(listed(sp, s, "end")))
    e = refused(sp, s, "support -")
    prompt = sp.match.state.prompt(s)
    assert (e.illegal.move, e.illegal.must, e.illegal.now, e.illegal.case) == ("support -", prompt, None, None)
    said = refusal(sp.match, s, sp.ids[s], e, (), "support -", commands=False)
    assert said == (f"your move was not sent (round {sp.match.round}): 'Add no Support' cannot be played now: you "
                    f"must {prompt} (rule W-12 of the rules of Warlords)")
    name = sp.match.names()[s]
    assert f"support -: not possible now, {name} must {prompt} (rule W-12)" in str(e)  # the rules' own text


def test_a_prompt_that_is_no_order_is_said_as_it_is():
    sp = SelfPlay("wizard", n=3, seed=1, shared=True)
    s = deciding(sp, lambda m, s: m.state.phase == 0 and bool(listed(sp, s, "pass")))  # TURN
    e = refused(sp, s, "take")
    prompt = sp.match.state.prompt(s)
    assert (e.illegal.must, e.illegal.now) == (None, prompt) and prompt.startswith("pass, or attack")
    said = refusal(sp.match, s, sp.ids[s], e, (), "take", commands=False)
    assert said.endswith(f": 'Take the blow' cannot be played now: {prompt} (rule Z-5 of the rules of Wizard Duel)")
    assert "you must" not in said and f"for {sp.match.names()[s]} now: {prompt}" in str(e)


def test_a_card_played_as_a_role_it_is_not():
    sp = SelfPlay("warlords", n=2, seed=1, shared=True)
    s = deciding(sp, lambda m, s: bool(listed(sp, s, "end")))
    view = sp.match.draft(s, sp.ids[s], [])
    known = view.known(s)
    low = next(r for r in view.state.hands[s] if known[r].rank not in ("J", "Q", "K", "A") and not known[r].is_joker)
    e = refused(sp, s, f"warlord {low}")
    assert e.illegal.case == FalseClaim(low, "Warlord", known[low]) and e.illegal.move == f"warlord {low}"
    said = refusal(sp.match, s, sp.ids[s], e, (), "warlord")
    assert f": {face_words(known[low])} cannot be played as a Warlord (see rule W-7 in 'duelmail rules " \
           "warlords'). You may now: 1. " in said and "#" not in said
    assert f"({sp.match.names()[s]} played {low} face down as a Warlord, but it is {known[low]})" in str(e)


def test_a_card_named_by_a_face_it_has_not():
    sp = SelfPlay("summoner", n=2, seed=1, shared=True)
    s = deciding(sp, lambda m, s: bool(listed(sp, s, "summon")))
    ref, face = listed(sp, s, "summon")[0].split()[1].split("=")
    wrong = Card.parse("2H" if face.upper() != "2H" else "3H")
    e = refused(sp, s, f"summon {ref}={wrong}")
    assert e.illegal.case == FalseClaim(CardRef.parse(ref), wrong, Card.parse(face))
    said = refusal(sp.match, s, sp.ids[s], e, (), "summon", commands=False)
    assert said.endswith(f": you named {face_words(wrong)}, but it is {face_words(Card.parse(face))} (rule S-9 of "
                         f"the rules of {sp.match.game.spec.title})"), said
    assert f"played {ref} as {wrong}, but it is {Card.parse(face)}" in str(e)


def test_a_secret_choice_made_again():
    sp = SelfPlay("skirmish", n=2, seed=1, shared=True)
    s = deciding(sp, lambda m, s: bool(listed(sp, s, "stay")))
    e = refused(sp, s, "build str 3")
    assert e.illegal.case == Committed("str", 2) and e.illegal.rule == "P-commit"
    said = refusal(sp.match, s, sp.ids[s], e, (), "build str 3", commands=False)
    assert said == f"your move was not sent (round {sp.match.round}): you already chose your Strength cards in round 2"
    assert f"{sp.match.names()[s]} already committed to 'str' in round 2" in str(e)


def test_an_answer_out_of_turn_comes_first():
    sp = SelfPlay("warlords", n=3, seed=1, shared=True)
    s = deciding(sp, lambda m, s: bool(m.duties[s].windows), 2000)
    (w,) = sp.match.duties[s].windows
    e = refused(sp, s, "end")
    assert e.illegal.case == Awaited(w.rule, w.what) and e.illegal.move == "end" and "seat " in w.what
    said = refusal(sp.match, s, sp.ids[s], e, (), "end", commands=False)
    assert said.endswith(f": 'End the turn' cannot be played: first answer out of turn: {sp.match.named(w.what)} "
                         f"(rule {w.rule} of the rules of Warlords)"), said
    assert f"{sp.match.names()[s]} is awaited to answer out of turn, {w.rule}" in str(e)


def test_the_parts_survive_a_refusal_said_again():
    """An ``IllegalMove`` reworded (the engine adds the legal moves to the text) keeps its parts, and a refusal of
    an answer in words keeps the rules' refusal it wraps."""
    from duelmail.choosing import ChoiceError, read_step

    sp = SelfPlay("warlords", n=2, seed=1, shared=True)
    s = deciding(sp, lambda m, s: bool(listed(sp, s, "end")))
    e = refused(sp, s, "support -").illegal
    again = e.reworded("other words")
    assert str(again) == f"other words (rule {e.rule})"
    assert (again.seat, again.move, again.must, again.now, again.case) == (e.seat, e.move, e.must, e.now, e.case)
    try:
        read_step(sp.match, s, sp.ids[s], "support -")
    except ChoiceError as refused_words:
        assert refused_words.illegal is not None and refused_words.illegal.must == e.must
        said = refusal(sp.match, s, sp.ids[s], refused_words, (), "support -", commands=False)
        assert said.startswith("'Add no Support' cannot be played now: you must "), said
    except DuelmailError as other:
        raise AssertionError(other) from None
    else:
        raise AssertionError("accepted")



def test_a_card_not_in_the_hand():
    """A position typed wrong is no card the seat holds; a card it has seen elsewhere is said by its face."""
    sp = SelfPlay("summoner", n=2, seed=1, shared=True)
    s = deciding(sp, lambda m, s: bool(listed(sp, s, "summon")))
    e = refused(sp, s, "summon s#99=2h")
    assert e.illegal.case == NotHeld(CardRef.parse("s#99")) and e.illegal.move == "summon s#99=2h"
    said = refusal(sp.match, s, sp.ids[s], e, (), "summon", commands=False)
    assert said.endswith(": 'Summon the 2 of hearts' cannot be played: you hold no such card (rule S-9 of the rules "
                         f"of {sp.match.game.spec.title})"), said
    assert f"s#99 is not in {sp.match.names()[s]}'s hand" in str(e)

    def seen_elsewhere(m: Match, t: int) -> bool:
        view = m.draft(t, sp.ids[t], [])
        return bool(listed(sp, t, "summon")) and any(r not in view.state.hands[t] for r in view.known(t))

    s = deciding(sp, seen_elsewhere)
    view = sp.match.draft(s, sp.ids[s], [])
    ref, face = next((r, f) for r, f in view.known(s).items() if r not in view.state.hands[s])
    e = refused(sp, s, f"summon {ref}={face}")
    assert e.illegal.case == NotHeld(ref)
    said = refusal(sp.match, s, sp.ids[s], e, (), "summon", commands=False)
    assert f"cannot be played: {view.state.card_words(ref, face)} is not in your hand (rule S-9" in said, said


def test_a_deflection_names_whom_it_may_aim_at():
    """Z-12: the players a hearts defence may turn the spell to, by name, and the seat itself as "you"."""
    sp = SelfPlay("wizard", n=3, seed=1, shared=True)
    s = deciding(sp, lambda m, s: any(" at " in mv for mv in listed(sp, s, "defend")))
    move = next(mv for mv in listed(sp, s, "defend") if " at " in mv).split(" at ")[0]
    aims = sorted({int(mv.split(" at ")[1]) for mv in listed(sp, s, "defend") if mv.startswith(move + " at ")})
    names = sp.match.names()
    for typed, why in ((move, "a hearts defence deflects: name the new target: "),
                       (f"{move} at {s}", "you cannot be the new target; you may name ")):
        e = refused(sp, s, typed)
        assert e.illegal.move == typed and e.illegal.now is not None
        said = refusal(sp.match, s, sp.ids[s], e, (), "defend", commands=False)
        assert f"cannot be played now: {why}{' or '.join(names[t] for t in aims)} (rule Z-12" in said, said
        assert "SEAT" in str(e) or f"other than {names[s]}" in str(e)  # the rules' own text


def test_a_card_that_is_not_one_of_your_warlords():
    """W-8: where the move needs the card (one of the seat's Warlords), with the ones that are, in words."""
    sp = SelfPlay("warlords", n=2, seed=1, shared=True)
    s = deciding(sp, lambda m, s: bool(listed(sp, s, "exchange")))
    new = listed(sp, s, "exchange")[0].split()[2]
    mine = tuple(sp.match.state.warlords[s])
    e = refused(sp, s, f"exchange a#99 {new}")
    assert e.illegal.case == NotHeld(CardRef.parse("a#99"), "one of your Warlords", mine)
    said = refusal(sp.match, s, sp.ids[s], e, (), "exchange", commands=False)
    view = sp.match.draft(s, sp.ids[s], [])
    yours = ", ".join(view.state.card_words(r, view.known(s)[r]) for r in mine)
    assert f"cannot be played: that card is not one of your Warlords ({yours}) (rule W-8 of" in said, said
    assert f"a#99 is not one of {sp.match.names()[s]}'s Warlords" in str(e)


def test_a_designed_card_played_as_if_it_had_an_ability():
    """G-23: a card played as an Ally that is none is said by its design, never by the French face behind it."""
    sp = SelfPlay("grid", n=2, seed=1, shared=True)
    s = deciding(sp, lambda m, s: bool(listed(sp, s, "ally")))
    allies = {mv.split()[1] for mv in listed(sp, s, "ally")}
    view = sp.match.draft(s, sp.ids[s], [])
    other = next(r for r in view.state.hands[s] if str(r) not in allies)
    e = refused(sp, s, f"ally {other} {listed(sp, s, 'ally')[0].split()[2]}")
    case = e.illegal.case
    assert isinstance(case, FalseClaim) and case.as_if and case.card == other and case.said == "an Ally"
    said = refusal(sp.match, s, sp.ids[s], e, (), "ally", commands=False)
    name = view.state.card_words(other, view.known(s)[other])
    assert said.endswith(f": {name} is not an Ally ({case.what}) (rule G-23 of the rules of Grid Duel)"), said
    assert str(case.face) not in said and "of spades" not in said and str(case.face) in str(e)

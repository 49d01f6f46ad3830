"""Issue 29, section 3: every event, prompt and listed move of a whole bot game of each game, read through a small
grammar check: what a player reads by default has no doubled article, no '1 Lives', no empty parentheses, no seat
number where a name is known, no protocol jargon."""

from __future__ import annotations

import re

import pytest

from duelmail.choosing import choices_in
from duelmail.testing.selfplay import SelfPlay

GAMES = [("warlords", 2, {"reinforcements": True, "hidden-ally": True}), ("wizard", 3, {}), ("summoner", 2, {}),
         ("grid", 2, {}), ("skirmish", 2, {})]

CHECKS = {
    "doubled article": re.compile(r"\b(?:the|a|an) (?:the|a|an)\b", re.I),
    "two cards' words run together": re.compile(r"(?:of (?:spades|hearts|diamonds|clubs)|joker|winner) the "
                                                 r"(?:\d+|Jack|Queen|King|Ace|red|black)\b"),
    "'s before 'the'": re.compile(r"'s the\b"),
    "one, then a plural": re.compile(r"(?<![\d.,])\b1 (?!Dexterity|Strength|Speed|Endurance)[A-Za-z]+s\b"),
    "a plural that may be one": re.compile(r"\(s\)"),
    "empty parentheses": re.compile(r"\(\s*\)"),
    "a seat number": re.compile(r"\bseat \d", re.I),
    "a negative count": re.compile(r"(?<![\w.])-\d+ (?:life|cards?|points?)"),
    "a negative amount": re.compile(r"(?<![\w.,-])-\d+(?![\d,])"),
    "a player called 'it'": re.compile(r"\b(?:alice|bob|carol)\b [a-z]+ its\b"),
    "protocol words": re.compile(r"shuffle_lock|published keys|escrow|pass on deck|sealed \w+ d?\d|opened [a-z]+\d*: "),
}


def faults(text: str) -> list[str]:
    return [f"{name}: {text!r}" for name, check in CHECKS.items() if check.search(text)]


def read_whole_game(game: str, n: int, options: dict, seed: int) -> list[str]:
    """Every line a player reads by default in a whole bot game: each seat's prompts and listed moves when it
    decides, and every event that is not protocol bookkeeping, as each seat and the public read it."""
    sp = SelfPlay(game, n=n, seed=seed, options=options, shared=True)
    lines: list[str] = []
    for _ in range(5000):
        m = sp.match
        if m.finished:
            break
        for seat in sorted(m.duties):
            ident, noted = sp.ids[seat], []
            several = not m.duties[seat].decide and len(m.duties) > 1
            while not several:
                view = m.draft(seat, ident, noted)
                listed = choices_in(view, seat)
                if not listed:
                    break
                prompt = view.named(view.state.prompt(seat))
                me = m.names()[seat]
                assert not re.search(rf"\b(?:attack|at) {me}\b", prompt), f"{me} is asked to attack {me}: {prompt}"
                lines.append(prompt)
                lines += [c.words for c in listed]
                noted.append(str(sp.bots[seat].choose(view.state, seat, view.known(seat), sp.rng)))
            sp.deliver(m.compose(seat, ident, noted, sp.tick()))
    else:
        raise AssertionError(f"{game}: the game did not end")
    m = sp.match
    played = [e for e in m.events if not e.technical]
    for seat in [None, *range(n)]:
        known = m.seen(seat) if seat is not None else None
        lines += [e.text for e in m.told_to(played, known)]
        lines += m.named(m.state.render(seat, known or {})).splitlines()  # the table at the end, as 'show' has it
    return lines


def told_twice(events) -> list[str]:
    """Consecutive events that say the same thing again (``bob runs to 3,4`` then ``bob runs from 1,4 to 3,4``)."""
    said = [re.sub(r" from \S+ to ", " to ", e.text) for e in events]
    return [f"told twice: {a!r}" for a, b in zip(said, said[1:], strict=False) if a == b]


@pytest.mark.parametrize(("game", "n", "options"), GAMES)
def test_no_event_of_a_whole_game_is_told_twice(game, n, options):
    sp = SelfPlay(game, n=n, seed=5, options=options, shared=True)
    sp.run()
    m = sp.match
    found = told_twice(m.told_to([e for e in m.events if not e.technical]))
    assert not found, "\n".join(found[:20])


@pytest.mark.parametrize(("game", "n", "options"), GAMES)
def test_what_a_player_reads_in_a_whole_game_is_grammatical(game, n, options):
    found = sorted({f for line in read_whole_game(game, n, options, seed=5) for f in faults(line)})
    assert not found, "\n".join(found[:40])


def test_the_grammar_check_finds_what_issue_29_saw():
    """Each check catches the sentence the issue quoted."""
    for text in ["alice throws the joker the black joker", "bob's the 9 of hearts", "1 Lives left", "up to 1 inches",
                 "attacks bob with the 4 of diamonds the Jack of diamonds", "alice commits its start reveal",
                 "() said", "-6 life points", "seat 1 must seat 0 attacks you", "shuffle_lock pass on deck a",
                 "bob loses 9 life points: 8 -> -1", "bob: -6 life points, hand 3"]:
        assert faults(text), text
    for text in ["Attack the Queen of clubs with the 8 of clubs", "Play the King of clubs face down as a Warlord",
                 "Defend with the Jack of hearts (the Warlord) and the 7 of clubs face down as the Army",
                 "bob runs from 32,12 to 31,12", "game 3f2a-b1", "due 2026-11-29", "2-4 players"]:
        assert not faults(text), text

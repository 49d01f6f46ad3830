"""``choosing``: the legal moves as a numbered list in words, and a player's answer (numbers, words, notation) read
back into the moves to note (issue 29; seeds/warlords.md W-7, W-10 for the turn of several steps)."""

from __future__ import annotations

import random
import re

import pytest

from duelmail.choosing import ChoiceError, choices, imperative, read_answer, shown_move
from duelmail.engine.match import Match
from duelmail.testing.selfplay import SelfPlay

GAMES = [("warlords", 2), ("wizard", 3), ("summoner", 2), ("grid", 2), ("skirmish", 2)]


def decider(sp: SelfPlay) -> int:
    """Play the bots until a seat has a decision to make; that seat."""
    for _ in range(200):
        seats = [s for s, d in sp.match.duties.items() if d.decide]
        if seats:
            return seats[0]
        sp.step()
    raise AssertionError("no decision came up")


def play_by_numbers(game: str, n: int, seed: int) -> tuple[SelfPlay, int]:
    """A whole game in which every move is chosen by its number in the list (the bot's move where the list holds
    it, else a move of the list at random); every list is checked on the way. The game, and the moves chosen."""
    sp = SelfPlay(game, n=n, seed=seed, shared=True)
    rng = random.Random(seed)
    chosen = 0
    for _ in range(5000):
        m = sp.match
        if m.finished:
            return sp, chosen
        for seat in sorted(m.duties):
            ident, noted = sp.ids[seat], []
            several = not m.duties[seat].decide and len(m.duties) > 1  # its file may not depend on the others'
            while not several:
                listed = choices(m, seat, ident, noted)
                if not listed:
                    break
                assert [c.number for c in listed] == list(range(1, len(listed) + 1))
                assert len({c.move for c in listed}) == len(listed)
                assert not any(f"seat {s}" in c.words for c in listed for s in range(n)), listed
                view = m.draft(seat, ident, noted)
                want = str(sp.bots[seat].choose(view.state, seat, view.known(seat), sp.rng))
                number = next((c.number for c in listed if c.move == want), None) or rng.randint(1, len(listed))
                answer = read_answer(m, seat, ident, str(number), noted)
                assert answer.moves == [listed[number - 1].move]
                noted += answer.moves
                chosen += 1
            sp.deliver(m.compose(seat, ident, noted, sp.tick()))
    raise AssertionError(f"{game}: the game did not end")


@pytest.mark.parametrize(("game", "n"), GAMES)
def test_a_whole_game_of_each_game_is_played_by_choosing_numbers_from_the_list(game, n):
    """Issue 29's 'done when': a person who never read the digest plays a whole game of each of the five games by
    choosing numbers; each list is numbered 1..N, holds no seat number, and the game ends and audits clean.

    Issue 39 (1): on the way, a move that ends the game against its own player or puts it out is marked in words
    ("careful: ends the game, bob wins: ..."), never with a seat number or a card's position; and the engine,
    playing the marked move for real, agrees: the game is over without that player among the winners, or the
    player is out."""
    (sp, chosen), seen = _careful(game, n, seed=3)
    assert chosen > 5
    fresh = sp.fresh()
    assert fresh.over() and (fresh.audit is None or fresh.audit.ok)
    for c, then in seen:
        assert c.said.endswith(f"(careful: {c.warning})")
        assert not re.search(r"\bseat \d|#\d", c.warning), c.warning
        assert then in ("lost", "out", "secret"), (c.said, then)
    if game == "skirmish":  # 1 Endurance card is shown, and exhausted, at the start (K-3, K-7)
        assert any(c.move == "build end 1" and "removes your character" in c.warning for c, _ in seen)
        assert not [c for c, _ in seen if c.move.startswith("build end") and c.move != "build end 1"]
    if game in ("skirmish", "wizard"):
        assert any(then in ("lost", "out") for _, then in seen)


def test_the_list_is_stable_for_a_state():
    """The same state gives the same list, in a home that folded the log afresh (what a reply refers to)."""
    sp = SelfPlay("warlords", seed=1, shared=True)
    seat = decider(sp)
    again = sp.fresh()
    assert isinstance(again, Match) and again is not sp.match
    assert choices(sp.matches[seat], seat, sp.ids[seat]) == choices(again, seat, sp.ids[seat])


def test_several_numbers_are_read_each_against_the_list_after_the_ones_before():
    """W-7, W-10: a Warlords turn is several steps (a Warlord, then the end); '1 then N' reads N in the list after
    the first choice, which is shorter than the first list."""
    sp = SelfPlay("warlords", seed=1, shared=True)
    seat = decider(sp)
    m, ident = sp.matches[seat], sp.ids[seat]
    first = choices(m, seat, ident)
    warlord = next(c for c in first if c.move.startswith("warlord"))
    after = choices(m, seat, ident, [warlord.move])
    end = next(c for c in after if c.move == "end")
    assert [c.move for c in first] != [c.move for c in after]
    for text in (f"{warlord.number} then {end.number}", f"{warlord.number} {end.number}",
                 f"{warlord.number}, {end.number}"):
        assert read_answer(m, seat, ident, text).moves == [warlord.move, "end"]
    assert read_answer(m, seat, ident, f"{warlord.words.lower()} then end the turn").moves == [warlord.move, "end"]
    with pytest.raises(ChoiceError, match=r"no move 99: your moves are numbered 1 to"):
        read_answer(m, seat, ident, "99")


def test_words_notation_and_the_player_s_other_answers():
    """A move in words (the rank alone, articles left out), in the notation, 'undo', 'resign' and 'say'."""
    sp = SelfPlay("warlords", seed=1, shared=True)
    seat = decider(sp)
    m, ident = sp.matches[seat], sp.ids[seat]
    listed = choices(m, seat, ident)
    warlord = next(c for c in listed if c.move.startswith("warlord"))
    rank = warlord.words.split()[2]  # "Play the King of clubs face down as a Warlord"
    suit = warlord.words.split()[4]
    assert read_answer(m, seat, ident, f"play {rank.lower()} of {suit} as warlord").moves == [warlord.move]
    assert read_answer(m, seat, ident, warlord.move).moves == [warlord.move]
    assert read_answer(m, seat, ident, "undo").undo and read_answer(m, seat, ident, "Resign").resign
    assert read_answer(m, seat, ident, "say good game").say == "good game"


def test_a_misspelt_answer_gets_did_you_mean_and_changes_nothing():
    """A misspelt verb gets "did you mean" with the move's number; an answer that fits nothing lists nothing
    chosen; an illegal move in notation says why (the rule) and where the legal moves are."""
    sp = SelfPlay("warlords", seed=1, shared=True)
    seat = decider(sp)
    m, ident = sp.matches[seat], sp.ids[seat]
    end = next(c for c in choices(m, seat, ident) if c.move == "end")
    with pytest.raises(ChoiceError) as e:
        read_answer(m, seat, ident, "edn the trun")
    assert f"did you mean {end.number}. End the turn?" in str(e.value)
    with pytest.raises(ChoiceError) as e:
        read_answer(m, seat, ident, "attack")  # the first turn: no attack (W-10)
    assert "'duelmail moves' lists" in str(e.value)


def test_imperative_and_names_in_the_notation():
    """What the rules say of a seat's move becomes an order to its player; seat numbers in the notation become names."""
    assert imperative("alice plays the King of clubs face down", "alice") == "Play the King of clubs face down"
    assert imperative("alice passes", "alice") == "Pass"
    assert imperative("alice adds no Support and accepts any damage in advance", "alice") == \
        "Add no Support and accept any damage in advance"
    assert shown_move("attack w#9=8c w#12=qc at 1", ["alice", "bob"]) == "attack w#9=8c w#12=qc at bob"
    assert shown_move("plan p3: 1>2 4>0 6", ["a", "b", "c"]) == "plan p3: 1>c 4>a 6"


def test_a_grid_turn_of_about_200_moves_is_shown_grouped_and_every_number_still_chooses_its_move():
    """Issue 29: Grid's many moves (every card, face, orientation and square) were one flat list of about 200
    lines; grouped by all but their last word (the square), each number stays beside its square, and
    read_answer takes it as the same move (seeds/grid.md G-9)."""
    import re as _re

    from duelmail.choosing import choices_in, compact, read_answer
    from duelmail.testing.selfplay import SelfPlay

    sp = SelfPlay("grid", n=2, seed=5, shared=True)

    def many(m):
        return any(m.duties.get(s) and m.duties[s].decide and len(choices_in(m.draft(s, sp.ids[s], []), s)) > 100
                   for s in m.state.deciders())

    sp.run(until=many)
    m = sp.match
    seat = next(s for s in m.state.deciders() if m.duties.get(s) and m.duties[s].decide)
    listed = choices_in(m.draft(seat, sp.ids[seat], []), seat)
    lines = compact(listed)
    assert len(lines) < 40 < len(listed)
    shown, head = {}, None
    for line in lines:
        if "...:" in line:
            head, _, line = line.partition(" ...:")
            head = head.strip()
        for number, last in _re.findall(r"(\d+)\. (\S+)", line):
            shown[int(number)] = f"{head} {last}"
    assert sorted(shown) == [c.number for c in listed]
    for c in listed[::17]:
        assert shown[c.number] == c.words
        (chosen,) = read_answer(m, seat, sp.ids[seat], str(c.number)).chosen
        assert chosen.move == c.move


# -- issue 39, item 1: a move that loses at once is marked in words -------------------------------------------------
def _careful(game: str, n: int, seed: int) -> tuple[tuple[SelfPlay, int], list[tuple[object, str]]]:
    """``play_by_numbers``, every list's warned choice kept, each with what the engine says
    when it plays that move for real (its reveals and shares included) at that moment: "lost", "out" or "goes on"
    (a secret choice, whose effect shows when it is opened, is not played)."""
    import duelmail.choosing as choosing
    from duelmail.games.grid.terms import SCORE

    seen: list = []
    real = choosing.choices

    def spy(match, seat, identity, noted=()):
        listed = real(match, seat, identity, noted)
        for c in listed:
            if not c.warning:
                continue
            if c.move.split()[0] in ("build", "dual"):
                seen.append((c, "secret"))
                continue
            after = match.draft(seat, identity, [*noted, c.move])
            lost = after.over() and seat not in after.outcome().winners
            if game == "grid" and not lost and after.state.phase == SCORE:  # ended: the count waits for the reveals
                count, _ = after.state.score()
                lost = count[seat] < count[1 - seat]
            out = seat in after.state.retired() or (game == "skirmish" and not after.state.alive[seat])
            seen.append((c, "lost" if lost else "out" if out else "goes on"))
        return listed

    choosing.choices = spy
    try:
        played = play_by_numbers(game, n, seed)
    finally:
        choosing.choices = real
    return played, seen


def test_ending_a_grid_game_while_behind_on_spaces_is_marked_and_ahead_it_is_not():
    """Issue 39 (1), G-13, G-26: 'End the game' is marked when the player holds fewer spaces than the opponent
    (whatever the face-down cards are, the count decides), and not when it holds more."""
    from duelmail.choosing import choices_in

    sp = SelfPlay("grid", n=2, seed=5, shared=True)

    def can_end(m):
        return any(m.duties.get(s) and m.duties[s].decide and m.state.end_allowed() for s in m.state.deciders())

    looked = behind = 0
    for _ in range(5000):
        m = sp.match
        if m.over():
            break
        if not can_end(m):
            sp.step()
            continue
        seat = next(s for s in m.state.deciders() if m.duties.get(s) and m.duties[s].decide)
        listed = choices_in(m.draft(seat, sp.ids[seat], []), seat)
        end = next((c for c in listed if c.move == "end"), None)
        if end is not None:
            count, _ = m.state.score()
            if count[seat] < count[1 - seat]:
                assert end.warning and end.warning.startswith("ends the game, ") and "spaces to" in end.warning
                assert f"{count[1 - seat]} spaces to {count[seat]}" in end.warning
                behind += 1
            elif count[seat] > count[1 - seat]:
                assert end.warning is None
            looked += 1
        sp.step()
    assert looked > 0 and behind > 0

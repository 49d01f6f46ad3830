"""Wizard Duel through the real engine: one shared deck locked by every seat, Lives nobody has seen, key
shares sent concurrently, the short answer deadline, refusals on arrival, and the audit.

The 200 seeded games per player count run in the plain simulator (``test_wizard_play.py``); here one
game per count goes through the full crypto engine, where a game costs seconds.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from freezegun import freeze_time

from duelmail.crypto import deck as sra
from duelmail.errors import FileRefused
from duelmail.games.base import PUBLIC, RandomBot, get_game
from duelmail.games.cards import CardRef
from duelmail.games.simulate import Table
from duelmail.games.wizard.rules import DEFEND, TURN, attack_value
from duelmail.protocol.turnfile import SignedFile
from duelmail.testing.selfplay import SelfPlay

GAME = get_game("wizard")
SEC = timedelta(seconds=1)


@pytest.mark.parametrize("players, options", [
    (3, {}), (4, {"anytime": True, "sudden-death": True}), (6, {"sudden-death": True}),
])
def test_seeded_games_fold_verify_and_match_the_simulator(players, options):
    """Z-20, Z-24: a whole game through the crypto engine ends, passes the audit, folds again from its files
    to the same chain head, and the plain simulator given the same faces and choices plays the same game."""
    sp = SelfPlay("wizard", n=players, seed=players + 10 * (players == 3), options=options,
                  bots=[RandomBot() if s % 2 else GAME.bots["heuristic"]() for s in range(players)])
    sp.rng = random.Random(players)
    sp.run()
    m = sp.match
    assert m.finished and m.audit.ok, m.audit.lines
    assert not m.violations and not m.state.outcome().cheaters
    assert sp.fresh().prev == m.prev
    truth = {ref: m.card_of(ref, f) for ref, f in m.audit.faces.items()}
    table = Table(GAME, GAME.new_state(players, GAME.spec.resolve_options(options)), truth,
                  [{} for _ in range(players)], random.Random(0))
    table.settle()
    for f in sp.files[1:]:
        for text in f.content["actions"]:
            if text != "join":
                table.play(f.content["seat"], GAME.parse_action(text))
    assert table.state.outcome() == m.state.outcome()
    assert table.state.alive == m.state.alive and table.state.used == m.state.used


def _decider(sp: SelfPlay, phase: int) -> int:
    sp.run(until=lambda m: m.state.phase == phase and any(d.decide for d in m.duties.values()))
    return next(s for s, d in sp.match.duties.items() if d.decide)


def test_z28_a_turn_costs_one_decision_and_one_round_of_concurrent_shares():
    """Z-5, Z-28: the file that passes the turn carries its sender's share for the next draw; the other
    seats' shares arrive together in one round, in any order; then the drawer decides."""
    sp = SelfPlay("wizard", n=4, seed=1)
    seat = _decider(sp, TURN)
    sp.deliver(sp.compose(seat, ["pass"]))
    m = sp.match
    drawer = m.state.current
    card = m.state.hands[drawer][-1]
    assert str(card) in sp.files[-1].content["keys"]  # the passer's share rode on its decision
    owing = {s for s in range(4) if s not in (seat, drawer)}
    assert set(m.duties) == owing and all(m.duties[s].shares == {card} and not m.duties[s].decide for s in owing)
    files = [sp.compose(s) for s in sorted(owing)]
    for order in (files, files[::-1]):  # concurrent: either order gives the same round
        fresh = sp.fresh()
        for f in order:
            fresh.apply(f, f"r{f.round:04d}-s{f.seat}.toml")
        assert fresh.duties.keys() == {drawer} and fresh.duties[drawer].decide
    for f in files:
        sp.deliver(f)
    assert sp.match.known(drawer).get(card) is None  # the match does not act for the drawer...
    sp.matches[drawer].attach(drawer, sp.ids[drawer])
    assert card in sp.matches[drawer].known(drawer)  # ...the drawer's own match opens it
    assert all(card not in sp.matches[s].known(s) for s in owing)


def claim(sp: SelfPlay, by: int, against: int) -> SignedFile:
    m = sp.match
    return SignedFile.sign({"duelmail": 1, "kind": "claim", "game": m.game_ref, "round": m.round, "prev": m.prev,
                            "seat": by, "time": datetime.now(UTC).isoformat(), "against": against}, sp.ids[by])


def test_z23_an_attacked_player_has_answer_hours_then_takes_the_blow():
    """Z-23, Z-27: with answer-hours=2 the target's deadline is two hours after the round opened; a claim one
    second early is refused, one second late plays 'take' for the target."""
    sp = SelfPlay("wizard", n=3, seed=2, options={"answer-hours": 2})
    turn = _decider(sp, TURN)
    assert sp.match.deadline(turn) == sp.match.opened_at + timedelta(days=3)  # a turn: the ordinary time
    target = _decider(sp, DEFEND)
    m = sp.match
    due = m.deadline(target)
    assert due == m.opened_at + timedelta(hours=2)
    by = m.state.spell.attacker
    with freeze_time(due - SEC):
        with pytest.raises(FileRefused) as err:
            sp.fresh().apply(claim(sp, by, target), "early.toml", now=datetime.now(UTC))
    assert err.value.rule == "P-timeout" and "too early" in str(err.value)
    lives = len(m.state.lives[target])
    with freeze_time(due + SEC):
        late = claim(sp, by, target)
        fresh = sp.fresh()
        events = fresh.apply(late, "claim.toml", now=datetime.now(UTC))
    assert "the default answer 'take' is played" in events[0].text
    assert len(fresh.state.lives[target]) == lives - 1 and fresh.state.spell is None


@pytest.fixture(scope="module")
def table3():
    """One three-seat game, played to its first share-only round (snapshot kept) and on to a defence whose
    target holds a card too weak to beat the attack."""
    sp = SelfPlay("wizard", n=3, seed=4)
    share = None
    for _ in range(400):
        m = sp.match
        if share is None and m.round > 3:
            owing = [s for s in sorted(m.duties) if m.duties[s].shares and not m.duties[s].decide]
            if owing:
                share = (owing[0], sp.compose(owing[0]), m.clone())
        deciding = [s for s, d in m.duties.items() if d.decide]
        if share is not None and deciding and m.state.phase == DEFEND and not m.state.spell.strike:
            target = deciding[0]
            known = sp.matches[target].draft(target, sp.ids[target]).known(target)
            weak = [r for r in m.state.hands[target] if r in known and known[r].rank != 14
                    and attack_value(known[r]) <= m.state.spell.strength]
            if weak:
                return sp, share, (target, weak[0], known[weak[0]])
        sp.step()
    pytest.fail("no defence with a weak card")


def test_refused_defence_that_does_not_beat_the_attack(table3):
    """Z-9: the file is refused on arrival naming the rule, the round, the seat and the defence."""
    sp, _, (target, ref, face) = table3
    text = f"defend {ref}={str(face).lower()}"
    before = sp.match.prev, len(sp.files)
    with pytest.raises(FileRefused) as err:
        sp.compose(target, [text])
    e = err.value
    assert e.rule == "Z-9" and e.seat == target and e.round == sp.match.round and text in str(e)
    assert "does not beat the attack" in str(e) and (sp.match.prev, len(sp.files)) == before


def test_refused_answer_from_a_player_who_was_not_attacked(table3):
    """Z-25: only the target answers; another seat's 'take' is refused, naming round, seat and file."""
    sp, _, (target, _, _) = table3
    m = sp.match
    other = next(s for s in range(3) if s not in (target, m.state.spell.attacker))
    f = SignedFile.sign({"duelmail": 1, "kind": "turn", "game": m.game_ref, "round": m.round, "prev": m.prev,
                         "seat": other, "time": (sp.clock + timedelta(minutes=1)).isoformat(),
                         "actions": ["take"]}, sp.ids[other])
    with pytest.raises(FileRefused) as err:
        m.clone().apply(f, "r-take.toml")
    e = err.value
    assert e.rule == "P-turn" and e.seat == other and e.round == m.round
    assert "r-take.toml" in str(e) and f"seat {other} is not awaited" in str(e) and f"seat {target}" in str(e)


def test_refused_share_for_the_wrong_card(table3):
    """P-keys: a seat's key for another card, filed under the card awaited, fails that card's commitment."""
    sp, (seat, f, snapshot), _ = table3
    keys = dict(f.content["keys"])
    ref = CardRef.parse(sorted(keys)[0])
    other = CardRef(ref.deck, (ref.index + 1) % 52)
    keys[str(ref)] = sra.encode_scalars([sp.matches[seat].own_key(seat, other)])
    content = {**f.content, "keys": keys}
    with pytest.raises(FileRefused) as err:
        snapshot.clone().apply(SignedFile.sign(content, sp.ids[seat]), "r-wrong.toml")
    e = err.value
    assert e.rule == "P-keys" and e.seat == seat and e.round == f.round and str(ref) in str(e)
    snapshot.clone().apply(f, "r-honest.toml")  # the honest file was fine


def test_refused_peek_at_a_life(table3):
    """Z-3: a key published for a Life nobody has lost yet is an early peek, refused as a cheat."""
    sp, (seat, f, snapshot), _ = table3
    victim = next(s for s in range(3) if s != seat and snapshot.state.lives[s])
    life = snapshot.state.lives[victim][-1]
    keys = {**f.content["keys"], str(life): sra.encode_scalars([sp.matches[seat].own_key(seat, life)])}
    content = {**f.content, "keys": dict(sorted(keys.items()))}
    with pytest.raises(FileRefused) as err:
        snapshot.clone().apply(SignedFile.sign(content, sp.ids[seat]), "r-peek.toml")
    e = err.value
    assert e.rule == "P-peek" and e.seat == seat and e.round == f.round and str(life) in str(e)
    assert "CHEAT" in str(e)


def test_z25_two_decisions_in_a_row_travel_in_one_file():
    """Z-22, Z-25: a defence that ends a turn, then the attack window of the next draw, asks the same seat
    twice; its one file carries both, and its own card's key turns the defence up in between."""
    sp = SelfPlay("wizard", n=3, seed=1, options={"anytime": True, "mail-shortcuts": True})
    for _ in range(200):
        m = sp.match
        deciding = [s for s, d in m.duties.items() if d.decide]
        seat = deciding[0] if len(deciding) == 1 else None  # several: an attack window's concurrent answers
        if seat is not None and m.state.phase == DEFEND:
            f = sp.compose(seat)
            if len(f.content["actions"]) == 2:
                break
            sp.deliver(f)
            continue
        sp.step()
    else:
        pytest.fail("no seat answered twice in a row")
    first, second = f.content["actions"]
    assert first.startswith(("defend", "take")) and second.split()[0] in ("pass", "attack")
    sp.deliver(f)
    assert seat not in sp.match.state.deciders() and not sp.match.state.unrevealed


def _out_by_a_spell_then_reshuffle(seed: int) -> bool:
    """Whether the deal puts its first player out by another's spell (no seed of its yet) and reshuffles after."""
    sp = SelfPlay("wizard", n=3, seed=seed)
    sp.run(until=lambda m: bool(m.state.retired()) and not m.over())
    if not sp.match.state.retired() or sp.match.over() or sp.match.retired_seeds:
        return False
    (out,) = sp.match.state.retired()
    sp.run()
    return "w.1" in sp.match.book.decks and out in sp.match.book.decks["w.1"].commits


def test_z19_a_player_out_turns_up_its_hand_publishes_its_seed_and_is_never_awaited_again():
    """Z-19, Z-28: the first file of a player put out by another's spell publishes its per-game seed (a file without
    it is refused); its hand turns face up, every later share and reshuffle pass of its comes from the seed, it
    sends no file again, and the game ends, audits and folds again to the same chain."""
    seed = next((s for s in range(60) if _out_by_a_spell_then_reshuffle(s)), None)
    assert seed is not None, "no deal in 0..59 puts a first player out by another's spell before a reshuffle"
    sp = SelfPlay("wizard", n=3, seed=seed)
    sp.run(until=lambda m: bool(m.state.retired()) and not m.over())
    m = sp.match
    (out,) = m.state.retired()
    hand = list(m.state.hands[out])
    assert hand and all(m.state.visibility()[r] == PUBLIC for r in hand) and not m.retired_seeds
    assert m.duties[out].seed and m.duties[out].retired and not m.duties[out].decide
    f = sp.compose(out)
    assert "seed" in f.content
    content = dict(f.content)
    del content["seed"]
    with pytest.raises(FileRefused) as err:
        sp.fresh().apply(SignedFile.sign(content, sp.ids[out]), "unseeded.toml")
    assert err.value.rule == "P-seed" and err.value.seat == out and err.value.round == m.round
    sp.deliver(f)
    assert m.retired_seeds == {out} and all(r in m.faces for r in hand)
    after = len(sp.files)
    for s in sorted(set(m.duties) - set(m.current)):  # the others of the seed file's round, if any
        sp.deliver(sp.compose(s))
    while not m.finished:
        assert out not in m.duties
        sp.step()
    assert m.audit.ok, m.audit.lines
    assert all(g.content["seat"] != out for g in sp.files[after:])
    reshuffle = m.book.decks["w.1"]  # Z-21 after the retirement: the seat's passes followed from its seed
    assert reshuffle.locked and out in reshuffle.commits
    derived = [e.text for e in m.events if e.seat == out and "derived from the published seed" in e.text]
    assert len(derived) == sum(step.seat == out for step in reshuffle.steps)
    assert sp.fresh().prev == m.prev

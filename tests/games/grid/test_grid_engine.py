"""Grid Duel through the real engine: mental-poker decks, signed files, forced reveals, the audit, and
two homes playing by files through the CLI.

The 200 seeded games per deck pairing run in the plain simulator (``test_grid_play.py``); here a
smaller number per pairing go through the full crypto engine, where a game costs about a second.
"""

from __future__ import annotations

import itertools
import json
import random
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from rigged import rigged

from duelmail.cli import main
from duelmail.errors import FileRefused
from duelmail.games.base import RandomBot, get_game
from duelmail.games.cards import CardRef
from duelmail.games.grid.bots import HeuristicBot
from duelmail.games.grid.library import deck
from duelmail.games.simulate import Table
from duelmail.protocol.turnfile import SignedFile
from duelmail.testing.selfplay import SelfPlay

from .conftest import DECKS

GAME = get_game("grid")
PAIRINGS = list(itertools.combinations_with_replacement(DECKS, 2))


@pytest.mark.parametrize("deck_a, deck_b", PAIRINGS)
def test_seeded_games_fold_and_verify_through_the_engine(deck_a, deck_b):
    """G-30: two crypto games per pairing (random bots, then heuristic bots, seats swapped) end, pass
    the audit, and fold again from the files to the same chain head."""
    for k, bots in enumerate(([RandomBot(), RandomBot()], [HeuristicBot(), HeuristicBot()])):
        seed = PAIRINGS.index((deck_a, deck_b)) * 2 + k
        d0, d1 = (deck_a, deck_b) if k == 0 else (deck_b, deck_a)
        sp = SelfPlay("grid", n=2, seed=seed, options={"deck0": d0, "deck1": d1}, bots=bots)
        sp.rng = random.Random(seed)
        sp.run()
        m = sp.match
        assert m.finished and m.audit.ok, m.audit.lines
        assert not m.violations and not m.state.outcome().cheaters
        assert sp.fresh().prev == m.prev


def test_an_ally_stepping_off_by_name_is_signed_folded_and_verified():
    """G-23 (rules version 6) through the engine: a seeded Bastion game whose random bots move an Ally by name
    (``move b#11 e5``); every file folds, the audit passes, and a fresh fold reaches the same chain head."""
    sp = SelfPlay("grid", n=2, seed=2, options={"deck0": "bastion", "deck1": "bastion"},
                  bots=[RandomBot(), RandomBot()])
    sp.rng = random.Random(2)
    sp.run()
    named = [a for f in sp.files[1:] for a in f.content.get("actions", []) if a.startswith("move ") and "#" in a]
    assert named, "no Ally moved by name"
    m = sp.match
    assert m.finished and m.audit.ok and not m.violations, m.audit.lines
    assert sp.fresh().prev == m.prev


def test_engine_and_plain_simulator_agree():
    """The crypto engine and the reference simulator give the same game from the same choices."""
    options = {"deck0": "tempest", "deck1": "bastion"}
    sp = SelfPlay("grid", n=2, seed=11, options=options)
    sp.run()
    truth = {ref: sp.match.card_of(ref, f) for ref, f in sp.match.audit.faces.items()}
    table = Table(GAME, GAME.new_state(2, GAME.spec.resolve_options(options)), truth, [{}, {}], random.Random(0))
    table.settle()
    for f in sp.files[1:]:
        for text in f.content["actions"]:
            if text != "join":
                table.play(f.content["seat"], GAME.parse_action(text))
    assert table.state.outcome() == sp.match.state.outcome()
    assert table.state.score() == sp.match.state.score()


def _decide(sp: SelfPlay) -> int:
    sp.run(until=lambda m: any(d.decide for d in m.duties.values()))
    return next(s for s, d in sp.match.duties.items() if d.decide)


def _hand(sp: SelfPlay, seat: int) -> dict[str, CardRef]:
    """Card name -> ref for ``seat``'s hand, as that seat sees it (it must be awaited)."""
    draft = sp.matches[seat].draft(seat, sp.ids[seat])
    known = draft.known(seat)
    return {draft.state.card(r, known).name: r for r in reversed(draft.state.hands[seat])}


def test_g18_a_battle_obliges_the_defender_to_reveal_in_its_next_file():
    """G-18: the defender's key for its face-down card is owed at once; it travels automatically with
    the defender's own next turn (no extra message, no decision about it)."""
    sp = SelfPlay("grid", n=2, seed=3, options={"deck0": "vanguard", "deck1": "bastion"})
    assert _decide(sp) == 0
    down = sp.match.state.hands[0][0]
    sp.deliver(sp.compose(0, [f"play {down} c3 hidden"]))
    attacker = sp.match.state.hands[1][0]
    sp.deliver(sp.compose(1, [f"play {attacker} c3"]))
    m = sp.match
    assert m.state.deciders() == () and m.state.visibility()[down] == -1
    duty = m.duties[0]
    assert down in duty.shares and not duty.decide and 1 not in m.duties
    f = sp.compose(0)  # the bot's file: the key, then seat 0's own turn
    assert str(down) in f.content["keys"] and f.content["actions"]
    sp.deliver(f)
    assert down in sp.match.state.public_faces()


def faces(name: str, seat: int, *cards: str) -> list:
    """The faces the named cards of deck ``name`` travel under (G-3), in that order, for ``rigged``."""
    pool = list(deck(name).cards(seat))
    out = []
    for want in cards:
        pick = next(fc for fc in pool if fc[1].name == want)
        pool.remove(pick)
        out.append(pick[0])
    return out


def test_g7_the_mover_reveals_after_its_attack_opened_the_defence(monkeypatch):
    """G-7 with real files: an attack on a face-down Guard needs its owner's key, which comes in a file of
    keys alone; the attacker's turn then goes on as an answer window (G-7), and its next file reveals a
    face-down Archer whose Strike takes the space, then passes. The audit agrees at the end."""
    options = {"deck0": "vanguard", "deck1": "bastion"}
    sp = rigged(monkeypatch, "grid", {"a": faces("vanguard", 0, "Archer", "Recruit"),
                                      "b": faces("bastion", 1, "Guard")}, options=options)
    assert _decide(sp) == 0
    sp.deliver(sp.compose(0, ["play a#0 c3 hidden"]))
    sp.deliver(sp.compose(1, ["play b#0 c4 hidden"]))
    sp.deliver(sp.compose(0, ["play a#1 c4"]))
    m = sp.match
    assert set(m.duties) == {1} and not m.duties[1].decide and CardRef.parse("b#0") in m.duties[1].shares
    keys = sp.compose(1)
    assert keys.content["actions"] == [] and "b#0" in keys.content["keys"]
    sp.deliver(keys)
    st = m.state
    assert st.spaces[12 + 5].attack == [(CardRef.parse("a#1"),)] and (st.attack(17), st.defence(17)) == (3, 5)
    duty = m.duties[0]
    assert duty.decide and [w.rule for w in duty.windows] == ["G-7"]
    assert "answer out of turn;" in duty.describe() and "answer window (G-7)" in duty.protocol_words()
    with pytest.raises(FileRefused) as err:
        sp.compose(0, ["play a#2 d3 hidden"])
    assert err.value.rule == "P-window"
    with pytest.raises(FileRefused) as err:
        m.clone().apply(sp.compose(0, ["reveal a#0 upright"]), "r0008-s0.toml")  # the turn goes on until a pass
    assert err.value.rule == "P-turn"
    f = sp.compose(0, ["reveal a#0 upright", "pass"])
    assert "a#0" in f.content["keys"]
    sp.deliver(f)
    words = [m.words(e) for e in m.events if e.round == f.round]
    assert any("c4: alice takes the space from bob (5 against 5), held by the Recruit" in w for w in words), words
    assert st.spaces[17].owner == 0 and st.deciders() == (1,) and not st.windows()
    sp.run()
    assert m.finished and m.audit.ok and sp.fresh().prev == m.prev


def test_g8_g25_the_owner_orients_in_the_file_with_its_keys_and_the_turn_goes_on(monkeypatch):
    """G-8, G-25 with real files: a Scout revealed in seat 0's turn turns up seat 1's face-down Tower and Guard;
    seat 0's file stops there, seat 1's next file carries their keys and its orientation of the Tower (no turn of
    its own), and seat 0's turn goes on in the file after."""
    options = {"deck0": "tempest", "deck1": "bastion"}
    sp = rigged(monkeypatch, "grid", {"a": faces("tempest", 0, "Scout", "Skirmisher", "Skirmisher"),
                                      "b": faces("bastion", 1, "Tower", "Guard")}, options=options)
    assert _decide(sp) == 0
    for seat, text in ((0, "play a#0 c3 hidden"), (1, "play b#0 c4 hidden"), (0, "play a#1 b3 hidden"),
                       (1, "play b#1 d3 hidden")):
        sp.deliver(sp.compose(seat, [text]))
    f = sp.compose(0, ["reveal a#0"])
    assert f.content["actions"] == ["reveal a#0"]  # the turn waits: nothing else may follow yet
    sp.deliver(f)
    m = sp.match
    assert set(m.duties) == {1} and not m.duties[1].decide and m.state.turn == 4
    f = sp.compose(1)  # the bot's file: the keys, then the orientation the rules now ask of seat 1
    assert {"b#0", "b#1"} <= set(f.content["keys"]) and len(f.content["actions"]) == 1
    assert f.content["actions"][0].startswith("orient b#0 ")
    sp.deliver(f)
    assert m.state.deciders() == (0,) and m.state.turn == 4 and m.state.targets(CardRef.parse("b#0"))
    sp.deliver(sp.compose(0, ["play a#2 b4 hidden"]))
    assert m.state.deciders() == (1,) and m.state.turn == 5
    sp.run()
    assert m.finished and m.audit.ok and sp.fresh().prev == m.prev


def test_g8_a_late_orientation_keeps_the_card_upright_and_the_turn_goes_on(monkeypatch):
    """G-8: seat 1 sends the key of its Tower, turned up by force, and lets the deadline of its orientation pass;
    seat 0's timeout claim orients it upright for seat 1 (the game is not forfeit) and seat 0's turn goes on."""
    options = {"deck0": "tempest", "deck1": "bastion"}
    sp = rigged(monkeypatch, "grid", {"a": faces("tempest", 0, "Scout", "Skirmisher", "Skirmisher"),
                                      "b": faces("bastion", 1, "Tower", "Guard")}, options=options)
    assert _decide(sp) == 0
    for seat, text in ((0, "play a#0 c3 hidden"), (1, "play b#0 c4 hidden"), (0, "play a#1 b3 hidden"),
                       (1, "play b#1 d3 hidden"), (0, "reveal a#0")):
        sp.deliver(sp.compose(seat, [text]))
    sp.deliver(sp.compose(1, []))  # the keys alone, as 'duelmail receive' sends them
    m = sp.match
    assert m.duties[1].decide and m.state.deciders() == (1,) and m.state.pending(1) == [CardRef.parse("b#0")]
    due = m.deadline(1)
    late = SignedFile.sign({"duelmail": 1, "kind": "claim", "game": m.game_ref, "round": m.round, "prev": m.prev,
                            "seat": 0, "time": (due + timedelta(seconds=1)).isoformat(), "against": 1}, sp.ids[0])
    events = sp.fresh().apply(late, "claim.toml", now=due + timedelta(seconds=2))
    assert "the default answer 'orient b#0 upright' is played" in events[0].text
    sp.deliver(late)
    sp.clock = due + timedelta(seconds=2)
    st = m.state
    assert not m.over() and st.orient[CardRef.parse("b#0")] == 0 and st.deciders() == (0,) and st.turn == 4
    sp.run()
    assert m.finished and m.audit.ok


def test_g15_g17_a_reveal_wins_a_battle_and_the_same_file_moves_out_of_it(monkeypatch):
    """G-15, G-17, protocol section 8: a file reveals a face-down Archer whose Strike takes the space a Recruit
    attacks, then moves the Recruit on. The move is legal only once the Archer is open, which needs the sender's
    own key share: the composer lends it as soon as it is owed, and the file carries it."""
    options = {"deck0": "vanguard", "deck1": "bastion"}
    sp = rigged(monkeypatch, "grid", {"a": faces("vanguard", 0, "Archer", "Recruit"),
                                      "b": faces("bastion", 1, "Guard", "Guard")}, options=options)
    assert _decide(sp) == 0
    for seat, text in ((0, "play a#0 c3 hidden"), (1, "play b#0 c4"), (0, "play a#1 c4"), (1, "play b#1 b4 hidden")):
        sp.deliver(sp.compose(seat, [text]))
    m = sp.match
    assert m.state.spaces[17].attack == [(CardRef.parse("a#1"),)]  # the Recruit's 3 against the Guard's 5
    f = sp.compose(0, ["reveal a#0 upright", "move c4 d4"])
    assert "a#0" in f.content["keys"]
    sp.deliver(f)
    st = m.state
    assert 17 not in st.spaces and st.spaces[18].holder == [CardRef.parse("a#1")] and st.deciders() == (1,)
    assert CardRef.parse("b#0") in st.discards[1]


def _hidden_play(sp: SelfPlay, seat: int) -> str | None:
    draft = sp.matches[seat].draft(seat, sp.ids[seat])
    plays = [str(a) for a in draft.state.legal_actions(seat, draft.known(seat)) if str(a).endswith(" hidden")]
    return plays[0] if plays else None


def test_g26_scoring_reveals_travel_as_an_automatic_file():
    """G-26: after 'end', the other seat's keys for its face-down cards need no decision."""
    for seed in range(20):
        sp = SelfPlay("grid", n=2, seed=seed, options={"deck0": "hive", "deck1": "pack"})
        sp.run(until=lambda m: m.state.is_terminal() or (m.state.end_allowed() and any(
            d.decide for d in m.duties.values())))
        if sp.match.state.is_terminal():
            continue
        seat = next(s for s, d in sp.match.duties.items() if d.decide)
        mine = _hidden_play(sp, seat)
        if mine is None:
            continue
        sp.deliver(sp.compose(seat, [mine]))
        theirs = _hidden_play(sp, 1 - seat)
        if theirs is None or not sp.match.state.end_allowed():
            continue
        sp.deliver(sp.compose(1 - seat, [theirs]))
        sp.deliver(sp.compose(seat, ["end"]))
        duty = sp.match.duties[1 - seat]
        assert duty.shares and not duty.needs_human
        f = sp.compose(1 - seat)
        assert f.content["actions"] == [] and theirs.split()[1] in f.content["keys"]
        sp.deliver(f)
        sp.run()
        assert sp.match.finished and sp.match.audit.ok
        return
    pytest.fail("no seed reached the end with a card to play face down")


def test_g28_a_face_down_rooted_card_moved_is_caught_and_named():
    """G-25, G-28: moving a face-down Wall is accepted (nobody else can see it) and proven when it turns up."""
    for seed in range(40):
        sp = SelfPlay("grid", n=2, seed=seed, options={"deck0": "vanguard", "deck1": "bastion"})
        _decide(sp)
        sp.deliver(sp.compose(0, [f"play {sp.match.state.hands[0][0]} c3 hidden"]))
        wall = _hand(sp, 1).get("Wall")
        if wall is None:
            continue
        sp.deliver(sp.compose(1, [f"play {wall} c4 hidden"]))
        sp.deliver(sp.compose(0, [f"play {sp.match.state.hands[0][0]} b3 hidden"]))
        sp.deliver(sp.compose(1, ["move c4 c5", "pass"], honest=False))  # the lie: an honest client refuses to sign it
        assert not sp.match.violations
        sp.run()
        m = sp.match
        found = [(v.seat, v.rule) for v in m.violations] + [(c[0], c[1]) for c in m.audit.cheats]
        assert (1, "G-25") in found and m.state.outcome().cheaters == (1,) and not m.audit.ok
        assert any(str(wall) in line and "Rooted" in line for line in m.audit.lines)
        return
    pytest.fail("no seed dealt seat 1 a Wall")


def test_g29_files_name_positions_never_hidden_faces():
    sp = SelfPlay("grid", n=2, seed=2, options={"deck0": "pack", "deck1": "tempest"})
    sp.run(until=lambda m: m.round > 30)
    for f in sp.files[1:]:
        for text in f.content["actions"]:
            for token in text.split()[1:]:
                assert token in ("hidden", "upright", "right", "inverted", "left") or len(token) == 2 \
                    or CardRef.parse(token)


# -- by files, through the CLI --------------------------------------------------------------------------

runner = CliRunner()


def dm(home: Path, *args: str, code: int = 0) -> str:
    result = runner.invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result.output


def test_two_homes_play_grid_by_files(tmp_path):
    """End to end: a challenge naming both decks, a join, turn files both ways, show from each seat, verify."""
    alice, bob, out = tmp_path / "alice", tmp_path / "bob", tmp_path / "outbox"
    dm(alice, "id", "new", "alice", "--email", "alice@example.org")
    dm(bob, "id", "new", "bob", "--email", "bob@example.org")
    (tmp_path / "bob-card.toml").write_text(dm(bob, "id", "card"))
    assert "no deck 'dragons'" in dm(alice, "new", "grid", "--seat", "alice", "--seat",
                                     str(tmp_path / "bob-card.toml"), "--option", "deck1=dragons", code=1)
    dm(alice, "new", "grid", "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"), "--option",
       "deck0=tempest", "--option", "deck1=hive", "--out", str(out))
    dm(bob, "join", str(out / "genesis.toml"), "--out", str(out))
    inbox = {alice: [out / "r0001-s1.toml"], bob: []}
    other = {alice: bob, bob: alice}
    shown = False
    for i in range(400):
        for home in (alice, bob):  # deliver what waits, including automatic answers
            if inbox[home]:
                before = set(out.iterdir())
                dm(home, "receive", *map(str, inbox[home]), "--out", str(out))
                inbox[home] = []
                inbox[other[home]] += sorted(set(out.iterdir()) - before)
        if any(inbox.values()):
            continue
        st = json.loads(dm(alice, "status", "--json"))
        if st["over"] and st["audited"]:
            break
        for s in st["awaited"]:
            home = alice if s == "0" else bob
            if not shown and i > 8:
                mine, theirs = dm(alice, "show"), dm(bob, "show")
                assert "Grid Duel [tempest vs hive]" in mine and "(you)" in mine and "hand:" in mine
                assert "#" not in mine + theirs  # a card by its name, or "a face-down card" (issue 39)
                for line in mine.splitlines():  # alice's own face-down cards: bob reads them as face-down cards
                    if "alice (you): " in line and "[face down]" in line and line[:3].strip()[:1] in "abcde":
                        square = line.split()[0]
                        (told,) = [ln for ln in theirs.splitlines() if ln.split()[:1] == [square]]
                        assert "alice: a face-down card" in told, (line, told)
                moves = json.loads(dm(home, "moves", "--json"))
                assert moves and all(GAME.parse_action(m["move"]) for m in moves)
                shown = True
            before = set(out.iterdir())
            dm(home, "play", "--bot", "heuristic", "--seed", str(i), "--out", str(out))
            inbox[other[home]] += sorted(set(out.iterdir()) - before)
    a, b = (json.loads(dm(h, "status", "--json")) for h in (alice, bob))
    assert a["over"] and b["over"] and a["audited"] and a["audit_ok"] and a["result"] == b["result"]
    assert shown
    verdict = dm(tmp_path, "verify", str(next((alice / "games").iterdir())))
    assert "audit: PASSED" in verdict and "VERIFIED" in verdict


def test_demo_grid_seed_1(tmp_path):
    result = runner.invoke(main, ["demo", "grid", "--seed", "1", "--out", str(tmp_path / "demo")])
    assert result.exit_code == 0, result.output
    assert "Grid Duel" in result.output and "audit: PASSED" in result.output and "VERIFIED" in result.output

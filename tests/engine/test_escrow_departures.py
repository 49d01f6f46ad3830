"""Issue 27, item 1: a departure never lets the seats that remain read one another's cards (protocol section 6c,
"Who learns what"). Each game that removes seats and has decks (Warlords W-32, Wizard Duel Z-19 and Z-29) is played
with real signed files between separate seats' matches until a seat leaves, by a removal round or by the rules, with
two and with three survivors; then each survivor, holding everything published and its own secrets, tries to
rebuild the others' lock keys (``escrow_attack``) and must fail."""

from __future__ import annotations

import pytest
from escrow_attack import hidden_cards_opened, rebuild
from escrow_play import claim_file

from duelmail.testing.selfplay import SelfPlay


def _survivors_cannot_read_each_other(sp: SelfPlay, gone: int) -> None:
    m = sp.match
    survivors = sorted(m.in_play())
    assert gone not in survivors and len(survivors) >= 2
    for seat in survivors:
        mine = sp.matches[seat]
        assert {dealer for dealer, _ in rebuild(mine, seat)} <= {gone}, seat  # only the leaver's own keys
        assert hidden_cards_opened(mine, seat) == [], seat


def _remove_one(game: str, n: int, seed: int, escrow: dict | None) -> tuple[SelfPlay, int]:
    """Play until every deck is locked and some seat awaited for no decision is removable; claim its timeout and
    play the removal round."""
    sp = SelfPlay(game, n, seed=seed, escrow=escrow)
    m = sp.match
    s = None
    for _ in range(400):
        if all(d.locked for d in m.book.decks.values()) and m.round > 2 * n:
            s = next((x for x, d in sorted(m.duties.items()) if not d.decide and m.removable(x)), None)
            if s is not None:
                break
        sp.step()
    assert s is not None
    sp.deliver(claim_file(sp, min(x for x in m.in_play() if x != s), s))
    for _ in range(5):
        if s in m.removed:
            break
        sp.step()
    assert s in m.removed and not m.over()
    return sp, s


@pytest.mark.parametrize("game, n, seed, escrow", [
    ("wizard", 3, 1, None),  # two survivors, threshold 2 of 2
    ("warlords", 3, 1, None),
    ("wizard", 4, 2, {"threshold": 2}),  # three survivors, threshold 2 of 3
    ("warlords", 4, 2, {"threshold": 2}),
])
def test_after_a_removal_no_survivor_opens_another_seats_cards(game, n, seed, escrow):
    sp, gone = _remove_one(game, n, seed, escrow)
    _survivors_cannot_read_each_other(sp, gone)


@pytest.mark.parametrize("n, seed, escrow", [
    (3, 1, None),  # two survivors
    (4, 1, {"threshold": 2}),  # three survivors
])
def test_after_a_retirement_by_the_rules_no_survivor_opens_another_seats_cards(n, seed, escrow):
    """Z-19: a Wizard Duel seat knocked out publishes its per-game seed; its escrow key does not follow from it."""
    sp = SelfPlay("wizard", n, seed=seed, escrow=escrow)
    m = sp.match
    sp.run(until=lambda m: m.over() or any(s in m.seeds for s in m.state.retired()))
    assert not m.over()
    (gone,) = m.state.retired()
    _survivors_cannot_read_each_other(sp, gone)


def test_duel_skirmish_escrows_no_secret_so_a_departure_exposes_none():
    """K-37: skirmish has no deck; its sealed choices are not escrowed. No file carries escrow material."""
    sp = SelfPlay("skirmish", 3, seed=1)
    sp.run(until=lambda m: m.round > 6)
    assert sp.match.escrow_on and not sp.match.escrow_material and not sp.match.dealings
    assert not any(k in f.content for f in sp.files for k in ("escrow", "escrow_key", "escrow_shares"))


def test_three_homes_by_duelmail_commands_a_resignation_lets_neither_survivor_read_the_other(tmp_path):
    """The 3-seat case end to end: three homes (``--home``) play Wizard Duel by files, carol resigns, the others'
    homes publish their escrow shares of her on receipt and play on; then each survivor's own home, with its
    identity and everything it received, attacks and opens nothing the rules hide from it (Z-29)."""
    import json

    from click.testing import CliRunner

    from duelmail.cli import main
    from duelmail.home import Home
    from duelmail.transport.archive import fold, read_files

    runner = CliRunner()
    names = ["alice", "bob", "carol"]
    homes = [tmp_path / n for n in names]
    out = tmp_path / "outbox"

    def dm(home, *args):
        result = runner.invoke(main, ["--home", str(home), *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    inbox: dict = {h: [] for h in homes}

    def written(home, *args):
        before = set(out.iterdir()) if out.exists() else set()
        text = dm(home, *args, "--out", str(out))
        for f in sorted(set(out.iterdir()) - before):
            for other in homes:
                if other != home:
                    inbox[other].append(f)
        return text

    def settle():
        for _ in range(12):
            for h in homes:
                if inbox[h]:
                    files, inbox[h] = inbox[h], []
                    written(h, "receive", *map(str, files))
            if not any(inbox.values()):
                return

    for h, n in zip(homes, names, strict=True):
        dm(h, "id", "new", n, "--email", f"{n}@example.org")
        if n != "alice":
            (tmp_path / f"{n}-card.toml").write_text(dm(h, "id", "card"))
    dm(homes[0], "new", "wizard", "--seat", "alice", "--seat", str(tmp_path / "bob-card.toml"), "--seat",
       str(tmp_path / "carol-card.toml"), "--out", str(out))
    for h in homes[1:]:
        written(h, "join", str(out / "genesis.toml"))
    for i in range(60):  # a few turns: every deck locked, every escrow dealt
        settle()
        st = json.loads(dm(homes[0], "status", "--json"))
        if st["round"] > 10:
            break
        for seat in [s for s in st["awaited"] if not (out / f"r{st['round']:04d}-s{s}.toml").exists()]:
            written(homes[int(seat)], "play", "--bot", "heuristic", "--seed", str(i))
    assert "the others publish their escrow shares of carol" in written(homes[2], "resign")
    settle()
    for seat, h in enumerate(homes[:2]):
        st = json.loads(dm(h, "status", "--json"))
        assert not st["over"] and "2" not in st["awaited"]
        m = fold(read_files(next((h / "games").iterdir())))
        m.attach(seat, Home(h).load_identity(None))
        assert m.removed == {2}
        assert {dealer for dealer, _ in rebuild(m, seat)} <= {2}
        assert hidden_cards_opened(m, seat) == []


def test_a_dealing_to_eleven_holders_is_read_whatever_the_order_of_its_seats_as_text():
    """Protocol 6c with twelve seats (W-1, Z-1, K-1): a dealing's ciphertexts are keyed by seat as text, and
    "10" sorts before "2"; the dealing of a seat to seats 1..11 is read, one with a holder missing is refused."""
    from types import SimpleNamespace

    from duelmail.crypto import escrow as esc
    from duelmail.crypto import group
    from duelmail.engine.escrowing import KEY, Escrowing, deal_table
    from duelmail.errors import IllegalMove

    holders = tuple(range(1, 12))
    keys = {h: group.base_mul(esc.escrow_key(bytes([h]) * 32)) for h in holders}
    secret = esc.escrow_key(b"\0" * 32)
    table = deal_table("g" * 64, 3, 0, KEY, [secret], holders, 11, keys, b"s" * 32)
    assert sorted(table["shares"])[:3] == ["1", "10", "11"]
    dealt = Escrowing._parse_dealing(SimpleNamespace(), "escrow", KEY, table, 3, holders, 11, "")
    assert dealt.holders == holders and set(dealt.ciphertexts) == set(holders)
    short = {"commits": table["commits"], "shares": {k: v for k, v in table["shares"].items() if k != "10"}}
    with pytest.raises(IllegalMove) as e:
        Escrowing._parse_dealing(SimpleNamespace(), "escrow", KEY, short, 3, holders, 11, "")
    assert e.value.rule == "P-escrow"

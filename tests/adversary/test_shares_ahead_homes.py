"""Shares ahead of a draw between three real homes (issue 39 item 3, protocol section 6 "Shares ahead of a draw"):
a Wizard Duel opened with ``duelmail new --no-escrow`` is played by files to its end; shares ride ahead of the draws
the rules make certain, every home's archive verifies, and a share ahead where the rules do not make the draw
certain is refused on arrival, naming its signer, with nothing changed in the receiving home."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta

from freezegun import freeze_time
from homes import Homes, dm, run

from duelmail.app import open_game
from duelmail.crypto import deck as sra
from duelmail.engine.match import Match
from duelmail.home import Home
from duelmail.protocol.turnfile import SignedFile, parse_any
from duelmail.transport.archive import ordered
from duelmail.util.lock import release_all

START = "2026-11-21 12:00:00"


def _peek_ahead(h: Homes, name: str, now: datetime) -> SignedFile | None:
    """``name``'s pass, with its key share for the card after the next player's draw added, if the rules do not
    make that card's draw certain (the next player holds two cards or more, and may attack)."""
    ident = h.identity(name)
    _, match, seat = open_game(Home(h.home[name]), None, ident)
    release_all()
    f, after = match._compose(seat, ident, ["pass"], now)
    if after.state.draws_ahead() or not after.state.stock or after.over():
        return None
    ref = after.state.stock[0]
    content = copy.deepcopy(f.content)
    content["keys"] = dict(sorted({**content.get("keys", {}),
                                   str(ref): sra.encode_scalars([match.own_key(seat, ref)])}.items()))
    return SignedFile.sign(content, ident)


def test_three_homes_without_escrow_send_shares_ahead_and_refuse_one_the_rules_do_not_allow(tmp_path):
    with freeze_time(START) as clock:
        h = Homes(tmp_path, "wizard", 3, extra=("--no-escrow",))
        refused = None
        for i in range(400):
            h.settle()
            st = h.status("alice")
            if st["over"] and st["audited"]:
                break
            for seat in st["awaited"]:
                name = h.names[int(seat)]
                if refused is None and name == "bob" and i > 3 and h.status("bob")["your_turn"]:
                    cheat = _peek_ahead(h, "bob", datetime.now(UTC))
                    if cheat is not None:
                        path = tmp_path / "cheat" / f"r{cheat.round:04d}-s{cheat.seat}.toml"
                        path.parent.mkdir(exist_ok=True)
                        path.write_text(cheat.to_toml())
                        code, refused = h.deliver("alice", files=[path])
                        assert code != 0 and "Traceback" not in refused, refused
                        assert h.status("alice")["round"] == st["round"]  # nothing changed there
                h.play(name, "--bot", "heuristic", "--seed", str(i))
            clock.tick(timedelta(minutes=5))
        assert st["over"] and st["audited"] and st["audit_ok"], st
        assert refused is not None, "bob never passed with the next player free to attack"
        assert "seat 1" in refused and "bob's share may go ahead of a draw only once the rules make that draw " \
            "certain" in refused and "P-peek" in refused, refused
        for home in h.home.values():
            out = dm(tmp_path, "verify", str(next((home / "games").iterdir())))
            assert "audit: PASSED" in out and "NOT VERIFIED" not in out, out
        folder = next((h.home["alice"] / "games").iterdir())
        files = ordered([(p.name, parse_any(p.read_text(), p.name)[0]) for p in folder.glob("[gr]*.toml")])
        m, ahead = Match(files[0][1]), 0
        for name, f in files[1:]:
            m.apply(f, name)
            ahead += bool(m.ahead_pending)
        assert ahead  # shares rode ahead between the homes


def test_no_escrow_is_refused_where_there_is_none(tmp_path):
    """Two players escrow nothing: ``new --no-escrow`` says so in one line and opens no game."""
    for name in ("alice", "bob"):
        dm(tmp_path / name, "id", "new", name, "--email", f"{name}@example.org")
    (tmp_path / "bob.card").write_text(dm(tmp_path / "bob", "id", "card"))
    code, out = run(tmp_path / "alice", "new", "warlords", "--seat", "alice", "--seat", str(tmp_path / "bob.card"),
                    "--no-escrow")
    assert code != 0 and "Warlords with 2 players escrows no deck keys: there is no escrow to turn off" in out, out
    assert not (tmp_path / "alice" / "games").exists() or not any((tmp_path / "alice" / "games").iterdir())

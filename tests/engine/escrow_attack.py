"""The coalition of issue 27, item 1, as code: everything published plus one seat's own secrets, trying to rebuild
other seats' lock keys from escrow shares and to open cards the rules hide from that seat (protocol section 6c,
"Who learns what")."""

from __future__ import annotations

from duelmail.crypto import escrow as esc
from duelmail.crypto.group import base_mul
from duelmail.engine.escrowing import KEY
from duelmail.engine.match import Match
from duelmail.errors import CryptoError
from duelmail.games.cards import CardRef


def escrow_keys_known(m: Match, seat: int) -> dict[int, bytes]:
    """Every escrow decryption key the coalition can get: its own, one derived from each published seed (as the
    game seed derived it before issue 27), and any the match holds as known to everyone."""
    known = {seat: m._own_escrow_secret(seat)}
    for s, seed in m.seeds.items():
        known.setdefault(s, esc.escrow_key(seed))
    for s, e in getattr(m, "escrow_secrets", {}).items():
        known.setdefault(s, e)
    return {s: e for s, e in known.items() if m.escrow_keys.get(s) == base_mul(e)}


def rebuild(m: Match, seat: int) -> dict[tuple[int, str], list[bytes]]:
    """(dealer, what) -> the keys the coalition reconstructs: published shares, plus every share it can decrypt,
    repeated while a rebuilt escrow key opens more."""
    known = escrow_keys_known(m, seat)
    rebuilt: dict[tuple[int, str], list[bytes]] = {}
    grew = True
    while grew:
        grew = False
        for dealer, table in sorted(m.dealings.items()):
            for what, d in sorted(table.items()):
                if dealer == seat or (dealer, what) in rebuilt:
                    continue
                have = {h + 1: list(sh) for h, sh in m.published.get((dealer, what), {}).items()}
                for h in d.holders:
                    if h in known and h + 1 not in have:
                        have[h + 1] = esc.decrypt_shares(d.ciphertexts[h], known[h], esc.escrow_context(
                            m.gid, d.round, dealer, f"{what}/to-{h}"), d.count)
                if len(have) < d.threshold:
                    continue
                comms = m._commitments(dealer, what, d)
                try:
                    keys = [esc.reconstruct({x: sh[j] for x, sh in have.items()}, d.threshold, comms[j][0])
                            for j in range(d.count)]
                except CryptoError:
                    continue
                rebuilt[(dealer, what)] = keys
                if what == KEY:
                    known[dealer] = keys[0]
                grew = True
    return rebuilt


def hidden_cards_opened(m: Match, seat: int) -> list[CardRef]:
    """Every position of a locked deck the coalition opens with rebuilt keys and could not open with what the rules
    gave it (the keys published, its own key)."""
    rebuilt = rebuild(m, seat)
    out = []
    for deck in m.book.decks.values():
        if not deck.locked:
            continue
        for j in range(deck.n):
            ref = CardRef(deck.id, j)
            mine = {seat: m.own_key(seat, ref)} if seat in deck.lockers else {}
            if m.book.open_face(deck.id, j, mine) is not None:
                continue  # shown to it by the rules
            extra = {**mine, **{s: rebuilt[(s, deck.id)][j] for s in deck.lockers if (s, deck.id) in rebuilt}}
            if m.book.open_face(deck.id, j, extra) is not None:
                out.append(ref)
    return out

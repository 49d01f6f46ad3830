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


def rebuild(m: Match, seat: int, partners: dict[int, bytes] | None = None,
            mixed_tries: list[tuple[int, str, int, int]] | None = None) -> dict[tuple[int, str], list[bytes]]:
    """(dealer, what) -> the keys the coalition reconstructs: published shares, plus every share it can decrypt of
    every dealing (the first and each re-dealing), repeated while a rebuilt escrow key opens more. Shares of two
    dealings of one key are also tried together (they must not combine): each such try is noted in
    ``mixed_tries`` as (dealer, what, shares pooled, threshold). ``partners``: the escrow keys of other members
    of the coalition (a seat that left, say)."""
    known = {**escrow_keys_known(m, seat), **(partners or {})}
    rebuilt: dict[tuple[int, str], list[bytes]] = {}
    grew = True
    while grew:
        grew = False
        for (dealer, what), history in sorted(m.dealing_history.items()):
            if dealer == seat or (dealer, what) in rebuilt:
                continue
            comms = None
            mixed: dict[int, list[bytes]] = {}  # holder index -> shares, from whichever dealing gave it one
            for d in history:
                have = {h + 1: list(sh) for h, sh in m.published.get((dealer, what), {}).items()
                        if m.dealings[dealer][what] is d}
                for h in d.holders:
                    if h in known and h + 1 not in have:
                        have[h + 1] = esc.decrypt_shares(d.ciphertexts[h], known[h], m._ctx(dealer, what, d, h),
                                                         d.count)
                mixed.update(have)
                comms = m._commitments(dealer, what, d)
                keys = _try(have, d.threshold, comms, d.count)
                if keys is None and len(history) > 1:
                    keys = _try(mixed, d.threshold, comms, d.count)
                    if mixed_tries is not None and len(mixed) >= d.threshold:
                        mixed_tries.append((dealer, what, len(mixed), d.threshold))
                if keys is not None:
                    rebuilt[(dealer, what)] = keys
                    if what == KEY:
                        known[dealer] = keys[0]
                    grew = True
                    break
    return rebuilt


def _try(have: dict[int, list[bytes]], t: int, comms: list[list[bytes]], count: int) -> list[bytes] | None:
    """Every position rebuilt from ``t`` of the shares in ``have`` (checked against ``C_0``), or None."""
    if len(have) < t:
        return None
    try:
        return [esc.reconstruct({x: sh[j] for x, sh in have.items()}, t, comms[j][0]) for j in range(count)]
    except CryptoError:
        return None


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

"""Re-sharing after a departure (issue 27, docs/protocol.md section 6c, "Threshold" and "Cost").

    python bench/bench_escrow_reshare.py [seats ...]

For Wizard Duel with 4, 6 and 8 seats (default; one shared deck of 52 locked by every seat), with
``escrow = {reshare = true}``, played by bots through ``SelfPlay`` until a seat can be removed, removed by a timeout
claim; then the first seat due to re-deal composes its file. Printed: the re-dealing's bytes in that file (its
``escrow_reshare`` table as TOML), the dealer's CPU to deal it (``deal_table``), and one holder's CPU to check its
shares (``escrow.receive_shares``). CPU is ``time.process_time``, wall time beside it.
"""

from __future__ import annotations

import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import tomlkit

from duelmail.crypto import escrow as esc
from duelmail.engine.escrowing import deal_table
from duelmail.protocol.turnfile import SignedFile
from duelmail.testing.selfplay import SelfPlay

SEATS = (4, 6, 8)


def remove_one(sp: SelfPlay) -> int:
    m = sp.match
    for _ in range(400):
        if all(d.locked for d in m.book.decks.values()) and m.round > 2 * m.n:
            s = next((x for x in sorted(m.duties) if not m.duties[x].decide and m.removable(x)), None)
            if s is not None:
                break
        sp.step()
    else:
        raise SystemExit("no seat became removable")
    by = min(x for x in m.in_play() if x != s)
    sp.clock = max(sp.clock, m.claim_from(s)) + timedelta(minutes=1)
    sp.deliver(SignedFile.sign({"duelmail": 1, "kind": "claim", "game": m.game_ref, "round": m.round, "prev": m.prev,
                                "seat": by, "time": sp.clock.isoformat(), "against": s}, sp.ids[by]))
    sp.run(until=lambda x: s in x.removed, limit=5)
    return s


def measure(n: int) -> None:
    sp = SelfPlay("wizard", n, seed=1, escrow={"reshare": True})
    remove_one(sp)
    m = sp.match
    dealer = next(s for s in sorted(m.duties) if m.redeal_due(s))
    what = m.redeal_due(dealer)[0]
    f = sp.compose(dealer)
    size = len(tomlkit.dumps({"escrow_reshare": f.content["escrow_reshare"]}).encode())
    holders, t = m.escrow_holders(dealer)
    seed = sp.matches[dealer].own[dealer]
    keys = list(m._secrets_of(seed)(what, m.book.decks[what].n).keys)
    label = m._redeal_label(dealer, what)
    cpu, wall = time.process_time(), time.perf_counter()
    table = deal_table(m.gid, m.round, dealer, label, keys, holders, t, m.escrow_keys, seed)
    deal_cpu, deal_wall = time.process_time() - cpu, time.perf_counter() - wall
    h = holders[0]
    hm = sp.matches[h]
    d = hm._parse_dealing("escrow_reshare", what, table, m.round, holders, t, label)
    cpu, wall = time.process_time(), time.perf_counter()
    esc.receive_shares(d.ciphertexts[h], hm._own_escrow_secret(h), h + 1, hm._commitments(dealer, what, d),
                       hm._ctx(dealer, what, d, h), hm._names(what, d.count), "bench", threshold=d.threshold)
    check_cpu, check_wall = time.process_time() - cpu, time.perf_counter() - wall
    print(f"{n} seats, {m.book.decks[what].n} keys, {len(holders)} holders, t={t}: {size} bytes of TOML; "
          f"deal {deal_cpu * 1000:.1f} ms CPU ({deal_wall * 1000:.1f} ms wall); one holder's check "
          f"{check_cpu * 1000:.1f} ms CPU ({check_wall * 1000:.1f} ms wall)")


if __name__ == "__main__":
    for n in [int(a) for a in sys.argv[1:]] or SEATS:
        measure(n)

"""A cheating-bot harness: play a game honestly up to a point, let one seat cheat, and record
when and how the honest seats catch it (on arrival, at a reveal, at the audit, or by a timeout).

Every cheat here works at the protocol level, so it applies to every game; games add their own
(a face-down card that breaks its rules, a false instant-win claim) through ``GAME_CHEATS``.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from datetime import timedelta

from duelmail.crypto import deck as sra
from duelmail.crypto import escrow as esc
from duelmail.crypto import group
from duelmail.crypto.encoding import b64e
from duelmail.engine import toss
from duelmail.engine.escrowing import KEY, deal_table
from duelmail.engine.match import Match
from duelmail.errors import CheatDetected, DuelmailError, FileRefused
from duelmail.games.cards import CardRef
from duelmail.protocol.turnfile import SignedFile
from duelmail.testing.selfplay import SelfPlay
from duelmail.util.classes import dataclass


@dataclass
class Caught:
    cheat: str
    game: str
    when: str  # "on arrival", "at a reveal", "at the audit", "by a timeout claim", or "NOT CAUGHT"
    rule: str
    round: int | None
    seat: int | None
    detail: str

    @property
    def caught(self) -> bool:
        return self.when != "NOT CAUGHT"


class Skip(DuelmailError):
    """This cheat has no opportunity in this game (e.g. no sealed choices)."""


def _refusal(cheat: str, game: str, e: FileRefused) -> Caught:
    return Caught(cheat, game, "on arrival", e.rule or "?", e.round, e.seat, str(e))


def _resign(f: SignedFile, identity, **changes) -> SignedFile:
    content = copy.deepcopy(f.content)
    content.update(changes)
    return SignedFile.sign(content, identity)


def _deliver_or_catch(sp: SelfPlay, f: SignedFile, cheat: str, then_play: bool = False) -> Caught:
    """Deliver a cheating file to a fresh fold (an honest receiver); a refusal is a catch.

    If it is accepted, either play on to the end (``then_play``) or report it as not caught."""
    try:
        sp.fresh().apply(f, f"r{f.round:04d}-s{f.seat}.toml")
    except FileRefused as e:
        return _refusal(cheat, sp.match.game.spec.id, e)
    sp.deliver(f)
    if then_play:
        return _finish(sp, cheat)
    return Caught(cheat, sp.match.game.spec.id, "NOT CAUGHT", "", f.round, f.seat, "accepted on arrival")


def _until_file_with(sp: SelfPlay, pred: Callable[[SignedFile], bool], limit: int = 2000) -> tuple[int, SignedFile]:
    """Play honestly until the next file some awaited seat would send satisfies ``pred``; return it unsent."""
    for _ in range(limit):
        if sp.match.over():
            break
        for seat in sorted(sp.match.duties):
            f = sp.compose(seat)
            if pred(f):
                return seat, f
            sp.deliver(f)
    raise Skip("no opportunity for this cheat in this game")


def _finish(sp: SelfPlay, cheat: str) -> Caught:
    """Play on honestly to the end; report how the cheat surfaced (or that it did not)."""
    game = sp.match.game.spec.id
    try:
        sp.run(limit=20_000)
    except FileRefused as e:
        return Caught(cheat, game, "at a reveal" if e.rule in ("P-card",) else "on arrival", e.rule or "?",
                      e.round, e.seat, str(e))
    except CheatDetected as e:
        return Caught(cheat, game, "at a reveal", e.rule, e.round, e.seat, str(e))
    m = sp.match
    for v in m.violations:
        return Caught(cheat, game, "at a reveal", v.rule, None, v.seat, v.message)
    if m.audit is not None and not m.audit.ok:
        seat, rule, msg = m.audit.cheats[0]
        return Caught(cheat, game, "at the audit", rule, None, seat, msg)
    return Caught(cheat, game, "NOT CAUGHT", "", None, None, "the game ended and the audit passed")


# -- the cheats ------------------------------------------------------------------------------------
def flipped_byte(sp: SelfPlay) -> Caught:
    seat, f = _until_file_with(sp, lambda f: f.round > 3)
    sig = bytearray(f.signature)
    sig[5] ^= 0x40
    return _deliver_or_catch(sp, SignedFile(f.content, bytes(sig)), "forged signature")


def altered_file(sp: SelfPlay) -> Caught:
    seat, f = _until_file_with(sp, lambda f: f.round > 3)
    content = copy.deepcopy(f.content)
    content["time"] = (content["time"][:-6] + "+01:00")
    return _deliver_or_catch(sp, SignedFile(content, f.signature), "altered file")


def wrong_key_signature(sp: SelfPlay) -> Caught:
    seat, f = _until_file_with(sp, lambda f: f.round > 3)
    return _deliver_or_catch(sp, _resign(f, sp.ids[(seat + 1) % len(sp.ids)]), "signed with another seat's key")


def equivocation(sp: SelfPlay) -> Caught:
    seat, f = _until_file_with(sp, lambda f: f.round > 3)
    sp.deliver(f)
    twin = _resign(f, sp.ids[seat], time=f.content["time"][:-6] + "+00:30")
    try:
        sp.fresh().apply(twin, "twin.toml")
    except FileRefused as e:
        return _refusal("equivocation", sp.match.game.spec.id, e)
    return Caught("equivocation", sp.match.game.spec.id, "NOT CAUGHT", "", None, None, "second file accepted")


def out_of_turn(sp: SelfPlay) -> Caught:
    seat, f = _until_file_with(sp, lambda f: f.round > 3 and len(sp.match.duties) == 1)
    other = next(s for s in range(len(sp.ids)) if s not in sp.match.duties)
    return _deliver_or_catch(sp, _resign(f, sp.ids[other], seat=other, keys={}), "move out of turn")


def from_another_game(sp: SelfPlay) -> Caught:
    other = SelfPlay(sp.match.game.spec.id, n=len(sp.ids), seed=999, options=dict(sp.match.options))
    seat, f = _until_file_with(other, lambda f: f.round > 3)
    return _deliver_or_catch(sp, f, "file from another game")


def wrong_key_share(sp: SelfPlay) -> Caught:
    seat, f = _until_file_with(sp, lambda f: bool(f.content.get("keys")))
    keys = dict(f.content["keys"])
    keys[sorted(keys)[0]] = sra.encode_scalars([group.scalar_from_int(424242)])
    return _deliver_or_catch(sp, _resign(f, sp.ids[seat], keys=keys), "wrong key share")


def withheld_blocking_share(sp: SelfPlay) -> Caught:
    """Withhold the key shares a file was awaited for: refused on arrival."""

    def blocking(f: SignedFile) -> bool:
        duty = sp.match.duties.get(f.seat)
        return bool(duty and duty.shares and f.content.get("keys"))

    seat, f = _until_file_with(sp, blocking)
    content = {k: v for k, v in f.content.items() if k != "keys"}
    return _deliver_or_catch(sp, SignedFile.sign(content, sp.ids[seat]), "withheld key share the game waits for")


def withheld_key_share(sp: SelfPlay) -> Caught:
    """Withhold the shares that ride along with a move: the seat is awaited again for them."""
    seat, f = _until_file_with(sp, lambda f: bool(f.content.get("keys")) and bool(f.content["actions"])
                               and f.round > 3)
    content = {k: v for k, v in f.content.items() if k != "keys"}
    stripped = SignedFile.sign(content, sp.ids[seat])
    game = sp.match.game.spec.id
    try:
        sp.fresh().apply(stripped, f"r{f.round:04d}-s{seat}.toml")
    except FileRefused as e:
        return _refusal("withheld key share", game, e)
    sp.deliver(stripped)
    duty = sp.match.duties.get(seat)
    if duty is not None and duty.shares:
        return Caught("withheld key share", game, "on arrival: awaited again", "P-withheld", stripped.round, seat,
                      f"round {stripped.round}: the game waits for seat {seat}'s shares ({duty.describe()}), due in "
                      f"{sp.match.tc.forced_answer_hours} hours; past that, a timeout claim")
    return Caught("withheld key share", game, "NOT CAUGHT", "", stripped.round, seat, "accepted and not awaited")


def early_peek(sp: SelfPlay) -> Caught:
    seat, f = _until_file_with(sp, lambda f: bool(f.content.get("keys")) and f.round > 4
                               and all(d.locked for d in sp.match.book.decks.values()))
    m: Match = sp.matches[seat]
    vis = m.state.visibility()
    hidden = next((CardRef(d.id, j) for d in m.book.decks.values() if seat in d.commits
                   for j in reversed(range(d.n)) if CardRef(d.id, j) not in vis  # deep in a pile
                   and j not in d.keys.get(seat, {})), None)
    if hidden is None:
        raise Skip("no locked card to peek at")
    keys = {**f.content["keys"], str(hidden): sra.encode_scalars([m.own_key(seat, hidden)])}
    return _deliver_or_catch(sp, _resign(f, sp.ids[seat], keys=dict(sorted(keys.items()))), "early peek")


def _forge_pass(sp: SelfPlay, mutate, cheat: str) -> Caught:
    seat, f = _until_file_with(sp, lambda f: bool(f.content.get("deck")) and f.round > 1)
    content = copy.deepcopy(f.content)
    deck_id = sorted(content["deck"])[0]
    pts = sra.decode_points(content["deck"][deck_id]["points"], None, "pass")
    content["deck"][deck_id]["points"] = sra.encode_points(mutate(pts))
    return _deliver_or_catch(sp, SignedFile.sign(content, sp.ids[seat]), cheat, then_play=True)


def shuffle_drops_a_card(sp: SelfPlay) -> Caught:
    return _forge_pass(sp, lambda pts: pts[:-1], "shuffle drops a card")


def shuffle_duplicates_a_card(sp: SelfPlay) -> Caught:
    return _forge_pass(sp, lambda pts: [pts[0], pts[0], *pts[2:]], "shuffle duplicates a card")


def shuffle_substitutes_a_card(sp: SelfPlay) -> Caught:
    def substitute(pts):
        m = sp.match
        deck = next(iter(m.book.decks.values()))
        return [sra.card_point(m.gid, deck.base, 0), *pts[1:]]

    return _forge_pass(sp, substitute, "shuffle substitutes a card")


SMALL_ORDER = bytes.fromhex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")  # y = -1, order 2


def off_subgroup_point(sp: SelfPlay) -> Caught:
    return _forge_pass(sp, lambda pts: [SMALL_ORDER, *pts[1:]], "off-subgroup point in a pass")


def proof_from_another_game(sp: SelfPlay) -> Caught:
    other = SelfPlay(sp.match.game.spec.id, n=len(sp.ids), seed=999, options=dict(sp.match.options))
    _, theirs = _until_file_with(other, lambda f: bool(f.content.get("deck")) and f.round > 1)
    seat, f = _until_file_with(sp, lambda f: bool(f.content.get("deck")) and f.round > 1)
    content = copy.deepcopy(f.content)
    for deck_id, table in content["deck"].items():
        if deck_id in theirs.content["deck"]:
            table["proof"] = theirs.content["deck"][deck_id]["proof"]
    return _deliver_or_catch(sp, SignedFile.sign(content, sp.ids[seat]), "proof copied from another game",
                             then_play=True)


def withheld_audit_seed(sp: SelfPlay) -> Caught:
    sp.run(until=lambda m: m.over() and m.duties and all(d.seed for d in m.duties.values()))
    m = sp.match
    cheater = sorted(m.duties)[0]
    due = m.claim_from(cheater)  # the deadline, and the delivery allowance after it (protocol section 6b)
    claimant = next(s for s in range(len(sp.ids)) if s != cheater)
    claim = m.compose_claim(claimant, sp.ids[claimant], cheater, due + timedelta(seconds=1))  # (names its copies)
    sp.deliver(claim)
    if sp.match.outcome() and cheater not in sp.match.outcome().winners:
        return Caught("withheld audit seed", m.game.spec.id, "by a timeout claim", "P-timeout", claim.round,
                      cheater, sp.match.describe_outcome())
    return Caught("withheld audit seed", m.game.spec.id, "NOT CAUGHT", "", None, None, "")


def missing_randomness(sp: SelfPlay) -> Caught:
    """A first file without the seat's sealed per-game randomness (protocol §3): its seed would not be
    recoverable from the log, and the file would not look like anyone else's."""
    seat, f = _until_file_with(sp, lambda f: "entropy" in f.content)
    content = {k: v for k, v in f.content.items() if k != "entropy"}
    return _deliver_or_catch(sp, SignedFile.sign(content, sp.ids[seat]), "first file without its sealed randomness")


def replayed_genesis(sp: SelfPlay) -> Caught:
    """After the end (every seed published), the old genesis is sent again to a seat's restored home (identity
    only). Its new first file must seal new randomness, so none of the published secrets come back; whoever
    holds the old log sees the two round-1 files as equivocation."""
    sp.run()
    seat = next(s for s in range(len(sp.ids)) if s != sp.match.creator)
    restored = Match(sp.genesis)
    restored.attach(seat, sp.ids[seat])  # fresh randomness from the operating system, as the CLI does
    f = restored.compose(seat, sp.ids[seat], [], sp.tick())
    game = sp.match.game.spec.id
    if restored.own[seat] == sp.match.seeds[seat]:
        return Caught("", game, "NOT CAUGHT", "", f.round, seat, "the restored home reused the published seed")
    try:
        sp.fresh().apply(f, f"r{f.round:04d}-s{seat}.toml")
    except FileRefused as e:
        return _refusal("", game, e)
    return Caught("", game, "NOT CAUGHT", "", f.round, seat, "the second round-1 file was accepted")


COMMON_CHEATS: dict[str, Callable[[SelfPlay], Caught]] = {
    "forged signature (flipped byte)": flipped_byte,
    "altered file": altered_file,
    "signed with another seat's key": wrong_key_signature,
    "file from another game": from_another_game,
    "equivocation": equivocation,
    "move out of turn": out_of_turn,
    "wrong key share": wrong_key_share,
    "withheld key share (awaited for it)": withheld_blocking_share,
    "withheld key share (riding with a move)": withheld_key_share,
    "early peek at a locked card": early_peek,
    "shuffle drops a card": shuffle_drops_a_card,
    "shuffle duplicates a card": shuffle_duplicates_a_card,
    "shuffle substitutes a card": shuffle_substitutes_a_card,
    "off-subgroup point in a pass": off_subgroup_point,
    "proof copied from another game": proof_from_another_game,
    "withheld audit seed": withheld_audit_seed,
    "first file without its sealed randomness": missing_randomness,
    "old genesis replayed to a restored home": replayed_genesis,
}

def face_down_lie(sp: SelfPlay) -> Caught:
    """Warlords: play a card that is no King, Queen or Jack face down as a Warlord (W-7, W-30)."""
    for _ in range(400):
        m = sp.match
        deciding = [s for s, d in m.duties.items() if d.decide]
        if deciding and m.state.phase == 0:
            seat = deciding[0]
            mine = sp.matches[seat]
            known = mine.draft(seat, sp.ids[seat]).known(seat)
            fakes = [r for r in mine.state.hands[seat] if known.get(r) and known[r].rank < 11]
            if fakes and not mine.state.warlords[seat]:
                f = sp.compose(seat, [f"warlord {fakes[0]}", "end"], honest=False)
                return _deliver_or_catch(sp, f, "face-down card that breaks its rules", then_play=True)
        if m.over():
            break
        sp.step()
    raise Skip("no chance to lie about a face-down Warlord")


def false_instant_win(sp: SelfPlay) -> Caught:
    """Summoner: claim the instant win with cards that are no jokers (S-22, S-26)."""
    from duelmail.games.summoner.rules import BATTLE, POST, PRE

    for _ in range(400):
        m = sp.match
        deciding = [s for s, d in m.duties.items() if d.decide]
        if deciding and m.state.current == deciding[0] and m.state.phase in (PRE, BATTLE, POST):
            seat = deciding[0]
            mine = sp.matches[seat]
            known = mine.draft(seat, sp.ids[seat]).known(seat)
            fakes = [r for r in mine.state.hands[seat] if known.get(r) and not known[r].is_joker][:2]
            if len(fakes) == 2:
                f = sp.compose(seat, [f"win {fakes[0]}=xr {fakes[1]}=xr"], honest=False)
                return _deliver_or_catch(sp, f, "false instant-win claim", then_play=True)
        if m.over():
            break
        sp.step()
    raise Skip("no chance to claim a false win")


def unchecked_summon(sp: SelfPlay) -> Caught:
    """Summoner: summon a card as a higher face, leave out its key share and attack with it in the same file
    (S-9, S-14): the attack would resolve on the unchecked face. Refused on arrival (P-unchecked)."""
    from duelmail.games.summoner.rules import PRE

    for _ in range(400):
        m = sp.match
        st = m.state
        deciding = [s for s, d in m.duties.items() if d.decide]
        if deciding and st.current == deciding[0] and st.phase == PRE and st.may_attack() and st.budget == 0 \
                and len(st.field[deciding[0]]) < 5:
            seat = deciding[0]
            mine = sp.matches[seat]
            known = mine.draft(seat, sp.ids[seat]).known(seat)
            low = [r for r in st.hands[seat] if known.get(r) and not known[r].is_joker and known[r].rank < 14
                   and r not in st.unseen[seat]]
            if low:
                ref, target = low[0], (st.field[1 - seat][0].refs[0] if st.field[1 - seat] else "life")
                f = sp.compose(seat, [f"summon {ref}=as", f"attack {ref} {target}"], honest=False)
                # the honest composer saw the lie at the reveal and added the seed of a finished game: drop both
                content = {k: v for k, v in f.content.items() if k != "seed"}
                content["keys"] = {k: v for k, v in f.content.get("keys", {}).items() if k != str(ref)}
                return _deliver_or_catch(sp, SignedFile.sign(content, sp.ids[seat]),
                                         "false face summoned without its key share", then_play=True)
        if m.over():
            break
        sp.step()
    raise Skip("no chance to summon a false face and attack with it")


def forged_plan(sp: SelfPlay) -> Caught:
    """Skirmish: open a fight plan as another plan than the one committed (K-17, protocol §6a)."""
    def opens_plan(f: SignedFile) -> bool:
        return any(lb.startswith("p") for lb in f.content.get("opens", {}))

    seat, f = _until_file_with(sp, opens_plan)
    content = copy.deepcopy(f.content)
    label = next(lb for lb in content["opens"] if lb.startswith("p"))
    real = content["opens"][label]["value"]
    content["opens"][label]["value"] = real[:-1] + ("1" if real[-1] != "1" else "2")
    return _deliver_or_catch(sp, SignedFile.sign(content, sp.ids[seat]), "plan that does not match its commitment")


def unpadded_memo(sp: SelfPlay) -> Caught:
    """Skirmish: a client that seals its choices bare (as before issue 14), so the memo's size tells them."""
    import json

    from duelmail.crypto.seal import memo_key, seal
    from duelmail.engine.memo import memo_aad, open_memo

    seat, f = _until_file_with(sp, lambda f: "memo" in f.content)
    mine = sp.matches[seat]
    labels = [a.split(" ", 1)[1] for a in f.content["actions"] if a.startswith("sealed ")]
    texts = open_memo(mine.game, mine.own[seat], mine.gid, f.round, seat, f.content["memo"], labels)
    box = seal(memo_key(mine.own[seat]), json.dumps(texts, sort_keys=True).encode(),
               memo_aad(mine.gid, f.round, seat, labels), bytes(12))
    return _deliver_or_catch(sp, _resign(f, sp.ids[seat], memo=box), "memo whose size tells its choice")


def overdrawn_stat(sp: SelfPlay) -> Caught:
    """Skirmish: reveal more cards of a stat than committed to, in a public reveal (K-5, found at the audit K-35)."""
    for _ in range(400):
        m = sp.match
        w = m.state.wait
        if w and w[0] == "reveal" and m.duties.get(w[1]) and m.duties[w[1]].decide:
            seat = w[1]
            stats = [st for st in w[2] if st != "end" and st not in m.state.flagged[seat]]
            if stats:
                total = sp.matches[seat].draft(seat, sp.ids[seat]).known(seat).sealed[stats[0]].cards
                actions = [f"reveal {stats[0]}{total - m.state.rev[seat][stats[0]] + 2}"]
                mine = sp.matches[seat]
                for _ in range(50):  # the rest of the seat's turn, played honestly
                    trial = mine.draft(seat, sp.ids[seat], actions, honest=False)
                    if trial.over() or seat not in trial.state.deciders() or not trial.ready(seat):
                        break
                    actions.append(str(sp.bots[seat].choose(trial.state, seat, trial.known(seat), sp.rng)))
                f = sp.compose(seat, actions, honest=False)
                return _deliver_or_catch(sp, f, "stat revealed beyond its committed total", then_play=True)
        if m.over():
            break
        sp.step()
    raise Skip("no chance to overdraw a stat")


def false_strike(sp: SelfPlay) -> Caught:
    """Wizard Duel: attack with two cards claimed as face cards of one suit (a strike, Z-8) that are not (Z-24)."""
    from duelmail.games.wizard.rules import TURN

    for _ in range(400):
        m = sp.match
        deciding = [s for s, d in m.duties.items() if d.decide]
        if deciding and m.state.phase == TURN:
            seat = deciding[0]
            mine = sp.matches[seat]
            known = mine.draft(seat, sp.ids[seat]).known(seat)
            fakes = [r for r in mine.state.hands[seat] if known.get(r) and not 11 <= known[r].rank <= 13][:2]
            if len(fakes) == 2:
                target = next(s for s in m.state.alive if s != seat)
                f = sp.compose(seat, [f"attack {fakes[0]}=kh {fakes[1]}=qh at {target}"], honest=False)
                return _deliver_or_catch(sp, f, "false faces in an attack", then_play=True)
        if m.over():
            break
        sp.step()
    raise Skip("no chance to lie about an attack")


def life_peek(sp: SelfPlay) -> Caught:
    """Wizard Duel: publish a key for another player's Life before it is lost (Z-3)."""
    seat, f = _until_file_with(sp, lambda f: bool(f.content.get("keys")) and f.round > 4)
    m: Match = sp.matches[seat]
    victim = next((s for s in m.state.alive if s != seat and m.state.lives[s]), None)
    if victim is None:
        raise Skip("no Life left to peek at")
    life = m.state.lives[victim][-1]
    keys = {**f.content["keys"], str(life): sra.encode_scalars([m.own_key(seat, life)])}
    return _deliver_or_catch(sp, _resign(f, sp.ids[seat], keys=dict(sorted(keys.items()))), "peek at a Life")


def biased_toss(sp: SelfPlay) -> Caught:
    """The creator, having seen the other seats' coin-toss values, opens the toss to another value of its own,
    one that makes it start (protocol §6a, "Who starts")."""
    seat, f = _until_file_with(sp, lambda f: "toss_open" in f.content)
    m = sp.matches[seat]
    values = (hashlib.sha256(b"bias %d" % i).digest()[:toss.TOSS_BYTES] for i in range(1000))
    value = next(v for v in values if toss.starter({**m.toss_values, seat: v}, m.n) == seat)
    opening = {**f.content["toss_open"], "value": b64e(value)}
    return _deliver_or_catch(sp, _resign(f, sp.ids[seat], toss_open=opening), "biased coin toss")


def _dealing(sp: SelfPlay) -> tuple[int, SignedFile, str]:
    """The next file that deals escrow shares of a deck's keys (a lock pass, three or more seats), unsent."""
    seat, f = _until_file_with(sp, lambda f: any(w != KEY for w in f.content.get("escrow", {})))
    return seat, f, next(w for w in sorted(f.content["escrow"]) if w != KEY)


def _complained(sp: SelfPlay, cheat: str, dealer: int) -> Caught:
    """Play on until a holder's complaint proves the dealing wrong (or the game ends)."""
    game = sp.match.game.spec.id
    for _ in range(200):
        for v in sp.match.violations:
            if v.rule == "P-escrow":
                complaint = next(f for f in reversed(sp.files) if "escrow_complaint" in f.content)
                return Caught(cheat, game, "by a complaint", v.rule, complaint.round, v.seat, v.message)
        if sp.match.finished:
            break
        sp.step()
    return Caught(cheat, game, "NOT CAUGHT", "", None, None, "no complaint named the dealer")


def wrong_escrow_share(sp: SelfPlay) -> Caught:
    """A dealer gives one holder a share that does not open its commitments (protocol §6c): the holder's home
    finds it on arrival and its next file complains, with a proved decryption that shows everyone the bad share."""
    seat, f, what = _dealing(sp)
    m = sp.matches[seat]
    content = copy.deepcopy(f.content)
    d = content["escrow"][what]
    holder = min(int(h) for h in d["shares"])
    ctx = esc.escrow_context(m.gid, m.round, seat, f"{what}/to-{holder}")
    count = m.book.decks[what].n
    shares = esc.decrypt_shares(d["shares"][str(holder)], sp.matches[holder]._own_escrow_secret(holder), ctx, count)
    shares[0] = group.scalar_from_int(424242)
    d["shares"][str(holder)] = esc.encrypt_shares(shares, m.escrow_keys[holder], ctx)
    bad = SignedFile.sign(content, sp.ids[seat])
    caught = _deliver_or_catch(sp, bad, "wrong escrow share")
    return caught if caught.caught else _complained(sp, "wrong escrow share", seat)


def escrow_of_another_secret(sp: SelfPlay) -> Caught:
    """A dealer shares other keys than the ones its lock committed to: commitments and shares agree with each
    other, but their C_0 is not the recorded key commitment, which every holder takes from its own records."""
    seat, f, what = _dealing(sp)
    m = sp.matches[seat]
    holders, t = m.escrow_holders(seat)
    fake = [group.scalar_from_int(1000 + j) for j in range(m.book.decks[what].n)]
    content = copy.deepcopy(f.content)
    content["escrow"][what] = deal_table(m.gid, m.round, seat, what, fake, holders, t, m.escrow_keys, b"x" * 32)
    bad = SignedFile.sign(content, sp.ids[seat])
    caught = _deliver_or_catch(sp, bad, "escrow of another secret")
    return caught if caught.caught else _complained(sp, "escrow of another secret", seat)


def withheld_escrow_shares(sp: SelfPlay) -> Caught:
    """A seat stops answering and is claimed against; in the removal round one holder does not publish its shares
    of it. The others claim that holder's timeout: it forfeits (the default threshold needs every share)."""
    game = sp.match.game.spec.id
    silent = None
    for _ in range(2000):
        m = sp.match
        if m.over():
            break
        s = next((x for x, d in m.duties.items() if not d.decide and not d.join and m.round > 4
                  and all(k.locked for k in m.book.decks.values()) and m._publishers(x) and m.removable(x)), None)
        if s is not None:
            silent = s
            break
        sp.step()
    if silent is None:
        raise Skip("no point where a seat could be removed")
    m = sp.match
    claimant = next(x for x in range(len(sp.ids)) if x != silent)
    sp.clock = max(sp.clock, m.claim_from(silent)) + timedelta(minutes=1)
    sp.deliver(m.compose_claim(claimant, sp.ids[claimant], silent, sp.clock))
    if m.removing != silent:
        return Caught("", game, "NOT CAUGHT", "", None, None, "the claim did not open a removal round")
    cheater = max(m.duties)
    for x in sorted(m.duties):
        if x != cheater:
            sp.deliver(sp.compose(x))
    by = min(m.current)
    sp.clock = max(sp.clock, m.claim_from(cheater)) + timedelta(minutes=1)
    claim = m.compose_claim(by, sp.ids[by], cheater, sp.clock)
    sp.deliver(claim)
    if m.over() and cheater not in m.outcome().winners:
        return Caught("", game, "by a timeout claim", "P-timeout", claim.round, cheater, m.describe_outcome())
    return Caught("", game, "NOT CAUGHT", "", None, None, "")


ESCROW_CHEATS: dict[str, Callable[[SelfPlay], Caught]] = {
    "wrong escrow share": wrong_escrow_share,
    "escrow of another secret": escrow_of_another_secret,
    "escrow shares withheld at a removal": withheld_escrow_shares,
}
"""Escrow cheats (protocol §6c): games of three or more seats that remove seats (Wizard Duel in the table)."""

GAME_CHEATS: dict[str, dict[str, Callable[[SelfPlay], Caught]]] = {
    "warlords": {"face-down card that breaks its rules": face_down_lie},
    "summoner": {"false instant-win claim": false_instant_win,
                 "false face summoned without its key share": unchecked_summon,
                 "coin toss opened to another value": biased_toss},
    "skirmish": {"plan that does not match its commitment": forged_plan,
                 "memo whose size tells its choice": unpadded_memo,
                 "stat revealed beyond its committed total": overdrawn_stat},
    "wizard": {"false faces in an attack": false_strike, "early peek at a Life nobody has lost": life_peek,
               **ESCROW_CHEATS},
}
"""Game-specific cheats: game id -> name -> cheat. Games add theirs here."""


def run_cheat(game: str, name: str, cheat: Callable[[SelfPlay], Caught], seed: int = 0, players: int = 2) -> Caught:
    from duelmail.games.base import get_game

    sp = SelfPlay(game, n=max(players, get_game(game).spec.min_players), seed=seed)
    try:
        result = cheat(sp)
    except Skip as e:
        return Caught(name, game, "n/a", "", None, None, str(e))
    result.cheat, result.game = name, game
    return result


def cheat_table(games: list[str], seed: int = 0) -> list[Caught]:
    rows = []
    for game in games:
        for name, cheat in {**COMMON_CHEATS, **GAME_CHEATS.get(game, {})}.items():
            rows.append(run_cheat(game, name, cheat, seed))
    return rows

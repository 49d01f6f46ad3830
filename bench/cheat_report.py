"""Run every cheat of the harness against every game and write docs/adversaries.md:
python bench/cheat_report.py [GAME ...]"""

from __future__ import annotations

import sys
from pathlib import Path

import common  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]

HEAD = """# Adversaries: every cheat, and when it is caught

Written by `python bench/cheat_report.py`. Each row plays a real game through the crypto engine
(`duelmail.testing.selfplay`), lets one seat cheat at the first chance, and records how the honest
seats catch it. `tests/adversary/test_cheats.py` asserts the same table. "On arrival" means the
cheating file is refused by `duelmail receive` with the rule, round and seat; nothing is applied.

| game | cheat | caught | rule | round | seat |
|---|---|---|---|---|---|
"""

DOORS = [
    ('TOML nested 1,500 deep (arrays or inline tables)',
     '`receive`, `verify`, `join`, `--option battlefield=@FILE`',
     'RecursionError',
     'refused before parsing: nested more than 16 deep'),
    ('dotted table header of 200,000 parts (400 KB)',
     'any TOML door',
     '149 s in tomllib',
     'refused before parsing: more than 16 parts'),
    ('integer of 5,000 digits',
     'any TOML door',
     'ValueError (int max str digits)',
     'refused before parsing: more than 24 digits'),
    ('card number of 5,000 digits (`play "warlord a#999..."`)',
     "every game's notation",
     'ValueError',
     'refused: an action is at most 256 characters; indices at most 6 digits'),
    ('Wizard target `²` or `٣`',
     'Wizard notation',
     'ValueError (`isdigit`)',
     'refused: not a seat number'),
    ('30-digit skirmish coordinate',
     'skirmish notation',
     'did not read back the same',
     'refused: at most 6 digits'),
    ('non-ASCII in armour',
     '`receive`, mail',
     'ValueError',
     'refused: armour damaged'),
    ('binary (non-UTF-8) card, identity, genesis or option file',
     '`new`, `id import`, `join`, `receive`',
     'UnicodeDecodeError',
     'refused: not UTF-8 text'),
    ('identity file with `secret = "x"`, no `box`, scrypt `n = 3` or `n = 2**40`',
     'every command',
     'AttributeError, KeyError, ValueError, or hours of scrypt',
     'refused, naming the field'),
    ('damaged `config.toml`, `.me.toml`, `.pending.toml`',
     'every command',
     'TOMLDecodeError, TypeError',
     'refused, naming the file and what to do'),
    ('genesis with `seats = [1, 2]`',
     '`join`, `receive`',
     '"\'int\' object is not subscriptable"',
     'refused: a player card is a table [P-genesis]'),
    ("carriage return (any control, format or space character) in a card's email",
     '`id new`, `new --seat`, genesis',
     "written raw into every file's header",
     'refused: names the character'),
    ('small-order, mixed-order or non-canonical public key in a card',
     '`new --seat`, genesis (`join`, `receive`)',
     'accepted; R = identity, S = 0 verified on every message',
     'refused: public key outside the prime-order subgroup [P-genesis]'),
    ('signature with S ≥ L, small-order R, non-canonical R or A',
     'every signature check',
     "OpenSSL's rules",
     "refused by libsodium's strict verify [P-signature]"),
    ('a write that fails (full disk: ENOSPC, or EFBIG)',
     'every write',
     '`: No space left on device` (no file name)',
     '`cannot write FILE: ...`, the old file intact'),
]

TAIL = """
Notes

- **Forged passes** (a card dropped, duplicated or substituted, an off-subgroup point, a proof copied
  from another game): every shuffle, lock and unify pass carries a zero-knowledge proof
  (docs/proofs.md) bound to the game, round, seat, deck and pass, so a forged pass is refused on
  arrival, naming the seat. The end-of-game audit still recomputes every pass from the published
  seeds, as a second line (tests/engine/test_match.py checks it on files whose proofs were skipped).
- **Withheld audit seed**: a seat that will not publish its per-game seed at the end lets its
  forced-answer deadline pass. The other seat's signed timeout claim then makes it forfeit,
  whatever the board said.
- **Sealed choices** (a commitment opened to another value, an illegal committed choice, a
  withheld opening) are tested on the engine's test game (`tests/engine/test_sealed.py`), and on
  DUEL skirmish in the table above (a plan opened as another plan, a stat revealed beyond its total).
- **Secrets in public bytes** (issue 14): a memo sealed bare, whose size would tell its choice, is
  refused on arrival (`P-commit`: every sealed choice is padded to its kind's fixed block);
  `tests/games/skirmish/test_skirmish_public_bytes.py` checks that runs differing in one hidden choice
  write files of the same names, sizes, headers and structure. A first file without the seat's sealed
  per-game randomness is refused (`P-entropy`). An old genesis sent again to a seat's restored home
  (identity only) after the end gets new secrets, not the published ones; the home's new round-1 file
  is equivocation to whoever holds the old log (`P-equivocation`, the round and seat in the table).
  A reshuffle under a deck id the game already used (a bug in a game's rules, not a seat's cheat) is
  refused naming the id and round (`P-crypto`; `tests/engine/test_match.py`); every deck's key streams
  bind its id, size and generation.
- **Claims checked before their outcome**: a card played face up *as* a face (a Summoner summon) must
  open before the file's next action (`P-unchecked`), so a false face left closed by a withheld key
  share is refused on arrival instead of deciding a battle first. For the same reason a file that
  withholds the share of a card its own move turned face up ("riding with a move") is now refused
  on arrival in Summoner, where every card played is face up.
- **Time** (not in the harness; `tests/engine/test_clock.py`, `tests/cli/test_cli.py`): a move
  backdated to before its deadline after the claimant's next file built on the claim is refused on
  arrival (`P-final`, in the claim's round, against the late seat); a genesis with a date outside
  2000..2200 (`P-time`) or a duration over its bound (`P-genesis`) is refused by `receive` and
  `join` in round 0 against the creator, leaving no folder; an invitation dated more than the join
  window before it is joined is refused when joining (`P-time`, round 0, the creator); a claim
  against a seat that never joined (round 1) ends the game with no winner; a vacation longer than
  the allowance is refused on arrival (`P-vacation`, in the round of the file announcing it).
- **Retired lockers** (Wizard Duel): a seed published by a seat the rules have not put out is refused
  as a cheat (`P-seed`), a false seed by its key commitments (`P-keys`) (`tests/engine/test_retire.py`).
- **False claims about one's own cards come only from a cheat, never from a slip.** The face-down and
  face-claim cheats above are made through the harness's `compose(..., honest=False)`: an honest client
  refuses, before signing, every move whose claim its own view already proves false, naming the rule
  and the legal moves (docs/architecture.md, "Honest slips"). `tests/engine/test_honest_slips.py` bends
  the legal moves of whole games into every false claim of every claim rule of the five games (W-7, W-8,
  W-10, W-11, W-12, W-18, W-19, W-25; S-9, S-11, S-17, S-19 to S-22; Z-7, Z-9; G-23 to G-25; K-5, K-6)
  and checks each is refused; `tests/cli/test_playable.py` does it through `duelmail play`.
- **Notes** (talk, resignation, draws; `tests/engine/test_talk.py`): a note is signed like a turn, so a
  forged or altered one is refused (`P-signature`); two different notes with one number are
  equivocation (`P-equivocation`); talk that is too long or holds control characters (a terminal escape,
  a bidirectional override) is refused (`P-say`); a draw answer naming no offer is refused (`P-draw`).
  A resignation or draw answer after the end changes nothing. Words a person types above the armour
  of a mail are nobody's signed words: `mail fetch` shows them marked UNSIGNED, with control characters
  removed, and never as talk (`tests/transport/test_mail_talk.py`).

Fuzzing (hypothesis, run by `make test`): `tests/adversary/test_fuzz.py` feeds the turn-file parser,
the armour decoder, a genesis opened as a game, a player card, an identity file, a custom battlefield,
and every game's notation followed by `apply` on real states of a game the engine played
(`duelmail/testing/fuzz.py`), 250 inputs each: random text and real
inputs mutated by a seeded mutator, after the inputs that once crashed duelmail as explicit examples.
Only `DuelmailError` may escape, in one line, and no input may take a second.
`tests/adversary/test_untrusted.py` adds 400 notation-shaped inputs per game. `bench/bench_fuzz.py`
runs the same doors on 1,000,000 inputs ([benchmarks.md](benchmarks.md)).

Hostile inputs (issue 14; `tests/cli/test_doors.py`, `tests/util/test_toml.py`,
`tests/protocol/test_identity.py`): each is refused with exit status 1 and one line naming the file
(and, for an incoming file, the round, seat and rule), nothing written.

{doors}

Crash safety (`tests/adversary/test_crash.py`): a real `duelmail play` and `duelmail receive`
process is SIGKILLed half-way through writing a temporary file, just before it replaces the real
file, and just after, three times at each point. After each kill the archive verifies, the move can
be made (or re-sent) and the game goes on. An identity killed while being created is absent, never
half-written.
"""


def main(games: list[str]) -> None:
    from duelmail.testing.adversary import cheat_table

    rows = cheat_table(games, seed=3)
    lines = []
    for r in rows:
        seat = "" if r.seat is None else ("unknown" if r.seat < 0 else str(r.seat))
        lines.append(f"| {r.game} | {r.cheat} | {r.when} | {r.rule} | {r.round or ''} | {seat} |")
        print(f"{r.game:<9} {r.cheat:<40} {r.when:<20} {r.rule:<14} round {r.round} seat {r.seat}")
    doc = ROOT / "docs" / "adversaries.md"
    if not doc.exists():
        doc.write_text(HEAD + "\n".join(lines) + "\n" + TAIL.replace("{doors}", doors_table()))
    else:  # only the generated tables change: whatever else the page says (the carriers' table) stays
        text = doc.read_text()
        text = _replace_table(text, "| game | cheat |", "\n".join(HEAD.splitlines()[-2:] + lines))
        text = _replace_table(text, doors_table().splitlines()[0][:20], doors_table())
        doc.write_text(text)
    print("wrote docs/adversaries.md")


def _replace_table(text: str, header: str, table: str) -> str:
    """``text`` with the Markdown table whose first line starts with ``header`` replaced by ``table``."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(header)), None)
    if start is None:
        raise SystemExit(f"docs/adversaries.md has no table starting {header!r}: delete it to write it anew")
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return "\n".join(lines[:start] + table.splitlines() + lines[end:]) + "\n"



def doors_table() -> str:
    lines = ["| input | where | before | now |", "|---|---|---|---|"]
    return "\n".join(lines + [f"| {' | '.join(row)} |" for row in DOORS])


if __name__ == "__main__":
    main(sys.argv[1:] or ["warlords", "summoner", "grid", "skirmish", "wizard"])

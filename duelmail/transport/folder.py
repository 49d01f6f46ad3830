"""A game's folder in a home: its files, the caches beside them (``.proven``, ``.kept``, ``.over``, ``.cheats``)
and storing an accepted file. Folding is ``transport/archive.py``; the kept state ``transport/kept.py``."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from duelmail.errors import DuelmailError
from duelmail.transport.archive import TURN_NAME, file_name, fold, header_for, proof_name, read_files
from duelmail.util.fs import atomic_write, forget, listing

if TYPE_CHECKING:
    from collections.abc import Sequence

    from duelmail.engine.match import Match
    from duelmail.protocol.turnfile import SignedFile

_KEYS: dict[Path, bytes | None] = {}


class GameFolder:
    """One game's folder in a home (or any archive folder). ``home``: the home it belongs to, whose key lets it
    keep its folded state (``transport/kept.py``); a folder outside a home is folded from scratch every time."""

    def __init__(self, path: Path, home: Path | None = None):
        self.path = Path(path)
        self.home = Path(home) if home is not None else None
        self.deferred_proven: frozenset[str] | None = None  # see ``defer_proven``
        self.not_cached: list[str] = []  # caches that could not be written (a full disk): said by the command

    def kept_key(self) -> bytes | None:
        """The home's key for kept states (None: nothing is kept for this folder)."""
        if self.home is None:
            return None
        if self.home not in _KEYS:
            from duelmail.transport.kept import home_key

            _KEYS[self.home] = home_key(self.home)
        return _KEYS[self.home]

    @property
    def genesis_path(self) -> Path:
        return self.path / "genesis.toml"

    def files(self) -> list[tuple[str, SignedFile]]:
        return read_files(self.path, archive_only=True) if self.path.is_dir() else []

    def fold(self, now=None, reuse: Match | None = None) -> Match:
        """The game from its files; proofs this folder has checked before are not checked again. In a home, its
        kept state with only the new files applied (``transport/kept.py``). ``reuse``: a match this process
        holds for the folder, returned as it is while the folder holds exactly the files it folds. ``now``: the
        time to check the files applied now against."""
        key = self.kept_key()
        if key is None:
            return fold(self.files(), proven=self.proven(), now=now, stood=self.stood())
        from duelmail.transport import kept

        if reuse is not None and kept.folds_folder(reuse, self):
            return reuse
        return kept.current(self, key, now)

    def keep(self, match: Match, parsed: dict[str, list[SignedFile]] | None = None, in_order: bool = False) -> None:
        """Keep ``match`` as this folder's folded state if it folds exactly the files here (a cache, never state);
        see ``kept.save``."""
        key = self.kept_key()
        if key is not None and hasattr(match, "applied"):
            from duelmail.transport import kept

            kept.save(self, match, key, parsed, in_order)

    @property
    def proven_path(self) -> Path:
        return self.path / ".proven"

    def proven(self) -> frozenset[str]:
        """Hashes of the files whose pass proofs were checked when this folder last folded the game."""
        if self.deferred_proven is not None:
            return self.deferred_proven
        try:
            return frozenset(self.proven_path.read_text(encoding="utf-8").split())
        except (OSError, UnicodeDecodeError):
            return frozenset()

    def remember_proven(self, hashes) -> None:
        """Remember files checked in full, proofs included (called once a file is stored: a cache, never state)."""
        hashes = frozenset(hashes)
        if self.deferred_proven is not None:
            self.deferred_proven = hashes or self.deferred_proven
            return
        if hashes and self.path.is_dir() and hashes != self.proven():
            try:
                atomic_write(self.proven_path, "\n".join(sorted(hashes)) + "\n", durable=False)
            except OSError as e:  # a full disk after the file itself was stored: the file stands, the cache not
                reason = str(e.strerror or e).removeprefix(f"cannot write {self.proven_path}: ")
                self.not_cached.append(f"{self.proven_path.name}, the proofs this home checked ({reason}): the next "
                                       "command checks them again")

    def defer_proven(self) -> None:
        """Keep what ``remember_proven`` is told in memory until ``flush_proven`` (one process playing every file
        of a game, ``app.run_demo``: one write of ``.proven`` at the end instead of one per file)."""
        if self.deferred_proven is None:
            self.deferred_proven = self.proven()

    def flush_proven(self) -> None:
        hashes, self.deferred_proven = self.deferred_proven, None
        if hashes is not None:
            self.remember_proven(hashes)

    @property
    def cheats_path(self) -> Path:
        return self.path / ".cheats"

    def cheats(self) -> list[str]:
        """Cheats this home found that the log cannot hold (an equivocation: two files for one slot), one line each."""
        try:
            return self.cheats_path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return []

    def note_cheat(self, line: str, proof: SignedFile | None = None) -> Path | None:
        """Remember a cheat (said by ``status``); ``proof``, a second signed file for a (round, seat) this
        folder holds, is kept in the log as ``rNNNN-sS-xHASH12.toml``: the fold reads both files of the seat and
        ends the game against it (protocol §5). Returns the proof's path."""
        target = None
        if proof is not None:
            target = self.path / proof_name(proof)
            if not target.exists():
                atomic_write(target, proof.to_toml([f"duelmail: proof of an equivocation by seat {proof.seat} "
                                                    f"in round {proof.round}: {file_name(proof)} is the other file"]))
            line += f" (proof kept: {target.name})"
        if line not in self.cheats():
            atomic_write(self.cheats_path, "".join(f"{c}\n" for c in [*self.cheats(), line]))
        return target

    @property
    def calls_path(self) -> Path:
        return self.path / ".calls"

    def calls(self) -> dict[str, tuple[str, str]]:
        """This home's record of the last calls (protocol section 6b): claim hash -> (when the claim reached this
        home, when its last call closed with no answer here, or "")."""
        out: dict[str, tuple[str, str]] = {}
        try:
            lines = self.calls_path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return out
        for line in lines:
            parts = line.split()
            if len(parts) in (2, 3) and re.fullmatch(r"[0-9a-f]{64}", parts[0]):
                out[parts[0]] = (parts[1], parts[2] if len(parts) == 3 else "")
        return out

    def _write_calls(self, calls: dict[str, tuple[str, str]]) -> None:
        atomic_write(self.calls_path, "".join(f"{h} {r} {s}".rstrip() + "\n" for h, (r, s) in calls.items()))

    def note_call(self, claim_hash: str, now: datetime) -> datetime:
        """When the claim ``claim_hash`` reached this home: remembered the first time (its last call runs from it)."""
        calls = self.calls()
        if claim_hash not in calls:
            calls[claim_hash] = (now.isoformat(timespec="seconds"), "")
            self._write_calls(calls)
        return datetime.fromisoformat(calls[claim_hash][0])

    def stand_call(self, claim_hash: str, now: datetime) -> None:
        """This home's last call for the claim closed with no answer: it stands here, in every later fold."""
        calls = self.calls()
        reached = calls.get(claim_hash, (now.isoformat(timespec="seconds"), ""))[0]
        calls[claim_hash] = (reached, now.isoformat(timespec="seconds"))
        self._write_calls(calls)

    def note_answered(self, claim: SignedFile) -> None:
        """A timeout claim that did not stand here (its seat had answered): remembered (``.answered``), so that a file
        built on it, signed where it stood, is refused with the reason in words (protocol section 6b)."""
        line = f"{claim.round} {claim.seat} {claim.content.get('against')}\n"
        try:
            known = (self.path / ".answered").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            known = ""
        if line not in known:
            atomic_write(self.path / ".answered", known + line)

    def answered_claims(self) -> list[tuple[int, int, int]]:
        """(round, claimant, claimed seat) of the claims that did not stand here (``note_answered``)."""
        try:
            lines = (self.path / ".answered").read_text(encoding="utf-8").split("\n")
        except (OSError, UnicodeDecodeError):
            return []
        return [tuple(map(int, line.split())) for line in lines if re.fullmatch(r"\d+ \d+ \d+", line)]

    def stood(self) -> frozenset[str] | None:
        """The claims whose last call closed here with no answer; None outside a home (an archive: see ``fold``)."""
        if self.home is None:
            return None
        return frozenset(h for h, (_, closed) in self.calls().items() if closed)

    @property
    def behind_path(self) -> Path:
        return self.path / ".behind"

    def mark_behind(self, rnd: int, why: str) -> None:
        """Remember that this home's seat already has a file for round ``rnd`` elsewhere that this home lacks (a
        file of a later round came, built on it): this home must not answer round ``rnd`` again (protocol §5)."""
        atomic_write(self.behind_path, f"{rnd}\n{why}\n")

    def behind(self, rnd: int) -> str | None:
        """Why this home, at round ``rnd``, is behind what its seat signed; None when it is not (or no longer)."""
        try:
            mark, why = self.behind_path.read_text(encoding="utf-8").split("\n", 1)
            return why.strip() if int(mark) >= rnd else None
        except (OSError, ValueError, UnicodeDecodeError):
            return None

    @property
    def forward_path(self) -> Path:
        return self.path / ".forward"

    def forward(self, f: SignedFile) -> None:
        """Keep a file to send on to every seat (the equivocator's file this home holds: the other seats' proof);
        one already sent on (``mark_forwarded``) is not kept again."""
        name = proof_name(f)
        if name in self.forwarded():
            return
        self.forward_path.mkdir(exist_ok=True)
        target = self.forward_path / name
        if not target.exists():
            atomic_write(target, f.to_toml([f"duelmail: seat {f.seat}'s file for round {f.round}, sent on: with "
                                            "the other file it signed for that round it proves an equivocation"]))

    def kept_forwards(self) -> list[Path]:
        """Every file kept to send on (``forward``), sent or not (a git sync keeps them all in the repository)."""
        if not self.forward_path.is_dir():
            return []
        return sorted(p for p in self.forward_path.iterdir() if p.suffix == ".toml" and p.is_file())

    def forwards(self) -> list[Path]:
        """The files kept to send on that have not been sent yet."""
        sent = set(self.forwarded())
        return [p for p in self.kept_forwards() if p.name not in sent]

    def forwarded(self) -> list[str]:
        """The names of the kept files already sent on (``mark_forwarded``)."""
        try:
            return (self.path / ".forwarded").read_text(encoding="utf-8").split()
        except (OSError, UnicodeDecodeError):
            return []

    def mark_forwarded(self, names: Sequence[str]) -> None:
        """Remember that these kept files were sent on: they go once."""
        known = self.forwarded()
        new = [n for n in names if n not in known]
        if new:
            atomic_write(self.path / ".forwarded", "".join(f"{n}\n" for n in [*known, *new]))

    def take_forwards(self) -> list[tuple[str, str]]:
        """The files kept to send on (``forward``) and not sent yet, as (name, text), marked sent: the caller
        sends them."""
        out = [(p.name, p.read_text(encoding="utf-8")) for p in self.forwards()]
        self.mark_forwarded([name for name, _ in out])
        return out

    @property
    def again_path(self) -> Path:
        return self.path / ".again"

    def send_again(self, f: SignedFile, why: str) -> None:
        """Keep a file of the game to send (again) to every other seat, saying ``why`` (the last call, protocol
        section 6b: a timeout claim sent on to the seat it names, or the claimed seat's own file once more). A game
        played by git needs none of it: every seat's sync holds every file. Sent once (``take_again``)."""
        from duelmail.transport.archive import file_name as name_of

        name = name_of(f)
        if name in self.forwarded():
            return
        self.again_path.mkdir(exist_ok=True)
        target = self.again_path / name
        if not target.exists():
            atomic_write(target, f.to_toml([f"duelmail: {why}"]))

    def again(self) -> list[Path]:
        """The files kept to send again (``send_again``) and not sent yet."""
        if not self.again_path.is_dir():
            return []
        sent = set(self.forwarded())
        return sorted(p for p in self.again_path.iterdir() if p.suffix == ".toml" and p.name not in sent)

    def take_again(self) -> list[tuple[str, str]]:
        """The files kept to send again and not sent yet, as (name, text), marked sent: the caller sends them."""
        out = [(p.name, p.read_text(encoding="utf-8")) for p in self.again()]
        self.mark_forwarded([name for name, _ in out])
        return out

    def note_late(self, f: SignedFile, now: datetime, copy: dict[str, str] | None = None) -> None:
        """Remember that ``f`` reached this home at ``now``, later than its delivery allowance after the time it
        carries (protocol section 6b): ``duelmail claim`` then claims its sender's timeout for that round. ``copy``
        (``{time, signature}``): the late one was another copy of ``f``, which came inside a timeout claim."""
        line = f"{f.round} {f.seat} {f.file_hash} {now.isoformat(timespec='seconds')}"
        if copy is not None:
            line += f" {copy['time']} {copy['signature']}"
        known = self.late()
        if not any(r == f.round and s == f.seat for r, s, _, _ in known):
            atomic_write(self.path / ".late", "".join(f"{x}\n" for x in [*self._late_lines(), line]))

    def _late_lines(self) -> list[str]:
        try:
            return (self.path / ".late").read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return []

    def late(self) -> list[tuple[int, int, str, str]]:
        """Files that reached this home late (``note_late``): (round, seat, file hash, when it came)."""
        out = []
        for line in self._late_lines():
            parts = line.split()
            if len(parts) in (4, 6) and parts[0].isdigit() and parts[1].isdigit():
                out.append((int(parts[0]), int(parts[1]), parts[2], parts[3]))
        return out

    def late_copy(self, rnd: int, seat: int) -> dict[str, str] | None:
        """The copy (``{time, signature}``) of seat ``seat``'s answer for round ``rnd`` that came late inside a timeout
        claim (``note_late``), if that is how it came late."""
        for line in self._late_lines():
            parts = line.split()
            if len(parts) == 6 and parts[0] == str(rnd) and parts[1] == str(seat):
                return {"time": parts[4], "signature": parts[5]}
        return None

    def unclaimed_late(self) -> list[tuple[int, int]]:
        """(round, seat) of the late files (``late``) that no claim of this folder has answered yet."""
        claimed = {(f.round, f.content.get("against")) for _, f in self.files() if f.kind == "claim"} \
            if self.late() else set()
        return [(r, s) for r, s, _, _ in self.late() if (r, s) not in claimed]

    def listing_key(self) -> str:
        """Changes whenever a file of the game is added or changed (the status cache's key)."""
        return ";".join(sorted(f"{name}:{st[0]}:{st[1]}" for name, st in listing(self.path).items()
                               if name in ("genesis.toml", ".calls") or TURN_NAME.fullmatch(name)))

    def is_over(self) -> bool:
        """Whether the game has ended, remembered in ``.over`` by the file listing (a cache, never state)."""
        key = self.listing_key()
        cache = self.path / ".over"
        try:
            known, _, value = cache.read_text(encoding="utf-8").partition("\n")
            if known == key:
                return value.strip() == "1"
        except (OSError, UnicodeDecodeError):
            pass
        over = self.fold().over()
        try:
            atomic_write(cache, f"{key}\n{int(over)}\n", durable=False)
        except OSError:
            pass  # a read-only archive still answers
        return over

    def store(self, f: SignedFile, match: Match | None = None, events=(), own: bool = False) -> Path:
        """Write an accepted file atomically; the same file twice is a no-op. ``own``: this home's new file,
        refused if another file already sits under its name (written meanwhile by another process)."""
        target = self.path / file_name(f)
        text = f.to_toml(header_for(match, f, events))
        if target.exists():
            try:
                there = {g.file_hash for _, g in read_files(target)}
            except DuelmailError:
                there = set()
            if f.file_hash in there:
                return target
            if there and there <= set(getattr(match, "void", {})):
                # a file the fold set aside (a resignation crossed it): kept, unread, under another name
                target.rename(self.path / f".void-{min(there)[:12]}-{target.name}")
                forget(self.path)
                self._unsettle()
                return atomic_write(target, text)
            if own:
                raise DuelmailError(f"{target} already holds another file for round {f.round}, seat {f.seat} "
                                    "(written meanwhile by another duelmail process?); yours was not written")
            return target
        self._unsettle()
        return atomic_write(target, text)

    def _unsettle(self) -> None:
        """A file is about to arrive: a settled game is in play again (``transport/settled.py``)."""
        if self.home is not None and self.path.parent == self.home / "games":
            from duelmail.transport.settled import unsettle

            unsettle(self.path)

"""Issue 14.1: what a secret may change in the public log. Two runs of one game that differ only in a hidden
choice must write files of the same names, byte sizes, comment headers and TOML structure (same keys, same
array lengths, same string lengths); only ciphertexts, commitments, signatures and the chain of round hashes
that covers them may differ."""

from __future__ import annotations

from duelmail.engine.match import Match
from duelmail.games.base import Bot, get_game
from duelmail.protocol.turnfile import SignedFile
from duelmail.transport.archive import file_name, header_for

# the fields a secret may change: sealed memo, commitments, the per-game entropy box, signatures, and the
# round hashes that chain the files and the 'seen' file hashes of 3-seat games (they hash the signed files);
# in deck games also the encrypted deck
# (points, key commitments, layer commitments, proofs) and the key shares
SECRET_FIELDS = ("memo", "commits", "entropy", "signature", "prev", "seen", "toss",  # toss: an acceptance's value
                 "escrow_key", "escrow")  # a seat's escrow key and dealings, drawn from its secrets (protocol 6c)
DECK_FIELDS = ("points", "commits", "layer", "proof")


def secret_path(path: str) -> bool:
    parts = path.split(".")
    return parts[0] in SECRET_FIELDS or parts[0] == "keys" or (parts[0] == "deck" and parts[-1] in DECK_FIELDS)


def stored(files: list[SignedFile]) -> list[tuple[str, str, SignedFile]]:
    """Each file as a home stores it (name, text with its comment header), folded by a spectator."""
    m = Match(files[0])
    out = [(file_name(files[0]), files[0].to_toml(header_for(m, files[0])), files[0])]
    for f in files[1:]:
        events = m.apply(f, file_name(f))
        out.append((file_name(f), f.to_toml(header_for(m, f, events)), f))
    return out


def shape(v):
    """The structure of a TOML value: tables by key, arrays by length, strings by length."""
    if isinstance(v, dict):
        return {k: shape(x) for k, x in sorted(v.items())}
    if isinstance(v, list):
        return [shape(x) for x in v]
    if isinstance(v, (str, bytes)):
        return (type(v).__name__, len(v))
    return (type(v).__name__, v)


def differing(a, b, path: str = "") -> set[str]:
    """Paths (dotted) whose leaf values differ; the shapes are already known to be equal."""
    if isinstance(a, dict):
        return {p for k in a for p in differing(a[k], b[k], f"{path}.{k}" if path else k)}
    if isinstance(a, list):
        return {p for x, y in zip(a, b, strict=True) for p in differing(x, y, path)}
    return set() if a == b else {path}


def assert_same_public_bytes(a: list[SignedFile], b: list[SignedFile]) -> int:
    """The public-byte check of the module doc; returns how many files differ in a secret field."""
    assert len(a) == len(b)
    changed = 0
    for (name_a, text_a, fa), (name_b, text_b, fb) in zip(stored(a), stored(b), strict=True):
        assert name_a == name_b
        head_a = [line for line in text_a.splitlines() if line.startswith("#")]
        assert head_a == [line for line in text_b.splitlines() if line.startswith("#")], name_a
        assert len(text_a.encode()) == len(text_b.encode()), f"{name_a}: {len(text_a)} != {len(text_b)} bytes"
        full_a = {**fa.content, "signature": fa.signature}
        full_b = {**fb.content, "signature": fb.signature}
        assert shape(full_a) == shape(full_b), name_a
        diff = differing(full_a, full_b)
        assert all(secret_path(p) for p in diff), (name_a, sorted(p for p in diff if not secret_path(p)))
        changed += any(p.split(".")[0] in ("memo", "commits", "entropy", "deck", "keys") for p in diff)
    return changed


class Alter(Bot):
    """Plays like ``inner``, except that its first sealed choice whose label ``which`` accepts becomes
    ``alter(action)`` (the inner bot draws the rng alike, so both runs stay in step)."""

    def __init__(self, inner: Bot, game: str, which, alter, once: bool = True):
        self.inner, self.game, self.which, self.alter, self.once = inner, get_game(game), which, alter, once
        self.done: list[tuple[str, str]] = []  # (the inner bot's text, the text played) of the altered choice

    def choose(self, state, seat, known, rng):
        action = self.inner.choose(state, seat, known, rng)
        label = action.sealed()
        if label and self.which(label) and not (self.once and self.done):
            new = self.game.parse_action(self.alter(action))
            self.done.append((str(action), str(new)))
            return new
        return action

"""Signed files: the genesis and every turn.

On disk a file is TOML with a comment header a person can read in an email. What is signed
is the canonical encoding of the parsed content (see ``canonical``), so re-wrapping, CRLF or
re-indentation cannot break a signature. ``armour`` wraps a file in BEGIN/END lines with
base64 that survives being pasted into a mail body, quoted with "> " and re-wrapped.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import zlib
from functools import cached_property
from typing import Any

from duelmail.crypto.encoding import b64d, b64e
from duelmail.errors import DuelmailError
from duelmail.protocol.canonical import CanonicalError, canonical, canonical_plain, digest, plain
from duelmail.protocol.identity import Identity, PlayerCard
from duelmail.util import toml
from duelmail.util.classes import dataclass

FORMAT = 1
SIGN_DOMAIN = b"duelmail/signed-file/v1\n"
MAX_FILE = toml.MAX_BYTES  # no honest file comes near it
MAX_TEXT = 2 * MAX_FILE  # a mail body or file holding several armoured files
BEGIN = "-----BEGIN DUELMAIL TURN-----"
END = "-----END DUELMAIL TURN-----"


class FormatError(DuelmailError, ValueError):
    """Text that is not a well-formed duelmail file."""


@dataclass(frozen=True)
class SignedFile:
    """A genesis or turn: plain content (without the signature) and the signature over it. Its content is never
    changed once made (``canonical``), so its kind, round, seat and hash are read once and kept in the instance
    (``cached_property``; a fold reads them some 40 times a file); not pickled (``__getstate__``): a copy reads them
    afresh."""

    content: dict[str, Any]
    signature: bytes

    # -- fields ---------------------------------------------------------------
    @cached_property
    def kind(self) -> str:
        return self.content["kind"]

    @property
    def game(self) -> str:
        return self.game_id if self.kind == "genesis" else self.content["game"]

    @cached_property
    def round(self) -> int:
        return 0 if self.kind == "genesis" else self.content["round"]

    @cached_property
    def seat(self) -> int:
        return self.content["creator"] if self.kind == "genesis" else self.content["seat"]

    @property
    def game_id(self) -> str:
        """For a genesis: the game id, the hash of its content."""
        return digest(self.content)

    def canonical(self) -> bytes:
        """``canonical(self.content)``, computed once: a fold needs it for the signature, the file's hash and the
        round's hash. The content of a ``SignedFile`` is never changed once made (every forger in the tests and
        the adversary signs a deep copy), so the bytes stay true; they are not pickled (``__getstate__``)."""
        got = self.__dict__.get("_canonical")
        if got is None:  # content ``plain`` returned (parsed or signed here) is checked already
            got = canonical_plain(self.content) if self.__dict__.get("_plain") else canonical(self.content)
            object.__setattr__(self, "_canonical", got)
        return got

    def __getstate__(self) -> dict[str, Any]:
        return {"content": self.content, "signature": self.signature}

    @cached_property
    def file_hash(self) -> str:
        """Hash of content and signature: what a round hash chains over."""
        return hashlib.sha256(self.canonical() + self.signature).hexdigest()

    # -- signing --------------------------------------------------------------
    @staticmethod
    def message(content: dict[str, Any]) -> bytes:
        return SIGN_DOMAIN + canonical(content)

    @classmethod
    def sign(cls, content: dict[str, Any], identity: Identity) -> SignedFile:
        content = plain(content)
        out = cls(content, identity.sign(SIGN_DOMAIN + canonical_plain(content)))
        object.__setattr__(out, "_plain", True)  # what ``plain`` returned: checked (``canonical``)
        return out

    def verify(self, card: PlayerCard) -> bool:
        return card.verify(self.signature, SIGN_DOMAIN + self.canonical())

    # -- text -----------------------------------------------------------------
    def to_toml(self, header: list[str] | None = None) -> str:
        tables = {k: v for k, v in self.content.items() if isinstance(v, dict)}
        items = [(key, self.content[key]) for key in _ordered(k for k in self.content if k not in tables)]
        items += [("signature", b64e(self.signature)), *((key, _sorted(tables[key])) for key in sorted(tables))]
        text = toml.plain_dumps(items, header or [], self.__dict__.get("_source"))  # as below, without tomlkit
        return text if text is not None else self.tomlkit_toml(header)

    def tomlkit_toml(self, header: list[str] | None = None) -> str:
        """``to_toml`` by tomlkit, for what ``util.toml.plain_dumps`` does not write (non-ASCII talk, ...)."""
        import tomlkit

        doc = tomlkit.document()
        for line in header or []:
            doc.add(tomlkit.comment(line))
        tables = {k: v for k, v in self.content.items() if isinstance(v, dict)}
        for key in _ordered(k for k in self.content if k not in tables):
            doc[key] = self.content[key]
        doc["signature"] = b64e(self.signature)
        for key in sorted(tables):
            doc[key] = _table(tables[key])
        return tomlkit.dumps(doc)

    def armour(self) -> str:
        raw = zlib.compress(self.to_toml().encode(), 9)
        body = base64.b64encode(raw).decode()
        lines = [body[i:i + 64] for i in range(0, len(body), 64)]
        head = f"Game: {self.game[:12]}  Round: {self.round}  Seat: {self.seat}"
        return "\n".join([BEGIN, head, "", *lines, END]) + "\n"


_FIRST = ["duelmail", "kind", "game", "game_kind", "rules_version", "round", "prev", "seat", "time",
          "created", "creator", "n", "actions", "say"]


def _ordered(keys):
    keys = list(keys)
    return [k for k in _FIRST if k in keys] + sorted(k for k in keys if k not in _FIRST)


def _sorted(d: dict) -> dict:
    return {k: _sorted(d[k]) if isinstance(d[k], dict) else d[k] for k in sorted(d)}


def _table(d: dict) -> Any:
    import tomlkit

    t = tomlkit.table()
    for k in sorted(d):
        v = d[k]
        t[k] = _table(v) if isinstance(v, dict) else v
    return t


def parse_toml(text: str, where: str) -> SignedFile:
    """Parse one TOML file (any line ends, any indentation) into a ``SignedFile``."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")  # (a byte-order mark: Notepad's)
    data = toml.loads(text, where, FormatError)
    if data.get("duelmail") != FORMAT:
        raise FormatError(f"{where}: not a duelmail file (expected 'duelmail = {FORMAT}')")
    sig = data.pop("signature", None)
    if not isinstance(sig, str):
        raise FormatError(f"{where}: no signature")
    try:
        content = plain(data)
    except CanonicalError as e:
        raise FormatError(f"{where}: {e}") from None
    if content.get("kind") not in ("genesis", "turn", "claim", "note"):
        raise FormatError(f"{where}: unknown kind {content.get('kind')!r}")
    _require(content, where)
    f = SignedFile(content, b64d(sig, f"{where} signature"))
    object.__setattr__(f, "_plain", True)  # what ``plain`` returned: checked (``canonical``)
    object.__setattr__(f, "_fields", True)  # its kind and fields checked (``check_fields``)
    object.__setattr__(f, "_source", (text, {**data, "signature": sig}))  # for ``to_toml``: what this text reads as
    return f


def check_fields(c: dict, where: str) -> None:
    """Every field a file of its kind needs, of its type (``FormatError`` quoting ``where`` otherwise): what the
    parser checks, for a file a caller built itself."""
    if c.get("kind") not in ("genesis", "turn", "claim", "note"):
        raise FormatError(f"{where}: unknown kind {c.get('kind')!r}")
    _require(c, where)


def _require(c: dict, where: str) -> None:
    def need(key, typ):
        if not isinstance(c.get(key), typ) or isinstance(c.get(key), bool) and typ is int:
            raise FormatError(f"{where}: field {key!r} missing or not a {typ.__name__}")

    if c["kind"] == "genesis":
        for key, typ in [("game_kind", str), ("rules_version", int), ("created", str), ("creator", int),
                         ("seats", list), ("options", dict), ("nonce", str)]:
            need(key, typ)
    else:
        fields = [("game", str), ("round", int), ("prev", str), ("seat", int), ("time", str)]
        fields.append({"turn": ("actions", list), "claim": ("against", int), "note": ("n", int)}[c["kind"]])
        for key, typ in fields:
            need(key, typ)
        if c["round"] < 1 or c["seat"] < 0:
            raise FormatError(f"{where}: round must be >= 1 and seat >= 0")
        if c["kind"] == "note" and c["n"] < 1:
            raise FormatError(f"{where}: a note's number 'n' must be >= 1")


_QUOTE = re.compile(r"^[\s>|]*")


def unarmour(text: str, where: str) -> list[str]:
    """Every armoured file in ``text`` (a mail body, perhaps quoted and re-wrapped), as TOML text; the first
    damaged armour refuses the whole text (``armour_pieces`` keeps the good ones)."""
    out: list[str] = []
    for piece in armour_pieces(text, where):
        if isinstance(piece, FormatError):
            raise piece
        out.append(piece)
    return out


def armour_pieces(text: str, where: str) -> list[str | FormatError]:
    """Every armour of ``text`` in order, each on its own: its TOML text, or the ``FormatError`` saying how it
    is damaged (a cut middle, a lost END line: a quote a person trimmed). A BEGIN line inside an armour ends it
    there (that armour lost its END line) and starts the next."""
    if len(text) > MAX_TEXT:
        raise FormatError(f"{where}: {len(text)} characters is far more than any mail of turns (limit {MAX_TEXT})")
    out: list[str | FormatError] = []
    raw = text.splitlines()
    lines = [_QUOTE.sub("", line).rstrip() for line in raw]
    size = 0
    i = 0
    while i < len(lines):
        if lines[i].strip() == BEGIN:
            j = i + 1
            while j < len(lines) and lines[j].strip() not in (END, BEGIN):
                j += 1
            if j == len(lines) or lines[j].strip() == BEGIN:
                out.append(_damaged(FormatError(f"{where}: armour starting at line {i + 1} has no END line"), i, raw))
                i = j
                continue
            try:
                body = _unpack(lines[i + 1:j], where, i)
            except FormatError as e:
                out.append(_damaged(e, i, raw))
            else:
                size += len(body)
                if size > MAX_TEXT:
                    raise FormatError(f"{where}: the armoured files up to line {i + 1} unpack to more than "
                                      f"{MAX_TEXT} characters")
                out.append(body)
            i = j
        i += 1
    return out


def _damaged(e: FormatError, i: int, raw: list[str]) -> FormatError:
    """A damaged armour's error, with where its BEGIN line is (``line``: 1-based) and whether that line is quoted
    (``quoted``: it starts with ``>`` or ``|``, as a reply quotes the mail it answers)."""
    e.line = i + 1
    e.quoted = raw[i].lstrip().startswith((">", "|"))
    return e


def _unpack(armour: list[str], where: str, i: int) -> str:
    """The TOML text of one armour's lines (between BEGIN and END; BEGIN at line ``i + 1``)."""
    block = [line.strip() for line in armour]
    # the header ("Game: ...", for people only) ends at the first blank line, however a mail client
    # re-wrapped it; without a blank line, header lines are the ones with a colon
    if "" in block:
        block = block[block.index(""):]
    chunks = [line.replace(" ", "") for line in block if line and (":" not in line)]
    if not "".join(chunks).isascii():
        raise FormatError(f"{where}: armour at line {i + 1} is damaged (a character that is not base64)")
    try:
        raw = base64.b64decode("".join(chunks), validate=True)
        d = zlib.decompressobj()
        body = d.decompress(raw, MAX_FILE)
        if d.unconsumed_tail:
            raise FormatError(f"{where}: armoured file at line {i + 1} is too large")
        return body.decode()
    except (binascii.Error, zlib.error, UnicodeDecodeError) as e:
        raise FormatError(f"{where}: armour at line {i + 1} is damaged ({e})") from None


def parse_any(text: str, where: str) -> list[SignedFile]:
    """Parse a TOML file, or every armoured file in a text; refuse text with neither."""
    if BEGIN in text:
        found = unarmour(text, where)
        return [parse_toml(t, f"{where} (armour {n + 1})" if len(found) > 1 else where)
                for n, t in enumerate(found)]
    return [parse_toml(text, where)]


def parse_pieces(text: str, where: str) -> list[SignedFile | DuelmailError]:
    """``parse_any``, each armour on its own: a damaged or unreadable armour is its error in the list, and the
    good armours around it still read."""
    if BEGIN not in text:
        return [parse_toml(text, where)]
    found = armour_pieces(text, where)
    out: list[SignedFile | DuelmailError] = []
    for n, t in enumerate(found):
        if isinstance(t, FormatError):
            out.append(t)
            continue
        try:
            out.append(parse_toml(t, f"{where} (armour {n + 1})" if len(found) > 1 else where))
        except DuelmailError as e:
            out.append(e)
    return out

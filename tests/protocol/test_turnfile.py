"""Turn files survive what mail clients do to them; anything that changes meaning breaks the signature."""

import copy
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from duelmail.errors import DuelmailError
from duelmail.protocol.canonical import CanonicalError, canonical
from duelmail.protocol.identity import Identity
from duelmail.protocol.turnfile import BEGIN, END, FormatError, SignedFile, parse_any, parse_toml, unarmour

ALICE = Identity.generate("alice", "alice@example.org", seed=b"\x01" * 32)
CONTENT = {"duelmail": 1, "kind": "turn", "game": "ab" * 32, "round": 3, "prev": "cd" * 32, "seat": 0,
           "time": "2026-11-21T12:00:00+00:00", "actions": ["attack a#3 a#17", "end"],
           "keys": {"b#4": "x" * 43}, "deck": {"a": {"op": "lock", "points": "p" * 300}}}


def signed() -> SignedFile:
    return SignedFile.sign(CONTENT, ALICE)


def test_toml_round_trip_and_header_is_comment_only():
    f = signed()
    text = f.to_toml(["a header line a person reads", "who moved: alice"])
    assert text.startswith("# a header line")
    back = parse_toml(text, "t.toml")
    assert back == f and back.verify(ALICE.card)


def test_crlf_and_reindented_file_still_verifies():
    text = signed().to_toml(["hello"])
    crlf = text.replace("\n", "\r\n")
    indented = "\n".join("    " + line if line.strip() else line for line in text.splitlines())
    for variant in (crlf, indented):
        assert parse_toml(variant, "v").verify(ALICE.card)


def test_changed_meaning_breaks_the_signature():
    text = signed().to_toml()
    changed = parse_toml(text.replace("attack a#3 a#17", "attack a#3 a#18"), "t")
    assert not changed.verify(ALICE.card)


def test_armour_survives_quoting_and_rewrapping():
    armour = signed().armour()
    quoted = "\n".join("> " + line for line in armour.splitlines())
    rewrapped_lines = []
    for line in quoted.splitlines():  # a mail client that breaks long lines at 30 characters
        while len(line) > 32 and BEGIN not in line and END not in line:
            rewrapped_lines.append(line[:32])
            line = "> " + line[32:]
        rewrapped_lines.append(line)
    body = "Hi Bob, my move is below.\n\n" + "\n".join(rewrapped_lines) + "\n\n-- \nAlice\n"
    (back,) = parse_any(body, "mail body")
    assert back == signed() and back.verify(ALICE.card)
    twice = parse_any(body + "\n> " + body, "thread")
    assert len(twice) == 2


def test_armour_header_rewrapped_into_bare_values_is_still_read():
    """A client that wraps at 10 columns leaves header fragments with no colon ("0123456789ab")."""
    armour = signed().armour()
    lines = armour.splitlines()
    header = lines[1]
    wrapped = [BEGIN, *(w for part in header.split("  ") for w in part.split(": ")), "", *lines[3:]]
    assert any(":" not in w and w for w in wrapped[1:4])
    (back,) = parse_any("\n".join(wrapped), "mail body")
    assert back == signed() and back.verify(ALICE.card)


def test_armour_without_the_blank_line_still_reads():
    lines = signed().armour().splitlines()
    (back,) = parse_any("\n".join(line for line in lines if line), "mail body")
    assert back == signed()


def test_damaged_armour_is_refused_with_where():
    armour = signed().armour()
    lines = armour.splitlines()
    lines[4] = lines[4][:-4] + "!!!!"
    with pytest.raises(FormatError, match="mail.txt.*damaged"):
        unarmour("\n".join(lines), "mail.txt")
    with pytest.raises(FormatError, match="no END"):
        unarmour(BEGIN + "\nAAAA\n", "mail.txt")


def test_not_duelmail_files_are_refused():
    with pytest.raises(FormatError, match="x.toml: not valid TOML"):
        parse_toml("this is = = not toml", "x.toml")
    with pytest.raises(FormatError, match="not a duelmail file"):
        parse_toml('name = "x"', "x.toml")
    with pytest.raises(FormatError, match="no signature"):
        parse_toml("duelmail = 1\nkind = 'turn'", "x.toml")
    with pytest.raises(FormatError, match="'round' missing"):
        parse_toml(signed().to_toml().replace("round = 3", "round = 'three'"), "x.toml")


def test_canonical_refuses_floats_and_dates():
    with pytest.raises(CanonicalError, match="float"):
        canonical({"a": 1.5})
    with pytest.raises(CanonicalError, match="not a string"):
        canonical({1: 2})


def test_a_file_parsed_or_signed_here_gives_the_checked_canonical_bytes_and_one_built_by_hand_is_still_checked():
    """A file ``plain`` made (parsed, signed) skips the check when encoded (issue 42): the same bytes as checked."""
    f = signed()
    back = parse_toml(f.to_toml(), "t.toml")
    assert f.canonical() == back.canonical() == canonical(CONTENT)
    by_hand = SignedFile({**CONTENT, "round": 3.0}, f.signature)  # a value the canonical form does not allow
    with pytest.raises(CanonicalError, match="float"):
        by_hand.canonical()


def test_only_a_parsed_file_is_marked_as_its_fields_checked():
    """The fold checks a file's kind and fields (``check_fields``) unless the parser did, on this very content: a file
    signed here, built by hand or copied is checked again (``tests/engine/test_talk.py``: a claim signed without
    'against' is refused by the fold)."""
    f = signed()
    back = parse_toml(f.to_toml(), "t.toml")
    assert back.__dict__.get("_fields") and not f.__dict__.get("_fields")
    assert not copy.copy(back).__dict__.get("_fields") and not copy.deepcopy(back).__dict__.get("_fields")
    assert not SignedFile(dict(back.content), back.signature).__dict__.get("_fields")


def test_a_file_keeps_its_kind_round_and_seat_and_a_copy_reads_its_own():
    """A file's kind, round and seat are read from its content once and kept in the file (its content never changes
    once made); they are not pickled, and a copy or a file made from other content reads them afresh."""
    import pickle

    f = signed()
    assert (f.kind, f.round, f.seat) == ("turn", 3, 0)
    assert f.file_hash and {"kind", "round", "seat", "file_hash"} <= set(f.__dict__)
    assert not {"kind", "round", "seat", "file_hash"} & set(f.__getstate__()) and pickle.loads(pickle.dumps(f)) == f
    for other in (copy.copy(f), copy.deepcopy(f), pickle.loads(pickle.dumps(f))):
        assert not {"kind", "round", "seat"} & set(other.__dict__) and (other.kind, other.round, other.seat) == (
            "turn", 3, 0)
    moved = SignedFile({**f.content, "round": 4, "seat": 1}, f.signature)
    assert (moved.round, moved.seat) == (4, 1)
    genesis = SignedFile({"kind": "genesis", "creator": 2}, b"")
    assert (genesis.kind, genesis.round, genesis.seat) == ("genesis", 0, 2)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_parser_never_crashes_on_garbage(text):
    try:
        parse_any(text, "fuzz")
    except DuelmailError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=1, max_size=200))
def test_armour_decoder_never_crashes(blob):
    import base64

    body = BEGIN + "\n" + base64.b64encode(blob).decode() + "\n" + END
    try:
        parse_any(body, "fuzz")
    except DuelmailError:
        pass


# -- the text written without tomlkit (issue 18: tomlkit's import is about 20 ms of every writing command) --------

_KEYS = st.text(alphabet="abcxyz_-.#0 ", min_size=1, max_size=6)
_PLAIN = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7e), max_size=12)
_TEXT = st.one_of(_PLAIN, st.text(max_size=8))  # any text: tomlkit writes what is not plain ASCII
_SCALAR = st.one_of(st.booleans(), st.integers(-2**63, 2**63 - 1), _TEXT)
_VALUE = st.one_of(_SCALAR, st.lists(_SCALAR, max_size=4))
_TABLE = st.recursive(st.dictionaries(_KEYS, _VALUE, max_size=4),
                      lambda inner: st.dictionaries(_KEYS, st.one_of(_VALUE, inner), max_size=4), max_leaves=12)


@given(st.dictionaries(_KEYS, st.one_of(_VALUE, _TABLE, st.lists(st.dictionaries(_KEYS, _SCALAR, min_size=1,
                                                                                  max_size=3), max_size=3)),
                       max_size=6),
       st.lists(st.one_of(_PLAIN, st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=8)),
                max_size=3))
@settings(deadline=None)  # the first example imports tomlkit
def test_a_file_is_written_as_tomlkit_writes_it_with_or_without_tomlkit(extra, header):
    """Every file text is tomlkit's own, byte for byte, whether ``util.toml.plain_dumps`` wrote it or tomlkit did,
    and it reads back as the content signed."""
    content = {"duelmail": 1, "kind": "turn", "game": "g", "round": 3, "prev": "p", "seat": 0, **extra}
    f = SignedFile(content, bytes(64))
    try:
        theirs = f.tomlkit_toml(header)
    except Exception:  # noqa: BLE001 - what tomlkit itself cannot write (an empty key path, ...) is not compared
        return
    mine = f.to_toml(header)
    assert mine == theirs
    assert {k: v for k, v in tomllib.loads(mine).items() if k != "signature"} == content


def test_plain_files_are_written_without_tomlkit():
    """The usual file (ASCII text, integers, arrays, tables) needs no tomlkit; talk in other scripts does."""
    from duelmail.util.toml import plain_dumps

    items = [("duelmail", 1), ("kind", "turn"), ("actions", ["play s#3", "end"]), ("signature", "AAAA"),
             ("deck", {"a": {"op": "lock", "points": "xyz"}}), ("keys", {"b#0": "k"})]
    assert plain_dumps(items, ["duelmail: game 3f2a, round 7"]) == (
        '# duelmail: game 3f2a, round 7\nduelmail = 1\nkind = "turn"\nactions = ["play s#3", "end"]\n'
        'signature = "AAAA"\n\n[deck.a]\nop = "lock"\npoints = "xyz"\n\n[keys]\n"b#0" = "k"\n')
    assert plain_dumps([("say", "größer")]) is None
    assert plain_dumps([("say", "line\nbreak")]) is None


def test_a_file_written_again_as_it_was_read_is_not_read_back_to_check_it(monkeypatch):
    """``to_toml`` of a file parsed from text skips ``tomllib``'s read-back (``util.toml._reads_as``) only when that
    check is known to pass: its text, after the header, is the source's after its leading comments, and its values
    are what the source read as. The text is the same either way; anything else is read back as before."""
    from pathlib import Path

    from duelmail.util import toml

    folders = sorted(p for p in (Path(__file__).resolve().parents[2] / "examples").iterdir() if p.is_dir())
    paths = [p for folder in folders for p in sorted(folder.glob("*.toml"))
             if p.name == "genesis.toml" or p.name.startswith("r0")]
    assert len(paths) > 100
    parsed = [parse_toml(p.read_text(), str(p)) for p in paths]
    bare = [SignedFile(f.content, f.signature) for f in parsed]  # made, not read: no source
    expected = [(f.to_toml(), f.to_toml(["header", ""]), f.armour()) for f in bare]
    reads = []
    real = toml.tomllib.loads
    monkeypatch.setattr(toml.tomllib, "loads", lambda text: reads.append(text) or real(text))
    assert [(f.to_toml(), f.to_toml(["header", ""]), f.armour()) for f in parsed] == expected
    assert reads == []  # every one known without reading it back
    forged = parse_toml(paths[-1].read_text(), "forged")
    text, read = forged._source
    reads.clear()
    object.__setattr__(forged, "_source", (text, {**read, "round": -1}))  # what it read as, misremembered
    assert forged.to_toml() == expected[-1][0] and len(reads) == 1
    object.__setattr__(forged, "_source", (text.replace("kind", "kind ", 1), read))  # another text
    assert forged.to_toml() == expected[-1][0] and len(reads) == 2

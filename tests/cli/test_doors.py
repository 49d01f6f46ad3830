"""Every door gives one clear line, never a traceback (issue 14, parts 2 and 6): each input that once
crashed a command is refused with exit 1, a message naming the file, and nothing changed in the home."""

from __future__ import annotations

import re
import resource
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest
from clitable import Table, dm, runner, snapshot

from duelmail.cli import main
from duelmail.crypto.encoding import b64e
from duelmail.protocol.identity import Identity
from duelmail.protocol.turnfile import BEGIN, END, SignedFile, parse_toml

IDENTITY_POINT = bytes([1]) + bytes(31)  # small order: with it, R = identity and S = 0 "sign" everything


@pytest.fixture(scope="module")
def t(tmp_path_factory):
    table = Table(tmp_path_factory.mktemp("doors"))
    table.settle()
    return table


def refused(home: Path, *args: str, names: str | Path, needle: str = "") -> str:
    """Run ``args`` in ``home``: exit 1, one line naming ``names``, no traceback, the home unchanged."""
    before = snapshot(home)
    result = runner.invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    out = result.output
    assert result.exit_code == 1, out
    assert "Traceback" not in out and str(names) in out and needle in out, out
    assert len(out.strip().splitlines()) <= 2, out  # "Error: ..." (verify adds its verdict line)
    assert snapshot(home) == before
    return out


def awaited(t: Table) -> Path:
    """The home whose player is to move."""
    (home,) = [h for h in (t.alice, t.bob) if t.status(h)["your_turn"]]
    return home


@pytest.mark.parametrize("name, text, needle", [
    ("deep.toml", "duelmail = 1\na = " + "[" * 1500 + "]" * 1500, "nested more than 16 deep"),
    ("inline.toml", "duelmail = 1\na = " + "{b=" * 1500 + "1" + "}" * 1500, "nested more than 16 deep"),
    ("header.toml", "[" + ".".join(["a"] * 200_000) + "]\n", "more than 16 parts"),
    ("digits.toml", "duelmail = 1\nround = " + "9" * 5000, "more than 24 digits"),
    ("armour.txt", f"{BEGIN}\nGame: x\n\nabcé\n{END}\n", "armour at line 1 is damaged"),
    ("binary.toml", b"duelmail = 1\n\xff\xfe", "not UTF-8"),
])
def test_receive_refuses_hostile_text_in_one_line(t, tmp_path, name, text, needle):
    p = tmp_path / name
    p.write_bytes(text if isinstance(text, bytes) else text.encode())
    refused(t.bob, "receive", str(p), names=p, needle=needle)


def test_verify_names_the_deep_file_of_an_archive(t, tmp_path):
    archive = tmp_path / "archive"
    archive.mkdir()
    game = next((t.alice / "games").iterdir())
    for f in game.glob("*.toml"):
        (archive / f.name).write_text(f.read_text())
    bad = archive / "r0009-s0.toml"
    bad.write_text("duelmail = 1\na = " + "{b=" * 1500 + "}" * 1500)
    out = refused(t.alice, "verify", str(archive), names=bad, needle="nested more than 16 deep")
    assert "NOT VERIFIED" in out


def test_a_deep_battlefield_option_is_refused(t, tmp_path):
    p = tmp_path / "field.toml"
    p.write_text("a = " + "[" * 1500 + "]" * 1500)
    refused(t.alice, "new", "skirmish", "--seat", "alice", "--seat", str(t.tmp / "bob-card.toml"),
            "--option", f"battlefield=@{p}", names="battlefield", needle="nested more than 16 deep")


def test_a_card_number_of_5000_digits_is_refused(t):
    home = awaited(t)
    out = refused(home, "play", "warlord a#" + "9" * 5000, names="warlord a", needle=" legal move")
    assert "9" * 25 not in out and len(out) < 400, out  # quoted short, in words: never the 5,000 digits back


def test_a_player_card_with_a_carriage_return_in_its_email_is_refused(t, tmp_path):
    card = (t.tmp / "bob-card.toml").read_text().replace("bob@example.org", "bob@example.org\\rX-Evil: 1")
    p = tmp_path / "cr-card.toml"
    p.write_text(card)
    refused(t.alice, "new", "warlords", "--seat", "alice", "--seat", str(p), names=p, needle="'\\r' (U+000D)")


@pytest.mark.parametrize("key", [IDENTITY_POINT, bytes.fromhex("ec" + "ff" * 31)], ids=["small-order", "non-canonical"])
def test_a_player_card_with_a_weak_key_is_refused(t, tmp_path, key):
    card = re.sub(r'key = "[^"]*"', f'key = "{b64e(key)}"', (t.tmp / "bob-card.toml").read_text())
    p = tmp_path / "weak-card.toml"
    p.write_text(card)
    refused(t.alice, "new", "warlords", "--seat", "alice", "--seat", str(p), names=p, needle="public key")


def _genesis_with(t: Table, tmp_path: Path, **changes) -> Path:
    """A genesis signed by Alice (a valid signature) with some fields changed."""
    genesis = parse_toml((t.out / "genesis.toml").read_text(), "genesis")
    ident = Identity.from_toml((t.alice / "identities" / "alice.toml").read_text(), "alice")
    p = tmp_path / "genesis-evil.toml"
    p.write_text(SignedFile.sign({**genesis.content, **changes}, ident).to_toml())
    return p


def test_a_genesis_whose_seats_are_numbers_is_refused(t, tmp_path):
    p = _genesis_with(t, tmp_path, seats=[1, 2])
    refused(t.bob, "join", str(p), names=p, needle="a player card is a table")
    refused(t.bob, "receive", str(p), names=p, needle="[P-genesis]")


def test_a_genesis_giving_a_seat_a_small_order_key_is_refused(t, tmp_path):
    genesis = parse_toml((t.out / "genesis.toml").read_text(), "genesis")
    seats = [dict(s) for s in genesis.content["seats"]]
    seats[1]["key"] = b64e(IDENTITY_POINT)
    p = _genesis_with(t, tmp_path, seats=seats)
    refused(t.bob, "receive", str(p), names=p, needle="small-order")


def _damaged(path: Path, text: str, home: Path, *args: str, needle: str) -> None:
    old = path.read_bytes() if path.exists() else None
    path.write_text(text)
    try:
        refused(home, *args, names=path, needle=needle)
    finally:
        path.write_bytes(old) if old is not None else path.unlink()


BOX = '[secret]\nkdf = "scrypt"\nn = {n}\nsalt = "AAAAAAAAAAAAAAAAAAAAAA"\nbox = "' + "A" * 80 + '"\n'


@pytest.mark.parametrize("secret, needle", [
    ('secret = "x"\n', "[secret] must be a table"),
    ('[secret]\nkdf = "scrypt"\nn = 32768\nsalt = "AAAAAAAAAAAAAAAAAAAAAA"\n', "[secret] has no 'box'"),
    (BOX.format(n=3), "scrypt n = 3 must be a power of two"),
    (BOX.format(n=2**40), "scrypt n = 1099511627776 must be a power of two"),
])
def test_a_damaged_identity_file_is_one_line(t, monkeypatch, secret, needle):
    monkeypatch.setenv("DUELMAIL_PASSPHRASE", "pw")
    path = t.alice / "identities" / "alice.toml"
    text = path.read_text().split("[secret]")[0] + secret
    _damaged(path, text, t.alice, "show", needle=needle)


@pytest.mark.parametrize("name, text, needle", [
    ("config.toml", "default = [", "not valid TOML config file"),
    ("config.toml", "default = 5", "'default' must be the name of an identity"),
])
def test_a_damaged_config_is_one_line(t, name, text, needle):
    _damaged(t.alice / name, text, t.alice, "show", needle=needle)


@pytest.mark.parametrize("name, text, needle", [
    (".me.toml", "seat = [", "not valid TOML memo"),
    (".me.toml", 'seat = "x"', "seat = a seat number"),
    (".pending.toml", "actions = [", "not valid TOML memo"),
    (".pending.toml", "actions = 5", "'actions' must be a list"),
])
def test_a_damaged_game_memo_is_one_line(t, name, text, needle):
    home = awaited(t)
    folder = next((home / "games").iterdir())
    _damaged(folder / name, text, home, "play", "--bot", "random", needle=needle)


@contextmanager
def small_disk():
    """Writes past 512 bytes fail with a real kernel error (EFBIG), as a full disk fails with ENOSPC."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    old = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (512, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, old)


def test_a_failed_write_names_the_file(tmp_path):
    home = tmp_path / "home"
    dm(home, "id", "new", "zoe", "--email", "zoe@example.org")
    card = tmp_path / "yan-card.toml"
    card.write_text(Identity.generate("yan", "yan@example.org", b"\x0b" * 32).card.to_toml())
    with small_disk():  # the genesis (over 512 bytes) cannot be written
        result = runner.invoke(main, ["--home", str(home), "new", "warlords", "--seat", "zoe", "--seat", str(card)],
                               catch_exceptions=False)
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert re.search(r"cannot write \S+genesis\.toml: File too large", result.output), result.output
    assert not list((home / "games").rglob("*.toml"))

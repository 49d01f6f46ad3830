"""A home lists the game folders that hold an outbox (``HOME/index/outboxes``), so ``watch``, ``status`` and every
command that sends reads no folder of the thousands a club's home holds without one (issue 42: ``watch --once``
with nothing new cost 554 ms of CPU at 10,000 games against 318 at 10, each folder stat'ed three times)."""

from __future__ import annotations

from pathlib import Path

from duelmail.delivery import outbox as sending
from duelmail.home import Home
from duelmail.transport.folder import GameFolder
from duelmail.transport.outbox import LISTED, OUTBOX, Outbox


class Signed:
    """What ``Outbox.add`` reads of a signed file."""

    def __init__(self, n: int):
        self.file_hash, self.kind, self.round, self.seat, self.game = f"h{n}", "turn", n, 0, "a" * 64
        self.content: dict = {}

    def to_toml(self) -> str:
        return f"# file {self.round}\n"


def a_home(tmp_path: Path, games: int) -> Home:
    home = Home(tmp_path / "home")
    for i in range(games):
        folder = home.games_dir / f"summoner-{i:012x}"
        folder.mkdir(parents=True)
        (folder / "genesis.toml").write_text("")
    return home


def test_the_folders_with_an_outbox_are_listed_and_found_without_looking_at_the_others(tmp_path, monkeypatch):
    home = a_home(tmp_path, 30)
    assert sending.with_outbox(home) == []  # no list yet: every folder looked at once, the list made
    assert (home.root / LISTED).is_dir()
    folder = GameFolder(home.games_dir / "summoner-00000000000b", home.root)
    box = Outbox(folder)
    box.add(Signed(2))
    assert (home.root / LISTED / folder.path.name).exists() and (folder.path / OUTBOX).exists()

    def nowhere(self):
        raise AssertionError("every game folder read")

    monkeypatch.setattr(Home, "game_folders", nowhere)
    assert [f.path for f in sending.with_outbox(home)] == [folder.path]
    box.sent("h2")  # empty: the outbox and its line go
    assert not (folder.path / OUTBOX).exists() and not (home.root / LISTED / folder.path.name).exists()
    assert sending.with_outbox(home) == []


def test_an_outbox_from_before_the_list_is_found_when_the_list_is_made(tmp_path):
    home = a_home(tmp_path, 5)
    folder = GameFolder(home.games_dir / "summoner-000000000003", home.root)
    Outbox(folder).add(Signed(4))  # a home without the list (older, or its index deleted): nothing listed
    assert not (home.root / LISTED).exists()
    assert [f.path for f in sending.with_outbox(home)] == [folder.path]
    assert (home.root / LISTED / folder.path.name).exists()
    (folder.path / OUTBOX).unlink()  # emptied by a process stopped before it took the line out
    assert sending.with_outbox(home) == [] and not (home.root / LISTED / folder.path.name).exists()

"""Atomic writes: a write that fails (a full disk) is one line naming the file and leaves the old file
and no temporary file behind (issue 14, part 6)."""

from __future__ import annotations

import resource
import signal

import pytest

from duelmail.util.fs import ReadError, WriteError, atomic_write, read_text


@pytest.fixture
def small_disk():
    """A real write error from the kernel: the file-size limit makes write() fail (EFBIG) past 1 KiB."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    old = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, old)


def test_a_failed_write_names_the_file_and_changes_nothing(tmp_path, small_disk):
    target = tmp_path / "r0003-s1.toml"
    target.write_text("old")
    with pytest.raises(WriteError) as e:
        atomic_write(target, "x" * 100_000)
    assert str(e.value).startswith(f"cannot write {target}: ") and "\n" not in str(e.value)
    assert e.value.filename == str(target) and isinstance(e.value, OSError)
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r0003-s1.toml"]


def test_a_folder_that_is_a_file_names_the_file(tmp_path):
    (tmp_path / "games").write_text("not a folder")
    with pytest.raises(WriteError, match=f"cannot write {tmp_path / 'games' / 'x.toml'}: "):
        atomic_write(tmp_path / "games" / "x.toml", "data")


def test_read_text_refuses_binary_missing_and_huge_files(tmp_path):
    p = tmp_path / "card.toml"
    p.write_bytes(b"\xff\xfe")
    with pytest.raises(ReadError, match=f"{p}: this player card is not UTF-8"):
        read_text(p, "player card")
    with pytest.raises(ReadError, match="cannot read"):
        read_text(tmp_path / "nope", "player card")
    p.write_text("x" * 2000)
    with pytest.raises(ReadError, match="larger than any"):
        read_text(p, "player card", limit=1000)


def test_one_commit_point_syncs_each_folder_once_and_caches_never(tmp_path, monkeypatch):
    """Issue 18: inside ``commit`` every durable file is synced before its rename and each folder once, at the end;
    a cache (``durable=False``) is renamed into place without any fsync."""
    from duelmail.util import fs

    synced, folders = [], []
    monkeypatch.setattr(fs.os, "fsync", lambda fd: synced.append(fd))
    monkeypatch.setattr(fs, "_sync_folder", lambda folder: folders.append(folder))
    atomic_write(tmp_path / ".kept", b"cache", durable=False)
    assert synced == [] and folders == [] and (tmp_path / ".kept").read_bytes() == b"cache"
    with fs.commit():
        for i in range(3):
            atomic_write(tmp_path / f"r000{i}-s0.toml", "turn")
        with fs.commit():  # a nested commit joins the outer one
            atomic_write(tmp_path / "sub" / ".pending.toml", "actions = []")
        assert len(synced) == 4 and folders == []
    assert sorted(folders) == [tmp_path, tmp_path / "sub"]
    atomic_write(tmp_path / "r0009-s0.toml", "turn")  # outside a commit: synced at once
    assert folders[-1] == tmp_path and len(folders) == 3


def test_flush_reaches_the_commit_point_before_the_end(tmp_path, monkeypatch):
    from duelmail.util import fs

    folders = []
    monkeypatch.setattr(fs, "_sync_folder", lambda folder: folders.append(folder))
    with fs.commit():
        atomic_write(tmp_path / "r0001-s0.toml", "turn")
        fs.flush()  # what lock.release_all does at the end of a watch poll, before anything is sent
        assert folders == [tmp_path]
    assert folders == [tmp_path]


def test_a_scratch_commit_syncs_once_at_its_end(tmp_path, monkeypatch):
    """The demo's homes: no fsync per file, one sync of the file systems at the end, then each folder."""
    from duelmail.util import fs

    calls = []
    monkeypatch.setattr(fs.os, "fsync", lambda fd: calls.append("fsync"))
    monkeypatch.setattr(fs.os, "sync", lambda: calls.append("sync"))
    monkeypatch.setattr(fs, "_sync_folder", lambda folder: calls.append(folder))
    with fs.commit(scratch=True):
        for i in range(3):
            atomic_write(tmp_path / f"r000{i}-s0.toml", "turn")
        assert calls == []
    assert calls == ["sync", tmp_path]
    calls.clear()
    with fs.commit():  # inside a command's commit (the CLI's 'demo'): the files once, the folders at the end
        with fs.commit(scratch=True):
            atomic_write(tmp_path / "r0005-s0.toml", "turn")
        assert calls == ["sync"]
    assert calls == ["sync", tmp_path]


def test_a_folder_is_listed_once_a_command_and_kept_up_to_date_by_its_writes(tmp_path, monkeypatch):
    """Inside a commit (one command) ``listing`` reads a folder once; ``atomic_write`` and ``forget`` keep it true;
    outside a commit, after ``flush`` and after the commit, every call lists the folder again."""
    import os

    from duelmail.util import fs

    (tmp_path / "genesis.toml").write_text("g")
    scans = []
    real = os.scandir
    monkeypatch.setattr(os, "scandir", lambda p: scans.append(p) or real(p))
    fs.listing(tmp_path)
    fs.listing(tmp_path)
    assert len(scans) == 2  # no command: no memo
    with fs.commit():
        first = dict(fs.listing(tmp_path))
        atomic_write(tmp_path / "r0001-s0.toml", "turn", durable=False)
        atomic_write(tmp_path / "genesis.toml", "changed", durable=False)
        after = fs.listing(tmp_path)
        assert len(scans) == 3
        st = os.stat(tmp_path / "r0001-s0.toml")
        assert after["r0001-s0.toml"] == (st.st_size, st.st_mtime_ns, st.st_ino)
        assert after["genesis.toml"] != first["genesis.toml"] and after["genesis.toml"][0] == len("changed")
        (tmp_path / "r0001-s0.toml").unlink()
        fs.forget(tmp_path)  # changed other than by atomic_write: listed again
        assert "r0001-s0.toml" not in fs.listing(tmp_path) and len(scans) == 4
        (tmp_path / "r0002-s1.toml").write_text("another process")
        fs.flush()  # the end of a poll of 'watch': another process may have written meanwhile
        assert "r0002-s1.toml" in fs.listing(tmp_path) and len(scans) == 5
    (tmp_path / "r0003-s0.toml").write_text("x")
    assert "r0003-s0.toml" in fs.listing(tmp_path) and len(scans) == 6
    assert fs.listing(tmp_path / "missing") == {}

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

"""How often a point is checked (issue 32 item 4): libsodium's `crypto_core_ed25519_is_valid_point` calls in a
plain fold and in an audited replay of the six-player archive (`common.long_archive(500)`), against the number of
distinct points they check (the floor: each point checked once).

Usage: python bench/bench_points.py
"""

from __future__ import annotations

import time

import common
import nacl.bindings as nb


def counted(fn) -> tuple[int, int, float]:
    """(calls, distinct points, CPU seconds) of ``fn()`` with the memo of valid points emptied first."""
    from duelmail.crypto import group

    group._VALID.clear()
    calls: list[bytes] = []
    real = nb.crypto_core_ed25519_is_valid_point

    def spy(p):
        calls.append(p)
        return real(p)

    nb.crypto_core_ed25519_is_valid_point = spy
    try:
        t = time.process_time()
        fn()
        cpu = time.process_time() - t
    finally:
        nb.crypto_core_ed25519_is_valid_point = real
    return len(calls), len(set(calls)), cpu


def main() -> None:
    from duelmail.replay import build_replay
    from duelmail.transport.archive import fold, read_files

    path = common.long_archive(500)
    print(f"six-player archive {path.name}: {len(read_files(path))} files")
    for name, fn in (("plain fold (verify, receive from elsewhere)", lambda: fold(read_files(path))),
                     ("audited replay (build_replay)", lambda: build_replay(read_files(path)))):
        calls, distinct, cpu = counted(fn)
        print(f"  {name:<44} {calls:6,} is_valid_point calls, {distinct:6,} distinct points, CPU {cpu:.2f} s")


if __name__ == "__main__":
    main()

"""Fold-and-verify time of archives of 300 and 1,200 files (prefixes of one long real game): linear?"""

from __future__ import annotations

import common
from common import timeit


def main() -> dict:
    from duelmail.transport.archive import fold, read_files

    path = common.long_archive(1200)
    files = read_files(path, archive_only=True)
    files.sort(key=lambda wf: (wf[1].round, wf[1].seat))
    out = {}
    for size in (300, 1200):
        prefix = files[:size]
        out[size] = timeit(lambda p=prefix: fold(p), repeat=5)
        print(f"fold + verify {size} files: {out[size] * 1000:.0f} ms ({out[size] / size * 1e6:.0f} us per file)")
    full = timeit(lambda: fold(files), repeat=3)
    print(f"fold + verify + audit of the whole game ({len(files)} files): {full * 1000:.0f} ms")
    ratio = out[1200] / out[300]
    print(f"ratio 1200/300: {ratio:.2f} (linear would be 4.0; the target is under 4.5)")
    parse = timeit(lambda: read_files(path, archive_only=True), repeat=3)
    print(f"reading and parsing {len(files)} files from disk: {parse * 1000:.0f} ms")
    return {"t300": out[300], "t1200": out[1200], "ratio": ratio, "full": full, "nfull": len(files), "parse": parse}


if __name__ == "__main__":
    main()

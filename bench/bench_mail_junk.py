"""Mail that holds no turn, read once (issue 28): ``duelmail mail fetch MAILDIR`` over a Maildir of N junk mails
(default 10,000; a line of text each, as newsletters and chat are), the first fetch and the one after, in a
separate process each; wall time and the process's CPU time. Before issue 28 every fetch read and parsed every
junk message again. Usage: python bench/bench_mail_junk.py [N]
"""

from __future__ import annotations

import mailbox
import os
import resource
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path

import common  # noqa: F401

DUELMAIL = Path(os.environ.get("DUELMAIL_BIN") or Path(sys.executable).parent / "duelmail")  # another build to compare


def fetch(home: Path, box: Path) -> tuple[float, float, str]:
    """Wall and CPU seconds of one ``mail fetch`` process, and its last line."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    res = subprocess.run([str(DUELMAIL), "--home", str(home), "mail", "fetch", str(box), "--no-auto"],
                         capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, res.stdout.strip().splitlines()[-1]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    with tempfile.TemporaryDirectory() as tmp:
        home, box = Path(tmp) / "home", Path(tmp) / "Maildir"
        subprocess.run([str(DUELMAIL), "--home", str(home), "id", "new", "alice", "--email", "alice@example.org"],
                       capture_output=True, check=True, env=dict(os.environ))
        md = mailbox.Maildir(str(box), create=True)
        for i in range(n):
            m = EmailMessage()
            m["From"], m["To"], m["Subject"] = f"list{i % 50}@example.org", "alice@example.org", f"news {i}"
            m.set_content(f"Issue {i} of the newsletter: nothing for duelmail here.\n" * 3)
            md.add(m.as_bytes())
        print(f"mail fetch of a Maildir of {n} mails without a turn (separate process each):")
        for label in ("first fetch", "second fetch", "third fetch"):
            wall, cpu, last = fetch(home, box)
            print(f"  {label}: wall {wall:.2f} s, CPU {cpu:.2f} s ({last})")


if __name__ == "__main__":
    main()

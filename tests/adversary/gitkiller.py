"""A ``git`` for duelmail to find first on its PATH: runs the real git, and at the N-th call SIGKILLs the duelmail
process that called it, once git is done (``after``), or has a rebase stop half-way first (``rebase``: the
rebase runs an ``--exec`` that kills the caller and fails, so git leaves the rebase in progress).

Environment: DM_REAL_GIT (the real binary), DM_GIT_CALLS (a file counting the calls and naming each),
DM_GIT_KILL_AT (N; 0: never), DM_GIT_KILL_HOW (after | rebase).
"""

import os
import signal
import subprocess
import sys

args = sys.argv[1:]
if args[:1] != ["-C"]:  # git's own children (upload-pack, receive-pack): duelmail always names the folder
    os.execv(os.environ["DM_REAL_GIT"], [os.environ["DM_REAL_GIT"], *args])
log = os.environ["DM_GIT_CALLS"]
with open(log, "a") as fh:
    fh.write(" ".join(a.replace("\n", " ") for a in args if not a.startswith("/")) + "\n")
with open(log) as fh:
    n = len(fh.read().splitlines())
kill = n == int(os.environ.get("DM_GIT_KILL_AT", "0"))
if kill and os.environ.get("DM_GIT_KILL_HOW") == "rebase" and "rebase" in args:
    i = args.index("rebase")
    args[i + 1:i + 1] = ["--exec", f"kill -9 {os.getppid()}; exit 1"]
res = subprocess.run([os.environ["DM_REAL_GIT"], *args], input=sys.stdin.buffer.read() if not sys.stdin.isatty()
                     else None, capture_output=True)
sys.stdout.buffer.write(res.stdout)
sys.stderr.buffer.write(res.stderr)
sys.stdout.flush()
if kill:
    os.kill(os.getppid(), signal.SIGKILL)
sys.exit(res.returncode)

"""Run the duelmail CLI, and SIGKILL it at the N-th occurrence of a point inside its file writes.

Usage: python killer.py POINT N duelmail-args...   POINT is one of
  write    half-way through writing a temporary file
  replace  just before the temporary file replaces the real one
  after    just after the replace, before anything else is written
  sent     just after an SMTP server accepted a message, before anything else is written
With $KILL_FROM set, only the replaces from the first one onto a file of that name on count. With $KILL_LOG set,
the name of each file a counted replace wrote is added to that file, a line each (N = 0: never killed, only logged).
"""

import os
import signal
import sys

point, nth, args = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
seen = 0


def maybe_die(here: str) -> None:
    global seen
    if here == point:
        seen += 1
        if seen == nth:
            os.kill(os.getpid(), signal.SIGKILL)


real_fdopen, real_replace = os.fdopen, os.replace


class HalfWriter:
    def __init__(self, fh):
        self.fh = fh

    def write(self, data):
        if point == "write" and seen + 1 == nth:
            self.fh.write(data[: len(data) // 2])
            self.fh.flush()
        maybe_die("write")
        return self.fh.write(data)

    def __getattr__(self, name):
        return getattr(self.fh, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return self.fh.__exit__(*exc)


def fdopen(fd, *a, **kw):
    return HalfWriter(real_fdopen(fd, *a, **kw))


counting = not os.environ.get("KILL_FROM")


def replace(src, dst):
    global counting
    counting = counting or os.path.basename(dst) == os.environ.get("KILL_FROM")
    if counting:
        maybe_die("replace")
    real_replace(src, dst)
    if counting and os.environ.get("KILL_LOG"):
        with open(os.environ["KILL_LOG"], "a") as log:
            log.write(os.path.basename(dst) + "\n")
    if counting:
        maybe_die("after")


os.fdopen, os.replace = fdopen, replace

if point == "sent":
    import smtplib

    real_send = smtplib.SMTP.send_message

    def send_message(self, *a, **kw):
        out = real_send(self, *a, **kw)
        maybe_die("sent")
        return out

    smtplib.SMTP.send_message = send_message

from duelmail.cli import main  # noqa: E402

sys.argv = ["duelmail", *args]
main()

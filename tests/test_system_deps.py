"""``scripts/system-deps.sh`` waits for the dpkg lock another apt holds (issue 28, item 13): run for real with
git, make and faketime missing from its PATH, every apt-get it starts is told to wait for the lock."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).parents[1] / "scripts" / "system-deps.sh"


def test_every_apt_get_waits_for_the_dpkg_lock(tmp_path):
    if os.getuid() != 0:  # the script installs only as root; as anyone else it only names what is missing
        res = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, env={"PATH": str(tmp_path)})
        assert res.returncode == 0 and "install them as root" in res.stderr
        return
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    log = tmp_path / "apt.log"
    (bin_ / "apt-get").write_text(f"#!/bin/sh\necho \"$*\" >> {log}\n")
    (bin_ / "apt-get").chmod(0o755)
    (bin_ / "id").symlink_to("/usr/bin/id")
    res = subprocess.run(["/bin/bash", str(SCRIPT)], capture_output=True, text=True,
                         env={"PATH": str(bin_), "DUELMAIL_APT_LOCK_WAIT": "77"})
    assert res.returncode == 0, res.stderr
    calls = log.read_text().splitlines()
    assert [c.split()[2] for c in calls] == ["update", "install"], calls
    assert all(c.startswith("-o DPkg::Lock::Timeout=77 ") for c in calls), calls
    assert "git" in calls[1] and "faketime" in calls[1]

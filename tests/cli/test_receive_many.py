"""``duelmail receive BAD GOOD``: the good file is applied, the bad one refused in one line naming it, exit 1 —
as mail and git do (issue 28, item 11); by the click command and by the installed command's plain path."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from clitable import Table, runner

from duelmail.cli import main


@pytest.mark.parametrize("order", ["bad first", "bad last"])
@pytest.mark.parametrize("how", ["click", "installed"])
def test_receive_applies_the_good_file_and_refuses_the_bad_one(tmp_path, order, how):
    t = Table(tmp_path)
    good = t.out / "r0001-s1.toml"
    bad = tmp_path / "mangled.toml"
    bad.write_text(good.read_text().replace('signature = "', 'signature = "AAAA', 1))
    files = [str(bad), str(good)] if order == "bad first" else [str(good), str(bad)]
    if how == "click":
        res = runner.invoke(main, ["--home", str(t.alice), "receive", "--no-auto", *files])
        code, out = res.exit_code, res.output
    else:
        res = subprocess.run([str(Path(sys.executable).parent / "duelmail"), "receive", "--no-auto", *files],
                             capture_output=True, text=True, env=dict(os.environ, DUELMAIL_HOME=str(t.alice)))
        code, out = res.returncode, res.stdout + res.stderr
    assert code == 1, out
    assert f"{good}: round 1 seat 1 verified and applied" in out, out
    refusals = [line for line in out.splitlines() if "mangled.toml" in line]
    assert len(refusals) == 1 and "Traceback" not in out, out
    assert t.status(t.alice)["round"] >= 1 and (next((t.alice / "games").iterdir()) / "r0001-s1.toml").exists()

"""The home's folders: which game a command means."""

from __future__ import annotations

import pytest

from duelmail.errors import GameNotFound
from duelmail.home import Home


def test_a_whole_folder_name_means_that_game_even_inside_other_names(tmp_path):
    home = Home(tmp_path)
    for name in ("warlords-5ad42a4b42e4", "copy-warlords-5ad42a4b42e4", "wizard-0123456789ab"):
        (home.games_dir / name).mkdir(parents=True)
        (home.games_dir / name / "genesis.toml").write_text("")
    assert home.find("warlords-5ad42a4b42e4").path.name == "warlords-5ad42a4b42e4"
    assert home.find("copy-warlords").path.name == "copy-warlords-5ad42a4b42e4"
    assert home.find("0123").path.name == "wizard-0123456789ab"
    with pytest.raises(GameNotFound, match="more than one game matches '5ad42a'"):
        home.find("5ad42a")

"""The source's worked example (002, "DUEL") played through the engine with real files: sealed characters, sealed
dual reveals and plans committed and opened, every file signed and checked, the audit at the end.

The source (fight step 6): "I have three actions, representing 1, 2, 3 and my opponent has 3, representing 3, 5, 3.
I reveal the highest dexterity so I am allowed to remove my opponent's first action (3). This would mean that,
assuming my opponent goes first, their first action would be 5, then I would go next with 1, then they 3, then I
would do 2 followed by 3." (K-19, K-20)
"""

from __future__ import annotations

from duelmail.games.base import Bot, get_game
from duelmail.games.skirmish.notation import STATS
from duelmail.testing.selfplay import SelfPlay

GAME = get_game("skirmish")

# two bases 2 inches apart, centre to centre: engaged from the start (K-15), so both stay (K-14)
FIELD = 'name = "Two paces"\nwidth = 24\nheight = 12\nstarts = [[10, 6], [12, 6]]\n'


class Script(Bot):
    """Plays one seat from a script: its character (K-2), and for each step of the fight the reveal, plan or cancel
    the source's example needs; nothing revealed where the script says nothing."""

    def __init__(self, build: dict[str, int], steps: dict[str, str]):
        self.build, self.steps = build, steps

    def choose(self, state, seat, known, rng):
        w = state.wait
        kind = w[0]
        if kind == "build":
            todo = [lb for lb in STATS if lb not in state.built[seat]]
            text = f"build {todo[0]} {self.build[todo[0]]}" if todo else "dual d0: " + " ".join(
                f"{st}1{'!' if self.build[st] == 1 else ''}" for st in STATS)
        elif kind == "dual":
            text = f"dual {w[3]}: {self.steps.get(w[4], '-')}"
        elif kind == "reveal":
            text = f"reveal {self.steps.get(w[3], '-')}"
        elif kind == "plan":
            text = f"plan {w[2]}: {self.steps['plan']}"
        elif kind == "endure":
            text = f"reveal end{w[2]}"
        else:
            text = {"cancel": self.steps.get("cancel", "cancel none"), "move": "stay", "interact": "pass"}[kind]
        return GAME.parse_action(text)


def test_k19_k20_the_cancelled_action_and_the_order_of_resolution():
    """Seat 0 ("I") plans swing high, swing low, block (1 2 3); seat 1 ("my opponent") block, evade, block (3 5 3).
    Both have speed 3; seat 1 revealed its Speed last, so it goes first on the tie (K-20). Seat 0 reveals the
    higher Dexterity and cancels seat 1's first action (K-19). The actions then run 5, 1, 3, 2, 3 as the source
    says; seat 1's evade does not soften the swing high nor its block the swing low (K-21, K-22, K-23)."""
    me = Script({"str": 2, "spd": 4, "end": 4, "dex": 3},
                {"fight step 1": "spd2", "fight step 6": "dex1", "plan": "1 2 3", "cancel": "cancel 1:1"})
    opponent = Script({"str": 2, "spd": 4, "end": 5, "dex": 2}, {"fight step 2": "spd2", "plan": "3 5 3"})
    sp = SelfPlay("skirmish", n=2, options={"battlefield": FIELD, "turns": 1}, seed=0, bots=[me, opponent])
    sp.run(until=lambda m: m.state.fight is not None and m.state.wait is not None and m.state.wait[0] == "cancel")
    st = sp.match.state
    assert [st.rev[s]["spd"] for s in (0, 1)] == [3, 3] and st.spd_mark[1] > st.spd_mark[0]
    assert [st.rev[s]["dex"] for s in (0, 1)] == [2, 1] and st.wait == ("cancel", 0)
    assert {s: [code for code, _ in st.fight["plans"][s]] for s in (0, 1)} == {0: [1, 2, 3], 1: [3, 5, 3]}
    start = len(st.lines)
    sp.run()
    m = sp.match
    st = m.state
    assert m.finished and m.audit.ok, m.audit.lines
    acts = [line for line in st.lines[start:] if line.startswith(("seat 0:", "seat 1:"))]
    assert acts == ["seat 1: evade", "seat 0: swing high at seat 1", "seat 1: block", "seat 0: swing low at seat 1",
                    "seat 0: block"]
    words = [m.words(e) for e in m.events]
    assert "alice cancels bob's action 1" in words
    assert any("alice's swing high hits bob: Strength 1 = 1 Endurance to lose" in w for w in words), words
    assert any("alice's swing low hits bob: Strength 1 = 1 Endurance to lose" in w for w in words), words
    assert st.rev[1]["end"] == 3 and all(st.alive)  # the start's one card and the two hits
    assert "turn limit 1" in st.outcome().reason

"""Stepping through a replay in the terminal, one command a line.

``TerminalReplay`` holds a position (a step and a view) and answers commands; ``run`` reads them
until ``q`` or the end of input, so a script (or a test) can drive it through stdin. Enter alone
steps forward.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from duelmail.errors import NotationError
from duelmail.games.base import replay_words
from duelmail.replay.model import TECHNICAL, Replay, Step

HELP = """commands (Enter alone = next):
  n, next          the next round           b, back        the round before
  g N, N           jump to round N          e, end         the last round    f, first   the start
  s SEAT           a seat's view (number or name)          t, table       what everyone saw
  a, all           every card on/off (once the game is over and audited)
  d, decks         every deck's order (audited)            l, log         every round in one line
  v, verdict       the audit report         h, help        this help         q, quit"""

# ANSI styles, as click.style writes them: blue and dim, red and bold, bold
DIM_BLUE, RED_BOLD, BOLD, RESET = "\x1b[34m\x1b[2m", "\x1b[31m\x1b[1m", "\x1b[1m", "\x1b[0m"
CARD = re.compile(r"\[\?\?\]|(?<![\w#.])(?:10|[2-9JQKA])[SHDC](?![\w#])|(?<![\w#.])X[RB](?![\w#])")


def colour_cards(text: str) -> str:
    """Hearts, diamonds and the red joker in red, the rest bold; a face-down card dimmed.

    The command line writes with ``click.echo``, which drops the colours when the output is not a terminal."""

    def paint(m: re.Match) -> str:
        t = m.group(0)
        if t == "[??]":
            return DIM_BLUE + t + RESET
        return (RED_BOLD if t[-1] in "HDR" else BOLD) + t + RESET

    return CARD.sub(paint, text)


class TerminalReplay:
    def __init__(self, replay: Replay, write: Callable[[str], None] = print, colour: bool = True):
        self.r = replay
        self.i = 0
        self.seat: int | None = None
        self.everything = False
        self.write = write
        self.colour = colour

    # -- position -------------------------------------------------------------------------------
    @property
    def step(self) -> Step:
        return self.r.steps[self.i]

    def go(self, i: int) -> None:
        self.i = max(0, min(len(self.r.steps) - 1, i))

    def set_seat(self, text: str | None) -> None:
        """A seat by number or (a prefix of) a name; None, '', 't' or 'table' for the spectator's view.

        ``NotationError`` naming the seats when no single seat matches."""
        if text is None or text.lower() in ("", "t", "table", "-", "none"):
            self.seat = None
            return
        names = self.r.names
        if text.isdigit() and int(text) < len(names):
            self.seat = int(text)
            return
        found = [s for s, n in enumerate(names) if n.lower() == text.lower()] or \
                [s for s, n in enumerate(names) if n.lower().startswith(text.lower())]
        if len(found) != 1:
            seats = ", ".join(f"{s} {n}" for s, n in enumerate(names))
            raise NotationError(f"no single seat {text!r} (seats: {seats})")
        self.seat = found[0]

    def set_everything(self, on: bool) -> str | None:
        """Turn the everything view on or off; a message if it cannot be turned on."""
        if on and not self.r.audited:
            word, _ = self.r.verdict()
            return (f"every card is shown only once the game is over and audited (now: {word.lower()}); "
                    "until then the replay shows public information only")
        self.everything = on
        return None

    # -- output ---------------------------------------------------------------------------------
    def _paint(self, text: str) -> str:
        return colour_cards(text) if self.colour else text

    def view_name(self) -> str:
        who = "the table" if self.seat is None else self.r.names[self.seat]
        return f"{who}, every card" if self.everything else who

    def screen(self) -> str:
        r, st = self.r, self.step
        last = r.steps[-1].round
        where = "start" if st.index == 0 else f"round {st.round} of {last}" + (" (open)" if st.partial else "")
        head = f"== {r.title}: {' vs '.join(r.names)} | {where} (step {st.index + 1}/{len(r.steps)}) | " \
               f"view: {self.view_name()} =="
        out = [head]
        if self.everything and self.seat is None:
            for s in range(r.n):
                out += [f"-- {r.names[s]}, every card --", r.render_all(st, s)]
        elif self.everything:
            out.append(r.render_all(st, self.seat))
        else:
            out.append(r.render(st, self.seat))
            if self.seat is not None and not r.audited:
                out.append("(hidden cards stay hidden until the game is over and audited)")
        out.append(self.events_text(st))
        out.append("the game is over: " + r.outcome() if st.over else
                   "then awaited: " + (", ".join(r.names[s] for s in st.awaited) or "nobody"))
        return self._paint("\n".join(out))

    def events_text(self, st: Step) -> str:
        title = "the game is opened" if st.index == 0 else f"round {st.round}" + (f", {st.time}" if st.time else "")
        lines = [f"{title}:"]
        tech = 0
        for e in self.r.told_to(st, self.seat, self.everything):  # a seat's own cards by their faces
            if TECHNICAL.search(e.text):
                tech += 1
            else:
                lines.append(f"  {replay_words(e.text)}")  # an unseen card in words, as the page says it
        if tech:
            lines.append(f"  ({tech} protocol message{'s' if tech != 1 else ''}: deck passes, key shares, seeds)")
        if len(lines) == 1:
            lines.append("  nothing")
        return "\n".join(lines)

    def log(self) -> str:
        out = []
        for st in self.r.steps:  # each in the view's words, as the page's list of moves says it
            play = [e for e in self.r.told_to(st, self.seat, self.everything) if not e.technical]
            text = "; ".join(replay_words(e.text) for e in play) if play else "(protocol messages only)"
            label = "start" if st.index == 0 else f"r{st.round}"
            out.append(f"{'>' if st.index == self.i else ' '} {label:>5}  {text}")
        return "\n".join(out)

    def decks(self) -> str:
        orders = self.r.deck_orders()
        if not orders:
            return "deck orders are known only once the game is over and audited"
        return self._paint("\n".join(f"deck {d}: " + " ".join(str(c) if c else "[??]" for c in cards)
                                     for d, cards in orders.items()))

    def verdict(self) -> str:
        word, lines = self.r.verdict()
        return "\n".join([f"audit: {word}", f"result: {self.r.outcome()}", *(f"  {line}" for line in lines),
                          *(f"  set aside by the fold: {line}" for line in self.r.set_aside())])

    # -- commands -------------------------------------------------------------------------------
    def command(self, line: str) -> bool:
        """Do one command; False to stop."""
        words = line.strip().split()
        cmd = words[0].lower() if words else "n"
        arg = " ".join(words[1:])
        if cmd in ("q", "quit", "exit"):
            return False
        if cmd in ("n", "next", "+"):
            if self.i == len(self.r.steps) - 1:
                self.write("this is the last round (b to go back, q to quit)")
                return True
            self.go(self.i + 1)
        elif cmd in ("b", "back", "p", "prev", "-"):
            if self.i == 0:
                self.write("this is the start (n for the next round)")
                return True
            self.go(self.i - 1)
        elif cmd in ("g", "go", "goto", "jump", "j", "r", "round") or cmd.isdigit():
            target = cmd if cmd.isdigit() else arg
            if not target.isdigit():
                self.write("which round? e.g. g 12")
                return True
            self.go(self.r.step_for_round(int(target)))
        elif cmd in ("e", "end", "last"):
            self.go(len(self.r.steps) - 1)
        elif cmd in ("f", "first", "start"):
            self.go(0)
        elif cmd in ("s", "seat", "view", "t", "table"):
            try:
                self.set_seat(None if cmd in ("t", "table") else arg)
            except NotationError as e:
                self.write(str(e))
                return True
        elif cmd in ("a", "all", "everything"):
            message = self.set_everything(not self.everything)
            if message:
                self.write(message)
                return True
        elif cmd in ("d", "decks"):
            self.write(self.decks())
            return True
        elif cmd in ("l", "log"):
            self.write(self.log())
            return True
        elif cmd in ("v", "verdict", "audit"):
            self.write(self.verdict())
            return True
        elif cmd in ("h", "help", "?"):
            self.write(HELP)
            return True
        else:
            self.write(f"unknown command {cmd!r} (h for help)")
            return True
        self.write(self.screen())
        return True

    def run(self, read: Callable[[], str | None], prompt: Callable[[], None] = lambda: None) -> None:
        """Show the position, then answer commands until ``q`` or the end of input (``read`` returns None)."""
        self.write(self.screen())
        while True:
            prompt()
            line = read()
            if line is None or not self.command(line):
                return

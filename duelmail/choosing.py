"""The legal moves of a seat as a numbered list in words, and a player's answer read back into moves.

What a person chooses from instead of learning the notation: ``choices`` lists every move legal now, numbered from
1, each with its words ("Play the King of clubs face down as a Warlord") and its notation (``warlord a#4``);
``read_answer`` takes what the player typed or replied ("2", "1 then 4", "attack bob with the king", notation,
"say good game", "undo", "resign") and turns it into the moves to note. A turn of several steps is read step by
step: each number or phrase after the first is read against the list of the turn as it stands after the ones
before it. Library code: the CLI's ``play`` and a mail reply both use it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from duelmail.errors import DuelmailError, FileRefused, IllegalMove, NotationError
from duelmail.games.base import Awaited, Committed, FalseClaim, NotHeld, Violation, face_words, for_player, in_words
from duelmail.games.cards import Card, CardRef
from duelmail.util.classes import dataclass

if TYPE_CHECKING:
    from duelmail.engine.match import Match
    from duelmail.protocol.identity import Identity


@dataclass(frozen=True)
class Choice:
    """One legal move: its number in the list, what it does in words, its notation (what is noted), and, for a move
    that loses for its own player (ends the game against it, puts it out), that warning in words."""

    number: int
    words: str
    move: str
    warning: str | None = None

    @property
    def said(self) -> str:
        """The words as the list shows them, the warning after: ``End the game (careful: ends the game: ...)``."""
        return f"{self.words} (careful: {self.warning})" if self.warning else self.words


@dataclass
class Answer:
    """What a player's answer asks for: moves to note (each a ``Choice``), words to say, an undo, a resignation."""

    chosen: list[Choice]
    say: str | None = None
    undo: bool = False
    resign: bool = False

    @property
    def moves(self) -> list[str]:
        """The chosen moves in notation, as they are noted and signed."""
        return [c.move for c in self.chosen]


class ChoiceError(NotationError):
    """An answer that names no legal move (or several): says what was not understood and what may be chosen.
    ``rule``: the rule that refused a move the answer did name (``refusal`` then lists the legal moves);
    ``illegal``: that refusal, with its parts."""

    rule: str | None = None
    illegal: IllegalMove | None = None


# -- the list ----------------------------------------------------------------------------------------------
def choices(match: Match, seat: int | None, identity: Identity, noted: Sequence[str] = ()) -> list[Choice]:
    """Every move ``seat`` may make now, after the moves ``noted`` for this turn, numbered from 1 in the order
    the rules list them (the same state gives the same list). Empty when no decision of the seat is awaited."""
    if seat is None or seat not in match.duties or seat in match.current:
        return []
    return choices_in(match.draft(seat, identity, list(noted)), seat)


def choices_in(view: Match, seat: int) -> list[Choice]:
    """``choices`` of a match already drafted to where the seat decides (``Match.draft``)."""
    if view.over() or seat not in view.state.deciders() or not view.ready(seat):
        return []
    known = view.known(seat)
    name = view.names()[seat]
    out = []
    legal = view.state.legal_actions(seat, known)
    for i, action in enumerate(legal, 1):
        said = in_words(view.named(view.state.describe(seat, action)), known, namer=view.state.card_words)
        warned = view.state.warning(seat, action, known) if len(legal) > 1 else None  # forced: nothing to warn of
        if warned:
            warned = for_player(in_words(view.named(warned), known, namer=view.state.card_words))
        out.append(Choice(i, imperative(for_player(said), name), str(action), warned))
    return _told_apart(out, view, known)


def chosen_as_listed(match: Match, seat: int, identity: Identity, moves: Sequence[str],
                     noted: Sequence[str] = ()) -> list[Choice]:
    """``moves`` (notation, each after ``noted`` and the ones before it) as the list shows them, warnings and all; a
    move the list leaves out (a Skirmish plan of its own) is ``Choice`` 0 with its warning found the same way."""
    out: list[Choice] = []
    for i, move in enumerate(moves):
        before = [*noted, *moves[:i]]
        listed = choices(match, seat, identity, before)
        found = next((c for c in listed if c.move == move), None)
        if found is None:
            view = match.draft(seat, identity, before)
            known = view.known(seat)
            warning = view.state.warning(seat, match.game.parse_action(move), known) if listed else None
            found = Choice(0, move, move, in_words(view.named(warning), known, namer=view.state.card_words)
                           if warning else None)
        out.append(found)
    return out


def warned(chosen: Sequence[Choice]) -> list[Choice]:
    """The chosen moves that carry a warning: ``play`` asks before it signs them."""
    return [c for c in chosen if c.warning]


_YES = re.compile(r"[\s,;:]*\b(?:yes|confirm|confirmed|sure|i am sure)\b\s*[.!]*\s*$", re.IGNORECASE)


def confirming(text: str) -> tuple[str, bool]:
    """An answer with its confirmation taken off (``4 yes``: ``4``, True): the words that say a warned move is meant."""
    m = _YES.search(text)
    if m is None or not text[:m.start()].strip():
        return text, False
    return text[:m.start()], True


def twice(answer: Sequence[str], listed: Sequence[Choice]) -> bool:
    """Whether ``answer`` is one number of ``listed`` given twice (``2 2``) for a move the list marks 'careful': "yes,
    move 2", the confirmation a script gives. Said of a move with no warning, the same two numbers stay two moves."""
    if len(answer) != 2 or answer[0].strip() != answer[1].strip() or not answer[0].strip().isdigit():
        return False
    n = int(answer[0])
    return 1 <= n <= len(listed) and listed[n - 1].warning is not None


def asked(chosen: Sequence[Choice]) -> str:
    """What a player is asked before a warned move is signed: each such move and its warning, in words."""
    return "; ".join(f"{c.words!r} {c.warning}" for c in warned(chosen))


def said_moves(match: Match, seat: int, identity: Identity, actions: Sequence[str]) -> list[str]:
    """Noted moves (notation) as the player chose them, in words ("Play the King of clubs face down as a
    Warlord"), each in the turn as it stood before it; a move that no longer reads (refused since) as typed."""
    out = []
    for i, move in enumerate(actions):
        try:
            view = match.draft(seat, identity, list(actions[:i]))
            said = in_words(view.named(view.state.describe(seat, match.game.parse_action(move))), view.known(seat),
                            namer=view.state.card_words)
            out.append(imperative(for_player(said), view.names()[seat]))
        except DuelmailError:
            out.append(move)
    return out


def _nth(k: int) -> str:
    return ("1st", "2nd", "3rd")[k] if k < 3 else f"{k + 1}th"


def _told_apart(listed: list[Choice], view: Match, known) -> list[Choice]:
    """Moves that read alike (two Shieldmates in a hand; "against the face-down Warlord", two of them) get the order
    of their card among the alike ones, by position: "the 2nd Shieldmate", else "(the 2nd)" after the words."""
    alike: dict[str, list[int]] = {}
    for i, c in enumerate(listed):
        alike.setdefault(c.words, []).append(i)
    for same in alike.values():
        if len(same) < 2:
            continue
        split = [listed[i].move.split() for i in same]
        where = next((j for j in range(min(map(len, split))) if len({s[j] for s in split}) > 1), None)
        refs = sorted({s[where] for s in split}, key=_ref_order) if where is not None else []
        for k, i in enumerate(same):
            c = listed[i]
            words = f"{c.words} (the {_nth(k)})"
            if where is not None and _ref_order(split[k][where])[0]:
                ref = CardRef.parse(split[k][where].split("=")[0])
                nth = _nth(refs.index(split[k][where]))
                face = known.get(ref)
                said = view.state.card_words(ref, face) if face is not None else ""
                if said.startswith("the ") and said in c.words:
                    words = c.words.replace(said, f"the {nth} {said[4:]}", 1)
                else:
                    words = f"{c.words} (the {nth})"
            listed[i] = Choice(c.number, words, c.move, c.warning)
    return listed


def _ref_order(token: str) -> tuple:
    try:
        ref = CardRef.parse(token.split("=")[0])
    except NotationError:
        return ("", 0, token)
    return (ref.deck, ref.index, token)


_ES = ("sses", "shes", "ches", "xes", "zes", "oes")
_VERBS = ("accepts", "ends", "passes", "draws", "discards", "takes", "keeps", "reveals", "attacks", "moves", "plays",
          "throws", "stays", "summons", "replaces")
_IRREGULAR = {"has": "have", "is": "be", "does": "do", "goes": "go"}


def imperative(said: str, name: str) -> str:
    """A rules' description of a seat's move ("alice plays the King of clubs face down") as an order to the player
    ("Play the King of clubs face down"): the player's name and the verb's ``s`` go. Other text stays as it is,
    its first letter made capital."""
    text = said.strip()
    for lead in (f"{name}: ", f"{name} "):
        if text.startswith(lead):
            text = text[len(lead):]
            verb, sep, rest = text.partition(" ")
            text = _base_form(verb) + sep + rest
            break
    text = re.sub(r"\b(and|then) (" + "|".join(_VERBS) + r")\b", lambda m: f"{m.group(1)} {_base_form(m.group(2))}",
                  text)
    text = re.sub(rf"\b{re.escape(name)}'s\b", "your", text)
    return text[:1].upper() + text[1:]


def _base_form(verb: str) -> str:
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if low.endswith("ies") and len(low) > 4:
        return verb[:-3] + "y"
    if low.endswith(_ES):
        return verb[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return verb[:-1]
    return verb


def shown_move(move: str, names: Sequence[str]) -> str:
    """A move's notation with players' names for the seat numbers it names (``at 1`` is ``at bob``): a player
    never meets a seat number, and ``play`` reads the names back."""
    def name(m: re.Match) -> str:
        seat = int(m.group(2))
        return m.group(1) + (names[seat] if 0 <= seat < len(names) else m.group(2))

    return re.sub(r"(\b(?:at|target|cancel) |>)(\d+)\b", name, move)


def numbered(listed: Sequence[Choice]) -> list[str]:
    """The list as lines a person reads: ``  1. Play the King of clubs face down as a Warlord``."""
    width = len(str(len(listed)))
    return [f"{c.number:>{width + 2}}. {c.said}" for c in listed]


MANY = 40
"""More legal moves than this are shown grouped (``compact``)."""


def compact(listed: Sequence[Choice], many: int = MANY, width: int = 100) -> list[str]:
    """The list as ``numbered`` gives it, or, when it holds more than ``many`` moves, grouped: the moves that differ
    only in their last word (Grid's squares) share one line, each number beside its last word
    (``Play the Knight face down to ...: 1. b3  2. c2  3. c4``). The numbers are the list's: ``read_answer`` takes
    them as they are."""
    if len(listed) <= many:
        return numbered(listed)
    groups: dict[str, list[Choice]] = {}
    for c in listed:
        head, _, last = c.words.rpartition(" ")
        groups.setdefault(c.said if c.warning else head if head else c.words, []).append(c)  # a warning: alone
    pad = len(str(len(listed))) + 2
    lines: list[str] = []
    for head, group in groups.items():
        if len(group) == 1:
            lines.append(f"{group[0].number:>{pad}}. {group[0].said}")
            continue
        line, indent = f"{' ' * pad}  {head} ...:", " " * (pad + 4)
        for c in group:
            item = f"{c.number}. {c.words.rpartition(' ')[2]}"
            if len(line) + 2 + len(item) > width:
                lines.append(line)
                line = indent + item
            else:
                line += ("  " if not line.endswith(":") else " ") + item
        lines.append(line)
    return lines


# -- a refusal in words ---------------------------------------------------------------------------------------
_LEGAL_NOW = re.compile(r"\. Legal now: .*?\('duelmail moves' lists them all\)", re.DOTALL)
_RULE_TAIL = re.compile(r" ?(?:\(rule ([A-Z]{1,2}-[A-Za-z0-9-]+)\)|\[([A-Za-z]{1,2}-[A-Za-z0-9-]+|notation)\])$")
_USAGE = re.compile(r"(?::|;|,)? ?\(?expected '[^']*'(?:; [^)]*)?\)?")
_GAME_ROUND = re.compile(r"^game [0-9a-f]{6,64}, round \d+: ")


def refusal(match: Match, seat: int, identity: Identity, error: Exception, noted: Sequence[str] = (),
            typed: str = "", commands: bool = True) -> str:
    """Why a move the player typed (words or notation) is refused, as a player reads it: the cards in words, never
    by position; no notation's placeholders; the rule's id only after words, where to read it (``see rule W-7 in
    'duelmail rules warlords'``); then the moves legal now like the one typed, numbered as the list numbers them.
    The rules' own text (positions, rule ids, notation) is ``str(error)``: ``play --verbose`` shows it. Without
    ``commands`` (a reply mail, which comes with the list) no command is named and no move listed.

    A rules' refusal that gives its parts (``IllegalMove``'s ``must``, ``now``, ``case``) is said from them
    (``_composed``); any other from its text."""
    illegal = error if isinstance(error, IllegalMove) else getattr(error, "illegal", None)
    if illegal is not None and (illegal.must or illegal.now or illegal.case):
        text, rule = _composed(match, seat, identity, illegal, noted)
        return _listed(match, seat, identity, getattr(error, "lead", "") + text, rule, noted, typed, commands)
    text = (error.message if isinstance(error, FileRefused) else str(error)).strip()
    rule = getattr(error, "rule", None)
    m = _RULE_TAIL.search(text)
    while m:
        rule = rule or m.group(1) or m.group(2)
        text = text[:m.start()].rstrip()
        m = _RULE_TAIL.search(text)
    text = text.removesuffix(" ('duelmail moves' lists the legal moves)")
    legal_now = bool(_LEGAL_NOW.search(text))
    text = _GAME_ROUND.sub("", _USAGE.sub("", _LEGAL_NOW.sub("", text)))
    move, text = _addressed(text, seat, match)
    said = ""
    try:
        view = match.draft(seat, identity, list(noted))
        text = in_words(view.named(text), view.known(seat), namer=view.state.card_words)
        text = re.sub(rf"\b{re.escape(view.names()[seat])}'s\b", "your", text)
        said = _move_words(match, view, seat, move) if move is not None else ""  # as the list would say it
    except DuelmailError:
        pass
    text = _plain(for_player(text)).rstrip(" .;:")
    if said:
        text = f"{said!r} cannot be played: {text}"
    text = getattr(error, "lead", "") + text
    return _listed(match, seat, identity, text, rule, noted, typed, commands, bool(
        legal_now or isinstance(error, IllegalMove) or getattr(error, "rule", None)))


def _listed(match: Match, seat: int, identity: Identity, text: str, rule: str | None, noted: Sequence[str],
            typed: str, commands: bool, listing: bool = True) -> str:
    """A refusal in words, then where to read its rule and, with ``commands`` and ``listing``, the moves legal now
    like the one typed."""
    if rule and re.fullmatch(r"[A-Z]{1,2}-\d+[a-z]?", rule) and not rule.startswith("P-"):
        text += (f" (see rule {rule} in 'duelmail rules {match.game.spec.id}')" if commands
                 else f" (rule {rule} of the rules of {match.game.spec.title})")
    if not commands or not listing:
        return text
    listed = choices(match, seat, identity, noted)
    verb = (typed.split() or [""])[0].lower()
    alike = [c for c in listed if c.move.split() and c.move.split()[0].lower() == verb] or listed
    if not alike:
        return text
    shown = "; ".join(f"{c.number}. {c.said}" for c in alike[:6])
    more = f"; and {len(alike) - 6} more" if len(alike) > 6 else ""
    return f"{text}. You may now: {shown}{more} ('duelmail moves' lists them all)"


_STATS = {"str": "Strength", "spd": "Speed", "end": "Endurance", "dex": "Dexterity"}


def _composed(match: Match, seat: int, identity: Identity, illegal: IllegalMove, noted: Sequence[str]
              ) -> tuple[str, str | None]:
    """A rules' refusal said from its parts to the seat it refuses: the move as the list says it, then why (``you
    must ...``, ``you already chose your Strength cards in round 3``, ``you named the 2 of clubs, but it is the 7
    of hearts``); and the rule to read."""
    try:
        view = match.draft(seat, identity, list(noted))
    except DuelmailError:  # (the noted moves were each checked as they were noted)
        view = match
    known = view.known(seat)

    def words(text: str) -> str:
        return for_player(in_words(view.named(text), known, namer=view.state.card_words))

    case, rule = illegal.case, illegal.rule
    if isinstance(case, FalseClaim):
        card = view.state.card_words(case.card, case.face)
        if case.as_if:  # a designed card (Grid) is what it is by its design, never by the French face behind it
            return (f"{card} is not {case.said} ({case.what})" if case.what
                    else f"{card} is not {case.said}: it is {face_words(case.face)}"), rule
        if isinstance(case.said, Card):
            return f"you named {face_words(case.said)}, but it is {face_words(case.face)}", rule
        return f"{card} cannot be played as {_article(case.said)} {case.said}", rule
    if isinstance(case, Violation):  # a claim about a secret choice (Skirmish's stats): the rules' words
        return f"that would say something false about your own cards ({words(case.message)})", rule
    if isinstance(case, Committed):
        what = _STATS.get(case.label)
        return (f"you already chose your {what} cards in round {case.round}" if what
                else f"you already made that secret choice in round {case.round}"), rule
    said = _move_words(match, view, seat, illegal.move) if illegal.move else ""
    if isinstance(case, NotHeld):
        face = known.get(case.card)
        card = view.state.card_words(case.card, face) if face is not None else "that card"
        if not case.where:
            why = "you hold no such card" if face is None else f"{card} is not in your hand"
        else:
            why = f"{card} is not {case.where}" + (f" ({words(', '.join(map(str, case.yours)))})" if case.yours
                                                   else "")
        now = False
    elif isinstance(case, Awaited):
        why, now, rule = f"first answer out of turn: {words(case.what)}", False, case.rule
    else:
        why, now = f"you must {words(illegal.must)}" if illegal.must else words(illegal.now or ""), True
    why = why.rstrip(" .;:")
    if not said:
        return f"not possible now: {why}" if now else why, rule
    return f"{said!r} cannot be played{' now' if now else ''}: {why}", rule


def _move_words(match: Match, view: Match, seat: int, move: str) -> str:
    """A refused move as the list would say it (``Play a card face down as a Warlord``), or nothing where the rules
    cannot say it."""
    known = view.known(seat)
    try:
        said = imperative(for_player(in_words(view.named(view.state.describe(seat, match.game.parse_action(move))),
                                              known, namer=view.state.card_words)), view.names()[seat])
    except DuelmailError:
        return ""
    said = said.replace("a face-down card", "a card")
    return re.sub(r"\b((?:10|[2-9JQKA])[SHDC]|X[RB]) \(a card\)", lambda m: face_words(Card.parse(m.group(1))),
                  said)  # a card not held, said by the face typed


def _addressed(text: str, seat: int, match: Match) -> tuple[str | None, str]:
    """A rules' refusal without parts split as the player reads it: the move it refuses in notation (said again in
    words by ``refusal``), then why, the player addressed as 'you' (``seat 0 has`` is ``you have``): what the raise
    sites that speak of their seat in the third person still need."""
    move = None
    for cut in [m.start() for m in re.finditer(": ", text)][:4]:  # "dual d0: str1 ...: why" holds one itself
        head = text[:cut]
        for bare in dict.fromkeys((head, re.sub(r"^(?:action |move )?'?(.*?)'?$", r"\1", head))):
            try:
                parts = [match.game.parse_action(p) for p in bare.split(", ")]
                break
            except DuelmailError:
                parts = []
        if not parts:
            continue
        move, text = (bare if len(parts) == 1 else None), text[cut + 2:]  # several moves: the list says them
        break
    names = match.names()
    me = f"(?:seat {seat}|{re.escape(names[seat])})" if 0 <= seat < len(names) else f"seat {seat}"
    text = re.sub(rf"\b{me} (is|has)\b", lambda m: {"is": "you are", "has": "you have"}[m.group(1)], text)
    text = re.sub(rf"\b{me}'s\b", "your", text)
    text = re.sub(rf"^{me} (must|can|may|\w+s)\b", lambda m: "you " + _base_form(m.group(1)), text)  # "you defend"
    text = re.sub(rf"\b(from|of|for|to) {me}\b", r"\1 you", text)
    return move, text


def _plain(text: str) -> str:
    """The last touches of a refusal said from its text (one without parts): faces in notation said in words, no
    notation's usage hint, no coordinates, a total of card values said as what the cards are worth."""
    text = re.sub(r"(?<![\w#=.-])((?:10|[2-9JQKA])[SHDC]|X[RB])(?![\w-])", lambda m: face_words(Card.parse(m.group(1))),
                  text)
    text = re.sub(r" \((?:write: [^)]*|[a-z]+(?: [A-Z]+)+|'[a-z]+ [^']*'(?:, [^)]*)?)\)", "", text)  # notation's
    # usage and examples: the list of moves that follows says them in words
    text = re.sub(r"\bfrom -?[\d.]+,-?[\d.]+ that is farther than the Speed (\d+) inch(?:es)? you have revealed",
                  lambda m: f"that is farther than the {m.group(1)} inch{'es' if m.group(1) != '1' else ''} your "
                  "revealed Speed allows", text)
    text = re.sub(r"(^|: )a face-down card is not ", r"\1that card is not ", text)  # a position typed, not held
    text = re.sub(r"\b(the [\w ]+?) is \1, not ", r"\1 is not ", text)  # "the 9 of spades is the 9 of spades, not"
    text = re.sub(r"(?<![\w.])(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?) is off the (\d+)x(\d+) table",
                  r"that spot is off the table (it is \3 by \4 inches)", text)
    text = re.sub(r"^((?:\d+ \+ )*\d+) = (\d+) does not beat",
                  lambda m: f"your card{'s are' if '+' in m.group(1) else ' is'} worth {m.group(2)}, which does "
                  "not beat", text)
    return text


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


# -- reading an answer ----------------------------------------------------------------------------------------
_NUMBERS = re.compile(r"\s*\d+(?:\s*(?:,|;|\band\b|\bthen\b|\s)\s*\d+)*\s*[.!]?\s*", re.IGNORECASE)
_STEPS = re.compile(r"\s*(?:;|,?\s+\bthen\b|\n)\s*", re.IGNORECASE)
_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
                 "eight": "8", "nine": "9", "ten": "10", "jack": "j", "queen": "q", "king": "k", "ace": "a",
                 "jacks": "j", "queens": "q", "kings": "k", "aces": "a"}
_FILLER = {"the", "a", "an", "of", "my", "your", "with", "and", "to", "at", "on", "in", "as", "please", "i", "card",
           "cards", "face", "it"}


def read_answer(match: Match, seat: int, identity: Identity, text: str, noted: Sequence[str] = ()) -> Answer:
    """A player's answer as moves to note: a number of the list (``2``), several (``1 4``, ``1 then 4``: each
    read against the list after the ones before), a move in words (``attack bob with the king``), the notation
    (``warlord KC``), ``undo``, ``resign``, or ``say TEXT``. ``ChoiceError`` says what was not understood, with
    "did you mean" and where to see the list."""
    text = text.strip()
    low = text.lower()
    if not text:
        raise ChoiceError("an empty answer: give the number of a move ('duelmail moves' lists them)")
    if low in ("undo", "take back", "take it back"):
        return Answer([], undo=True)
    if low in ("resign", "i resign", "give up", "concede"):
        return Answer([], resign=True)
    said = re.match(r"(?:say|tell)\s*:?\s+(.+)", text, re.IGNORECASE | re.DOTALL)
    if said:
        return Answer([], say=said.group(1).strip())
    if _NUMBERS.fullmatch(text):
        steps = re.findall(r"\d+", text)
    else:
        steps = [s for s in _STEPS.split(text) if s.strip()]
    chosen: list[Choice] = []
    for step in steps:
        chosen.append(read_step(match, seat, identity, step, [*noted, *(c.move for c in chosen)]))
    return Answer(chosen)


def read_step(match: Match, seat: int, identity: Identity, text: str, noted: Sequence[str] = ()) -> Choice:
    """One step of an answer (a number, words or notation) as one move, read against the list after ``noted``: the
    listed ``Choice`` (number 0 for a legal move in notation that the list leaves out, as Skirmish lists a sample
    of its plans)."""
    listed = choices(match, seat, identity, noted)
    text = text.strip()
    if not listed:
        if noted:
            done = ", then ".join(f"{m!r}" for m in said_moves(match, seat, identity, noted))
            raise ChoiceError(f"{text!r} is one move too many: your turn is complete after {done}")
        raise ChoiceError(f"{text!r}: no move is awaited from you now")
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(listed):
            return listed[n - 1]
        if len(listed) == 1:
            raise ChoiceError(f"there is no move {n}: you have only move 1 ('duelmail moves' shows it)")
        raise ChoiceError(f"there is no move {n}: your moves are numbered 1 to {len(listed)} "
                          "('duelmail moves' lists them)")
    by_move = {c.move.lower(): c for c in listed}
    if text.lower() in by_move:
        return by_move[text.lower()]
    found = matching(listed, text)
    if len(found) == 1:
        return found[0]
    if found:
        raise ChoiceError(f"{text!r} fits {len(found)} moves: "
                          + "; ".join(f"{c.number}. {c.words}" for c in found[:6])
                          + ("; ..." if len(found) > 6 else "") + ": give its number")
    from duelmail.app import resolve_move  # the notation of scripts: faces, names and refs

    verbs = {c.move.split()[0].lower() for c in listed if c.move.split()}
    try:
        move = resolve_move(match, seat, identity, text, noted)
        match.game.parse_action(move)
    except NotationError as e:
        said = text.split()[0].lower() in verbs  # notation was meant: say what is wrong with it
        raise ChoiceError(_not_understood(text, listed, e if said else None)) from None
    same = [c for c in listed if c.move == move]
    if same:
        return same[0]
    try:  # checked as far as it can be now: the rules and the claims about one's own cards
        view = match.draft(seat, identity, list(noted))
        action, known = match.game.parse_action(move), view.known(seat)
        words = imperative(for_player(in_words(view.named(view.state.describe(seat, action)), known,
                                               namer=view.state.card_words)), view.names()[seat])
        warning = view.state.warning(seat, action, known)
        match.draft(seat, identity, [*noted, move])
    except DuelmailError as e:
        refused = ChoiceError(f"{text!r} cannot be played now: {e} ('duelmail moves' lists the legal moves)")
        refused.rule = getattr(e, "rule", None)  # a rules' refusal: ``refusal`` says it in words, with the moves
        refused.illegal = e if isinstance(e, IllegalMove) else getattr(e, "illegal", None)
        raise refused from None
    return Choice(0, words, move, in_words(view.named(warning), known, namer=view.state.card_words)
                  if warning else None)


def _tokens(text: str) -> list[str]:
    words = re.findall(r"[a-z0-9#.]+", text.lower().replace("'s", ""))
    return [_NUMBER_WORDS.get(w, w) for w in words if w not in _FILLER]


def _card_tokens(words: list[str]) -> set[str]:
    """Each word, and for a rank-and-suit face (``10h``, ``kc``) its rank (``10``, ``k``) so 'the ten' fits it."""
    out = set(words)
    for w in words:
        m = re.fullmatch(r"(10|[2-9jqka])[shdc]", w)
        if m:
            out.add(m.group(1))
    return out


def matching(listed: Sequence[Choice], text: str) -> list[Choice]:
    """The moves whose words (or notation) hold every word of ``text`` that matters (articles and the like do not);
    where several do, those whose words hold nothing else beyond them, if any."""
    want = _tokens(text)
    if not want:
        return []
    fits = []
    for c in listed:
        have = _card_tokens(_tokens(c.words)) | _card_tokens(_tokens(c.move))
        have |= {w[:1] for w in have if w in ("jack", "queen", "king", "ace")}
        if all(w in have or (len(w) > 3 and any(h.startswith(w) for h in have)) for w in want):
            fits.append(c)
    exact = [c for c in fits if set(_tokens(c.words)) == set(want)]
    return exact or fits


def _not_understood(text: str, listed: Sequence[Choice], notation: NotationError | None) -> str:
    words = [c.words for c in listed]
    close = difflib.get_close_matches(text.lower(), [w.lower() for w in words], n=3, cutoff=0.4)
    if close:  # the best, and those nearly as close
        score = {w: difflib.SequenceMatcher(None, text.lower(), w).ratio() for w in close}
        close = [next(w for w in words if w.lower() == c) for c in close if score[c] >= score[close[0]] - 0.1]
    if not close:
        by_word = {w.lower(): c.words for c in listed for w in c.words.split()}
        first = text.split()[0].lower() if text.split() else ""
        near = difflib.get_close_matches(first, list(by_word), n=1, cutoff=0.6)
        close = [by_word[near[0]]] if near else []
    hint = ""
    if close:
        numbers = {c.words: c.number for c in listed}
        hint = "; did you mean " + " or ".join(f"{numbers[w]}. {w}" for w in close) + "?"
    why = _notation_why(text, notation)  # what the notation says is wrong with it, in words
    shown = text if len(text) <= 80 else text[:77] + "..."
    many = "your only legal move" if len(listed) == 1 else f"any of your {len(listed)} legal moves"
    return (f"{shown!r} is not {many}{why}{hint} "
            "('duelmail moves' lists them; answer with a number)")


def _notation_why(text: str, notation: NotationError | None) -> str:
    """What the notation found wrong with ``text``, as a clause (``: 'extra' is not a card``), or nothing when it
    only says the text back or speaks of the notation's own terms."""
    if notation is None:
        return ""
    said = _USAGE.sub("", str(notation)).strip()
    said = re.sub(r"^'[^']*'(?:: |$)", "", said).strip(" ;:.")
    if not said or re.search(r"\b(?:REF|FACE|TARGET|SEAT|reference|notation)\b|#|\[[A-Za-z-]+\]$", said):
        return ""
    return f" ({said})"

"""The contract between the engine and a game's rules.

A game is declared as data (``GameSpec``, ``DeckSpec``) and registered by name. Its state is a
pure state machine: it never touches files, clocks, keys or the network. Hidden cards are
``CardRef`` positions in locked decks; the rules learn a ref's face only through
``GameState.reveal``. Chance is explicit: the rules ask for a ``Shuffle`` and the engine (the
mental-poker deck, or the plain simulator in tests) performs it.

The engine drives a state like this::

    while not state.is_terminal():
        if (s := state.chance()):            # a shuffle the rules await
            ... run the deck protocol ...; state.apply_shuffle(s)
        for ref, face in newly_public():     # every ref whose visibility is PUBLIC and whose
            state.reveal(ref, face)          # keys are all published
        for seat in state.deciders():        # seats whose decision the rules await
            state.apply(seat, action)

``visibility()`` is how the rules say who may see what: a ref mapped to a seat must become
visible to that seat (its hand, its face-down cards), a ref mapped to ``PUBLIC`` must be
turned face up. Refs not listed stay locked for everyone. The engine turns this into key-share
obligations; the rules never see a key.
"""

from __future__ import annotations

import functools
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from typing import TYPE_CHECKING, Any, ClassVar

from duelmail.errors import Case, DuelmailError, NotationError, SeatNotRemovable
from duelmail.games.cards import Card, CardRef
from duelmail.util.classes import dataclass

if TYPE_CHECKING:
    import random

PUBLIC = -1
"""Visibility marker: the ref must be turned face up for everyone."""


@dataclass(frozen=True)
class Option:
    """A game option, set with ``--option name=value`` (a bare ``--option name`` sets a bool)."""

    name: str
    default: bool | int | str
    help: str

    def coerce(self, text: str | bool | int) -> bool | int | str:
        if isinstance(self.default, bool):
            if isinstance(text, bool):
                return text
            low = str(text).lower()
            if low in ("1", "true", "yes", "on", ""):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise NotationError(f"option {self.name}: expected true/false, got {text!r}")
        if isinstance(self.default, int):
            try:
                return int(text)
            except (TypeError, ValueError):
                raise NotationError(f"option {self.name}: expected a whole number, got {text!r}") from None
        return str(text)


@dataclass(frozen=True)
class DeckSpec:
    """A deck the engine shuffles and locks at set-up. ``faces`` is its canonical card list."""

    id: str
    faces: tuple[Card, ...]
    owner: int | None = None  # the seat that owns it (None: shared stock)
    lockers: tuple[int, ...] | None = None  # seats that shuffle and lock it (None: every seat)


@dataclass(frozen=True)
class GameSpec:
    id: str
    title: str
    rules_version: int
    min_players: int
    max_players: int
    options: tuple[Option, ...] = ()
    digest: str = ""  # path of our rules digest, e.g. seeds/warlords.md
    draws_lots: bool = False  # the source draws lots for who starts: the engine tosses a coin (GameState.apply_toss)
    removes_seats: bool = False  # the rules can remove a seat that left (GameState.remove; protocol section 6c)
    draws_ahead: bool = False  # the rules can name draws no choice changes (GameState.draws_ahead; protocol section 6)
    oldest_rules_version: int | None = None  # the oldest version whose games still play by it (None: rules_version)

    def plays_version(self, version: int) -> bool:
        """Does this duelmail still play a game begun under rules version ``version``?"""
        oldest = self.rules_version if self.oldest_rules_version is None else self.oldest_rules_version
        return oldest <= version <= self.rules_version

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, bool | int | str]:
        """Defaults overlaid with ``given``; unknown names are refused."""
        known = {o.name: o for o in self.options}
        out = {o.name: o.default for o in self.options}
        for name, value in given.items():
            if name not in known:
                names = ", ".join(sorted(known)) or "none"
                raise NotationError(f"{self.id} has no option {name!r} (options: {names})")
            out[name] = known[name].coerce(value)
        return out


@dataclass(frozen=True)
class Shuffle:
    """A chance request: shuffle ``refs`` into a new locked pile called ``new_deck``.

    After the engine performs it, the new pile's cards are ``CardRef(new_deck, i)`` for
    ``i in range(len(refs))``, in shuffled order, faces unknown to everyone.
    """

    new_deck: str
    refs: tuple[CardRef, ...]

    def new_refs(self) -> tuple[CardRef, ...]:
        return tuple(CardRef(self.new_deck, i) for i in range(len(self.refs)))


@dataclass(frozen=True)
class Window:
    """An answer window (protocol section 5b): a point where the rules let ``seat`` act out of turn (an Ace, a
    joker, a replacement, a stop). While it is open the rules await ``seat`` (it is one of ``deciders()``),
    ``pass`` always answers it, and no outcome is fixed: the answer takes effect at the window's point.
    ``rule`` is the digest rule giving the right, ``answers`` the verbs that answer it (``pass`` among them),
    ``what`` the point in words; ``in_turn``: a window of the seat's own turn (a point its own file could not
    reach, as after a battle that needed the others' key shares), not an answer out of turn."""

    seat: int
    rule: str
    what: str
    answers: tuple[str, ...] = ("pass",)
    in_turn: bool = False


@dataclass(frozen=True)
class Committed(Case):
    """A secret choice the seat committed to already: its label (``str``) and the round it did."""

    label: str
    round: int


@dataclass(frozen=True)
class Awaited(Case):
    """An answer out of turn the seat owes before anything else: the window's rule and what it is (``bob attacks
    seat 0: play an Ace outside battle ..., or pass``, seats as numbers)."""

    rule: str
    what: str


@dataclass(frozen=True)
class FalseClaim(Case):
    """A card played as what it is not: the card; what it was said to be, a role (``Warlord``) or a face, or, with
    ``as_if``, what the move needs it to be (``an Ally``); its face; and what the card is in the game's words where
    its face does not say it (``Ram 4, Siege``: Grid's designed cards, said instead of the face)."""

    card: CardRef
    said: str | Card
    face: Card
    as_if: bool = False
    what: str = ""


@dataclass(frozen=True)
class NotHeld(Case):
    """A card a move names that its seat does not have where the move needs it: in its hand (a position typed wrong,
    a card held no more), or ``where`` says where, to the seat (``one of your Warlords``), with ``yours``, the cards
    that are."""

    card: CardRef
    where: str = ""
    yours: tuple[CardRef, ...] = ()


@dataclass(frozen=True)
class Violation(Case):
    """A broken claim found at a reveal: the seat cheated (e.g. a face-down 'Warlord' that is a 7). ``claim``: its
    parts, for a player's words (``choosing.refusal``), where the claim is about a card (two violations are the
    same by seat, rule and message alone). A seat's own move that would break one is refused with it (its
    ``case``) before anything is signed."""

    seat: int
    rule: str
    message: str
    claim: FalseClaim | None = field(default=None, compare=False)


@dataclass(frozen=True)
class GameEvent:
    """Something the rules computed (a battle's totals, damage, a space taken), as pure data.

    ``text`` says it with ``seat N`` for seats and ``deck#i`` refs for cards; a reader's words (see
    ``in_words``) put names for seats and, for every card the reader knows, its face. ``kind`` names the
    outcome (``battle``, ``damage``, ...), ``seats``/``cards``/``numbers`` carry it for programs and tests,
    ``rule`` is the digest rule that computed it."""

    kind: str
    text: str
    seats: tuple[int, ...] = ()
    cards: tuple[CardRef, ...] = ()
    numbers: tuple[int, ...] = ()
    rule: str = ""


_SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
_RANK_WORDS = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}
# (possessive: a deck id's letters and digits are never given back, which could not match '.' or '#' anyway)
_REF = r"(?<![\w#.])[a-z]++[0-9]*+(?:\.[0-9]+)?#[0-9]+\b"
_FACE = r"(?:10|[2-9JQKAjqka])[SHDCshdc]|[Xx][RBrb]"
# a card played as a face: ``8H (s#23)`` (a claim, then its ref), ``s#23=8h`` (notation), or a bare ref (the last
# two as one pattern, its claim optional: one scan of the ref where two alternatives scanned it twice)
_REF_TEXT = re.compile(rf"(?<![\w=])(?P<c1>{_FACE}) \((?P<r1>{_REF})\)|(?P<r2>{_REF})(?:=(?P<c2>{_FACE})(?!\w))?")


# a ref's text as a CardRef: the same few hundred refs are named again and again in events (an error is not kept)
_ref_of = functools.lru_cache(maxsize=4096)(CardRef.parse)
_S_THE = re.compile(r"(\w)'s the (?=\d|[A-Z])")
_ROLE_FACE = re.compile(r"\bthe ([A-Z][a-z]+) \x00(the [^\x01]*)\x01")


def _role_after(m: re.Match) -> str:
    """``_ROLE_FACE``'s replacement ``\\2 (the \\1)`` as a function: a template string is compiled and expanded by the
    ``re`` module's Python code at each call (Python 3.11)."""
    return f"{m[2]} (the {m[1]})"


def face_words(card: Card) -> str:
    """A face in words: ``the Queen of hearts``, ``the 10 of spades``, ``the red joker``."""
    if card.is_joker:
        return "the red joker" if card.suit == "R" else "the black joker"
    return f"the {_RANK_WORDS.get(card.rank, str(card.rank))} of {_SUIT_WORDS[card.suit]}"


def in_words(text: str, known: Mapping[CardRef, Card], names: Sequence[str] | None = None,
             namer: Callable[[CardRef, Card], str] | None = None) -> str:
    """``text`` for a reader: every ref whose face the reader knows becomes that face in words (``namer``: the
    game's words for a card, default ``face_words``), and (given ``names``) every ``seat N`` becomes the seat's
    name. Refs the reader does not know stay refs."""
    def face(m: re.Match) -> str:
        c1, r1, r2, c2 = m.groups()  # _REF_TEXT's four groups, in order (one call: most refs are not known)
        ref = _ref_of(r1 or r2)
        card = known.get(ref) if known else None
        if card is None:
            return m.group(0)
        words = namer(ref, card) if namer else face_words(card)
        said = c1 or c2
        if said is None or Card.parse(said) == card:
            return f"\x00{words}\x01"
        return f"\x00{words} (said to be {face_words(Card.parse(said))})\x01"  # a false claim: both in words

    # a card named by its role and then its face, "the Warlord the King of spades", reads as "the King of spades
    # (the Warlord)"; a text with no ref (every pattern of _REF_TEXT has a '#') and no marks is left as it is
    if "#" in text or "\x00" in text or "\x01" in text:
        text = _REF_TEXT.sub(face, text)
        if "\x00" in text:  # (_ROLE_FACE needs one: most refs in events are cards the reader does not know)
            text = _ROLE_FACE.sub(_role_after, text).replace("\x00", "")
        if "\x01" in text:
            text = text.replace("\x01", "")
    if "'s the " in text:
        text = _S_THE.sub(r"\1's ", text)  # "bob's the 9 of hearts" is "bob's 9 of hearts"
    if names:
        text = re.sub(r"\bseat (\d+)\b",
                      lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names) else m.group(0), text)
    return text


# A card a reader has not seen, in words (issue 39): never its position. ``in_words`` leaves such refs as refs (the
# replay names them later, once the audit shows them); these say them to a player. The replay page's script does
# the same (``duelmail/replay/page.py``, ``UNSEEN``).
_UNSEEN = (
    (re.compile(rf"\b(the|a|an|his|her|their|your) ([A-Z][a-z]+) ({_REF})"), r"\1 face-down \2"),
    (re.compile(rf"({_REF}) \(face[ -]down\)"), "a face-down card"),
    (re.compile(rf"({_REF}) face[ -]down"), "a card face down"),
    (re.compile(rf"(\w)'s ({_REF})"), r"\1's face-down card"),
    (re.compile(_REF), "a face-down card"),
)
# what a table adds to a card a reader sees: its position after its face (``6D a#5``) or before its name
# (``a#20 Outrider 4``), a face-down card's after its back (``[??] b#9``)
_TABLE_REF = re.compile(rf"(?<=[\]SHDCRB]) ({_REF})|({_REF}) (?=[A-Z])")
_GRID_DOWN = re.compile(rf"({_REF}) \[face down(?:, seen)?\]")
_CLAIMED = re.compile(rf"({_REF})=({_FACE})(?!\w)")  # a card played as a face (``w#3=7h``): said by that face
# a rule's id standing alone (``(S-18)``, ``(rule P-turn)``, ``[W-7]``): its words are the sentence before it
_BARE_RULE = re.compile(r" ?[(\[](?:rule )?[A-Z]{1,2}-[A-Za-z0-9-]+(?:, [A-Z]{1,2}-[A-Za-z0-9-]+)*[)\]]")


def unseen_words(text: str) -> str:
    """``text`` (already ``in_words``) with every card still named by its position said in words: ``alice plays
    a#4 face down`` -> ``alice plays a card face down``, ``the Warlord b#6`` -> ``the face-down Warlord``,
    ``bob draws b#5`` -> ``bob draws a face-down card``."""
    if "#" not in text:
        return text
    for pattern, words in _UNSEEN:
        text = pattern.sub(words, text)
    return text


def replay_words(text: str) -> str:
    """An event as the replay page says it (``duelmail/replay/page.py``, ``UNSEEN``): a card played as a face by
    that face, a card the view has not seen in words (``unseen_words``); the rest, rule ids too, as recorded. The
    terminal replay says its events so."""
    if "#" not in text:
        return text
    return unseen_words(_CLAIMED.sub(lambda m: face_words(Card.parse(m.group(2))), text))


def for_player(text: str) -> str:
    """A rules' text (a table, an event, a prompt) as a player reads it: no card position (a seen card by its face
    alone, another in words, see ``unseen_words``) and no rule id standing alone (``(S-18)``; the protocol's words
    stay in ``history --protocol`` and ``verify``)."""
    if "#" in text:
        text = _CLAIMED.sub(lambda m: face_words(Card.parse(m.group(2))), text)
        text = _GRID_DOWN.sub("a face-down card", text)
        text = _TABLE_REF.sub("", text)
        text = unseen_words(text)
    return _BARE_RULE.sub("", text) if "-" in text else text


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word if n == 1 else many or word + 's'}"


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winners`` may be empty (a draw)."""

    winners: tuple[int, ...]
    reason: str
    cheaters: tuple[int, ...] = ()

    def describe(self, names: Sequence[str] | None = None) -> str:
        def name(s: int) -> str:
            return names[s] if names else f"seat {s}"

        if not self.winners:
            return f"draw: {self.reason}"
        return f"{' and '.join(name(s) for s in self.winners)} won: {self.reason}"


def ended(result: Outcome) -> str:
    """A warning's words for a move that ends the game as ``result`` (``ends the game, seat 1 wins: ...``)."""
    if not result.winners:
        return f"ends the game in a draw ({result.reason})"
    who = " and ".join(f"seat {s}" for s in result.winners)
    return f"ends the game, {who} win{'s' if len(result.winners) == 1 else ''}: {result.reason}"


class Action:
    """Marker base for actions: immutable, hashable, ``parse(str(a)) == a`` via the game's parser.

    A *secret* choice (a dice plan, a bid) returns a label from ``sealed()``: the engine then
    writes ``sealed LABEL`` in the public log with a commitment to the real action, seals the
    real action to its author (a memo only the author's identity opens), and hands the rules
    ``Sealed(label)``. When ``GameState.openings()`` asks for the label, the engine opens the
    commitment and calls ``GameState.apply_open`` with the real action.
    """

    def sealed(self) -> str | None:
        return None


MAX_NOTATION = 256  # characters in one action; the longest honest one is near 40


def check_notation(text: object, title: str) -> str:
    """Refuse what is not an action's text before parsing it: not a string, too long, or with control characters."""
    if not isinstance(text, str):
        raise NotationError(f"a {title} action is text, not {type(text).__name__} {text!r}"[:200])
    if len(text) > MAX_NOTATION:
        raise NotationError(f"{title} action {text[:40]!r}... is {len(text)} characters (at most {MAX_NOTATION})")
    if not text.isprintable():
        bad = next(c for c in text if not c.isprintable())
        raise NotationError(f"{title} action {text!r}: character U+{ord(bad):04X} is not printable")
    return text


def split_verb(text: str, title: str, usage: Mapping[str, str]) -> tuple[str, list[str]]:
    """An action's verb (lower case, one of ``usage``) and its arguments; ``NotationError`` quoting the text."""
    words = check_notation(text, title).split()
    if not words:
        raise NotationError(f"empty {title} action {text!r} (verbs: {', '.join(usage)})")
    verb = words[0].lower()
    if verb not in usage:
        raise NotationError(f"unknown {title} verb in {text!r} (verbs: {', '.join(usage)})")
    return verb, words[1:]


def ref_word(text: str, word: str, example: str) -> CardRef:
    """``word`` of the action ``text`` as a card reference; ``NotationError`` quoting both, with ``example``."""
    try:
        return CardRef.parse(word)
    except NotationError:
        raise NotationError(f"{text!r}: {word!r} is not a card reference like {example}") from None


def played_word(text: str, word: str, deck: str, faces: str, fold_case: bool = False) -> tuple[CardRef, Card]:
    """``word`` of the action ``text`` as ``REF=face`` (``s#17=8h``): a card and the face its player claims for it
    (the notation of the games whose cards are played face up). ``deck`` and ``faces`` make the examples of the
    error; ``fold_case``: the reference is read in lower case."""
    r, eq, f = word.partition("=")
    if not eq:
        raise NotationError(f"{text!r}: {word!r} must name the card and its face, like {deck}#17=8h")
    try:
        face = Card.parse(f)
    except NotationError:
        face = None
    ref = ref_word(text, r.lower() if fold_case else r, f"{deck}#17")
    if face is None:
        raise NotationError(f"{text!r}: {f!r} is not a card face like {faces}")
    return ref, face


@dataclass(frozen=True)
class Sealed(Action):
    """The public face of a secret choice: only its label is known until it is opened."""

    label: str

    def __str__(self) -> str:
        return f"sealed {self.label}"


class Known(dict):
    """What one seat can see: faces (``ref -> card``, the mapping itself), plus ``sealed``, the seat's
    own sealed choices so far (``label -> action``), which only its author can open before the audit.

    A plain dict is a ``Known`` with no sealed choices: games read them as ``getattr(known, "sealed", {})``.
    """

    def __init__(self, faces: Mapping[CardRef, Card] = (), sealed: Mapping[str, Action] | None = None):
        super().__init__(faces)
        self.sealed: dict[str, Action] = dict(sealed or {})


class GameState(ABC):
    """A game position. Mutable: ``apply`` changes it in place; use ``clone`` to branch.

    Every outcome the rules compute is told as a ``GameEvent`` (``tell``) when an action, a reveal or a shuffle
    settles it; the engine takes them (``take_told``) into its log after each step."""

    _told: tuple = ()  # a tuple, so a clone that shares it by ``__dict__`` copy never changes the original
    rules_version: int | None = None  # the version the game was begun under (None: the newest; Game.new_state_under)

    def plays_before(self, version: int) -> bool:
        """Was this game begun under a rules version older than ``version``? Its old rules then go on."""
        return self.rules_version is not None and self.rules_version < version

    def tell(self, kind: str, text: str, seats=(), cards=(), numbers=(), rule: str = "") -> None:
        """Record an outcome in words and data (see ``GameEvent``)."""
        self._told = (*self._told, GameEvent(kind, text, tuple(seats), tuple(cards), tuple(numbers), rule))

    def take_told(self) -> tuple[GameEvent, ...]:
        """The events told since the last call (and forget them)."""
        out, self._told = self._told, ()
        return out

    @abstractmethod
    def clone(self) -> GameState: ...

    def snapshot(self, previous: GameState | None) -> GameState:
        """A copy of this state to keep and never change (a replay's step): like ``clone``, but a game may share with
        ``previous`` (the last snapshot, never changed either) the parts that are the same in both."""
        return self.clone()

    # -- whose move ---------------------------------------------------------
    @abstractmethod
    def deciders(self) -> tuple[int, ...]:
        """Seats whose decision the rules await now; empty while waiting for reveals or chance."""

    def chance(self) -> Shuffle | None:
        """A shuffle the rules await before anything else can happen, or None."""
        return None

    def apply_shuffle(self, shuffle: Shuffle) -> None:
        raise DuelmailError(f"{type(self).__name__} never asks for a shuffle")

    @abstractmethod
    def legal_actions(self, seat: int, known: Mapping[CardRef, Card]) -> list[Action]:
        """Every legal action for ``seat``; ``known`` holds the faces that seat can see."""

    @abstractmethod
    def apply(self, seat: int, action: Action) -> None:
        """Apply a decision, checked against public knowledge only; raise ``IllegalMove`` naming the rule.

        Claims about face-down cards (a 'Warlord' played face down) are recorded and
        checked when the card is revealed.
        """

    # -- hidden information --------------------------------------------------
    @abstractmethod
    def visibility(self) -> Mapping[CardRef, int]:
        """Refs that must be visible to one seat (value: that seat) or to everyone (``PUBLIC``).

        A state may give the same mapping again while it has not changed (Warlords keeps it); it never changes a
        mapping once given, so the engine may keep what it read from one (``Match._settle``)."""

    def draws_ahead(self) -> Mapping[CardRef, int]:
        """Private draws the rules already make certain, each with the seat that will draw it: a card no choice of
        anyone, reshuffle or end by the rules can take from that drawer or change, and that comes before any
        decision of the drawer (protocol section 6, "Shares ahead of a draw"). The other lockers may publish their
        key shares for it early, in a file they send anyway. It must not depend on the order a round's files are
        applied in (a file without actions changes nothing here). Default: none."""
        return {}

    @abstractmethod
    def reveal(self, ref: CardRef, face: Card) -> list[Violation]:
        """The engine tells the rules that ``ref`` is face up as ``face``.

        Returns the claims this breaks (usually none). A broken claim is a cheat: the rules
        also settle its consequence in the state (normally the cheater forfeits).
        """

    @abstractmethod
    def public_faces(self) -> Mapping[CardRef, Card]:
        """Every ref revealed so far. A mapping given again only grows, in the order revealed (the engine's reveals and
        the replay's steps read only the refs after those they read last)."""

    def retired(self) -> frozenset[int]:
        """Seats out for good whose hidden cards and secret choices no longer matter to play (a player put out of
        a multiplayer game). A retired seat publishes its per-game seed in its next file; from then on the engine
        derives its key shares and deck passes, never awaits it again, and every card it alone still kept locked
        is open to all: the rules must make such cards (its hand) ``PUBLIC``. Must depend on public state only,
        and a seat once retired stays retired. A removed seat (``remove``) is retired."""
        return frozenset()

    # -- a seat removed by escrow (protocol section 6c) -------------------------------------
    removed: frozenset[int] = frozenset()  # seats removed so far; a state sets its own on the first removal

    def remove(self, seat: int) -> None:
        """``seat`` stopped answering and was removed after a final timeout claim (protocol section 6c): change the
        state into the one where that seat has left as a player who is out, its cards where the game's rules send
        such a player's cards (its hand turned ``PUBLIC``). Afterwards the seat is in ``removed`` and ``retired()``,
        and never again in ``deciders()``, ``windows()`` or ``openings()``; a battle, spell or answer it was part of
        is settled by the game's ruling, and if one seat is left the game is over. Pure, like ``apply``.

        Games that can do it say so in their spec (``GameSpec.removes_seats``); the default refuses, and the engine
        keeps the forfeit of the whole game."""
        raise SeatNotRemovable(f"{type(self).__name__}: this game cannot remove seat {seat}; a seat that stops "
                               "answering forfeits the game")

    def _check_removable(self, seat: int, n: int, rule: str) -> None:
        """Refuse a removal the rules cannot make: no such seat, a seat already removed, or the game is over."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
            raise SeatNotRemovable(f"cannot remove seat {seat!r}: the seats are 0 to {n - 1} (rule {rule})")
        if seat in self.removed:
            raise SeatNotRemovable(f"cannot remove seat {seat}: it was removed already (rule {rule})")
        if self.is_terminal():
            raise SeatNotRemovable(f"cannot remove seat {seat}: the game is over (rule {rule})")

    def apply_toss(self, starter: int) -> None:
        """The seats' coin toss (protocol section 10) chose ``starter`` to play first: called once, after the
        set-up's deck passes and before the first decision, in games whose spec ``draws_lots``."""
        raise DuelmailError(f"{type(self).__name__} draws no lots")

    def windows(self) -> tuple[Window, ...]:
        """Answer windows open now (protocol section 5b): seats the rules await to act out of turn, each also in
        ``deciders()``. While one is open ``is_terminal()`` must be false: no outcome is fixed while an answer is
        still possible. Must depend on public state only (whether a window opens never tells a hand)."""
        return ()

    def default_action(self, seat: int) -> Action | None:
        """The answer played for ``seat`` when it lets a deadline pass (None: the seat forfeits)."""
        return None

    def answer_deadline_hours(self, seat: int) -> int | None:
        """A short deadline, in hours, for ``seat``'s decision now (an attacked player's answer), in place of
        the time control's days per move and bank; None: the ordinary deadline."""
        return None

    def openings(self) -> Mapping[int, tuple[str, ...]]:
        """Sealed choices the rules need opened now: seat -> labels (decision-free for that seat)."""
        return {}

    def apply_open(self, seat: int, label: str, action: Action) -> None:
        """The engine opened ``seat``'s sealed choice ``label``: it was ``action`` (commitment checked)."""
        raise DuelmailError(f"{type(self).__name__} has no sealed choices")

    def check_sealed(self, seat: int, action: Action, own: Mapping[str, Action]) -> None:
        """The author's own check of a secret choice, right after ``apply`` took it as ``Sealed``: raise
        ``IllegalMove`` if the real ``action`` could never be opened. ``own`` is the author's sealed choices so far
        (this one included). Runs only where the plaintext is known (the sender's draft), never on receipt."""
        return None

    def audit(self, faces: Mapping[CardRef, Card]) -> list[Violation]:
        """At the end, with every face known, check every claim ever made (revealed or not)."""
        return []

    def audit_sealed(self, choices: Mapping[tuple[int, str], Action]) -> list[Violation]:
        """At the end, with every sealed choice opened (seat, label) -> action, check them all."""
        return []

    # -- the end --------------------------------------------------------------
    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None: ...

    # -- warnings ---------------------------------------------------------------
    def warning(self, seat: int, action: Action, known: Mapping[CardRef, Card]) -> str | None:
        """Words that mark a legal move that loses for its own player (``ends the game, seat 1 wins: ...``), found
        by applying it to a copy of this state: a move that ends the game without ``seat`` among the winners
        (``ended``), or puts ``seat`` out of the game. None for any other move, and for a secret choice (its effect
        shows only when it is opened: a game that can tell from ``known`` says so in its own ``warning``). Pure:
        reads ``known``, never a file or a key."""
        if action.sealed() is not None or self.is_terminal():
            return None
        after = self.clone()
        try:
            after.apply(seat, action)
        except DuelmailError:  # not playable as it stands (checked later, against the player's claims)
            return None
        after.take_told()
        result = after.outcome() if after.is_terminal() else None
        if result is not None and seat not in result.winners:
            return ended(result)
        if seat in after.retired() and seat not in self.retired():
            return "puts you out of the game"
        return None

    # -- words ------------------------------------------------------------------
    def prompt(self, seat: int) -> str:
        """What the rules wait for from ``seat``, in words ("defend against ...")."""
        return "your move" if seat in self.deciders() else "nothing"

    def card_name(self, ref: CardRef, face: Card) -> str:
        """What a player calls this card: its face (``9H``), or in a game of designed cards, its name."""
        return str(face)

    def describe(self, seat: int, action: Action) -> str:
        """One line of prose for a log or an email summary."""
        return f"seat {seat}: {action}"

    def card_words(self, ref: CardRef, face: Card) -> str:
        """A card in an event's words, once its face is known (default: ``the Queen of hearts``)."""
        return face_words(face)

    @abstractmethod
    def render(self, seat: int | None, known: Mapping[CardRef, Card]) -> str:
        """The table as ``seat`` sees it (``None``: a spectator), with ``known`` faces filled in."""

    def render_views(self, views: Sequence[tuple[int | None, Mapping[CardRef, Card]]]) -> list[str]:
        """``render(seat, known)`` for each pair of ``views``, in order (the replay page renders 2n + 1 views of each
        step): a game may find once what does not depend on the view."""
        return [self.render(seat, known) for seat, known in views]

    def picture(self, seat: int | None, known: Mapping[CardRef, Card],
                names: Sequence[str] | None = None) -> str | None:
        """The table as ``seat`` sees it (``None``: a spectator) as one SVG picture (``games/svg.py``), from the same
        state and ``known`` faces as ``render``; ``names`` are the players' names. None: the game draws none."""
        return None

    def picture_views(self, views: Sequence[tuple[int | None, Mapping[CardRef, Card]]],
                      names: Sequence[str] | None = None) -> list[str | None]:
        """``picture(seat, known, names)`` for each pair of ``views``, in order, as ``render_views`` does."""
        return [self.picture(seat, known, names) for seat, known in views]


class FaceClaims:
    """For a ``GameState`` whose players play cards face down *as* something (a face, a role).

    ``self.claims`` maps a ref to ``(seat, said, rule)``; ``self.faces`` holds the revealed faces. A claim
    is checked when its card is revealed (a broken one is a cheat the game settles in ``_forfeit``) and
    again by the audit for every card, revealed or not. Games override ``_breaks`` (what a claim
    allows), ``_violation`` (its words) and ``_revealed`` (bookkeeping when a card turns up)."""

    faces: dict[CardRef, Card]
    claims: dict[CardRef, tuple]
    # True: a claimed card turned face up must open before the file's next action (engine: P-unchecked).
    # Summoner sets it; Warlords and Wizard turn claimed cards face up only for a while within a file.
    checked_at_once = False

    def public_faces(self) -> Mapping[CardRef, Card]:
        return self.faces

    def reveal(self, ref: CardRef, face: Card) -> list[Violation]:
        if ref in self.faces:
            return []
        self.faces[ref] = face
        self._revealed(ref)
        claim = self.claims.get(ref)
        if claim is not None and self._breaks(face, claim):
            v = self._violation(ref, face, claim)
            self._forfeit(v)
            return [v]
        self._after_reveal(ref)
        return []

    def audit(self, faces: Mapping[CardRef, Card]) -> list[Violation]:
        return [self._violation(ref, faces[ref], claim) for ref, claim in self.claims.items()
                if faces.get(ref) is not None and self._breaks(faces[ref], claim)]

    def _breaks(self, face: Card, claim: tuple) -> bool:
        return face != claim[1]

    def _violation(self, ref: CardRef, face: Card, claim: tuple) -> Violation:
        seat, said, rule = claim
        return Violation(seat, rule, f"seat {seat} played {ref} as {said}, but it is {face}",
                         FalseClaim(ref, said, face))

    def _revealed(self, ref: CardRef) -> None:
        """Bookkeeping as a card turns up (before its claim is checked)."""

    def _after_reveal(self, ref: CardRef) -> None:
        """What an honest reveal sets going (a battle that can now be resolved, say)."""

    def _forfeit(self, v: Violation) -> None:
        raise NotImplementedError


class Bot(ABC):
    """Chooses actions for a seat from what that seat can see. Randomness is a parameter."""

    name: ClassVar[str] = "bot"

    @abstractmethod
    def choose(self, state: GameState, seat: int, known: Mapping[CardRef, Card],
               rng: random.Random) -> Action: ...


class RandomBot(Bot):
    name = "random"

    def choose(self, state, seat, known, rng):
        return rng.choice(state.legal_actions(seat, known))


class Bots(Mapping):
    """A game's bots by name, each a class or ``"module:Class"`` imported when that bot is first asked for: a
    command that plays no bot never loads a game's bot code."""

    def __init__(self, bots: Mapping[str, Callable[[], Bot] | str]):
        self._bots = dict(bots)

    def __getitem__(self, name: str) -> Callable[[], Bot]:
        bot = self._bots[name]
        if isinstance(bot, str):
            import importlib

            module, _, attr = bot.partition(":")
            bot = self._bots[name] = getattr(importlib.import_module(module), attr)
        return bot

    def __iter__(self):
        return iter(self._bots)

    def __len__(self) -> int:
        return len(self._bots)


class Game(ABC):
    """A game's entry in the registry: its spec, decks, starting state, notation and bots."""

    spec: GameSpec
    bots: Mapping[str, Callable[[], Bot]] = {}

    @abstractmethod
    def decks(self, nseats: int, options: Mapping[str, Any]) -> tuple[DeckSpec, ...]: ...

    @abstractmethod
    def new_state(self, nseats: int, options: Mapping[str, Any]) -> GameState: ...

    def new_state_under(self, nseats: int, options: Mapping[str, Any], rules_version: int) -> GameState:
        """``new_state`` for a game begun under ``rules_version`` (its genesis says which): a game begun under an
        older version the spec still plays (``GameSpec.plays_version``) goes on by its old rules."""
        state = self.new_state(nseats, options)
        state.rules_version = rules_version
        return state

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Parse the game's notation; raise ``NotationError`` quoting the text."""

    def sealed_size(self, label: str) -> int:
        """The fixed block size (bytes, 2 of them the length) of the sealed choice ``label``'s kind: every
        memo carries each choice padded to it, so its size tells nothing of the choice (protocol §6a).
        A game with sealed choices declares it beside their notation; ``NotationError`` for an unknown label."""
        raise NotationError(f"{self.spec.id} has no sealed choice labelled {label!r}")


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    _REGISTRY[game.spec.id] = game
    return game


def get_game(name: str) -> Game:
    """The game registered as ``name``, importing its folder ``duelmail/games/NAME/`` (and no other) the first
    time it is asked for."""
    if name not in _REGISTRY:
        from duelmail import games

        if name in games.folders():
            games.load(name)
    try:
        return _REGISTRY[name]
    except KeyError:
        raise NotationError(f"no game called {name!r} (games: {', '.join(game_names())})") from None


def game_names() -> list[str]:
    """Every game's name, found by its folder without importing it."""
    from duelmail import games

    return sorted(set(games.folders()) | set(_REGISTRY))

"""Grid Duel card data: the decks we designed, read from TOML files (digest: ``seeds/grid.md``, G-2, G-3).

The engine knows only French card faces (``Card``). A designed deck's card *i* is played under the
face ``standard_deck()[i]`` (G-3): the face is just a name the mental-poker deck can lock and open;
everything the card *is* (strength, abilities, arrows, text) lives in the deck file and is looked up
here by face. The ordinary-pack deck uses real faces: seat 0 plays the red half of one pack, seat 1
the black half, so a single pack serves a game.

Deck files live in ``duelmail/games/grid/decks/*.toml``; they are read once, at import, and never
again (the rules themselves touch no file).
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

from duelmail.errors import DuelmailError
from duelmail.games.cards import RANK_VALUES, Card, standard_deck
from duelmail.util.classes import dataclass

# Arrow names as printed on a card, relative to the card's top: (dx, dy) with the top pointing +y.
ARROWS = {"F": (0, 1), "FR": (1, 1), "R": (1, 0), "BR": (1, -1), "B": (0, -1), "BL": (-1, -1), "L": (-1, 0),
          "FL": (-1, 1)}
RARE = {
    "rooted": "Rooted: never moves; adds 2 to its strength when defending.",
    "swift": "Swift: may move two spaces in a straight line, over an empty space.",
    "scout": "Scout: when revealed, every enemy face-down card orthogonally next to it is revealed.",
    "snare": "Snare: if an enemy attack reveals it, every attacking card in its space is discarded.",
    "siege": "Siege: adds 2 to its strength when attacking.",
}
PACK_SUITS = ("HD", "SC")  # seat 0 plays the red half of the pack, seat 1 the black half (G-3)
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_WORDS = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}


@dataclass(frozen=True)
class CardDef:
    """What a card is: its strength and abilities, as written on it (G-3, G-19..G-25)."""

    name: str
    strength: int
    strike: int = 0
    boost: int = 0
    arrows: tuple[tuple[int, int], ...] = ()
    ally: bool = False
    merge: bool = False
    rare: str = ""
    text: str = ""

    @property
    def has_arrows(self) -> bool:
        return bool(self.arrows) and bool(self.strike or self.boost)

    def abilities(self) -> list[str]:
        out = []
        names = {v: k for k, v in ARROWS.items()}
        arrows = " ".join(names[a] for a in self.arrows)
        if self.strike:
            out.append(f"Strike {self.strike} [{arrows}]")
        if self.boost:
            out.append(f"Boost {self.boost} [{arrows}]")
        if self.ally:
            out.append("Ally")
        if self.merge:
            out.append("Merge")
        if self.rare:
            out.append(self.rare.capitalize())
        return out

    def summary(self) -> str:
        """``Archer 2, Strike 2 [F FL FR]``."""
        return ", ".join([f"{self.name} {self.strength}", *self.abilities()])


@dataclass(frozen=True)
class DeckDef:
    id: str
    name: str
    description: str
    notes: str
    pack: bool
    entries: tuple[tuple[str, CardDef], ...]  # (face key, card): a designed deck's index, or a pack face

    def cards(self, seat: int) -> tuple[tuple[Card, CardDef], ...]:
        """The deck as ``seat`` plays it: (face, card) in canonical order (G-3)."""
        if not self.pack:
            faces = standard_deck()
            return tuple((faces[i], c) for i, (_, c) in enumerate(self.entries))
        out = []
        for key, c in self.entries:
            rank, which = key[:-1], int(key[-1])
            suit = PACK_SUITS[seat % 2][which]
            face = Card(RANK_VALUES.get(rank) or int(rank), suit)
            name = c.name.replace("{suit}", SUIT_NAMES[suit])
            out.append((face, CardDef(name, c.strength, c.strike, c.boost, c.arrows, c.ally, c.merge, c.rare,
                                      c.text)))
        return tuple(out)

    def table(self, seat: int) -> dict[Card, CardDef]:
        return dict(self.cards(seat))


def _card(d: dict, where: str) -> CardDef:
    known = {"name", "count", "strength", "strike", "boost", "arrows", "ally", "merge", "rare", "text", "ranks",
             "suits"}
    extra = set(d) - known
    if extra:
        raise DuelmailError(f"{where}: unknown field(s) {sorted(extra)}")
    arrows = tuple(d.get("arrows", ()))
    for a in arrows:
        if a not in ARROWS:
            raise DuelmailError(f"{where}: arrow {a!r} is not one of {', '.join(ARROWS)}")
    rare = d.get("rare", "")
    if rare and rare not in RARE:
        raise DuelmailError(f"{where}: rare ability {rare!r} is not one of {', '.join(RARE)}")
    strike, boost = int(d.get("strike", 0)), int(d.get("boost", 0))
    if (strike or boost) and not arrows:
        raise DuelmailError(f"{where}: a Strike or Boost card needs arrows")
    if arrows and not (strike or boost):
        raise DuelmailError(f"{where}: arrows without Strike or Boost")
    if d.get("ally") and d.get("merge"):
        raise DuelmailError(f"{where}: a card is Ally or Merge, not both")
    text = d.get("text", "")
    if rare and not text:
        raise DuelmailError(f"{where}: a rare ability must be written on the card (text)")
    strength = 0 if d["strength"] == "rank" else int(d["strength"])
    return CardDef(d["name"], strength, strike, boost, tuple(ARROWS[a] for a in arrows),
                   bool(d.get("ally", False)), bool(d.get("merge", False)), rare, text)


def parse_deck(text: str, where: str) -> DeckDef:
    data = tomllib.loads(text)
    for key in ("id", "name", "description", "notes", "cards"):
        if key not in data:
            raise DuelmailError(f"{where}: missing {key!r}")
    pack = data.get("kind", "designed") == "pack"
    entries: list[tuple[str, CardDef]] = []
    for i, d in enumerate(data["cards"]):
        c = _card(d, f"{where} card {i + 1}")
        if pack:
            for rank in d["ranks"]:
                value = RANK_VALUES.get(rank) or int(rank)
                for which in d["suits"]:
                    name = c.name.replace("{rank}", RANK_WORDS.get(value, str(value)))
                    strength = value if d["strength"] == "rank" else c.strength
                    entries.append((f"{rank}{which}", CardDef(name, strength, c.strike, c.boost, c.arrows, c.ally,
                                                              c.merge, c.rare, c.text)))
        else:
            entries += [(str(len(entries) + k), c) for k in range(int(d.get("count", 1)))]
    if len(entries) > 52:
        raise DuelmailError(f"{where}: a deck has at most 52 cards (one per French face), not {len(entries)}")
    if pack and len({k for k, _ in entries}) != len(entries):
        raise DuelmailError(f"{where}: a pack card is listed twice")
    return DeckDef(data["id"], data["name"], data["description"].strip(), data["notes"].strip(), pack,
                   tuple(entries))


@cache
def library() -> dict[str, DeckDef]:
    """Every deck shipped with duelmail, by id (read once)."""
    out = {}
    for f in sorted(resources.files("duelmail.games.grid.decks").iterdir(), key=lambda p: p.name):
        if f.name.endswith(".toml"):
            d = parse_deck(f.read_text(encoding="utf-8"), f"decks/{f.name}")
            if d.id != f.name[:-5]:
                raise DuelmailError(f"decks/{f.name}: id {d.id!r} must match the file name")
            out[d.id] = d
    return out


def deck(name: str) -> DeckDef:
    try:
        return library()[name]
    except KeyError:
        raise DuelmailError(f"no Grid Duel deck called {name!r} (decks: {', '.join(sorted(library()))})") from None

"""Battlefield scenarios (K-28..K-33): the table's size, start points and terrain pieces, from TOML text.

A scenario is pinned by the genesis: the option ``battlefield`` names a shipped scenario
(``duelmail/games/skirmish/battlefields/NAME.toml``, read once at import) or holds the whole TOML
text of a custom one, so every receiver checks moves against the same terrain. The format::

    name = "Ruined keep"
    width = 48                      # inches
    height = 36
    starts = [[4, 18], [44, 18]]    # base centres, one per seat in seat order
    [[terrain]]
    id = "gate"                     # lowercase letters, digits, '-'
    kind = "blocking"               # level | uneven | blocking
    polygon = [[22, 10], [26, 10], [26, 11], [22, 11]]   # or: circle = [x, y, radius]
    destructible = 3                # weight (or projectile = weight)
"""

from __future__ import annotations

import re
from fractions import Fraction
from importlib import resources

from duelmail.errors import DuelmailError, NotationError
from duelmail.games.skirmish.geometry import Circle, Point, Polygon, Shape, convex, num
from duelmail.util import toml
from duelmail.util.classes import dataclass

KINDS = ("level", "uneven", "blocking")
ID = re.compile(r"[a-z][a-z0-9-]{0,23}")
MAX_TEXT = 1 << 16  # a scenario's TOML text; the shipped ones are under 2 KiB


@dataclass(frozen=True)
class Piece:
    id: str
    kind: str
    shape: Shape
    destructible: int = 0  # weight, 0: not destructible
    projectile: int = 0  # weight, 0: not a projectile

    @property
    def weight(self) -> int:
        return self.destructible or self.projectile


@dataclass(frozen=True)
class Battlefield:
    name: str
    width: Fraction
    height: Fraction
    starts: tuple[Point, ...]
    pieces: tuple[Piece, ...]

    def piece(self, pid: str) -> Piece | None:
        return next((p for p in self.pieces if p.id == pid), None)

    def on_table(self, p: Point) -> bool:
        return 0 <= p[0] <= self.width and 0 <= p[1] <= self.height


def _point(v, where: str) -> Point:
    if not isinstance(v, list) or len(v) != 2:
        raise NotationError(f"{where}: a point is [x, y], got {v!r}")
    return (_num(v[0], where), _num(v[1], where))


def _num(v, where: str) -> Fraction:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise NotationError(f"{where}: expected a number of inches, got {v!r}")
    try:
        return num(repr(v) if isinstance(v, float) else str(v))
    except NotationError as e:
        raise NotationError(f"{where}: {e}") from None


def _weight(v, where: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 20:
        raise NotationError(f"{where}: a weight is a whole number 1..20, got {v!r}")
    return v


def parse_battlefield(text: str, where: str = "battlefield") -> Battlefield:
    """Parse and check a scenario; every error names ``where`` and the offending entry."""
    data = toml.loads(text, where, NotationError, max_bytes=MAX_TEXT)
    unknown = set(data) - {"name", "width", "height", "starts", "terrain"}
    if unknown:
        raise NotationError(f"{where}: unknown keys {sorted(unknown)}")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise NotationError(f"{where}: 'name' must be a non-empty string")
    width, height = _num(data.get("width"), f"{where} width"), _num(data.get("height"), f"{where} height")
    if not (6 <= width <= 120 and 6 <= height <= 120):
        raise NotationError(f"{where}: the table is 6 to 120 inches a side")
    starts = data.get("starts")
    if not isinstance(starts, list) or len(starts) < 2:
        raise NotationError(f"{where}: 'starts' needs at least two points")
    pts = tuple(_point(s, f"{where} starts") for s in starts)
    pieces: list[Piece] = []
    for i, t in enumerate(data.get("terrain", [])):
        w = f"{where} terrain[{i}]"
        if not isinstance(t, dict):
            raise NotationError(f"{w}: expected a table")
        extra = set(t) - {"id", "kind", "polygon", "circle", "destructible", "projectile"}
        if extra:
            raise NotationError(f"{w}: unknown keys {sorted(extra)}")
        pid = t.get("id")
        if not isinstance(pid, str) or not ID.fullmatch(pid) or any(p.id == pid for p in pieces):
            raise NotationError(f"{w}: 'id' must be a new lowercase name, got {pid!r}")
        kind = t.get("kind")
        if kind not in KINDS:
            raise NotationError(f"{w} ({pid}): kind must be one of {', '.join(KINDS)}, got {kind!r}")
        shape: Shape
        if "polygon" in t and "circle" not in t:
            poly = t["polygon"]
            if not isinstance(poly, list) or len(poly) < 3:
                raise NotationError(f"{w} ({pid}): a polygon needs at least three points")
            shape = Polygon(tuple(_point(p, f"{w} ({pid})") for p in poly))
            if kind == "uneven" and not convex(shape):
                raise NotationError(f"{w} ({pid}): uneven ground must be convex (K-31); split it into pieces")
        elif "circle" in t and "polygon" not in t:
            c = t["circle"]
            if not isinstance(c, list) or len(c) != 3:
                raise NotationError(f"{w} ({pid}): a circle is [x, y, radius]")
            r = _num(c[2], f"{w} ({pid})")
            if r <= 0:
                raise NotationError(f"{w} ({pid}): a circle's radius must be positive")
            shape = Circle((_num(c[0], w), _num(c[1], w)), r)
        else:
            raise NotationError(f"{w} ({pid}): give exactly one of 'polygon' or 'circle'")
        des = _weight(t["destructible"], f"{w} ({pid}) destructible") if "destructible" in t else 0
        pro = _weight(t["projectile"], f"{w} ({pid}) projectile") if "projectile" in t else 0
        if des and pro:
            raise NotationError(f"{w} ({pid}): a piece is destructible or a projectile, not both")
        if pro and not isinstance(shape, Circle):
            raise NotationError(f"{w} ({pid}): a projectile is a circle (K-29)")
        pieces.append(Piece(pid, kind, shape, des, pro))
    field = Battlefield(name, width, height, pts, tuple(pieces))
    for p in pts:
        if not field.on_table(p) or any(q.kind == "blocking" and q.shape.where(p) == 1 for q in pieces):
            raise NotationError(f"{where}: start {p} is off the table or inside blocking terrain")
    return field


def _shipped() -> dict[str, str]:
    out = {}
    for f in sorted(resources.files("duelmail.games.skirmish.battlefields").iterdir(), key=lambda p: p.name):
        if f.name.endswith(".toml"):
            out[f.name[:-5]] = f.read_text(encoding="utf-8")
    return out


SHIPPED: dict[str, str] = _shipped()


def battlefield_text(option: str) -> str:
    """The TOML text the option ``battlefield`` stands for: a shipped name, or the text itself."""
    if "\n" in option or "=" in option:
        return option
    try:
        return SHIPPED[option]
    except KeyError:
        raise DuelmailError(f"no shipped battlefield {option!r} (battlefields: {', '.join(SHIPPED)}; or give "
                            "the TOML text of your own)") from None


def load(option: str) -> Battlefield:
    where = f"battlefield {option!r}" if option in SHIPPED else "battlefield (custom)"
    return parse_battlefield(battlefield_text(option), where)

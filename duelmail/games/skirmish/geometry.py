"""Exact plane geometry for the skirmish table (K-30..K-33): points in inches as ``Fraction`` pairs.

Every receiver must reach the same verdict on a move, so nothing here uses floating point: a
coordinate is a multiple of 1/100 inch, written as a decimal with at most two places, and every
test (inside, on an edge, a segment entering a shape, a distance against a limit) is exact
rational arithmetic. The only irrational step, a retreat of 2.5 inches along a direction, goes
through ``decimal`` square roots rounded to 1/100 inch (``step_away``), which are exactly specified.

Shapes are closed polygons (vertex lists) and circles. We wrote this small module rather than use
shapely: shapely's predicates are in floating point (a point exactly on an edge can come out on
either side, and a move that ends touching a wall is the common case here), it would be a compiled
dependency for about 250 lines, and the rules need only segments, convex or simple polygons and
circles. Speed is not a concern: bounding boxes reject most pieces before any rational arithmetic.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Context, Decimal
from fractions import Fraction
from functools import cached_property

from duelmail.errors import NotationError
from duelmail.util.classes import dataclass

Point = tuple[Fraction, Fraction]
HUNDREDTH = Fraction(1, 100)


def num(text: str | int | float) -> Fraction:
    """A coordinate or length: a decimal with at most two places ('12.5', '-3', '0.25')."""
    s = str(text).strip()
    try:
        d = Decimal(s)
    except ArithmeticError:
        raise NotationError(f"not a number of inches: {s!r}") from None
    if not d.is_finite() or d.as_tuple().exponent < -2 or "e" in s.lower():
        raise NotationError(f"not a number of inches with at most two decimals: {s!r}")
    return Fraction(d)


def fmt(x: Fraction) -> str:
    """The shortest decimal text of a coordinate (``num(fmt(x)) == x``)."""
    if (x * 100).denominator != 1:
        raise ValueError(f"{x} is not a multiple of 1/100")
    d = Decimal((x * 100).numerator) / 100
    text = f"{d:f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def pt(x: str | int | float, y: str | int | float) -> Point:
    return (num(x), num(y))


def pfmt(p: Point) -> str:
    return f"{fmt(p[0])},{fmt(p[1])}"


def dist2(a: Point, b: Point) -> Fraction:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def _cross(o: Point, a: Point, b: Point) -> Fraction:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def seg_dist2(p: Point, a: Point, b: Point) -> Fraction:
    """Squared distance from ``p`` to the closed segment ``ab``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    ll = dx * dx + dy * dy
    if ll == 0:
        return dist2(p, a)
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ll
    t = min(Fraction(1), max(Fraction(0), t))
    return dist2(p, (a[0] + t * dx, a[1] + t * dy))


def _in_box(box, p: Point, reach) -> bool:
    return box[0] - reach <= p[0] <= box[2] + reach and box[1] - reach <= p[1] <= box[3] + reach


def _seg_meets_box(box, a: Point, b: Point) -> bool:
    """The segment's bounding box overlaps ``box`` (a cheap first test)."""
    return min(a[0], b[0]) <= box[2] and max(a[0], b[0]) >= box[0] and min(a[1], b[1]) <= box[3] \
        and max(a[1], b[1]) >= box[1]


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    return _cross(a, b, p) == 0 and min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) \
        and min(a[1], b[1]) <= p[1] <= max(a[1], b[1])


@dataclass(frozen=True)
class Polygon:
    points: tuple[Point, ...]

    @cached_property
    def box(self) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        xs, ys = [p[0] for p in self.points], [p[1] for p in self.points]
        return (min(xs), min(ys), max(xs), max(ys))

    @cached_property
    def _edges(self) -> list[tuple[Point, Point]]:
        pts = self.points
        return [(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts))]

    def edges(self):
        return self._edges

    def where(self, p: Point) -> int:
        """1 inside, 0 on the boundary, -1 outside (even-odd rule)."""
        if not _in_box(self.box, p, 0):
            return -1
        inside = False
        for a, b in self.edges():
            if _on_segment(p, a, b):
                return 0
            if (a[1] > p[1]) != (b[1] > p[1]):
                x = a[0] + (p[1] - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
                if x > p[0]:
                    inside = not inside
        return 1 if inside else -1

    def dist2(self, p: Point) -> Fraction:
        """Squared distance from ``p`` to the closed polygon (0 inside)."""
        if self.where(p) >= 0:
            return Fraction(0)
        return min(seg_dist2(p, a, b) for a, b in self.edges())

    def _cuts(self, a: Point, b: Point) -> list[Fraction]:
        """Parameters along ``ab`` (0..1) where it meets the boundary, plus both ends."""
        ts = {Fraction(0), Fraction(1)}
        d = (b[0] - a[0], b[1] - a[1])
        for c, e in self.edges():
            f = (e[0] - c[0], e[1] - c[1])
            den = d[0] * f[1] - d[1] * f[0]
            if den != 0:
                t = ((c[0] - a[0]) * f[1] - (c[1] - a[1]) * f[0]) / den
                u = ((c[0] - a[0]) * d[1] - (c[1] - a[1]) * d[0]) / den
                if 0 <= t <= 1 and 0 <= u <= 1:
                    ts.add(t)
            else:
                ll = d[0] * d[0] + d[1] * d[1]
                if ll and _cross(a, b, c) == 0:  # collinear: the edge's ends cut the segment
                    for q in (c, e):
                        t = ((q[0] - a[0]) * d[0] + (q[1] - a[1]) * d[1]) / ll
                        if 0 <= t <= 1:
                            ts.add(t)
        return sorted(ts)

    def _pieces(self, a: Point, b: Point) -> list[int]:
        """Where each end and each piece between cuts lies (1, 0, -1)."""
        ts = self._cuts(a, b)

        def at(t: Fraction) -> Point:
            return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))

        out = [self.where(a), self.where(b)]
        out += [self.where(at((t0 + t1) / 2)) for t0, t1 in zip(ts, ts[1:], strict=False) if t1 > t0]
        return out

    def enters(self, a: Point, b: Point) -> bool:
        """The segment ``ab`` passes through the open interior."""
        return _seg_meets_box(self.box, a, b) and any(w == 1 for w in self._pieces(a, b))

    def holds(self, a: Point, b: Point) -> bool:
        """The segment ``ab`` lies in the closed polygon."""
        return _in_box(self.box, a, 0) and _in_box(self.box, b, 0) and all(w >= 0 for w in self._pieces(a, b))

    def moved(self, centre: Point) -> Polygon:
        cx, cy = self.centre()
        return Polygon(tuple((x - cx + centre[0], y - cy + centre[1]) for x, y in self.points))

    def centre(self) -> Point:
        n = len(self.points)
        return (sum(p[0] for p in self.points) / n, sum(p[1] for p in self.points) / n)


@dataclass(frozen=True)
class Circle:
    c: Point
    r: Fraction

    def where(self, p: Point) -> int:
        d, rr = dist2(p, self.c), self.r * self.r
        return 1 if d < rr else 0 if d == rr else -1

    @cached_property
    def box(self) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        return (self.c[0] - self.r, self.c[1] - self.r, self.c[0] + self.r, self.c[1] + self.r)

    def within(self, p: Point, reach: Fraction) -> bool:
        """``p`` is at most ``reach`` from the closed disc."""
        return _in_box(self.box, p, reach) and dist2(p, self.c) <= (self.r + reach) ** 2

    def enters(self, a: Point, b: Point) -> bool:
        return _seg_meets_box(self.box, a, b) and seg_dist2(self.c, a, b) < self.r * self.r

    def holds(self, a: Point, b: Point) -> bool:
        return self.where(a) >= 0 and self.where(b) >= 0

    def moved(self, centre: Point) -> Circle:
        return Circle(centre, self.r)

    def centre(self) -> Point:
        return self.c


Shape = Polygon | Circle


def convex(poly: Polygon) -> bool:
    """Every turn of the vertex list goes the same way (and it is not flat)."""
    pts = poly.points
    signs = {(_cross(pts[i], pts[(i + 1) % len(pts)], pts[(i + 2) % len(pts)]) > 0) for i in range(len(pts))
             if _cross(pts[i], pts[(i + 1) % len(pts)], pts[(i + 2) % len(pts)]) != 0}
    return len(signs) == 1


def within(shape: Shape, p: Point, reach: Fraction) -> bool:
    """``p`` is at most ``reach`` inches from the closed shape (base contact, K-32)."""
    if isinstance(shape, Circle):
        return shape.within(p, reach)
    return _in_box(shape.box, p, reach) and shape.dist2(p) <= reach * reach


_CTX = Context(prec=40)


def _dec(x: Fraction) -> Decimal:
    return _CTX.divide(Decimal(x.numerator), Decimal(x.denominator))


def round_hundredth(d: Decimal) -> Fraction:
    return Fraction(d.quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN))


def step_away(p: Point, frm: Point, length: Fraction) -> Point:
    """``p`` moved ``length`` inches directly away from ``frm``, rounded to 1/100 inch (K-24).

    When the two coincide the step goes in the +x direction (a ruling: any direction is 'away')."""
    d2 = dist2(p, frm)
    if d2 == 0:
        return (p[0] + length, p[1])
    scale = _CTX.divide(_dec(length), _CTX.sqrt(_dec(d2)))
    return (p[0] + round_hundredth(_CTX.multiply(_dec(p[0] - frm[0]), scale)),
            p[1] + round_hundredth(_CTX.multiply(_dec(p[1] - frm[1]), scale)))


def toward(p: Point, q: Point, length: Fraction) -> Point:
    """A point about ``length`` inches from ``p`` toward ``q`` on the 1/100 grid, never farther than ``length``
    (used by bots and the move list, not by the rules)."""
    d2 = dist2(p, q)
    if d2 == 0:
        return p
    if d2 <= length * length:
        return q
    out = step_away(p, (2 * p[0] - q[0], 2 * p[1] - q[1]), length)
    while dist2(p, out) > length * length:  # rounding went a hair too far: pull back one hundredth
        out = (out[0] - (HUNDREDTH if out[0] > p[0] else -HUNDREDTH if out[0] < p[0] else 0),
               out[1] - (HUNDREDTH if out[1] > p[1] else -HUNDREDTH if out[1] < p[1] else 0))
    return out

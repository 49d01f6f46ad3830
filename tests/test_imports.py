"""The module import graph of ``duelmail`` has no cycle, and only the CLI imports click (docs/architecture.md,
"Layers").

Every module under ``duelmail/`` is parsed with ``ast``; every ``import`` and ``from ... import`` at any
level (module, class or function: a lazy import is still a dependency) is an edge to the ``duelmail``
module it names. ``from duelmail.games import base`` names the module ``duelmail.games.base``;
``from duelmail.games.base import Game`` names ``duelmail.games.base``. A parent package's
``__init__`` that Python runs on the way is not an edge: only what a module names is. Any strongly
connected component larger than one module is a cycle, and the test names it with the lines that
import. The library never imports click: only ``duelmail/cli/`` does.
"""

from __future__ import annotations

import ast
from pathlib import Path

import duelmail

ROOT = Path(duelmail.__file__).parent


def module_name(path: Path) -> str:
    parts = ("duelmail", *path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def imports(name: str, path: Path, known: set[str]) -> dict[str, int]:
    """The duelmail modules ``name`` imports, each with the first line that does."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: dict[str, int] = {}

    def add(target: str, line: int) -> None:
        while target and target not in known:  # 'import duelmail.x.y' where y is a name, not a module
            target = target.rpartition(".")[0]
        if target and target != name:
            found.setdefault(target, line)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "duelmail":
                    add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                base = ".".join(base + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] != "duelmail":
                continue
            for alias in node.names:
                add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base, node.lineno)
    return found


def import_graph() -> tuple[dict[str, dict[str, int]], dict[str, Path]]:
    mods = modules()
    return {n: imports(n, p, set(mods)) for n, p in mods.items()}, mods


def components(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iteratively (no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    comp.append(m)
                    if m == node:
                        break
                out.append(sorted(comp))
    return out


def a_cycle(graph: dict[str, dict[str, int]], comp: list[str]) -> list[str]:
    """One shortest cycle through the component's first module, found breadth first inside it."""
    start, inside = comp[0], set(comp)
    came: dict[str, str] = {}
    frontier = [start]
    while frontier:
        later = []
        for node in frontier:
            for nxt in sorted(graph[node]):
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return [start, *reversed(path[:-1]), start] if len(path) > 1 else [start, node, start]
                if nxt in inside and nxt not in came:
                    came[nxt] = node
                    later.append(nxt)
        frontier = later
    return comp


def describe(graph, mods, comp: list[str]) -> str:
    cycle = a_cycle(graph, comp)
    steps = [f"    {a} -> {b}  ({mods[a].relative_to(ROOT.parent)}:{graph[a][b]})"
             for a, b in zip(cycle, cycle[1:], strict=False)]
    return f"  {len(comp)} modules import each other: {', '.join(comp)}\n  for instance:\n" + "\n".join(steps)


def test_the_graph_sees_lazy_imports_and_every_module():
    graph, mods = import_graph()
    assert "duelmail.app" in mods and "duelmail.games.base" in mods and "duelmail.games" in mods
    assert "duelmail.errors" in graph["duelmail.app"]
    # games/__init__ finds its games by pkgutil, which no ast sees; every game imports the rules contract
    assert all("duelmail.games.base" in graph[f"duelmail.games.{g}"] for g in
               ("warlords", "skirmish", "wizard", "summoner", "grid"))


def test_no_module_imports_itself_through_others():
    graph, mods = import_graph()
    cycles = [c for c in components(graph) if len(c) > 1]
    assert not cycles, "import cycles in duelmail/ (move what both need into a module both import):\n" + \
        "\n".join(describe(graph, mods, c) for c in cycles)


def test_only_the_command_line_imports_click():
    """The library never imports click: only ``duelmail/cli/`` does (docs/architecture.md, "Layers")."""
    _, mods = import_graph()
    users = []
    for name, path in mods.items():
        if name == "duelmail.cli" or name.startswith("duelmail.cli."):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            named = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            users += [f"{path.relative_to(ROOT.parent)}:{node.lineno}" for n in named if n.split(".")[0] == "click"]
    assert not users, f"click imported outside duelmail/cli/: {', '.join(users)}"


def test_nothing_a_player_runs_imports_the_testing_package():
    """``duelmail/testing/`` (self-play, the cheat harness, the fuzzer) exists to test the product: no other module
    imports it, directly or through another (docs/architecture.md, "Layers")."""
    graph, mods = import_graph()
    product = {n for n in graph if not (n == "duelmail.testing" or n.startswith("duelmail.testing."))}
    users = [f"{mods[n].relative_to(ROOT.parent)}:{line} imports {t}" for n in sorted(product)
             for t, line in graph[n].items() if t == "duelmail.testing" or t.startswith("duelmail.testing.")]
    assert not users, "the product imports the testing package:\n  " + "\n  ".join(users)
    assert {"duelmail.testing.selfplay", "duelmail.testing.adversary", "duelmail.testing.fuzz"} <= set(mods)


def test_delivery_sits_above_transport():
    """``duelmail/delivery/`` (what arrives and goes out: mail, git, reminders, the watch loop) uses the mechanics
    in ``duelmail/transport/``; no transport module imports delivery."""
    graph, mods = import_graph()
    back = [f"{mods[n].relative_to(ROOT.parent)}:{line} imports {t}" for n in sorted(graph)
            if n.startswith("duelmail.transport") for t, line in graph[n].items() if t.startswith("duelmail.delivery")]
    assert not back, "transport imports delivery:\n  " + "\n  ".join(back)
    assert {f"duelmail.delivery.{m}" for m in ("arrivals", "mail", "git", "reminders", "watch")} <= set(mods)

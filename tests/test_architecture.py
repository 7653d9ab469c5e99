"""The house's rules (docs/architecture.md), read from the source: rooms import only downwards, no module
imports one that imports it back (lazy imports count too), and modules stay readable in size."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("catalogue", "solver", "console", "server", "game")
MAX_LINES = 420  # "about 400"

# room -> rooms it must never import (the layers of docs/architecture.md, top to bottom)
FORBIDDEN = {
    "catalogue": ("solver", "console", "server", "game", "cli"),
    "solver": ("console", "server", "game", "cli"),
    "game": ("console", "server", "cli"),
    "server": ("console", "cli"),
    "console": ("server.app", "server.jobs", "server.pool"),  # mj serve starts server.run, nothing deeper
    # inside solver/ (docs/architecture.md's picture): the core under the questions, the questions under the API
    # (serialize.py, JSON shapes over the core's results, is used by the batch runner's output too)
    "solver.core": ("solver.analysis", "solver.planning", "solver.checking", "solver.generation", "solver.research",
                    "solver.batch", "solver.api", "solver.serialize"),
    "solver.analysis": ("solver.planning", "solver.checking", "solver.generation", "solver.research", "solver.batch",
                        "solver.api"),
    "solver.planning": ("solver.checking", "solver.generation", "solver.research", "solver.api"),
    "solver.batch": ("solver.api", "solver.analysis", "solver.planning", "solver.checking", "solver.generation"),
}


def modules() -> dict[str, Path]:
    found = {"cli": ROOT / "cli.py"}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(path: Path, name: str, known: dict[str, Path]) -> set[str]:
    """Every project module that this one imports, at the top or inside a function."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                found.add(target)
    return found


def graph() -> nx.DiGraph:
    known = modules()
    g = nx.DiGraph()
    for name, path in known.items():
        g.add_node(name)
        g.add_edges_from((name, target) for target in imports(path, name, known))
    return g


def test_no_import_circle():
    cycles = list(nx.simple_cycles(graph()))
    assert cycles == [], f"import circles: {cycles[:5]}"


def test_rooms_import_only_downwards():
    wrong = [(a, b) for a, b in graph().edges
             for room, banned in FORBIDDEN.items() if a == room or a.startswith(room + ".")
             for low in banned if b == low or b.startswith(low + ".")]
    assert wrong == []


def test_modules_stay_readable():
    long = {name: n for name, path in modules().items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_the_root_holds_cli_and_packages_only():
    loose = sorted(p.name for p in ROOT.glob("*.py") if p.name not in ("cli.py", "setup.py"))
    assert loose == []


def test_the_graph_sees_lazy_imports():
    # the check must be able to fail: a function-level import is an edge like any other
    known = modules()
    assert "solver.core.search.fast" in imports(known["solver.api"], "solver.api", known)

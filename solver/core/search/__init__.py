"""The exact searches without a solver (docs/formulation.md sections 7 and 9), one room:

- `tile_search.py`: TileSearch, the depth-first search over units for h, acceptance and completeness;
  `dfs.py` its pure-Python run, `native.py` the optional C extension of the same run (`_searchc.c`,
  `searchc_dfs.c`, built by setup.py; the pure path answers when it is missing);
- `fast.py`: the cached searchers per rule set and the answers built on them (h with a witness);
- `shortcut.py`: h under another engine's shortcut (for the checker and the generator).

Callers import the module they need (`fast` for answers, `shortcut`, `native`); the package itself gives the
search class and whether C runs.
"""

from solver.core.search.native import NATIVE, forced_pure
from solver.core.search.tile_search import TileSearch

__all__ = ["NATIVE", "TileSearch", "forced_pure"]

"""The fuzz tests of tests/test_fuzz.py, longer and randomized: a few thousand examples per test.

    python bench/fuzz_long.py              # 2,000 examples per test, a new random seed each run
    python bench/fuzz_long.py 300          # a quicker pass
A failure prints hypothesis's smallest failing example; add it to tests/test_hardening.py as a named test.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if __name__ == "__main__":
    examples = sys.argv[1] if len(sys.argv) > 1 else "2000"
    env = {**os.environ, "MJ_FUZZ_EXAMPLES": examples}
    sys.exit(subprocess.call([sys.executable, "-m", "pytest", "-q", "-x", str(ROOT / "tests" / "test_fuzz.py")],
                             cwd=ROOT, env=env))

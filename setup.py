"""The optional C extension of the search (solver/core/search/_searchc.c, searchc_dfs.c); everything else is in pyproject.toml.

`optional=True`: a machine that cannot compile it still installs, and the pure-Python search runs
(`mj` says so in one line on stderr).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("solver.core.search._searchc", ["solver/core/search/_searchc.c", "solver/core/search/searchc_dfs.c"],
                             depends=["solver/core/search/searchc.h"], optional=True, extra_compile_args=["-O2"])])

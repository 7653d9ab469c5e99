"""The optional C extensions: the search (solver/core/search/_searchc.c, searchc_dfs.c) and the planner's two-draw
closed form (solver/planning/_planc.c) and the estimate's games (_estimatec.c); everything else is in pyproject.toml.

`optional=True`: a machine that cannot compile them still installs, and the pure-Python paths run
(`mj` says so in one line on stderr).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("solver.core.search._searchc", ["solver/core/search/_searchc.c", "solver/core/search/searchc_dfs.c"],
                             depends=["solver/core/search/searchc.h"], optional=True, extra_compile_args=["-O2"]),
                       Extension("solver.planning._planc", ["solver/planning/_planc.c", "solver/planning/planc_rows.c",
                                                                  "solver/planning/planc_swaps.c", "solver/planning/planc_nowin.c",
                                                                  "solver/planning/planc_tail.c", "solver/planning/planc_hands.c",
                                                                  "solver/planning/planc_list.c", "solver/planning/planc_count.c",
                                                                  "solver/planning/planc_two.c", "solver/planning/planc_relax.c"],
                                 depends=["solver/planning/planc.h", "solver/planning/planc_seq.h", "solver/planning/planc_table.h",
                                          "solver/planning/planc_tail.h"], optional=True,
                                 extra_compile_args=["-O2"]),
                       Extension("solver.planning._estimatec", ["solver/planning/_estimatec.c"],
                                 depends=["solver/planning/planc_seq.h"], optional=True, extra_compile_args=["-O2"])])

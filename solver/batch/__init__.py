"""Batches on any executor, shared by ``mj check`` and ``mj generate``: ordered and bounded (ordered.py),
where chunks run (executors.py: this process, local worker processes; cluster.py: Dask), what a worker
process is (worker.py), clean stops (signals.py) and the output file with its record of what produced it
(output.py)."""

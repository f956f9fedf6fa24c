"""Campaigns (issue 39): many independent pieces of work — fuzzing, cross-checking, resolving many
boards, rules research — and where they run.

- `pool.py`: a `Runner` maps a function over items, results in the order of the items, in this
  process (`SerialRunner`), in a pool of local worker processes (`ProcessRunner`, `--jobs N`) or
  on a Dask cluster (`DaskRunner`, `--scheduler ADDRESS`); `make_runner` picks one, and
  `worker_cached` keeps what a task builds once per worker process (docs/campaigns.md).
"""

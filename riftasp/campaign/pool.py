"""Where a campaign's work runs (issue 39, docs/campaigns.md): in this process, in a pool of local
worker processes, or on a Dask cluster — the same results, in the same order, on each.

A campaign maps one function over many independent items (boards, seeds, batches of either).
`Runner.map(function, items)` yields `function(item)` for each item in the order of the items,
each as soon as it and those before it are done (a caller prints progress as they come), with at
most `IN_FLIGHT * jobs` items submitted at a time (a huge or endless iterable is read as the work
goes, never submitted at once). An exception raised by `function` is raised in the caller as it
was raised (its type and message), in the order of the items, after what is still waiting is
cancelled. `function` is a module-level function or a functools.partial of one and the items
pickle (boards as dicts or frozen dataclasses): both travel to another process.

- `SerialRunner` (`--jobs 1`): each task here, one after another; nothing is pickled.
- `ProcessRunner` (`--jobs N`): a `concurrent.futures.ProcessPoolExecutor` of N local worker
  processes. Their start method is `forkserver` (`spawn` where there is none, Windows): a fork of
  this process would copy the memory of whatever threads it has, in whatever state they are (a
  persistent engine's reader threads, riftasp/engines.py; a Dask client's IO loop; a lock one of
  them holds), into a child that has only the thread that forked — the unsafe case CPython 3.12
  warns about and 3.14 moved its default away from. The fork server is a fresh interpreter started once per process, which imports the
  task function's module and the riftasp modules this process has imported
  (`set_forkserver_preload`); each worker is a fork of that server, single-threaded and already
  past its imports. Start-up of a pool of two workers whose task needs riftasp's fuzz,
  crosscheck and properties modules (~0.2 s of imports), until both answered, on the 2-core
  development host when quiet: fork 0.21-0.27 s (0.035 s when this process had imported them),
  spawn 0.25-0.32 s for every pool, forkserver 0.26 s for the first pool of a process and
  0.02-0.04 s for each later one (the server stays: a command that runs several campaigns pays
  the imports once); under a load of 6 on its 2 cores, forkserver 0.9 s, then 0.02-0.08 s. Tenths
  of a second against a campaign's minutes: safety decided.
- `DaskRunner` (`--scheduler ADDRESS`): a client of a running Dask cluster (the `cluster` extra,
  `pip install 'riftasp[cluster]'`). The cluster belongs to the user: closing the runner closes
  the client, never the scheduler or its workers. Dask re-runs the task of a worker lost midway
  on another one; a task that keeps killing its workers ends the run (`RunnerError`).

`worker_cached(key, make)` keeps what a task builds once per process (an engine subprocess, a
loaded ruleset), so a worker builds it for its first task and reuses it for the others.

Use a runner as a context manager (`with make_runner(...) as runner:`): leaving the block ends
its workers, without waiting for tasks a Ctrl-C or an error left running. A script that makes a
`ProcessRunner` needs the `if __name__ == "__main__":` guard, as with any forkserver or spawn
pool: the workers import the main script (riftasp's own commands have it).
"""

from __future__ import annotations

import contextlib
import functools
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from itertools import islice
from multiprocessing.context import BaseContext
from typing import Any, Protocol, Self, TypeVar

T = TypeVar("T")
R = TypeVar("R")
F = TypeVar("F")

# Tasks submitted at a time, per job: one running, one waiting, so a worker that finishes starts
# its next task at once (and a result waits for the caller at most one round).
IN_FLIGHT = 2
# How long connecting to a Dask scheduler, and then waiting for its first worker, may take.
CONNECT_SECONDS = 10.0
# How long a terminated worker process may take to end before it is killed.
_REAP_SECONDS = 5.0
CLUSTER_EXTRA = "--scheduler needs the cluster extra: pip install 'riftasp[cluster]'"


JOBS_VARIABLE = "RIFTASP_JOBS"


def default_jobs() -> int:
    """`RIFTASP_JOBS` when set (a positive number: what a CI runner or a test suite running its
    own processes in parallel gives each command); else the cores this process may use (its CPU
    affinity: a container's or `taskset`'s limit), else the machine's; at least 1."""
    given = os.environ.get(JOBS_VARIABLE, "").strip()
    if given.isdigit() and int(given) >= 1:
        return int(given)
    affinity = getattr(os, "sched_getaffinity", None)  # Linux; not macOS or Windows
    if affinity is not None:
        with contextlib.suppress(OSError):
            return max(1, len(affinity(0)))
    return max(1, os.cpu_count() or 1)


class RunnerError(Exception):
    """A campaign cannot run where it was asked to; str() is one line: what went wrong and what to
    do. (An exception of the task function itself is raised as it was, never wrapped in this.)"""


class Runner(Protocol):
    """Runs `function(item)` for many items: here, in local worker processes, or on a cluster."""

    jobs: int  # how many tasks run at once

    def map(self, function: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """`function(item)` for each item, in the order of `items`, each as soon as it is done; at
        most about 2 x jobs tasks in flight; an exception of `function` is raised here unchanged,
        after what is still pending is cancelled."""
        ...

    def close(self) -> None: ...

    def __enter__(self) -> Runner: ...

    def __exit__(self, *exc: object) -> None: ...


def make_runner(jobs: int | None = None, scheduler: str | None = None) -> Runner:
    """The runner `--jobs` and `--scheduler` ask for: a scheduler's address -> its Dask cluster
    (`jobs` is then the cluster's worker threads, whatever was given); else `jobs` (default: this
    process's cores) 1 -> this process, more -> that many local worker processes."""
    if scheduler is not None:
        return DaskRunner(scheduler)
    count = default_jobs() if jobs is None else jobs
    if count == 1:
        return SerialRunner()
    return ProcessRunner(count)


class SerialRunner:
    """Each task in this process, one after another (`--jobs 1`): no pickling, no processes, and a
    failure's traceback is this process's own."""

    def __init__(self) -> None:
        self.jobs = 1

    def map(self, function: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        return (function(item) for item in items)

    def close(self) -> None:
        pass

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ProcessRunner:
    """`jobs` local worker processes (a ProcessPoolExecutor; the module's docstring says why
    forkserver). The pool starts at the first `map` and serves every later one until `close`; a
    pool a dead worker broke is replaced at the next `map`."""

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise RunnerError(f"--jobs must be at least 1, not {jobs} (--jobs 1 runs the work in this process)")
        self.jobs = jobs
        self._executor: ProcessPoolExecutor | None = None
        # Tasks of a map the caller left (an error, Ctrl-C, a loop broken off) that were already
        # running and could not be cancelled: `close` ends their workers instead of waiting.
        self._abandoned: list[Future[Any]] = []

    def map(self, function: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        executor = self._pool(function)

        def submit(item: T) -> Future[R]:
            return executor.submit(function, item)

        try:
            yield from _in_order(submit, items, IN_FLIGHT * self.jobs, _result, self._abandon)
        except BrokenProcessPool as err:
            how = _how_workers_ended(executor)
            self._stop(executor)
            raise RunnerError(
                f"a worker process died{how}: {_one_line(err)} (killed from outside, out of memory, or a crash in "
                "native code); run again, or with --jobs 1 to see the failure in this process"
            ) from err
        except KeyboardInterrupt:
            self._stop(executor)
            raise

    def close(self) -> None:
        executor, self._executor = self._executor, None
        if executor is None:
            return
        if any(not future.done() for future in self._abandoned):
            _terminate(executor)
        else:
            executor.shutdown(wait=True, cancel_futures=True)
        self._abandoned.clear()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _pool(self, function: Callable[..., Any]) -> ProcessPoolExecutor:
        if self._executor is not None and getattr(self._executor, "_broken", False):
            self._stop(self._executor)  # a worker died between two maps (out of memory, killed)
        if self._executor is None:
            self._abandoned.clear()
            self._executor = ProcessPoolExecutor(self.jobs, mp_context=_context(function), initializer=_worker_start)
        return self._executor

    def _abandon(self, futures: list[Future[Any]]) -> None:
        self._abandoned = [f for f in self._abandoned if not f.done()]
        self._abandoned.extend(f for f in futures if not f.cancel())

    def _stop(self, executor: ProcessPoolExecutor) -> None:
        """End this pool's workers now (Ctrl-C, or a pool a dead worker broke)."""
        if self._executor is executor:
            self._executor = None
            self._abandoned.clear()
        _terminate(executor)


class DaskRunner:
    """The workers of a running Dask cluster (`--scheduler ADDRESS`, or the path of a scheduler
    file): `jobs` is their total threads when the runner connects. Every worker must have the same
    riftasp installed (checked when connecting) and whatever the tasks run (an engine command)."""

    def __init__(self, scheduler: str, timeout: float = CONNECT_SECONDS) -> None:
        try:
            import distributed
        except ImportError:
            raise RunnerError(CLUSTER_EXTRA) from None
        address = scheduler.strip()
        if not address:  # Client(None) would start a cluster of its own on this machine
            raise RunnerError("--scheduler needs the address of a Dask scheduler, like tcp://HOST:8786")
        self.address = address
        where: dict[str, Any] = {"scheduler_file": address} if os.path.isfile(address) else {"address": address}
        try:
            self._client = distributed.Client(**where, timeout=timeout, set_as_default=False)
        except Exception as err:  # OSError (timed out), ValueError (unknown scheme), ...
            raise RunnerError(
                f"cannot connect to the Dask scheduler at {address}: {_one_line(err)}; check the address "
                "(tcp://HOST:8786) and that `dask scheduler` runs there (docs/campaigns.md)"
            ) from err
        try:
            self.jobs = self._workers(timeout)
        except BaseException:
            self._client.close()
            raise

    def _workers(self, timeout: float) -> int:
        """The cluster's worker threads, once it has a worker and its workers run this riftasp."""
        client, address = self._client, self.address
        try:
            client.wait_for_workers(1, timeout=timeout)
        except Exception as err:
            reached = getattr(client.scheduler, "address", address)  # the scheduler file's address
            raise RunnerError(
                f"the Dask scheduler at {address} has no workers after {timeout:g} s; start some: "
                f"dask worker {reached} --nworkers N --nthreads 1"
            ) from err
        here = _riftasp_version()
        try:
            versions = client.run(_riftasp_version)
        except Exception as err:  # riftasp not importable there
            raise RunnerError(
                f"the Dask workers of {address} cannot run riftasp ({_one_line(err)}); install riftasp {here} on every worker"
            ) from err
        other = {worker: version for worker, version in versions.items() if version != here}
        if other:
            worker, version = sorted(other.items())[0]
            raise RunnerError(
                f"the Dask worker {worker} (and {len(other) - 1} more) runs riftasp {version}, this is {here}; "
                "install the same version on every worker"
            )
        return max(1, sum(client.nthreads().values()))

    def map(self, function: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        from distributed import CancelledError, KilledWorker

        client = self._client
        submit = functools.partial(client.submit, function, pure=False)  # pure=False: each item runs, none shares a key
        try:
            yield from _in_order(submit, items, IN_FLIGHT * self.jobs, _result, self._cancel)
        except KilledWorker as err:
            raise RunnerError(
                f"Dask workers kept dying on one task, so the scheduler gave it up: {_one_line(err)}; "
                "see the workers' logs (out of memory? a crash in native code?)"
            ) from err
        except CancelledError as err:
            raise RunnerError(
                f"the Dask scheduler at {self.address} cancelled the work (did it stop, or the connection drop?): "
                f"{_one_line(err)}; run again when it is back"
            ) from err

    def close(self) -> None:
        """Close the client; the scheduler and its workers stay (they are the user's)."""
        self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _cancel(self, futures: list[Any]) -> None:
        with contextlib.suppress(Exception):  # a client that lost its scheduler has nothing to cancel
            self._client.cancel(futures)


# A cache per process (`worker_cached`); the lock lets only one of a Dask worker's threads build
# a value. A forked child starts without the parent's values (an engine subprocess's pipes are
# not to be shared by two processes) and with a lock of its own.
_CACHE: dict[Hashable, Any] = {}
_CACHE_LOCK = threading.RLock()


def worker_cached(key: Hashable, make: Callable[[], T]) -> T:
    """`make()`, built once in this process and kept under `key`: a task function builds what is
    expensive (an engine subprocess, a loaded ruleset) for the first task a worker runs and reuses
    it for the others. Values live as long as the process; nothing closes them. The threads of a
    Dask worker share its values (one builds, the others wait): a value that serves one caller at
    a time (an engine's conversation) wants workers of one thread (docs/campaigns.md)."""
    with _CACHE_LOCK:
        if key not in _CACHE:
            _CACHE[key] = make()
        value: T = _CACHE[key]
        return value


def _forget_after_fork() -> None:
    global _CACHE_LOCK
    _CACHE.clear()
    _CACHE_LOCK = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


def _in_order(
    submit: Callable[[T], F],
    items: Iterable[T],
    window: int,
    result: Callable[[F], R],
    leftover: Callable[[list[F]], None],
) -> Iterator[R]:
    """`result(submit(item))` for each item, in order, with at most `window` submitted at a time;
    whatever is still submitted when this ends early (an exception, Ctrl-C, the caller stopping)
    goes to `leftover`, to be cancelled."""
    source = iter(items)
    pending: deque[F] = deque()
    try:
        for item in islice(source, window):
            pending.append(submit(item))
        while pending:
            value = result(pending[0])  # the head stays pending until it is done (Ctrl-C while waiting)
            pending.popleft()
            for item in islice(source, 1):
                pending.append(submit(item))  # before the yield: the worker need not wait for the caller
            yield value
    finally:
        if pending:
            leftover(list(pending))


def _result(future: Any) -> Any:
    return future.result()


def _context(function: Callable[..., Any]) -> BaseContext:
    """The pool's start method, forkserver (the module's docstring says why), with the task
    function's module and the riftasp modules this process uses imported once by the server,
    rather than by each worker (riftasp imports much of what it needs inside functions)."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    while isinstance(function, functools.partial):
        function = function.func
    own = sorted(m for m in sys.modules if m.startswith("riftasp.") and m not in _NOT_PRELOADED)
    modules = [__name__, *own, getattr(function, "__module__", None)]
    # Only modules this process imported already (so the server's imports succeed), never a
    # __main__ (the server imports the main script on its own). A fork server already running,
    # started by an earlier pool of this process, keeps the modules it had.
    preload = [m for m in dict.fromkeys(modules) if m and m in sys.modules and not m.endswith("__main__")]
    context.set_forkserver_preload(preload)
    return context


# The command line's modules: a worker runs tasks, not commands (riftasp.cli would import typer).
_NOT_PRELOADED = {"riftasp.cli", "riftasp.launch", "riftasp.commands"}


def _worker_start() -> None:
    """A worker leaves Ctrl-C to the caller, which ends the workers itself (else each worker of a
    terminal's process group would print a traceback of its own); and it ends when the caller
    does. A pool's workers hold both ends of its queues, so a caller that ends without stopping
    them (SIGTERM from `timeout`, SIGKILL, SIGHUP) would leave them waiting forever for their
    next task: a thread of each waits on the caller's sentinel (closed when it ends) and exits
    the worker then, task or not."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    caller = multiprocessing.parent_process()
    if caller is not None:
        threading.Thread(target=_exit_with, args=(caller.sentinel,), name="riftasp-caller-watch", daemon=True).start()


def _exit_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(1)


def _terminate(executor: ProcessPoolExecutor) -> None:
    """Stop a pool without waiting for its tasks: its workers are terminated (then killed, when
    they do not end) and reaped, so none is left behind."""
    # Python 3.14 has executor.terminate_workers(); before it, the pool's processes are private.
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(_REAP_SECONDS)
            if process.is_alive():
                process.kill()
                process.join(_REAP_SECONDS)


def _how_workers_ended(executor: ProcessPoolExecutor) -> str:
    """' (killed by SIGKILL)' or ' (exit code 1)' for the worker that broke the pool, when known
    (the pool terminates the others with SIGTERM)."""
    ended = [p.exitcode for p in (getattr(executor, "_processes", None) or {}).values()]
    codes = [c for c in ended if c is not None and c != 0]
    if not codes:
        return ""
    code = next((c for c in codes if c != -signal.SIGTERM), codes[0])
    if code < 0:
        with contextlib.suppress(ValueError):
            return f" (killed by {signal.Signals(-code).name})"
    return f" (exit code {code})"


def _riftasp_version() -> str:
    """The installed riftasp's version, here or on a Dask worker."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("riftasp")
    except PackageNotFoundError:
        return "(not installed, from a source tree)"


def _one_line(err: BaseException) -> str:
    return " ".join(str(err).split()) or type(err).__name__

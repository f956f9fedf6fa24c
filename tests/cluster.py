"""A real local Dask cluster for the tests of `--scheduler` (riftasp/campaign/pool.py): a scheduler
and workers on 127.0.0.1, each a subprocess of this Python running Dask's own command line
(`python -m dask scheduler`, `python -m dask worker`), as a user would start them
(docs/campaigns.md).

    from cluster import local_cluster

    with local_cluster(workers=2) as address:        # "tcp://127.0.0.1:PORT"
        with make_runner(scheduler=address) as runner:
            ...

or the module-scoped fixture `dask_scheduler` (tests/conftest.py imports it), whose value is the
address. The workers import what this test process imports: they run with its environment and
PYTHONPATH, plus the folders this process added to sys.path (the checkout, tests/), so a task
function of a test module or of a worktree's riftasp is found there. Each has one thread
(`--nworkers 1 --nthreads 1`), as docs/campaigns.md advises, and a nanny, which restarts a worker
that dies. Every process is stopped on the way out, whether the test passed or not; a test
skips (saying how to install it) only when distributed is not installed.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

INSTALL = "distributed is not installed: pip install -e '.[test]' (or '.[cluster]')"
# How long the scheduler may take to write its address, and the workers to register.
START_SECONDS = 60.0
# How long a process may take to end after SIGTERM before its process group is killed.
STOP_SECONDS = 10.0


def need_distributed() -> None:
    """Skip the calling test when distributed is not installed."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        pytest.skip(INSTALL)


def worker_environment() -> dict[str, str]:
    """This process's environment, with PYTHONPATH extended by the folders it added to sys.path
    (the interpreter's own folders are on every process's path already)."""
    environment = dict(os.environ)
    own = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    added = [
        p for p in sys.path
        if p and os.path.isdir(p) and not any(os.path.realpath(p).startswith(prefix + os.sep) for prefix in own)
    ]  # fmt: skip
    paths = [*environment.get("PYTHONPATH", "").split(os.pathsep), *added]
    environment["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(p for p in paths if p))
    return environment


@contextlib.contextmanager
def local_cluster(workers: int = 2, threads: int = 1) -> Iterator[str]:
    """A Dask scheduler and `workers` workers on 127.0.0.1, running until the block ends; yields
    the scheduler's address once every worker has registered."""
    need_distributed()
    from distributed import Client

    with tempfile.TemporaryDirectory(prefix="riftasp-dask-") as folder:
        tmp = Path(folder)
        environment = worker_environment()
        processes: list[subprocess.Popen[bytes]] = []
        logs: list[Path] = []

        def start(name: str, *arguments: str) -> None:
            log = tmp / f"{name}.log"
            logs.append(log)
            with log.open("wb") as out:
                processes.append(subprocess.Popen(
                    [sys.executable, "-m", "dask", *arguments], env=environment, stdin=subprocess.DEVNULL,
                    stdout=out, stderr=subprocess.STDOUT, start_new_session=True,  # a group of its own: its nanny's worker too
                ))  # fmt: skip

        try:
            scheduler_file = tmp / "scheduler.json"
            start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                  "--scheduler-file", str(scheduler_file))  # fmt: skip
            address = _address(scheduler_file, processes[0], logs[0])
            for n in range(workers):
                start(f"worker-{n}", "worker", address, "--host", "127.0.0.1", "--nworkers", "1",
                      "--nthreads", str(threads), "--no-dashboard", "--name", f"worker-{n}",
                      "--local-directory", str(tmp / f"worker-{n}"), "--death-timeout", "60")  # fmt: skip
            with Client(address, timeout=START_SECONDS, set_as_default=False) as client:
                try:
                    client.wait_for_workers(workers, timeout=START_SECONDS)
                except Exception as err:
                    raise RuntimeError(f"the local Dask workers did not register: {err}\n{_tails(logs)}") from err
            yield address
        finally:
            _stop(processes)


@pytest.fixture(scope="module")
def dask_scheduler() -> Iterator[str]:
    """The address of a local Dask cluster of two one-thread workers, for the tests of a module."""
    with local_cluster(workers=2) as address:
        yield address


def _address(scheduler_file: Path, scheduler: subprocess.Popen[bytes], log: Path) -> str:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if scheduler.poll() is not None:
            raise RuntimeError(f"the local Dask scheduler exited ({scheduler.returncode}):\n{_tails([log])}")
        with contextlib.suppress(OSError, ValueError, KeyError):
            return str(json.loads(scheduler_file.read_text(encoding="utf-8"))["address"])
        time.sleep(0.05)
    raise RuntimeError(f"the local Dask scheduler wrote no address in {START_SECONDS:g} s:\n{_tails([log])}")


def _stop(processes: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM to each process group (workers first), then SIGKILL to any group still there."""
    for process in reversed(processes):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_SECONDS
    for process in reversed(processes):
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(max(0.0, deadline - time.monotonic()))
    for process in processes:  # a nanny's worker outliving its nanny, or a process that would not end
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def _tails(logs: list[Path], lines: int = 20) -> str:
    parts = []
    for log in logs:
        with contextlib.suppress(OSError):
            text = log.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
            parts.append(f"--- {log.name}\n" + "\n".join(text))
    return "\n".join(parts)

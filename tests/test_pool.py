"""Where a campaign's work runs (riftasp/campaign/pool.py, issue 39): in this process, in local
worker processes, or on a real local Dask cluster (tests/cluster.py) — the same results in the
same order; exceptions raised as they were; a dead worker, a missing scheduler and a bad --jobs
said in one line."""

from __future__ import annotations

import functools
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from cluster import need_distributed

from riftasp.campaign.pool import (
    CLUSTER_EXTRA,
    DaskRunner,
    ProcessRunner,
    RunnerError,
    SerialRunner,
    default_jobs,
    make_runner,
    worker_cached,
)

ROOT = Path(__file__).resolve().parent.parent

# The task functions live at module level: a worker process, local or Dask's, imports this
# module to find them (tests/cluster.py gives the workers this process's sys.path).


@dataclass(frozen=True)
class Unit:
    id: str
    might: int


class BoardRejected(Exception):
    pass


def strengthen(bonus: int, unit: Unit) -> dict:
    time.sleep(0.02 * (unit.might % 3))  # later items often finish first: the order is the items'
    return {"id": unit.id, "might": unit.might + bonus}


def refuse_three(n: int) -> int:
    if n == 3:
        raise BoardRejected(f"board {n} refused: unit u{n} has no might")
    return n


def identity(n: int) -> int:
    return n


def nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


_BUILDS: Counter = Counter()


def _build(key: str) -> int:
    _BUILDS[key] += 1
    return os.getpid()


def cached_pid(key: str, n: int) -> tuple[int, int, int]:
    """(the task's process, the process the cached value was built in, builds of it there)."""
    built_in = worker_cached(key, lambda: _build(key))
    return os.getpid(), built_in, _BUILDS[key]


def exit_on_three(n: int) -> int:
    if n == 3:
        os._exit(3)
    return n


def exit_once(marker: str, n: int) -> int:
    """Ends its worker the first time item 2 runs (a worker lost mid-run); later runs succeed."""
    if n == 2 and not os.path.exists(marker):
        Path(marker).write_text("died", encoding="utf-8")
        os._exit(1)
    return n * 10


def report_and_sleep(folder: str, n: int) -> int:
    Path(folder, f"{n}.pid").write_text(str(os.getpid()), encoding="utf-8")
    time.sleep(60)
    return n


@pytest.fixture(params=["serial", "processes", "dask"])
def runner(request):
    if request.param == "serial":
        made = make_runner(jobs=1)
    elif request.param == "processes":
        made = make_runner(jobs=2)
    else:
        made = make_runner(scheduler=request.getfixturevalue("dask_scheduler"))
    with made:
        yield made


def test_make_runner_picks_the_runner_jobs_ask_for(monkeypatch):
    monkeypatch.delenv("RIFTASP_JOBS", raising=False)
    assert 1 <= default_jobs() <= (os.cpu_count() or 1)
    monkeypatch.setenv("RIFTASP_JOBS", "3")
    assert default_jobs() == 3
    monkeypatch.setenv("RIFTASP_JOBS", "0")  # not a number of workers: the cores again
    assert 1 <= default_jobs() <= (os.cpu_count() or 1)
    monkeypatch.setenv("RIFTASP_JOBS", "1")
    assert isinstance(make_runner(jobs=1), SerialRunner)
    with make_runner(jobs=2) as runner:
        assert isinstance(runner, ProcessRunner) and runner.jobs == 2
    with make_runner() as runner:
        assert runner.jobs == default_jobs()


def test_a_scheduler_s_runner_has_the_cluster_s_threads_and_leaves_the_cluster_up(dask_scheduler):
    # Two workers of one thread, whatever --jobs said.
    with make_runner(jobs=7, scheduler=dask_scheduler) as runner:
        assert isinstance(runner, DaskRunner) and runner.jobs == 2
    # Closing the runner closed its client, not the cluster.
    with make_runner(scheduler=dask_scheduler) as runner:
        assert list(runner.map(identity, range(3))) == [0, 1, 2]


def test_a_scheduler_file_names_the_scheduler_too(dask_scheduler, tmp_path):
    scheduler_file = tmp_path / "scheduler.json"
    scheduler_file.write_text(json.dumps({"address": dask_scheduler}), encoding="utf-8")
    with make_runner(scheduler=str(scheduler_file)) as runner:
        assert runner.jobs == 2


def test_workers_with_another_riftasp_are_refused(dask_scheduler, monkeypatch):
    import importlib.metadata

    monkeypatch.setattr(importlib.metadata, "version", lambda name: "9.9.9")  # here, not on the workers
    with pytest.raises(RunnerError) as raised:
        make_runner(scheduler=dask_scheduler)
    assert "runs riftasp" in str(raised.value) and ", this is 9.9.9; install the same version on every worker" in str(raised.value)


@pytest.mark.parametrize("jobs", [0, -2])
def test_jobs_below_one_is_refused_in_one_line(jobs):
    with pytest.raises(RunnerError) as raised:
        make_runner(jobs=jobs)
    assert str(raised.value) == f"--jobs must be at least 1, not {jobs} (--jobs 1 runs the work in this process)"


def test_the_same_function_gives_the_same_results_in_the_same_order_everywhere(runner):
    units = [Unit(f"u{n}", n) for n in range(20)]
    expected = [{"id": f"u{n}", "might": n + 3} for n in range(20)]
    assert list(runner.map(functools.partial(strengthen, 3), units)) == expected
    # The runner serves another map (and a dict item) the same way.
    assert list(runner.map(identity, [{"id": "u1"}, None, 7])) == [{"id": "u1"}, None, 7]


def test_an_exception_of_the_function_is_raised_as_it_was_after_the_results_before_it(runner):
    got = []
    with pytest.raises(BoardRejected, match=r"^board 3 refused: unit u3 has no might$"):
        for value in runner.map(refuse_three, range(10)):
            got.append(value)
    assert got == [0, 1, 2]
    assert list(runner.map(identity, range(4))) == [0, 1, 2, 3]  # still usable


def test_results_stream_as_they_are_done_and_the_items_are_read_as_the_work_goes(runner):
    # Each result comes when it and those before it are done, not when all are.
    start = time.monotonic()
    arrived = []
    for value in runner.map(nap, [0.0, 0.0, 0.0, 0.8]):
        arrived.append((value, time.monotonic() - start))
    assert [value for value, _ in arrived] == [0.0, 0.0, 0.0, 0.8]
    assert arrived[0][1] < arrived[-1][1] - 0.5
    # An endless iterable: at most 2 x jobs items submitted ahead of the caller.
    read = []

    def numbers():
        for n in itertools.count():
            read.append(n)
            yield n

    results = runner.map(identity, numbers())
    assert list(itertools.islice(results, 10)) == list(range(10))
    results.close()
    assert len(read) <= 10 + 2 * runner.jobs


def test_worker_cached_builds_once_per_process(runner):
    key = f"engine-{uuid.uuid4()}"
    results = list(runner.map(functools.partial(cached_pid, key), range(16)))
    assert all(pid == built_in for pid, built_in, _ in results)  # built where it is used
    assert all(builds == 1 for _, _, builds in results)  # once there, whatever the tasks it served
    pids = {pid for pid, _, _ in results}
    assert len(pids) <= runner.jobs
    if isinstance(runner, SerialRunner):
        assert pids == {os.getpid()}
    else:
        assert os.getpid() not in pids


def test_a_worker_process_that_dies_is_one_line_and_the_runner_recovers():
    with ProcessRunner(2) as runner:
        with pytest.raises(RunnerError) as raised:
            list(runner.map(exit_on_three, range(8)))
        message = str(raised.value)
        assert message.startswith("a worker process died (exit code 3): ")
        assert "\n" not in message and "--jobs 1" in message
        assert list(runner.map(identity, range(5))) == [0, 1, 2, 3, 4]  # a new pool


def test_dask_runs_again_the_task_of_a_worker_lost_midway(dask_scheduler, tmp_path):
    with make_runner(scheduler=dask_scheduler) as runner:
        results = list(runner.map(functools.partial(exit_once, str(tmp_path / "died")), range(6)))
    assert (tmp_path / "died").exists()  # a worker did die
    assert results == [0, 10, 20, 30, 40, 50]


def test_ctrl_c_stops_the_workers_and_is_raised(tmp_path):
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("Ctrl-C (SIGINT) is raised in the main thread only, and this test does not run there")
    main = threading.get_ident()

    def interrupt_once_both_run():
        deadline = time.monotonic() + 20
        while len(list(tmp_path.glob("*.pid"))) < 2:
            if time.monotonic() > deadline:
                return  # no interrupt at a random place: the test fails, slowly
            time.sleep(0.02)
        signal.pthread_kill(main, signal.SIGINT)  # as Ctrl-C reaches the main thread

    runner = ProcessRunner(2)
    threading.Thread(target=interrupt_once_both_run, daemon=True).start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        list(runner.map(functools.partial(report_and_sleep, str(tmp_path)), range(4)))
    runner.close()
    assert time.monotonic() - start < 15  # the tasks sleep 60 s
    pids = [int(p.read_text()) for p in tmp_path.glob("*.pid")]
    assert len(pids) == 2
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in pids)


def test_workers_end_with_a_caller_that_is_killed(tmp_path):
    # SIGKILL (or SIGTERM from `timeout`) gives the caller no chance to stop its pool.
    script = ("import functools, sys\n"
              "from riftasp.campaign.pool import ProcessRunner\n"
              "from test_pool import report_and_sleep\n"
              "if __name__ == '__main__':\n"
              f"    list(ProcessRunner(2).map(functools.partial(report_and_sleep, {str(tmp_path)!r}), range(4)))\n")  # fmt: skip
    (tmp_path / "caller.py").write_text(script, encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")])}
    caller = subprocess.Popen([sys.executable, str(tmp_path / "caller.py")], env=environment)
    try:
        deadline = time.monotonic() + 30
        while len(list(tmp_path.glob("*.pid"))) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        caller.kill()
        caller.wait()
    pids = [int(p.read_text()) for p in tmp_path.glob("*.pid")]
    assert len(pids) == 2
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in pids)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_a_scheduler_that_is_not_there_is_one_line_naming_it_within_seconds():
    need_distributed()
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{probe.getsockname()[1]}"
    start = time.monotonic()
    with pytest.raises(RunnerError) as raised:  # (the command line waits CONNECT_SECONDS; 2 s here)
        DaskRunner(address, timeout=2)
    assert time.monotonic() - start < 4
    message = str(raised.value)
    assert message.startswith(f"cannot connect to the Dask scheduler at {address}: ") and "\n" not in message


def test_a_scheduler_without_the_cluster_extra_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # `import distributed` raises ImportError
    with pytest.raises(RunnerError) as raised:
        make_runner(scheduler="tcp://127.0.0.1:8786")
    assert str(raised.value) == CLUSTER_EXTRA == "--scheduler needs the cluster extra: pip install 'riftasp[cluster]'"


@pytest.mark.parametrize("argv", [["--help"], ["resolve", "examples/riftbound/showcase.json"]])
def test_riftasp_help_and_resolve_do_not_import_dask(argv):
    # distributed costs ~0.3-1 s to import: only a --scheduler run imports it.
    probe = (f"import sys; from riftasp.launch import main; sys.argv = ['riftasp', *{argv!r}]\n"
             "try:\n    main()\nexcept SystemExit as done:\n    code = done.code\n"
             "print(code, sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')), file=sys.stderr)")  # fmt: skip
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.stderr.strip().splitlines()[-1] in ("0 []", "None []")

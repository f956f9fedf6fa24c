"""A time limit that always holds (issue 36): the work runs in a forked worker process that is
killed when the limit runs out.

The solver checks its deadline between ground calls (riftasp/solver.py), but one ground call is
never interrupted: a 300-unit copy chain's first call ran 120 s under `--time-limit 10`. A signal
cannot stop it either (a Python exception raised inside a clingo callback aborts). A process
can always be killed: the caller gets `TimeLimitExceeded` within the limit and a few
milliseconds, whatever the solver is doing, and nothing of the worker is left behind.

Where `fork` is not available (Windows) the work runs here, with the solver's own checks only.
"""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Callable
from typing import Any, TypeVar

from .limits import TimeLimitExceeded

T = TypeVar("T")

# How long a killed worker may take to be reaped (it is SIGKILLed: at once, in practice).
_REAP_SECONDS = 5.0


def forking() -> bool:
    """Whether work can run in a forked worker here."""
    return "fork" in multiprocessing.get_all_start_methods()


def run_within(seconds: float, work: Callable[..., T], *args: Any) -> T:
    """`work(*args)`, stopped after `seconds` with TimeLimitExceeded; its exceptions are raised
    here as they were raised there (or as a RuntimeError naming them, when they do not pickle)."""
    if not forking():
        return work(*args)
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    worker = context.Process(target=_serve, args=(sender, work, args), daemon=True)
    worker.start()
    sender.close()  # the worker's end: EOF here once it exits
    try:
        if not receiver.poll(seconds):
            raise TimeLimitExceeded(seconds)
        try:
            outcome, value = receiver.recv()
        except EOFError:  # it died without a word (killed from outside, out of memory)
            raise RuntimeError(f"the worker process ended without an answer (exit code {worker.exitcode})") from None
    finally:
        if worker.is_alive():
            worker.kill()
        worker.join(_REAP_SECONDS)
        receiver.close()
    if outcome == "error":
        raise value
    return value


def _serve(sender: Any, work: Callable[..., Any], args: tuple) -> None:
    try:
        message: tuple[str, Any] = ("ok", work(*args))
    except BaseException as err:  # noqa: BLE001 - every failure goes back to the caller
        message = ("error", err)
    try:
        sender.send(message)
    except (pickle.PicklingError, TypeError, AttributeError):
        sender.send(("error", RuntimeError(f"{type(message[1]).__name__}: {message[1]}")))
    finally:
        sender.close()

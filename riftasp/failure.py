"""A board riftasp could not resolve among many (issue 39): `ResolveFailure` stands in that
board's place in `riftasp.batch.resolve_many`, so that one board's failure never loses the
others' answers, and `riftasp resolve FOLDER` prints it as one line and goes on."""

from __future__ import annotations

from dataclasses import dataclass, field

# What went wrong -> the commands' exit code (README): 2 bad input, 3 internal error (in the
# encoding or elsewhere in riftasp), 4 time limit.
EXIT_CODES = {"time_limit": 4, "encoding": 3, "ruleset": 2, "input": 2, "internal": 3}


@dataclass(frozen=True)
class ResolveFailure:
    """One board that was not resolved.

    `board`: its source (the file); `kind`: "time_limit", "encoding", "ruleset", "input" or
    "internal"; `message`: one line naming the board; `exit_code`: 2 bad input, 3 internal or
    encoding error, 4 time limit. `error()` is the exception riftasp raises for the board.
    """

    board: str
    kind: str
    message: str
    exit_code: int
    # The exception itself (not compared: exceptions compare by identity).
    cause: Exception | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, board: str, err: Exception) -> ResolveFailure:
        """The failure `err` (what resolving `board` alone raised) stands for."""
        from .board_io.errors import BoardError
        from .limits import TimeLimitExceeded
        from .present import printable
        from .resources import UnsupportedRuleset
        from .solver import EncodingError

        if isinstance(err, TimeLimitExceeded):
            # Named as resolve_many used to raise it: the board that was stopped.
            err = TimeLimitExceeded(err.seconds, board)
            kind, text = "time_limit", f"{board}: stopped at the time limit of {err.seconds:g} s"
        elif isinstance(err, EncodingError):
            kind, text = "encoding", f"{board}: internal error in the encoding: {err}"
        elif isinstance(err, UnsupportedRuleset):
            kind, text = "ruleset", f"{board}: ruleset: {err}"
        elif isinstance(err, BoardError):
            kind, text = "input", str(err)  # already `FILE: PATH: message`
        else:
            kind, text = "internal", f"{board}: internal error: {type(err).__name__}: {err}"
        return cls(board, kind, printable(text), EXIT_CODES[kind], err)

    def error(self) -> Exception:
        """The exception riftasp raised for this board (TimeLimitExceeded names the board)."""
        return self.cause if self.cause is not None else RuntimeError(self.message)


__all__ = ["EXIT_CODES", "ResolveFailure"]

"""The `riftasp` program: `riftasp resolve BOARD... [--json]` runs without importing typer
(riftasp.commands: ~26 ms of a 0.25 s start-up budget, bench/coldstart.py); every other
command line goes to the typer app (riftasp.cli)."""

from __future__ import annotations

import sys

from .commands import plain_resolve, run_plain


def main() -> None:
    plain = plain_resolve(sys.argv[1:])
    if plain is None:
        from .cli import app

        app()
        return
    sys.exit(run_plain(*plain))


if __name__ == "__main__":
    main()

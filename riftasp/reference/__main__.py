"""`python -m riftasp.reference`: one JSON board on stdin, its resolution as JSON on stdout.

With `--persistent`, one JSON board per line in and one JSON result per line out, until EOF, so a
differential tester can keep one process warm.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import resolve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m riftasp.reference", description=__doc__)
    parser.add_argument(
        "--persistent", action="store_true", help="read one JSON board per line until EOF"
    )
    args = parser.parse_args(argv)
    # Imported here so the engine and its tests do not need the board reader.
    from ..board_io import BoardError, load_board_text
    from ..rulesets import UnsupportedRuleset

    if not args.persistent:
        text = sys.stdin.read()
        try:
            board = load_board_text(text, "<stdin>")
        except BoardError as err:
            print(_one_line(err), file=sys.stderr)
            return 2
        try:
            out = resolve(board).to_json()
        except UnsupportedRuleset as err:  # the engine protocol's answer for what it cannot do
            out = {"unsupported": _one_line(err)}
        json.dump(out, sys.stdout)
        sys.stdout.write("\n")
        return 0

    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            board = load_board_text(line, "<stdin>")
            out = resolve(board).to_json()
        except BoardError as err:
            out = {"error": _one_line(err)}
        except UnsupportedRuleset as err:
            out = {"unsupported": _one_line(err)}
        except Exception as err:  # noqa: BLE001 - a tester must not hang on an engine bug
            out = {"error": f"internal error: {type(err).__name__}: {_one_line(err)}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
    return 0


def _one_line(err: Exception) -> str:
    return " ".join(str(err).split("\n")).strip()


if __name__ == "__main__":
    sys.exit(main())

"""`python -m riftasp`: the command line, as the `riftasp` script runs it."""

from .cli import main

main()

"""The reference engine's ruleset-neutral core: instances and their keys, targeting, reads and
writes, the state in characteristic families, the dependency test and cycles, the choice of what
to withdraw, and the trace. It names no ruleset's characteristics: a ruleset
(riftasp/reference/core/ruleset.py) supplies its operations, conditions and kinds of instance."""

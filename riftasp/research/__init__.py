"""Rules research (issue 38): what a board permits and where readings part.

- `outcomes.py`: every outcome a board permits — one resolution per permitted choice
  (simultaneous entries, same-timestamp groups when the reading `ties` is `choice`, and choice
  points opened by id), the distinct outcomes and the choices that lead to each
  (`riftasp outcomes`).
- `compare.py`: two rulesets or variants of one family on the same boards — given, generated,
  or searched for (`riftasp compare`); disagreements shrunk to minimal boards.
- `search.py`: the single-shot search kernels (encodings/research/<choice point>.lp) that guess
  the smallest board on which two readings of one choice point differ.
- `properties.py`: properties every ruleset should have, checked on generated boards or up to a
  bound, each failure with a minimal board (`riftasp properties`).

The choice points themselves are ruleset data (riftasp/choice_points.py); a reading is switched
on a board through `Board.readings` (riftasp/model.py), which both engines and the checkers read.
"""

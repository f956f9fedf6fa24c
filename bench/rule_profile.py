"""Where a calculation's grounding time goes, rule by rule (the profile behind the speed work of
the README, "How the encoding runs").

gringo times a ground call as a whole. This splits every program part the procedure grounds (its
start, step and final calls) into one part per group of rules that define each other (a strongly connected component
of "a rule's body reads what another's head defines"), grounds those groups one call at a time
in an order that respects what reads what, and times each call. Grounded so, a stratified
program gives the same atoms; the solver's loop (riftasp.solver) is unchanged.

    python bench/rule_profile.py --ruleset sorcery --objects 1000 [--top 25] [--json]

Per rule group: the total CPU seconds over all steps, the calls, the seconds of its slowest
call, and its rules. A group whose time per call stays high while the step adds few atoms costs
time in proportion to the board (or to the atoms earlier steps left), not to the step's work.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import clingo
from clingo import ast

HERE = Path(__file__).resolve().parent


def _signatures(node: Any, out: set[tuple[str, int]]) -> None:
    """The predicate signatures of the atoms anywhere under `node`."""
    if isinstance(node, ast.AST):
        if node.ast_type == ast.ASTType.SymbolicAtom:
            sym = node.symbol
            if sym.ast_type == ast.ASTType.UnaryOperation:
                sym = sym.argument
            if sym.ast_type == ast.ASTType.Function:
                out.add((sym.name, len(sym.arguments)))
            return
        for key in node.child_keys:
            _signatures(getattr(node, key), out)
    elif isinstance(node, (list, tuple)) or type(node).__name__ == "ASTSequence":
        for child in node:
            _signatures(child, out)


def _components(rules: list[tuple[set, set]]) -> list[list[int]]:
    """Strongly connected components of the rules (i -> j when i's body reads j's head), each
    after every component it reads."""
    from riftasp.graph import strongly_connected_components

    defines: dict[tuple, list[int]] = defaultdict(list)
    for j, (heads, _) in enumerate(rules):
        for sig in heads:
            defines[sig].append(j)
    edges = {i: sorted({j for sig in body for j in defines.get(sig, ())}) for i, (_, body) in enumerate(rules)}
    # Tarjan's order: a component comes after every component it reaches.
    return strongly_connected_components(list(range(len(rules))), edges)


class SplitProgram:
    """The ruleset's encoding with each step part split into one part per rule."""

    def __init__(self, ruleset: str, step_parts: set[str]):
        from riftasp.resources import encoding_files

        self.statements: list[ast.AST] = []
        self.params: dict[str, list[str]] = {}
        # part -> [(new part name, heads, body signatures, rule text)]
        self.rules: dict[str, list[tuple[str, set, set, str]]] = defaultdict(list)
        current = ["base", []]

        def add(stmt: ast.AST) -> None:
            if stmt.ast_type == ast.ASTType.Program:
                current[:] = [stmt.name, [p.name for p in stmt.parameters]]
                self.params[stmt.name] = current[1]
                self.statements.append(stmt)
                return
            part, params = current
            if part in step_parts and stmt.ast_type == ast.ASTType.Rule:
                name = f"{part}__r{len(self.rules[part])}"
                heads: set = set()
                body: set = set()
                _signatures(stmt.head, heads)
                _signatures(stmt.body, body)
                self.rules[part].append((name, heads, body, str(stmt)))
                loc = stmt.location
                self.statements.append(ast.Program(loc, name, [ast.Id(loc, p) for p in params]))
                self.statements.append(stmt)
                self.statements.append(ast.Program(loc, part, [ast.Id(loc, p) for p in params]))
                return
            self.statements.append(stmt)

        for path in encoding_files(ruleset):
            ast.parse_files([str(path)], add)
            current[:] = ["base", []]
            self.statements.append(ast.Program(ast.Location(ast.Position("", 0, 0), ast.Position("", 0, 0)),
                                               "base", []))
        self._plans: dict[tuple, list[list[tuple[str, list]]]] = {}

    def load(self, ctl: clingo.Control) -> None:
        with ast.ProgramBuilder(ctl) as builder:
            for stmt in self.statements:
                builder.add(stmt)

    def groups(self, parts: list[tuple[str, list]]) -> list[list[tuple[str, list, str]]]:
        """The ground calls that replace one call of `parts`: the parts' other statements first,
        then each rule group, after the groups it reads."""
        key = tuple((name, tuple(map(str, args))) for name, args in parts)
        if key not in self._plans:
            rules = [(name, args, r) for name, args in parts for r in self.rules.get(name, [])]
            comps = _components([(r[1], r[2]) for _, _, r in rules])
            plan = [[(name, args, "(other statements)") for name, args in parts]]
            plan += [[(rules[i][2][0], rules[i][1], rules[i][2][3]) for i in comp] for comp in comps]
            self._plans[key] = plan
        return self._plans[key]


def profile(ruleset: str, objects: int, board: dict | None = None, keep_answer: bool = False) -> dict:
    """The timings; with `keep_answer`, also the calculation's shown symbols (as text, sorted) under
    "answer", which must be the unsplit program's (tests/test_step_names.py checks it)."""
    sys.path.insert(0, str(HERE))
    from boards import GENERATORS

    import riftasp.solver as solver
    from riftasp.board_io import board_from_dict
    from riftasp.facts import board_facts
    from riftasp.resources import procedure

    plan = procedure(ruleset)
    # Every part the procedure grounds (start, step and final calls) is split: a part left whole
    # would ground before the split rules of its call and miss what they define (the start call
    # pairs `static` with `eval`, which reads it).
    step_parts = {name for key in ("start", "step", "final") for call in plan[key] for name, _ in call}
    split = SplitProgram(ruleset, step_parts)
    board_obj = board_from_dict(board or GENERATORS[ruleset](objects), f"generated-{objects}")
    times: dict[str, list[float]] = defaultdict(list)
    steps: dict[str, list[int]] = defaultdict(list)
    texts: dict[str, str] = {}
    original_ground, original_load = solver._ground, solver._load_encoding

    def ground(ctl, parts, values, deadline, strict):  # noqa: ANN001 - solver._ground's signature
        if not any(name in step_parts for name, _ in parts):
            return original_ground(ctl, parts, values, deadline, strict)
        for group in split.groups(parts):
            label = " | ".join(sorted({g[0] for g in group}))
            texts[label] = "\n".join(g[2] for g in group)
            start = time.process_time()
            original_ground(ctl, [[name, args] for name, args, _ in group], values, deadline, strict)
            times[label].append(max(0.0, time.process_time() - start - min(overhead)))
            # (A calculation of several rounds numbers its steps from 1 in each.)
            steps[label].append(values.get("p", values.get("n", 0)))

    overhead: list[float] = []

    def load(ctl, ruleset_, logger):  # noqa: ANN001
        split.load(ctl)
        # What a ground call costs with nothing to ground (gringo goes over the whole program
        # each call): taken off every group's calls below, so a group shows its rules' work.
        for k in range(5):
            ctl.add(f"rule_profile_empty_{k}", [], "")
            start = time.process_time()
            ctl.ground([(f"rule_profile_empty_{k}", [])])
            overhead.append(time.process_time() - start)

    # The rules as the files write them: step names (riftasp/step_names.py) off, so that each
    # rule group is its own part here.
    import riftasp.step_names as step_names

    named = step_names.MODE
    step_names.MODE = "0"
    solver._ground, solver._load_encoding = ground, load
    try:
        start = time.process_time()
        symbols, stats = solver.run(board_facts(board_obj), board_obj.ruleset)
        total = time.process_time() - start
    finally:
        solver._ground, solver._load_encoding = original_ground, original_load
        step_names.MODE = named
    rows = [{"rules": label, "seconds": sum(ts), "calls": len(ts), "max_call": max(ts), "text": texts[label],
             "per_call": [[step, t] for step, t in zip(steps[label], ts)]}
            for label, ts in times.items()]
    rows.sort(key=lambda r: -r["seconds"])
    out = {"ruleset": ruleset, "objects": objects, "seconds": total, "steps": stats.steps,
           "empty_call_ms": 1000 * min(overhead),
           "atoms": stats.atoms, "groups": rows}
    if keep_answer:
        out["answer"] = sorted(map(str, symbols))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="riftbound")
    parser.add_argument("--objects", type=int, default=1000)
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = profile(args.ruleset, args.objects)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    grouped = sum(r["seconds"] for r in result["groups"])
    print(f"{args.ruleset}, {args.objects} objects: {result['seconds']:.2f} CPU s, {result['steps']} steps, "
          f"{result['atoms']} atoms; rules {grouped:.2f} s (less {result['empty_call_ms']:.2f} ms a call: "
          f"the cost of a ground call with nothing to ground)")
    for r in result["groups"][: args.top]:
        text = r["text"].replace("\n", " ")
        print(f"{r['seconds']:8.3f} s {r['calls']:5d} calls  max {1000 * r['max_call']:7.1f} ms  "
              f"{text[:150]}")


if __name__ == "__main__":
    main()

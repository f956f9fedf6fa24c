"""The `.lp` board's syntax: its text into ground terms (`Term`), read as data and never
grounded; anything but ground facts is refused with its place (see `parse_facts`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import clingo
import clingo.ast

from ..present import shorten
from ..terms import quote
from .errors import BoardError, text_position

# Clingo integers are 32-bit and wrap silently: a number beyond them cannot even be read.
CLINGO_INT_MAX = 2**31 - 1
# Where a clingo message puts the problem: `<string>:LINE:COLUMN[-…]: error: what`.
_CLINGO_LOCATION = re.compile(r"^[^:]*:(\d+):(\d+)(?:-[\d:]+)?: \w+: (.*)$")


# What a board file may hold outside strings and comments: printable ASCII and line breaks.
# Anything else is refused here, before clingo sees it: clingo reports an unexpected character
# byte by byte, and a message holding part of a UTF-8 character aborts the process.
_LP_PIECE = re.compile(r'"(?:[^"\\\n]|\\[\\"n])*"|%\*|%[^\n]*|[^"%]+|"')
_LP_FORBIDDEN = re.compile(r"[^\t\n\r\x20-\x7e]|#|(?<![A-Za-z0-9_'])[0-9]{10,}")
_LP_NESTING = re.compile(r"%\*|\*%")
_BAD_STRING = r'unterminated string or unknown escape (a string ends on its line; its escapes are \\, \" and \n)'
_DIRECTIVE = "directives (#include, #const, #show, #script, …) are not allowed in a board file"
# A plain fact: a predicate with arguments nested at most three deep (the vocabulary needs two)
# of numbers, strings, constants, functions and tuples. Possessive: a long bad line costs one
# pass, not a backtracking search.
_WS = r"[ \t\r\n]*+"
_NAME = r"(?!not\b)_*+[a-z][A-Za-z0-9_']*+"
_STRING = r'"(?:[^"\\\n]|\\[\\"n])*+"'


def _nested(inner: str) -> str:
    arguments = rf"{inner}(?:{_WS},{_WS}{inner})*+"
    # A tuple may end in a comma, as (1,) must; a function may not.
    return rf"(?>{_NAME}\({_WS}(?:{arguments})?{_WS}\)|\({_WS}(?:{arguments}{_WS},?)?{_WS}\)|{inner})"


_TERM = _nested(_nested(_nested(rf"(?>-{_WS}[0-9]++|[0-9]++|{_STRING}|{_NAME})")))
_PLAIN_FACT = re.compile(rf"{_WS}(?P<fact>{_NAME}(?:\({_WS}{_TERM}(?:{_WS},{_WS}{_TERM})*+{_WS}\))?){_WS}\.(?!\.)")
_BLANK = re.compile(_WS)
# One statement: up to a full stop that is not part of `..` (strings are whole, comments gone).
_STATEMENT = re.compile(rf'(?:{_STRING}|\.\.|\.(?={_WS}\[)|[^".])*+(?:\.|\Z)')  # `:~ b. [1]` is one
# A text with nothing for _data_only to do: strings, words, numbers of at most nine digits, and
# printable ASCII other than quotes, `#` and `%`.
_CLEAN = re.compile(rf"(?:{_STRING}|[A-Za-z_'][A-Za-z0-9_']*+|[0-9]{{1,9}}+(?![0-9])|[\t\n\r !$&(-/:-@\[-^`{{-~]++)*+")
_BATCH = 1000  # facts per call of the term builder
_PLAIN_TOKEN = re.compile(rf"({_NAME})(\()?|({_STRING})|(-{_WS}[0-9]++|[0-9]++)|(\()|(\))")
_BLANK_RUN = re.compile(r"[ \t\r\n]+")
_ESCAPE = re.compile(r"\\(.)")
_ESCAPES = {"\\": "\\", '"': '"', "n": "\n"}


def parse_facts(text: str, source: str) -> list[Term]:
    """The facts of a `.lp` board, in the order they are written, each once.

    The file is data: nothing is grounded, and only ground facts are accepted (no variables,
    intervals, pools, arithmetic, directives, rules or constraints). Plain facts, the whole of
    a file `riftasp facts` wrote, take a fast path: a strict pattern finds them and `_plain_terms`
    builds them (clingo's Python symbol API costs tens of microseconds per fact, and a large
    board has millions). Any other statement is read alone by clingo's parser, which accepts it
    only if it is a ground fact (`_statement_fact`) and otherwise says what is wrong and where.
    """
    program = _data_only(text, source)
    lines = _Lines(program)
    facts: list[Term] = []
    plain: list[tuple[int, int]] = []  # spans of plain facts not yet read
    position = 0
    while position < len(program):
        match = _PLAIN_FACT.match(program, position)
        if match is not None:
            plain.append(match.span("fact"))
            position = match.end()
            continue
        if _BLANK.fullmatch(program, position):
            break
        statement = _STATEMENT.match(program, position)
        assert statement is not None  # it fails only at an unterminated string, which _data_only refused
        end = statement.end()
        facts += _read_plain(program, plain)
        facts += _read_statements(program, position, end, lines, source)
        position = end
    facts += _read_plain(program, plain)
    return list(dict.fromkeys(facts))  # facts are a set; the first spelling sets the order


def _read_plain(program: str, spans: list[tuple[int, int]]) -> list[Term]:
    """The plain facts at `spans`, a batch at a time (emptying `spans`)."""
    facts: list[Term] = []
    for first in range(0, len(spans), _BATCH):
        facts += _plain_terms(",".join(program[start:end] for start, end in spans[first : first + _BATCH]))
    spans.clear()
    return facts


def _plain_terms(text: str) -> list[Term]:
    """The terms in `text`, a comma-separated list that _PLAIN_FACT has checked (so well formed)."""
    stack: list[tuple[str, list[Term]]] = []
    current: list[Term] = []
    for name, call, string, number, opening, closing in _PLAIN_TOKEN.findall(text):
        if name:
            if call:
                stack.append((name, current))
                current = []
            else:
                current.append(Term.function(name, ()))
        elif string:
            current.append(Term.text(_unescape(string[1:-1])))
        elif number:
            current.append(Term.integer(int(_BLANK_RUN.sub("", number))))
        elif opening:
            stack.append(("", current))
            current = []
        elif closing:
            name, parent = stack.pop()
            parent.append(Term.function(name, tuple(current)))
            current = parent
    return current


def _unescape(text: str) -> str:
    return _ESCAPE.sub(lambda m: _ESCAPES[m[1]], text) if "\\" in text else text


class Term:
    """A ground term read from a board file, with the parts of clingo.Symbol the reader uses
    (type, name, arguments, string, number, positive, str()) in plain Python."""

    __slots__ = ("type", "name", "arguments", "string", "number", "key")
    positive = True
    type: clingo.SymbolType
    name: str
    arguments: tuple[Term, ...]
    string: str
    number: int
    key: tuple

    def __init__(self, kind: clingo.SymbolType, key: tuple, name: str = "", arguments: tuple[Term, ...] = (),
                 string: str = "", number: int = 0) -> None:  # fmt: skip
        self.type, self.key = kind, key
        self.name, self.arguments, self.string, self.number = name, arguments, string, number

    @classmethod
    def function(cls, name: str, arguments: tuple[Term, ...]) -> Term:
        return cls(clingo.SymbolType.Function, (2, name, tuple(a.key for a in arguments)), name, arguments)

    @classmethod
    def text(cls, string: str) -> Term:
        return cls(clingo.SymbolType.String, (1, string), string=string)

    @classmethod
    def integer(cls, number: int) -> Term:
        return cls(clingo.SymbolType.Number, (0, number), number=number)

    @classmethod
    def of(cls, symbol: clingo.Symbol) -> Term:
        """From clingo's symbol (facts its parser read; only Number, String and Function occur)."""
        if symbol.type == clingo.SymbolType.Number:
            return cls.integer(symbol.number)
        if symbol.type == clingo.SymbolType.String:
            return cls.text(symbol.string)
        return cls.function(symbol.name, tuple(cls.of(a) for a in symbol.arguments))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Term) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __lt__(self, other: Term) -> bool:
        return self.key < other.key

    def __str__(self) -> str:
        """As clingo writes it: p("a",b,(1,))."""
        if self.type == clingo.SymbolType.Number:
            return str(self.number)
        if self.type == clingo.SymbolType.String:
            return quote(self.string)
        inner = ",".join(map(str, self.arguments))
        if not self.name:
            return f"({inner}{',' if len(self.arguments) == 1 else ''})"
        return f"{self.name}({inner})" if self.arguments else self.name


def _read_statements(program: str, start: int, end: int, lines: _Lines, source: str) -> list[Term]:
    """The facts in `program[start:end]`, read by clingo's parser; the first problem is an error."""
    place = lines.place(start, end)
    messages: list[str] = []
    collect = _FactCollector(place)
    try:
        # The logger only appends: an exception raised inside a clingo callback aborts.
        clingo.ast.parse_string(place.piece, collect, logger=lambda _code, message: messages.append(message))
    except RuntimeError:
        raise _asp_error(messages, source, place) from None
    if collect.problem is not None:
        where, message = collect.problem
        raise BoardError(source, where, message)
    return [Term.of(fact) for fact in collect.facts]


@dataclass(frozen=True)
class _Place:
    """Where a piece of the file starts; clingo's locations in the piece are relative to it
    (and count bytes, where the file's columns count characters)."""

    line: int
    column: int
    piece: str

    def where(self, line: int, column: int) -> str:
        text = self.piece.split("\n", line)[line - 1] if line <= self.piece.count("\n") + 1 else ""
        characters = len(text.encode()[: column - 1].decode(errors="ignore")) + 1 if text else column
        return f"line {self.line + line - 1} column {characters + (self.column - 1 if line == 1 else 0)}"


class _Lines:
    """Line and column of positions in a text, asked in increasing order (so counting is linear)."""

    def __init__(self, text: str) -> None:
        self.text, self.index, self.line = text, 0, 1

    def place(self, start: int, end: int) -> _Place:
        if start < self.index:
            self.index, self.line = 0, 1
        self.line += self.text.count("\n", self.index, start)
        self.index = start
        return _Place(self.line, start - (self.text.rfind("\n", 0, start) + 1) + 1, self.text[start:end])


def _data_only(text: str, source: str) -> str:
    """`text` with comments blanked (line breaks kept), after refusing what is never data:
    NUL, characters other than printable ASCII outside strings, `#` directives, unterminated
    strings and comments, and numbers beyond clingo's 32 bits (it would wrap them)."""
    if "\x00" not in text and _CLEAN.fullmatch(text):  # the usual file: no comments, nothing to refuse
        return text
    pieces: list[str] = []
    position = 0
    while position < len(text):
        match = _LP_PIECE.match(text, position)
        assert match is not None  # the last alternative matches any one character left
        piece = match.group()
        if piece == '"':
            raise _lp_error(text, position, source, _BAD_STRING)
        if piece == "%*":
            end = _block_comment_end(text, match.end())
            if end is None:
                raise _lp_error(text, position, source, "unterminated block comment %* … *%")
            pieces.append(re.sub(r"[^\n]", " ", text[position:end]))
            position = end
            continue
        if piece.startswith('"'):
            if "\x00" in piece:
                nul = position + piece.index("\x00")
                raise _lp_error(text, nul, source, "a string must not contain a NUL character")
        elif not piece.startswith("%"):
            _check_lp_text(text, position, piece, source)
        pieces.append("" if piece.startswith("%") else piece)
        position = match.end()
    return "".join(pieces)


def _check_lp_text(text: str, position: int, piece: str, source: str) -> None:
    bad = _LP_FORBIDDEN.search(piece)
    if bad is None:
        return
    found, where = bad.group(), position + bad.start()
    if found == "#":
        raise _lp_error(text, where, source, _DIRECTIVE)
    if found[0].isdigit():
        if int(found) > CLINGO_INT_MAX:
            raise _lp_error(text, where, source, f"number {shorten(found, 20)} is beyond clingo's 32-bit integers")
        _check_lp_text(text, where + len(found), piece[bad.end() :], source)
        return
    raise _lp_error(text, where, source, f"unexpected character {found!r} outside a string")


def _block_comment_end(text: str, position: int) -> int | None:
    """Where the block comment opened just before `position` ends (clingo nests them)."""
    depth = 1
    for match in _LP_NESTING.finditer(text, position):
        depth += 1 if match.group() == "%*" else -1
        if depth == 0:
            return match.end()
    return None


def _lp_error(text: str, index: int, source: str, message: str) -> BoardError:
    return BoardError(source, text_position(text, index), message)


class _NotData(Exception):
    """A statement or term that is not a ground fact of data, at its place in the piece read."""

    def __init__(self, ast: Any, what: str) -> None:
        super().__init__(what)
        self.line, self.column = ast.location.begin.line, ast.location.begin.column
        self.message = f"{what} not allowed: a board file holds ground facts only"


class _FactCollector:
    """The parser's callback: keeps each fact as a symbol, and the first statement that is not one.

    It never raises: an exception inside a clingo callback would abort the process.
    """

    def __init__(self, place: _Place) -> None:
        self.place = place
        self.facts: list[clingo.Symbol] = []
        self.problem: tuple[str, str] | None = None

    def __call__(self, statement: clingo.ast.AST) -> None:
        if self.problem is not None:
            return
        try:
            fact = _statement_fact(statement)
        except _NotData as problem:
            self.problem = (self.place.where(problem.line, problem.column), problem.message)
        except RecursionError:
            begin = statement.location.begin
            self.problem = (self.place.where(begin.line, begin.column), "terms nested too deeply")
        except Exception as problem:  # noqa: BLE001 - see the docstring
            self.problem = ("file", f"cannot read the facts: {problem}")
        else:
            if fact is not None:
                self.facts.append(fact)


_T = clingo.ast.ASTType


def _statement_fact(statement: clingo.ast.AST) -> clingo.Symbol | None:
    kind = statement.ast_type
    if kind == _T.Comment:
        return None
    if kind == _T.Program and statement.location.begin == statement.location.end:
        return None  # the parser's own `#program base.` before the first statement
    if kind != _T.Rule:
        raise _NotData(statement, "directives and statements other than facts are")
    if statement.body:
        raise _NotData(statement, "rules (:-) are")
    head = statement.head
    if head.ast_type != _T.Literal:
        raise _NotData(statement, "choices, disjunctions and aggregates are")
    if head.atom.ast_type == _T.BooleanConstant:
        raise _NotData(statement, "constraints are")
    if head.sign != clingo.ast.Sign.NoSign:
        raise _NotData(statement, "negated facts (not) are")
    if head.atom.ast_type != _T.SymbolicAtom:
        raise _NotData(statement, "comparisons are")
    if head.atom.symbol.ast_type == _T.UnaryOperation:
        raise _NotData(statement, "classically negated facts (-p) are")
    return _ground_term(head.atom.symbol)


def _ground_term(term: clingo.ast.AST) -> clingo.Symbol:
    """A term written as a plain value: a number, a string, a constant, a function or tuple of
    these; a minus sign only before a number."""
    kind = term.ast_type
    if kind == _T.SymbolicTerm:
        symbol = term.symbol
        if symbol.type in (clingo.SymbolType.Infimum, clingo.SymbolType.Supremum):
            raise _NotData(term, "#inf and #sup are")
        return symbol
    if kind == _T.UnaryOperation:
        argument = term.argument
        is_number = argument.ast_type == _T.SymbolicTerm and argument.symbol.type == clingo.SymbolType.Number
        if term.operator_type != clingo.ast.UnaryOperator.Minus or not is_number:
            raise _NotData(term, "arithmetic, classical negation and signs other than a minus before a number are")
        return clingo.Number(-argument.symbol.number)
    if kind == _T.Function:
        if term.external:
            raise _NotData(term, "external functions (@f) are")
        return clingo.Function(term.name, [_ground_term(argument) for argument in term.arguments])
    what = {_T.Variable: "variables are", _T.Interval: "intervals (a..b) are", _T.Pool: "pools (a;b) are"}
    raise _NotData(term, what.get(kind, "arithmetic and other computed terms are"))


def _asp_error(messages: list[str], source: str, place: _Place) -> BoardError:
    lines = messages[0].splitlines() if messages else ["invalid ASP"]
    # Continuation lines carry the rule in question ("unsafe variables in:\n  p(X)."); notes
    # that point elsewhere in the text are left out.
    detail = [line.strip() for line in lines[1:] if line.strip() and not line.startswith("<")]
    first = " ".join([lines[0], *detail]).replace(":-[#inc_base]", "")  # clingo's internal body
    match = _CLINGO_LOCATION.match(first)
    if match is None:
        return BoardError(source, "file", f"invalid ASP: {first}")
    return BoardError(source, place.where(int(match[1]), int(match[2])), f"invalid ASP: {match[3]}")


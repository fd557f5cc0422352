"""Reading a dealer script: a lexer and a recursive-descent parser (no user text is ever run as Python).

Operator precedence follows the C program's grammar, lowest first:
``?:`` (right-associative), ``||``/``or``, ``&&``/``and``, ``==`` ``!=``,
``<`` ``<=`` ``>`` ``>=``, ``+`` ``-``, ``*`` ``/`` ``%``, then the unary
``!``/``not`` and ``-``.

>>> script = parse_script("hcp(north) >= 2 * 6 && !shape(north, any 4333)")
>>> script.condition
Binary(op='&&', left=Binary(op='>=', left=Call(name='points', args=('hcp', 0)), right=Binary(op='*', left=Num(value=2), right=Num(value=6))), right=Unary(op='!', operand=Call(name='shape', args=(0, Shapes(...)))))
>>> parse_script("condition hpc(north) > 3")
Traceback (most recent call last):
...
cardlab.errors.DealerScriptError: line 1, column 11: unknown function 'hpc'
"""

from __future__ import annotations

import contextlib
import itertools
import re
import sys
import threading
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from cardlab.board import SEAT_WORDS, SEATS, STRAINS
from cardlab.bridge.dealer.functions import FUNCTIONS, FunctionSpec, Shapes
from cardlab.bridge.dealer.holdings import HOLDING_LENGTH, HOLDING_RANKS, ShapeTable, checked_table, checked_values
from cardlab.bridge.dealer.strings import MAX_STRINGS, STRING_BASE, misplaced_strings, string_codes, string_function, string_uses
from cardlab.bridge.dealer.tree import Binary, Call, Cond, Node, Num, Str, Unary, Var, children
from cardlab.bridge.polynomials import shape_key
from cardlab.cards import RANKS, SUIT_ORDER, SUITS, SUIT_NAMES as CARD_SUIT_NAMES
from cardlab.errors import DealerScriptError

__all__ = ["Token", "tokenize", "parse_script", "deep_recursion", "MAX_DEPTH", "Script", "Action", "Num", "Var", "Call", "Unary", "Binary",
           "Cond", "Shapes", "Node", "children", "SEAT_NAMES", "SUIT_NAMES", "MAX_COUNT_VALUE"]

#: seat words -> seat index (0 north .. 3 west)
SEAT_NAMES = {word: SEATS.index(letter) for word, letter in SEAT_WORDS.items()}
#: suit words, singular and plural -> suit index (0 clubs .. 3 spades, as in card ids); 4 = notrump for strains
SUIT_NAMES = {word: suit for suit, name in enumerate(CARD_SUIT_NAMES) for word in (name[:-1], name)}
STRAIN_NAMES = {**SUIT_NAMES, "notrump": 4, "notrumps": 4}
VULNERABLE_NAMES = {"none": "None", "ns": "NS", "ew": "EW", "all": "All", "both": "All"}
_STATEMENTS = {"generate", "produce", "dealer", "vulnerable", "seed", "predeal", "pointcount", "altcount",
               "condition", "action"}
#: DealerV2 (github.com/dealerv2) statements that leave the deals as they are: ``title "..."`` names
#: the run, ``opener SEAT`` is the opener of its opc() evaluations (cardlab has no opc()). Neither word
#: is reserved: C dealer scripts name variables ``opener`` (``opener = hcp(north) >= 12``).
_DEALERV2_STATEMENTS = {"title": "STRING", "opener": "SEAT"}
_ACTIONS = {"printall", "printew", "printpbn", "printcompact", "printoneline", "print", "printes", "average",
            "frequency", "evalcontract", "correlation", "bktfreq"}
_WORDS_OPERATORS = {"and": "&&", "or": "||", "not": "!"}
#: DealerV2 words cardlab does not run (they would change what is printed or computed)
_DEALERV2_ONLY = {"printrpt": "action", "csvrpt": "action", "export": "action",
                  "printside": "action", "printns": "action", "usereval": "function", "opc": "function",
                  "ltc": "function", "trix": "function", "gib": "function"}


# --- tokens ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Token:
    """One token of a script: its kind (NUMBER, WORD, STRING, OP, ...), text and position."""
    kind: str  # NUMBER, WORD, STRING, OP, NEWLINE_MARK, END
    text: str
    line: int
    column: int


_OPERATORS = ("&&", "||", "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "%", "?", ":", "(", ")",
              ",", "=", "!")



def _after(chunk: str, line: int, col: int) -> tuple[int, int]:
    """The line and column just after ``chunk``, which starts at ``line``, ``col``."""
    newlines = chunk.count("\n")
    if newlines:
        return line + newlines, len(chunk) - chunk.rfind("\n")
    return line, col + len(chunk)

def _character_hint(ch: str, before: list[Token]) -> str:
    """Why a character that DealerV2 scripts use is refused (empty for any other)."""
    last = before[-1] if before else None
    if ch == "{" and last is not None and last.text == "shape":
        return ": DealerV2's shape{SEAT, ...} (Dellacherie shapes) is not supported; write shape(SEAT, ...)"
    if ch == "." and last is not None and last.kind == "NUMBER":
        return f" after '{last.text}': decimal numbers (DealerV2's dotnums) are not supported; use whole numbers"
    if ch == "$":
        return ": DealerV2's script parameters $0..$9 are not supported; write the value itself"
    return ""


_DOTNUM = re.compile(r"(\d+)\.(\d*)|()\.(\d+)")


def tokenize(text: str, source: str | None = None) -> list[Token]:
    """The tokens of a script; comments (``#`` at a line start, ``//``, ``/* */``) dropped."""
    tokens: list[Token] = []
    i, line, col = 0, 1, 1
    n = len(text)

    def error(reason: str, at_line: int, at_col: int) -> DealerScriptError:
        return DealerScriptError(reason, at_line, at_col, source)

    line_start = True
    while i < n:
        ch = text[i]
        if ch == "\n":
            i, line, col, line_start = i + 1, line + 1, 1, True
            continue
        if ch in " \t\r\f":
            i, col = i + 1, col + 1
            continue
        if ch == "#" and line_start or text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        line_start = False
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise error("unterminated comment: '/*' is never closed by '*/'", line, col)
            line, col = _after(text[i:end + 2], line, col)
            i = end + 2
            continue
        if ch == '"':
            j = i + 1
            out = []
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n:
                    out.append({"n": "\n", "t": "\t"}.get(text[j + 1], text[j + 1]))
                    j += 2
                    continue
                out.append(text[j])
                j += 1
            if j >= n:
                raise error("unterminated string: '\"' is never closed", line, col)
            tokens.append(Token("STRING", "".join(out), line, col))
            line, col = _after(text[i:j + 1], line, col)
            i = j + 1
            continue
        if ch == "\\" and text.startswith("\\n", i):
            tokens.append(Token("NEWLINE_MARK", "\\n", line, col))
            i, col = i + 2, col + 2
            continue
        dotnum = _DOTNUM.match(text, i) if ch.isdigit() or ch == "." else None
        if dotnum:  # DealerV2's dotnums: 5.25 is 525, .5 is 50 (hundredths, as cccc and quality count)
            whole, point = dotnum.group(1) or dotnum.group(3) or "", dotnum.group(2) or dotnum.group(4) or ""
            if len(whole) > 2 or len(point) > 2 or (dotnum.end() < n and (text[dotnum.end()].isalnum()
                                                                         or text[dotnum.end()] in "_.")):
                raise error(f"decimal number {dotnum.group()!r}: DealerV2's dotnums have at most two digits "
                            "either side of the point", line, col)
            value = int(whole or "0") * 100 + int((point + "00")[:2])
            tokens.append(Token("DOTNUM", str(value), line, col))
            i, col = dotnum.end(), col + len(dotnum.group())
            continue
        match = re.compile(r"[A-Za-z0-9_]+").match(text, i)
        if match:
            word = match.group()
            kind = "NUMBER" if word.isdigit() else "WORD"
            tokens.append(Token(kind, word, line, col))
            i, col = match.end(), col + len(word)
            continue
        for op in _OPERATORS:
            if text.startswith(op, i):
                tokens.append(Token("OP", op, line, col))
                i, col = i + len(op), col + len(op)
                break
        else:
            raise error(f"unexpected character {ch!r}" + _character_hint(ch, tokens), line, col)
    tokens.append(Token("END", "end of script", line, col))
    return tokens


@dataclass(frozen=True)
class Action:
    """One action: ``kind`` is printall, printew, printpbn, printcompact, printoneline, print,
    printes, average or frequency; ``exprs`` its expressions, ``bounds`` a frequency's bounds,
    ``seats`` print()'s seats, ``items`` printes' strings and expressions in order."""

    kind: str
    label: str | None = None
    exprs: tuple[Node, ...] = ()
    bounds: tuple[int, ...] = ()
    seats: tuple[int, ...] = ()
    items: tuple[str | Node, ...] = ()
    #: ``frequency`` of a string-valued shape function: per axis, the names of the rows
    #: ``bounds[0]..bounds[1]`` (the script's strings by code), empty for a numeric axis.
    names: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class Script:
    """A parsed dealer script."""

    condition: Node = Num(1)
    actions: tuple[Action, ...] = (Action("printall"),)
    variables: tuple[tuple[str, Node], ...] = ()
    generate: int | None = None
    produce: int | None = None
    dealer: int | None = None
    vulnerable: str | None = None
    seed: int | None = None
    predeal: tuple[tuple[int, tuple[int, ...]], ...] = ()
    #: ``predeal spades(north) == 5`` (DealerV2's bias deal): (seat, suit, length), the seat holding
    #: exactly that many cards of the suit in every deal (docs/dealer.md).
    predeal_lengths: tuple[tuple[int, int, int], ...] = ()
    pointcount: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4)  # ranks 2..A
    altcounts: tuple[tuple[int, tuple[int, ...]], ...] = ()
    source: str | None = None
    default_action: bool = True
    title: str | None = None  # DealerV2's title "..." (kept, not printed)
    opener: int | None = None  # DealerV2's opener SEAT (for its opc(), which cardlab lacks)
    #: the strings string-valued shape functions return, by code (docs/dealer.md)
    strings: tuple[str, ...] = ()

    @property
    def prints(self) -> bool:
        """Whether any action prints deals."""
        return any(a.kind.startswith("print") for a in self.actions)

    def variable_map(self) -> dict[str, Any]:
        """The script's variables, name to expression."""
        return dict(self.variables)


# --- the parser ----------------------------------------------------------------------------------


class _Parser:
    def __init__(self, text: str, source: str | None) -> None:
        self.functions = FUNCTIONS
        self.in_holding = ""  # "holding" or "shapeclass" inside such a definition
        self.source = source
        self.lines = text.split("\n")
        self.tokens = tokenize(text, source)
        self.pos = 0
        self.settings: dict[str, Any] = {}
        self.variables: dict[str, Any] = {}
        self.var_tokens: dict[str, Token] = {}
        self.uses: list[Token] = []
        self.predeal: dict[int, list[int]] = {}
        self.lengths: dict[tuple[int, int], int] = {}
        self.altcounts: dict[int, tuple[int, ...]] = {}
        self.nesting = 0
        self.strings: dict[str, int] = {}  # string-valued shape functions' strings -> codes
        self.string_valued: dict[str, tuple[int, ...]] = {}  # such a function -> its codes
        self.quoted = False  # whether the shape function being defined returns a quoted string
        self.string_vars: dict[str, str] = {}  # a variable holding a string-valued call -> its function

    # token helpers
    @property
    def tok(self) -> Token:
        return self.tokens[self.pos]

    def peek(self, k: int = 1) -> Token:
        return self.tokens[min(self.pos + k, len(self.tokens) - 1)]

    def advance(self) -> Token:
        token = self.tok
        self.pos = min(self.pos + 1, len(self.tokens) - 1)
        return token

    def text_between(self, first: Token, last: Token) -> str:
        """The script's own text from ``first`` to the end of ``last`` (on one line, else the tokens)."""
        if first.line == last.line and last.kind != "STRING":
            return self.lines[first.line - 1][first.column - 1:last.column - 1 + len(last.text)]
        return " ".join(t.text for t in self.tokens[self.tokens.index(first):self.tokens.index(last) + 1])

    def error(self, reason: str, token: Token | None = None) -> DealerScriptError:
        token = token or self.tok
        return DealerScriptError(reason, token.line, token.column, self.source)

    def expected(self, what: str) -> DealerScriptError:
        got = self.tok.text if self.tok.kind != "STRING" else f'"{self.tok.text}"'
        shown = got if self.tok.kind == "END" else f"'{got}'"
        return self.error(f"expected {what}, got {shown}")

    def is_op(self, *ops: str) -> bool:
        return self.tok.kind == "OP" and self.tok.text in ops

    def is_word(self, *words: str) -> bool:
        return self.tok.kind == "WORD" and self.tok.text in words

    def expect_op(self, op: str) -> Token:
        if not self.is_op(op):
            raise self.expected(f"'{op}'")
        return self.advance()

    def number(self, what: str = "a number") -> int:
        sign = 1
        if self.is_op("-"):
            self.advance()
            sign = -1
        if self.tok.kind not in ("NUMBER", "DOTNUM"):
            raise self.expected(what)
        return sign * self.whole(self.advance())

    def whole(self, token: Token) -> int:
        """A number token's value; one with more digits than any 64-bit value is refused here (before
        Python's own limit on converting long digit strings)."""
        if len(token.text) > _MAX_DIGITS:
            raise self.error(f"the number {token.text[:12]}... ({len(token.text):,} digits) is too large: dealer "
                             "values are 64-bit integers", token)
        return int(token.text)

    def seat(self) -> int:
        if self.tok.kind == "WORD" and self.tok.text in SEAT_NAMES:
            return SEAT_NAMES[self.advance().text]
        raise self.expected("a seat (north, east, south or west)")

    # statements
    def script(self) -> Script:
        condition: Any = None
        actions: list[Action] | None = None
        while self.tok.kind != "END":
            token = self.tok
            if token.kind == "WORD" and token.text in _STATEMENTS:
                self.advance()
                word = token.text
                if word in ("generate", "produce", "seed"):
                    value = self.number(f"a number after '{word}'")
                    if value < (0 if word == "seed" else 1):
                        raise self.error(f"'{word}' needs a positive number, got {value}", token)
                    self.settings[word] = value
                elif word == "dealer":
                    self.settings["dealer"] = self.seat()
                elif word == "vulnerable":
                    if self.tok.kind != "WORD" or self.tok.text.lower() not in VULNERABLE_NAMES:
                        raise self.expected("none, NS, EW or all")
                    self.settings["vulnerable"] = VULNERABLE_NAMES[self.advance().text.lower()]
                elif word == "predeal":
                    self.predeal_args(token)
                elif word == "pointcount":
                    self.settings["pointcount"] = self.count_values(token, "pointcount")
                elif word == "altcount":
                    which = self.number("the number of an alternative count (0 to 9)")
                    if not 0 <= which <= 9:
                        raise self.error(f"altcount {which}: alternative counts are numbered 0 to 9", token)
                    self.altcounts[which] = self.count_values(token, f"altcount {which}")
                elif word == "condition":
                    condition = self.expression()
                else:
                    actions = self.action_list()
            elif token.kind == "WORD" and token.text in _DEALERV2_STATEMENTS and self.dealerv2_statement():
                pass
            elif token.kind == "WORD" and token.text in ("holding", "shapeclass", "shapefunc") \
                    and self.peek().kind == "WORD" \
                    and self.peek(2).kind == "OP" and self.peek(2).text == "=":
                self.holding_definition()
            elif token.kind == "WORD" and self.peek().kind == "OP" and self.peek().text == "=":
                self.define(token)
            else:
                condition = self.expression()
        for use in self.uses:
            if use.text not in self.variables:
                raise self.error(_dealerv2_only(use.text) or f"undefined variable '{use.text}'", use)
            defined = self.var_tokens[use.text]
            if use.text in self.string_vars and (use.line, use.column) < (defined.line, defined.column):
                raise self.error(f"variable '{use.text}' holds strings ({self.string_vars[use.text]}()): define it "
                                 f"before line {use.line}, where it is used", use)
        self.check_cycles()
        self.check_depth(condition, actions)
        predeal = tuple(sorted((s, tuple(c)) for s, c in self.predeal.items()))
        return Script(
            condition=condition if condition is not None else Num(1),
            actions=tuple(actions) if actions is not None else (Action("printall"),),
            variables=tuple(self.variables.items()),
            generate=self.settings.get("generate"), produce=self.settings.get("produce"),
            dealer=self.settings.get("dealer"), vulnerable=self.settings.get("vulnerable"),
            seed=self.settings.get("seed"), predeal=predeal,
            predeal_lengths=tuple((s, u, n) for (s, u), n in sorted(self.lengths.items())),
            pointcount=self.settings.get("pointcount", Script.pointcount),
            altcounts=tuple(sorted(self.altcounts.items())), source=self.source,
            default_action=actions is None, title=self.settings.get("title"),
            opener=self.settings.get("opener"), strings=tuple(self.strings),
        )

    def dealerv2_statement(self) -> bool:
        """``title "..."`` or ``opener SEAT`` (DealerV2), read if the next token fits; False if the
        word is something else here (a variable named ``opener``)."""
        word, following = self.tok.text, self.peek()
        if _DEALERV2_STATEMENTS[word] == "STRING":
            if following.kind != "STRING":
                if following.kind == "OP":  # title = ..., title > 3: a variable of that name
                    return False
                self.advance()
                raise self.expected("a quoted title after 'title', like title \"1NT openings\"")
            self.advance()
            self.settings["title"] = self.advance().text
            return True
        if following.kind == "WORD" and following.text in SEAT_NAMES:
            self.advance()
            self.settings["opener"] = self.seat()
            return True
        return False

    def holding_definition(self) -> None:
        """``holding NAME = EXPR`` (Deal's holdingProc) or ``shapeclass NAME = EXPR`` (Deal's
        shapeclass/shapecond), tabulated now: over the 8,192 holdings of a suit, or over the 560
        suit-length patterns."""
        kind = self.advance().text
        token = self.advance()
        name = token.text
        what = {"holding": "holding function", "shapeclass": "shape class", "shapefunc": "shape function"}[kind]
        if name in _RESERVED or name in self.functions or name in self.variables:
            raise self.error(f"'{name}' is already a word of the language and cannot name a {what}", token)
        self.advance()  # '='
        self.in_holding = kind
        self.quoted = False
        try:
            expr = self.expression()
        finally:
            self.in_holding = ""
        evaluate = _EXPRESSION_VALUES[0]

        def values(expr: Any, masks: np.ndarray) -> np.ndarray:
            try:
                return evaluate(expr, masks)
            except DealerScriptError as error:  # name the definition, not "some deal"
                text = str(error).replace(" for some deal", " for some holding" if kind == "holding" else
                                          " for some shape")
                raise self.error(f"in {what} '{name}': {text}", token) from None

        if kind == "holding":
            masks = np.zeros((4, 4, 8192), dtype=np.uint16)
            masks[0, 3] = np.arange(8192, dtype=np.uint16)
            self.add_holding(checked_table(name, values(expr, masks)))
            return
        patterns = [(s, h, d, 13 - s - h - d) for s in range(14) for h in range(14 - s) for d in range(14 - s - h)]
        masks = np.zeros((4, 4, len(patterns)), dtype=np.uint16)
        for i, lengths in enumerate(patterns):  # North holds the lowest cards of each length
            for suit, length in zip(SUIT_ORDER, lengths):
                masks[0, suit, i] = (1 << length) - 1
        found = values(expr, masks)
        if self.functions is FUNCTIONS:
            self.functions = dict(FUNCTIONS)
        if kind == "shapefunc":  # any integer per pattern, looked up by shape key
            table = np.zeros(14 ** 4, dtype=np.int64)
            if self.quoted:  # the definition returns strings
                if misplaced_strings(expr):
                    raise self.error(f"in shape function '{name}': a quoted string can only be the value of "
                                     "the function or of a '?:' branch", token)
                try:
                    found = string_codes(name, found)
                except ValueError as error:
                    raise self.error(str(error), token) from None
                self.string_valued[name] = tuple(sorted(set(found.tolist())))
            table[[int(shape_key(*p)) for p in patterns]] = checked_values(name, found)
            self.functions[name] = FunctionSpec(name, "shape_value", ("seat",), preset=(ShapeTable(name, table.tobytes()),))
            return
        keys = tuple(sorted(int(shape_key(*p)) for p, value in zip(patterns, found) if value != 0))
        self.functions[name] = FunctionSpec(name, "shape_class", ("seat",), preset=(Shapes(keys, name),))

    def add_holding(self, table: Any) -> None:
        if self.functions is FUNCTIONS:
            self.functions = dict(FUNCTIONS)  # this script's own words
        self.functions[table.name] = FunctionSpec(table.name, "points", ("seat", "suit"), optional=1,
                                                  preset=(table,))

    def define(self, token: Token) -> None:
        name = token.text
        if name in _RESERVED or name in self.functions:
            raise self.error(f"'{name}' is a reserved word and cannot name a variable", token)
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise self.error(f"'{name}' cannot name a variable", token)
        if name in self.variables:
            first = self.var_tokens[name]
            raise self.error(f"variable '{name}' is defined twice (first on line {first.line})", token)
        self.advance()
        self.advance()  # '='
        self.var_tokens[name] = token
        self.variables[name] = self.expression(strings=True)
        function = string_function(self.variables[name], self.string_valued, self.string_vars)
        if function is not None:  # opening = opening(north): compared and counted as the call is
            self.string_vars[name] = function

    def check_depth(self, condition: Any, actions: list[Action] | None) -> None:
        """Every expression at most MAX_DEPTH nodes deep, variables counted as the expressions they
        stand for (long ``&&`` chains and variable chains too): found without recursion."""
        depths: dict[str, int] = {}

        def depth(root: Any) -> int:
            best = 0
            stack = [(root, 1)]
            while stack:
                node, level = stack.pop()
                if isinstance(node, Var) and node.name in self.variables:
                    if node.name not in depths:
                        depths[node.name] = 0  # (no cycles: checked before)
                        depths[node.name] = depth(self.variables[node.name])
                    level += depths[node.name]
                best = max(best, level)
                stack.extend((child, level + 1) for child in children(node))
            return best

        roots = [("the condition", condition)] + [(f"variable '{name}'", node) for name, node in self.variables.items()]
        roots += [(f"action '{a.kind}'", e) for a in actions or () for e in a.exprs]
        for what, node in roots:
            if node is not None and depth(node) > MAX_DEPTH:
                raise DealerScriptError(f"{self.source + ': ' if self.source else ''}{what} is nested more than "
                                        f"{MAX_DEPTH} levels deep (with the variables it uses); split it into "
                                        "shorter expressions")

    def check_cycles(self) -> None:
        state: dict[str, int] = {}

        def refs(node: Node) -> Iterator[str]:
            if isinstance(node, Var):
                yield node.name
            for child in children(node):
                yield from refs(child)

        def visit(name: str) -> None:
            if state.get(name) == 2:
                return
            if state.get(name) == 1:
                raise self.error(f"variable '{name}' is defined in terms of itself", self.var_tokens[name])
            state[name] = 1
            for other in refs(self.variables[name]):
                visit(other)
            state[name] = 2

        for name in self.variables:
            visit(name)

    def count_values(self, token: Token, what: str) -> tuple[int, ...]:
        values: list[int] = []
        while self.tok.kind in ("NUMBER", "DOTNUM") or (self.is_op("-") and self.peek().kind in ("NUMBER", "DOTNUM")):
            at = self.tok if self.tok.kind != "OP" else self.peek()
            # a dotnum is its value in hundredths, mixed freely with whole numbers, as DealerV2
            # reads it (its src/dealflex.l: 100 * atof(); src/dealyacc.y: "any mix of ints and dotnums")
            value = self.number()
            if abs(value) > MAX_COUNT_VALUE:  # a hand sums 13 of them, a deal 52, in 64 bits
                raise self.error(f"{what}: a card counts at most {MAX_COUNT_VALUE:,} points either way, "
                                 f"not {value}", at)
            values.append(value)
        if len(values) > 13:
            raise self.error(f"{what}: at most 13 values (ace down to two), got {len(values)}", token)
        table = [0] * 13
        for i, v in enumerate(values):
            table[12 - i] = v
        return tuple(table)

    def predeal_args(self, token: Token) -> None:
        if not (self.tok.kind == "WORD" and (self.tok.text in SEAT_NAMES or self.tok.text in SUIT_NAMES)):
            raise self.expected("a seat and its cards after 'predeal', like 'predeal south SAQ542, HKJ87'")
        while self.tok.kind == "WORD" and (self.tok.text in SEAT_NAMES or self.tok.text in SUIT_NAMES):
            if self.tok.text in SUIT_NAMES:
                self.predeal_length()
                if self.is_op(",") and self.peek().kind == "WORD" and self.peek().text in SUIT_NAMES:
                    self.advance()
                continue
            seat = self.seat()
            if self.is_op(","):
                self.advance()
            while True:
                holding = self.tok
                if holding.kind != "WORD" or not re.fullmatch(r"[SHDC][AKQJT2-9]*", holding.text):
                    raise self.expected("a suit holding like SAQ542 (suit letter S, H, D or C, then cards)")
                self.advance()
                suit = SUITS.upper().index(holding.text[0])
                for rank_char in holding.text[1:]:
                    card = RANKS.index(rank_char) * 4 + suit
                    for other, cards in self.predeal.items():
                        if card in cards:
                            raise self.error(f"card {holding.text[0]}{rank_char} is predealt twice", holding)
                    hand = self.predeal.setdefault(seat, [])
                    hand.append(card)
                    if len(hand) > 13:
                        raise self.error(f"more than 13 cards predealt to {list(SEAT_NAMES)[seat]}", holding)
                if not self.is_op(",") or not (self.peek().kind == "WORD"
                                               and re.fullmatch(r"[SHDC][AKQJT2-9]*", self.peek().text)):
                    break
                self.advance()

    def predeal_length(self) -> None:
        """``SUIT(SEAT) == N``: the seat holds exactly N cards of the suit (DealerV2's bias deal)."""
        start = self.tok
        at = self.pos
        suit = SUIT_NAMES[self.advance().text]
        seat = -1
        if self.is_op("("):
            self.advance()
            if self.tok.kind == "WORD" and self.tok.text in SEAT_NAMES:
                seat = self.seat()
                if self.is_op(")"):
                    self.advance()
        if seat < 0 or not self.is_op("==") or self.peek().kind != "NUMBER":
            self.pos = at
            self.expression()
            written = self.text_between(start, self.tokens[self.pos - 1])
            raise self.error(f"predeal by suit length ('{written}') takes SUIT(SEAT) == N, as in DealerV2: "
                             f"the seat holds exactly N cards of the suit; write other comparisons as a "
                             f"condition: condition {written} && ...", start)
        self.advance()
        length = self.number()
        written = self.text_between(start, self.tokens[self.pos - 1])
        seat_name, suit_name = list(SEAT_NAMES)[seat], CARD_SUIT_NAMES[suit]
        if length > 13:
            raise self.error(f"'{written}': a seat holds at most 13 cards of a suit", start)
        if (seat, suit) in self.lengths:
            raise self.error(f"'{written}': {seat_name}'s {suit_name} length is already set to "
                             f"{self.lengths[seat, suit]}", start)
        self.lengths[seat, suit] = length
        if sum(n for (s, _), n in self.lengths.items() if s == seat) > 13:
            raise self.error(f"'{written}': suit lengths add up to more than 13 cards for {seat_name}", start)
        if sum(n for (_, u), n in self.lengths.items() if u == suit) > 13:
            raise self.error(f"'{written}': more than 13 {suit_name} in the predealt lengths", start)
        if all((s, suit) in self.lengths for s in range(4)) and \
                sum(self.lengths[s, suit] for s in range(4)) != 13:
            raise self.error(f"'{written}': the four seats' {suit_name} lengths add up to "
                             f"{sum(self.lengths[s, suit] for s in range(4))}, not 13", start)

    # actions
    def action_list(self) -> list[Action]:
        actions: list[Action] = []
        if not (self.tok.kind == "WORD" and self.tok.text in _ACTIONS):
            return actions
        actions.append(self.action())
        while self.is_op(","):
            self.advance()  # a trailing comma ends the list, as in the C grammar
            if not (self.tok.kind == "WORD" and self.tok.text in _ACTIONS):
                break
            actions.append(self.action())
        return actions

    def optional_label(self) -> str | None:
        if self.tok.kind == "STRING":
            return self.advance().text
        return None

    def action(self) -> Action:
        token = self.advance()
        kind = token.text
        if kind in ("printall", "printew", "printpbn"):
            return Action(kind)
        if kind in ("printcompact", "printoneline"):
            if self.is_op("("):
                self.advance()
                expr = self.expression()
                self.expect_op(")")
                return Action(kind, exprs=(expr,))
            return Action(kind)
        if kind == "print":
            self.expect_op("(")
            seats = [self.seat()]
            while self.is_op(","):
                self.advance()
                seats.append(self.seat())
            self.expect_op(")")
            return Action(kind, seats=tuple(sorted(set(seats))))
        if kind == "printes":
            self.expect_op("(")
            items: list[Any] = []
            while True:
                if self.tok.kind == "STRING":
                    items.append(self.advance().text)
                elif self.tok.kind == "NEWLINE_MARK":
                    self.advance()
                    items.append("\n")
                else:
                    items.append(self.expression())
                if not self.is_op(","):
                    break
                self.advance()
            self.expect_op(")")
            return Action(kind, items=tuple(items))
        if kind == "average":
            label = self.optional_label()
            return Action(kind, label=label, exprs=(self.expression(),))
        if kind == "frequency":
            label = self.optional_label()
            self.expect_op("(")
            exprs: list[Any] = []
            bounds: list[int] = []
            names: list[tuple[str, ...]] = []
            for which in ("", " of the second expression"):
                exprs.append(self.expression(strings=True))
                function = string_function(exprs[-1], self.string_valued, self.string_vars)
                if function is not None:  # rows named by the function's strings, no bounds
                    if self.is_op(",") and self.peek().kind in ("NUMBER", "DOTNUM") \
                            and self.peek(2).kind == "OP" and self.peek(2).text in (",", ")"):
                        raise self.error(f"{function}() gives strings: frequency counts each of them without bounds, "
                                         f"like frequency ({function}(north))", self.peek())
                    codes = self.string_valued[function]
                    bounds += [codes[0], codes[-1]]
                    names.append(tuple(self.strings)[codes[0]:codes[-1] + 1])
                else:
                    self.expect_op(",")
                    bounds.append(self.number(f"the lower bound{which or ' of the frequency table'}"))
                    self.expect_op(",")
                    bounds.append(self.number(f"the upper bound{which or ' of the frequency table'}"))
                    names.append(())
                if which or not self.is_op(","):
                    break
                self.advance()
            self.expect_op(")")
            for a, b in zip(bounds[::2], bounds[1::2]):
                if b < a:
                    raise self.error(f"frequency bounds {a}, {b}: the upper bound is below the lower", token)
                if b - a > 10_000_000:
                    raise self.error(f"frequency bounds {a}, {b}: too many rows", token)
            return Action(kind, label=label, exprs=tuple(exprs), bounds=tuple(bounds),
                          names=tuple(names) if any(names) else ())
        if kind == "correlation":  # Deal 3.1's correlation command, as an action (docs/dealer.md)
            label = self.optional_label()
            self.expect_op("(")
            first = self.expression()
            self.expect_op(",")
            second = self.expression()
            self.expect_op(")")
            return Action(kind, label=label, exprs=(first, second))
        if kind == "bktfreq":
            return self.bucket_action(token)
        raise self.error(f"action '{kind}' is not supported by cardlab", token)

    def bucket_action(self, token: Token) -> Action:
        """DealerV2's ``bktfreq ["label"] (X, LO, HI, STEP [, Y, LO, HI, STEP])``."""
        label = self.optional_label()
        self.expect_op("(")
        exprs: list[Any] = []
        bounds: list[int] = []
        while True:
            exprs.append(self.expression())
            for what in ("lower bound", "upper bound", "bucket size"):
                self.expect_op(",")
                bounds.append(self.number(f"the {what} of bktfreq"))
            if len(exprs) == 2 or not self.is_op(","):
                break
            self.advance()
        self.expect_op(")")
        for lo, hi, step in zip(bounds[::3], bounds[1::3], bounds[2::3]):
            if step < 1:
                raise self.error(f"bktfreq bucket size {step}: it must be at least 1", token)
            if hi < lo:
                raise self.error(f"bktfreq bounds {lo}, {hi}: the upper bound is below the lower", token)
            if max(abs(lo), abs(hi), step) > 10 ** 15:
                raise self.error(f"bktfreq bounds {lo}, {hi}, {step}: at most 10^15 in size", token)
            if (hi - lo) // step > 1_000_000:
                raise self.error(f"bktfreq bounds {lo}, {hi}, {step}: too many buckets", token)
        cells = 1
        for lo, hi, step in zip(bounds[::3], bounds[1::3], bounds[2::3]):
            cells *= 3 + (hi - lo) // step
        if cells > 10_000_000:
            raise self.error(f"bktfreq table of {cells:,} cells: at most 10,000,000", token)
        return Action("bktfreq", label=label, exprs=tuple(exprs), bounds=tuple(bounds))

    # expressions
    def nest(self) -> None:
        """One more level of parentheses, ``?:`` or unary operators: refused past MAX_DEPTH."""
        self.nesting += 1
        if self.nesting > MAX_DEPTH:
            raise self.error(f"the expression is nested more than {MAX_DEPTH} levels deep (parentheses, "
                             "'?:' and unary operators); split it with variables")

    def expression(self, strings: bool = False) -> Any:
        """An expression; when it is a whole one (not nested), checked for strings used where
        they mean nothing (``strings``: it may be a string-valued call itself, as ``frequency``'s)."""
        outer = self.nesting == 0
        node = self.nested_expression()
        if outer:
            for kind, item in string_uses(node, self.string_valued, strings, self.string_vars):
                if kind == "string":
                    raise self.error(f'"{item.text}": a quoted string can only be compared (== or !=) with a '
                                     "string-valued shape function", Token("STRING", item.text, item.line, item.column))
                raise self.error(f"{item}() gives strings: compare it with == or != to a quoted value, "
                                 "or count it with frequency", self.tokens[self.pos - 1])
        return node

    def nested_expression(self) -> Any:
        self.nest()
        test = self.binary(0)
        if self.is_op("?"):
            self.advance()
            then = self.expression()
            self.expect_op(":")
            other = self.expression()
            test = Cond(test, then, other)
        self.nesting -= 1
        return test

    _LEVELS: tuple[tuple[str, ...], ...] = (("||",), ("&&",), ("==", "!="), ("<", "<=", ">", ">="), ("+", "-"),
                                            ("*", "/", "%"))

    def operator(self) -> str | None:
        if self.tok.kind == "OP":
            return self.tok.text
        if self.tok.kind == "WORD" and self.tok.text in ("and", "or"):
            return _WORDS_OPERATORS[self.tok.text]
        return None

    def binary(self, level: int) -> Any:
        if level == len(self._LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.operator() in self._LEVELS[level]:
            op = self.operator()
            self.advance()
            right = self.binary(level + 1)
            left = self.compared(op, left, right) if op in ("==", "!=") else Binary(op or "", left, right)
        return left

    def compared(self, op: str, left: Any, right: Any) -> Binary:
        """``left op right`` for ``==``/``!=``: a quoted string beside a string-valued shape function
        becomes that string's code (docs/dealer.md, "Shape classes and shape functions")."""
        names = [string_function(n, self.string_valued, self.string_vars) for n in (left, right)]
        values = [self.string_valued[n] if n is not None else None for n in names]
        for text, other, codes in ((left, names[1], values[1]), (right, names[0], values[0])):
            if not isinstance(text, Str):
                continue
            where = Token("STRING", text.text, text.line, text.column)
            beside = right if text is left else left
            if codes is None and isinstance(beside, Var) and beside.name not in self.variables:
                raise self.error(f"variable '{beside.name}' is compared with \"{text.text}\" before it is defined: "
                                 "define a variable that holds strings before using it", where)
            if codes is None:
                raise self.error(f'"{text.text}": a quoted string can only be compared (== or !=) with a '
                                 "string-valued shape function", where)
            code = self.strings.get(text.text)
            if code not in codes:
                known = ", ".join(f'"{s}"' for s, c in self.strings.items() if c in codes)
                raise self.error(f'"{text.text}" is not a value of {other}(): it gives {known}', where)
            return Binary(op, Num(code), right) if text is left else Binary(op, left, Num(code))
        if (values[0] is None) != (values[1] is None):
            name = names[0] or names[1]
            raise self.error(f"{name}() gives strings: compare it with a quoted value, like {name}(north) == "
                             f'"{next(s for s, c in self.strings.items() if c in (values[0] or values[1] or ()))}"',
                             self.tokens[self.pos - 1])
        return Binary(op, left, right)

    def unary(self) -> Any:
        if self.is_op("!") or self.is_word("not"):
            self.advance()
            self.nest()
            node: Any = Unary("!", self.unary())
            self.nesting -= 1
            return node
        if self.is_op("-"):
            self.advance()
            self.nest()
            operand = self.unary()
            self.nesting -= 1
            return Num(-operand.value) if isinstance(operand, Num) else Unary("-", operand)
        return self.primary()

    def primary(self) -> Any:
        token = self.tok
        if token.kind in ("NUMBER", "DOTNUM"):
            return Num(self.whole(self.advance()))
        if self.is_op("("):
            self.advance()
            inner = self.expression()
            self.expect_op(")")
            return inner
        if token.kind == "WORD" and self.in_holding == "holding":
            node = _holding_word(token.text)
            if node is None:
                raise self.error(f"'{token.text}' in a holding function: use the holding's words A K Q J T "
                                 "x9..x2 length, numbers and operators", token)
            self.advance()
            return node
        if token.kind == "STRING" and self.in_holding == "shapefunc":
            if token.text not in self.strings and len(self.strings) >= MAX_STRINGS:
                raise self.error(f"more than {MAX_STRINGS:,} different strings in the script's shape functions",
                                 token)
            self.advance()
            self.quoted = True
            return Num(STRING_BASE + self.strings.setdefault(token.text, len(self.strings)))
        if token.kind == "STRING" and self.in_holding:
            raise self.error(f'"{token.text}": a quoted string in a {self.in_holding} definition; only a shapefunc '
                             "may return strings", token)
        if token.kind == "STRING":
            self.advance()
            return Str(token.text, token.line, token.column)
        if token.kind == "WORD" and self.in_holding in ("shapeclass", "shapefunc"):
            if token.text not in _SHAPE_WORDS:
                raise self.error(f"'{token.text}' in a shape class or function: use the lengths s h d c, numbers and "
                                 "operators", token)
            self.advance()
            return Call(f"length_{_SHAPE_WORDS[token.text]}", (0,))
        if token.kind == "WORD":
            if self.peek().kind == "OP" and self.peek().text == "(":
                spec = self.functions.get(token.text)
                if spec is None:
                    raise self.error(_dealerv2_only(token.text) or f"unknown function '{token.text}'", token)
                return self.call(token, spec)
            if token.text in self.functions:
                raise self.error(f"'{token.text}' is a function: expected '(' after it", self.peek())
            if token.text in _RESERVED:
                raise self.expected("an expression")
            self.advance()
            self.uses.append(token)
            return Var(token.text, token.line, token.column)
        raise self.expected("an expression")

    def call(self, token: Token, spec: Any) -> Call:
        self.advance()
        self.expect_op("(")
        args: list[Any] = []
        kinds = spec.params
        for i, kind in enumerate(kinds):
            if i > 0:
                if self.is_op(")") and i >= len(kinds) - spec.optional:
                    break
                if not self.is_op(","):
                    if self.is_op(")"):
                        raise self.error(f"{token.text}() takes {spec.arity_text()}, got {i}", self.tok)
                    raise self.expected("',' or ')'")
                self.advance()
            args.append(self.argument(kind, token.text))
        if self.is_op(","):
            raise self.error(f"{token.text}() takes {spec.arity_text()}, got more", self.tok)
        self.expect_op(")")
        args = list(spec.bind(args))
        return Call(spec.name, tuple(args))

    def argument(self, kind: str, fname: str) -> Any:
        token = self.tok
        if kind == "seat":
            return self.seat()
        if kind == "suit":
            if token.kind == "WORD" and token.text in SUIT_NAMES:
                return SUIT_NAMES[self.advance().text]
            raise self.expected(f"a suit (spades, hearts, diamonds or clubs) in {fname}()")
        if kind == "strain":
            if token.kind == "WORD" and token.text in STRAIN_NAMES:
                return STRAIN_NAMES[self.advance().text]
            raise self.expected(f"a strain (spades, hearts, diamonds, clubs or notrumps) in {fname}()")
        if kind == "card":
            if token.kind in ("WORD", "NUMBER") and re.fullmatch(r"[AKQJT2-9][CDHS]", token.text):
                self.advance()
                return RANKS.index(token.text[0]) * 4 + SUITS.upper().index(token.text[1])
            raise self.expected(f"a card like AS or TC (rank then suit) in {fname}()")
        if kind == "vul":
            if token.kind == "WORD" and token.text.lower() in ("vul", "nv", "nonvul"):
                return 1 if self.advance().text.lower() == "vul" else 0
            raise self.expected(f"vul or nv in {fname}()")
        if kind == "contract":
            match = re.fullmatch(r"x([1-7])([CDHSN])", token.text) if token.kind == "WORD" else None
            if match is None:
                raise self.expected(f"a contract like x3N or x4S in {fname}()")
            self.advance()
            return int(match.group(1)) * 5 + [s[0] for s in STRAINS].index(match.group(2))
        if kind == "side":
            if token.kind == "WORD" and token.text.lower() in ("ns", "ew"):
                return ("ns", "ew").index(self.advance().text.lower())
            raise self.expected(f"a side (NS or EW) in {fname}()")
        if kind == "vulnerability":
            if token.kind == "WORD" and token.text.lower() in VULNERABLE_NAMES:
                return VULNERABLE_NAMES[self.advance().text.lower()]
            raise self.expected(f"a vulnerability (none, NS, EW or all) in {fname}()")
        if kind == "shapes":
            return self.shape_list()
        return self.expression()

    def shape_list(self) -> Shapes:
        allowed: set[int] = set()
        start = self.tok
        first = True
        parts: list[str] = []
        while not self.is_op(")"):
            negative = False
            if self.is_op("+", ","):
                self.advance()
            elif self.is_op("-"):
                self.advance()
                negative = True
            elif not first:
                pass
            use_any = False
            if self.is_word("any"):
                self.advance()
                use_any = True
            token = self.tok
            if token.kind not in ("NUMBER", "WORD") or not re.fullmatch(r"[0-9x]{4}", token.text):
                raise self.expected("a shape like 4333, 5xxx or any 4432 in shape()")
            self.advance()
            keys = _shape_keys(token.text, use_any)
            if keys is None:
                raise self.error(f"shape '{token.text}' cannot add up to 13 cards", token)
            allowed = allowed - keys if negative else allowed | keys
            parts.append(("-" if negative else "+") + ("any " if use_any else "") + token.text)
            first = False
        if first:
            raise self.expected("a shape like 4333, 5xxx or any 4432 in shape()")
        del start
        return Shapes(tuple(sorted(allowed)), " ".join(parts))


_RESERVED = (_STATEMENTS | _ACTIONS | set(SEAT_NAMES) | set(STRAIN_NAMES) | set(_WORDS_OPERATORS)
             | {"any", "vul", "nv"})


def _shape_keys(pattern: str, use_any: bool) -> set[int] | None:
    """Keys of the length vectors (S, H, D, C) matching a pattern like 5xxx, with 'any' permutations."""
    fixed = [int(ch) if ch != "x" else None for ch in pattern]
    total = sum(v for v in fixed if v is not None)
    free = [i for i, v in enumerate(fixed) if v is None]
    if total > 13 or (not free and total != 13):
        return None
    keys: set[int] = set()
    for combo in itertools.product(range(14), repeat=len(free)):
        if sum(combo) != 13 - total:
            continue
        lengths = [v or 0 for v in fixed]
        for i, v in zip(free, combo):
            lengths[i] = v
        perms = set(itertools.permutations(lengths)) if use_any else {tuple(lengths)}
        for s, h, d, c in perms:
            keys.add(shape_key(s, h, d, c))
    return keys


def _dealerv2_only(word: str) -> str | None:
    """The message for a DealerV2 word cardlab does not support, None for any other word."""
    kind = _DEALERV2_ONLY.get(word)
    if kind is None:
        return None
    return (f"'{word}' is a DealerV2 {kind} that cardlab does not support "
            f"(docs/dealer.md lists the DealerV2 features it runs)")


def _holding_word(word: str) -> Call | None:
    """A holding word (:data:`~cardlab.bridge.dealer.holdings.HOLDING_RANKS`, ``length``) as a node on
    North's spades, where the tabulator lays out the 8,192 holdings; None for any other word."""
    if word in HOLDING_RANKS:
        return Call("hascard", (0, HOLDING_RANKS[word] * 4 + 3))
    if word in HOLDING_LENGTH:
        return Call("length_3", (0,))
    return None


_SHAPE_WORDS = {"s": 3, "h": 2, "d": 1, "c": 0}  # a shape class's lengths (suit numbers: clubs 0)

#: What evaluates a ``holding``/``shapeclass`` definition on a layout of masks: set by the
#: evaluator's module (:func:`cardlab.bridge.dealer.evaluate.values_on_masks`), which the package
#: always imports (the evaluator imports this module, so this one cannot import it).
_EXPRESSION_VALUES: list[Callable[[Any, np.ndarray], np.ndarray]] = []


def set_expression_values(function: Callable[[Any, np.ndarray], np.ndarray]) -> None:
    """Install the function that evaluates definitions on masks (called once, by the evaluator)."""
    _EXPRESSION_VALUES[:] = [function]


def parse_script(text: str, source: str | None = None, holdings: Iterable[Any] = ()) -> Script:
    """Parse a dealer script; errors name the line and column (and ``source`` when given).
    Expressions may nest up to :data:`MAX_DEPTH` levels (docs/reliability.md). ``holdings``:
    holding functions made in Python (:func:`cardlab.bridge.dealer.holdings.holding_table`) that
    the script may call as ``NAME(SEAT[, SUIT])``."""
    with deep_recursion():
        parser = _Parser(text, source)
        for table in holdings:
            if table.name in FUNCTIONS or table.name in _RESERVED or not re.fullmatch(r"[A-Za-z_]\w*", table.name):
                raise DealerScriptError(f"'{table.name}' cannot name a holding function (a word of the language)")
            parser.add_holding(table)
        return parser.script()


MAX_COUNT_VALUE = 1_000_000
"""The largest value (either sign) a ``pointcount`` or ``altcount`` line gives a card: the 52
cards of a deal sum to at most 5.2e7, far inside the evaluator's 64-bit values."""
_MAX_DIGITS = 40  # longer numbers are refused by the parser (64-bit values have at most 19 digits)
MAX_DEPTH = 1000  #: the deepest a dealer expression may nest (parentheses, operators, variables)
_FRAMES_PER_LEVEL = 24  # the most Python frames one level of an expression takes (parser, evaluator)
_deep_lock = threading.Lock()
_deep_users = [0, 0]  # callers inside deep_recursion(), the limit to restore


@contextlib.contextmanager
def deep_recursion() -> Iterator[None]:
    """Python's recursion limit raised while dealer expressions (at most :data:`MAX_DEPTH` deep) are
    parsed and evaluated, restored when the last caller leaves."""
    with _deep_lock:
        if _deep_users[0] == 0:
            _deep_users[1] = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_deep_users[1], MAX_DEPTH * _FRAMES_PER_LEVEL + 1000))
        _deep_users[0] += 1
    try:
        yield
    finally:
        with _deep_lock:
            _deep_users[0] -= 1
            if _deep_users[0] == 0:
                sys.setrecursionlimit(_deep_users[1])

"""Bitwuzla as an SMT-LIB2 solver process, through its Python bindings
(PyPI's `bitwuzla` ships no command-line program).

Reads commands from standard input one top-level S-expression at a time and
hands each to Bitwuzla's own SMT-LIB2 parser, which answers on standard
output, so the solver sees exactly the text any other solver process gets.
`(reset)` starts a fresh parser: ptxcheck resets before every query.
Options: --time-limit-per=MS, a time limit for each check-sat.
"""

import ctypes
import sys

import bitwuzla

LIBC = ctypes.CDLL(None)


def commands(stream):
    """The top-level S-expressions of an SMT-LIB2 stream, as they arrive."""
    text, depth, quoted, string, comment = [], 0, False, False, False
    while True:
        ch = stream.read(1)
        if not ch:
            return
        if comment:
            comment = ch != "\n"
            continue
        if quoted:
            quoted = ch != "|"
        elif string:
            string = ch != '"'
        elif ch == ";":
            comment = True
            continue
        elif ch == "|":
            quoted = True
        elif ch == '"':
            string = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if depth == 0 and not text and ch.isspace():
            continue
        text.append(ch)
        if depth == 0 and not quoted and not string:
            yield "".join(text)
            text = []


def fresh(limit_ms):
    options = bitwuzla.Options()
    options.set(bitwuzla.Option.PRODUCE_MODELS, True)
    if limit_ms:
        options.set(bitwuzla.Option.TIME_LIMIT_PER, limit_ms)
    terms = bitwuzla.TermManager()
    # The parser keeps using the term manager: keep both alive together.
    return terms, bitwuzla.Parser(terms, options, "smt2")


def main():
    limit_ms = 0
    for arg in sys.argv[1:]:
        if arg.startswith("--time-limit-per="):
            limit_ms = int(arg.split("=", 1)[1])
    solver = fresh(limit_ms)
    for command in commands(sys.stdin):
        if command[1:-1].split() == ["reset"]:
            solver = fresh(limit_ms)
            sys.stdout.write("success\n")
        else:
            try:
                solver[1].parse(command, False, False)
            except bitwuzla.BitwuzlaException as e:
                message = str(e).replace('"', "'").replace("\n", " ")
                sys.stdout.write(f'(error "{message}")\n')
        # Bitwuzla writes through C's stdio, Python through its own buffer.
        sys.stdout.flush()
        LIBC.fflush(None)


main()

"""Board-set options of ``cardlab bridge dealer``: ``--rotate``, ``--mix``, ``--level`` and board files
(PBN, LIN, Duplimate ``.dup``/``.dlm``), over :func:`cardlab.bridge.boardsets.deal_board_set`."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable, Iterator

from cardlab.cli.options import trials, whole_number
from cardlab.cli.output import about_option, binary_output, output_file
from cardlab.errors import ConstraintError

__all__ = ["add_board_set_options", "board_set_requested", "board_set_command", "script_text", "register"]

#: Boards in a set when neither -p nor the script's ``produce`` says.
DEFAULT_BOARDS = 16


def add_board_set_options(parser: argparse.ArgumentParser) -> None:
    """Add the options that make ``bridge dealer`` deal a board set (docs/boards.md)."""
    group = parser.add_argument_group(
        "board sets", "any of these makes the command deal a set of boards (-p boards, default: the script's "
                      f"produce, else {DEFAULT_BOARDS}) and write it as a board file; see docs/boards.md")
    group.add_argument("--rotate", action="store_true",
                       help="turn each deal so the script's dealer (its 'dealer' line, else North) sits at the "
                            "dealer seat of the board number (N E S W cycle)")
    group.add_argument("--mix", metavar="SCRIPTS",
                       help="several scripts in one set: 'a.dlr:8,b.dlr:8', or a file of 'SCRIPT COUNT' lines "
                            "(then SCRIPT is not given)")
    group.add_argument("--level", metavar="TYPES",
                       help="hand types in exact shares: 'NAME=EXPR:SHARE,...' (e.g. "
                            "'major=hearts(north)>=5 || spades(north)>=5:50%%,other:50%%'); also '# level' lines "
                            "in the script")
    group.add_argument("--board-format", choices=("pbn", "lin", "dup", "dlm"),
                       help="board file format (default: from -o's suffix, else pbn); --format json gives the "
                            "set and its report as JSON")
    group.add_argument("--first-board", type=whole_number(1, 10**9), default=1, help="number of the first board (default 1)")
    group.add_argument("--shuffle", action="store_true", help="shuffle the boards of the set (with the seed)")
    group.add_argument("--level-trials", type=trials, default=100_000,
                       help="deals simulated for a type's natural frequency when it has no exact count "
                            "(default 100,000)")


def board_set_requested(args: argparse.Namespace) -> bool:
    """Whether the command deals a board set: a set option, no SCRIPT (--mix), or '# level' lines."""
    if args.script is None or args.rotate or args.mix or args.level or args.board_format or args.shuffle:
        return True
    if args.first_board != 1:
        return True
    from cardlab.bridge.levels import script_levels

    return bool(script_levels(script_text(args)[0]))


def script_text(args: argparse.Namespace) -> tuple[str, str]:
    """The text of SCRIPT and its name for messages; standard input (``-``) is read once and kept
    on ``args``, so its ``# level`` lines are seen as a file's are."""
    from cardlab.textfile import read_stream, read_text

    if args.script != "-":
        return read_text(args.script), args.script
    if getattr(args, "stdin_text", None) is None:
        args.stdin_text = read_stream(sys.stdin, "stdin")
    return str(args.stdin_text), "stdin"


def board_set_command(args: argparse.Namespace) -> int:
    """Deal the set, write the board file (or JSON), print the report on stderr."""
    from cardlab.bridge.boardsets import STREAMED, ScriptPart, check_range, deal_board_set, format_for, parse_mix
    from cardlab.engine import fresh_seed
    from cardlab.bridge.dealer import parse_script
    from cardlab.bridge.levels import parse_levels, script_levels
    from cardlab.cli.cluster_option import executor_for
    from cardlab.textfile import read_text

    if args.quiet or not args.verbose:
        raise ConstraintError("-q and -v choose what the script's run prints; a board set prints the board file "
                              "(and its report on stderr): leave them out")
    if args.format == "json" and args.board_format:
        raise ConstraintError(f"--format json writes the set as JSON; --board-format {args.board_format} asks for a "
                              f"board file: give one of them")
    parts = []
    if args.mix:
        if args.script is not None:
            raise ConstraintError(f"give the scripts either as SCRIPT or in --mix, not both ('{args.script}' and "
                                  f"--mix '{args.mix}')")
        if args.produce:
            raise ConstraintError(f"-p {args.produce}: in a --mix set each script's count is given in --mix "
                                  f"(SCRIPT:COUNT)")
        if args.level:
            raise ConstraintError("--level applies to one script; in a --mix set, declare each script's types with "
                                  "'# level' lines in the script")
        with about_option("--mix"):
            mix = parse_mix(args.mix)
        for item in mix:
            text = read_text(item.script)
            parts.append(ScriptPart(parse_script(text, item.script), text, item.count, script_levels(text)))
    else:
        if args.script is None:
            raise ConstraintError("give a SCRIPT (or --mix SCRIPT:COUNT,...)")
        text, source = script_text(args)
        script = parse_script(text, source)
        with about_option("--level"):
            levels = parse_levels(args.level) if args.level else script_levels(text)
        count = args.produce or script.produce or DEFAULT_BOARDS
        parts.append(ScriptPart(script, text, count, levels))
    fmt = format_for(args.output, args.board_format)
    as_json = args.format == "json"
    if not as_json:
        check_range(fmt, args.first_board, sum(part.count for part in parts))
    seed = fresh_seed(args.seed)  # known before dealing: the JSON text starts with it
    options = dict(seed=seed, rotate=args.rotate, first_board=args.first_board, shuffle=args.shuffle,
                   generate=args.generate, level_trials=args.level_trials, workers=args.workers,
                   executor=executor_for(args))
    if as_json or fmt in STREAMED:  # written chunk by chunk as dealt: flat memory
        with binary_output(args.output) as out:
            result = _deal_streamed(parts, out, fmt, as_json, seed, options)
    else:  # .dup and .dlm name the whole set's range in every record: at most 999 boards, written whole
        result = deal_board_set(parts, **options)
        with binary_output(args.output) as out:
            out.write(result.boards.encode(fmt))
    what = "JSON" if args.format == "json" else fmt.upper()
    where = f"written to {args.output}" if args.output not in (None, "-") else "written to stdout"
    print(f"cardlab: {result.count} board(s) as {what} {where}; " + result.summary().rstrip(), file=sys.stderr)
    return 0


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """Add ``cardlab bridge boards`` (read a board file; convert it to another format)."""
    boards = subparsers.add_parser(
        "boards", help="read a board file (PBN, LIN, Duplimate .dup/.dlm) and list or convert it",
        description="Read the boards of a PBN, BBO LIN or Duplimate .dup/.dlm file (dealer and vulnerability "
                    "checked against each board number) and list them, or write them in another format with -o. "
                    "Example: cardlab bridge boards set.pbn -o club.dlm. See docs/boards.md.")
    boards.add_argument("file", metavar="FILE", help="the board file")
    boards.add_argument("--board-format", choices=("pbn", "lin", "dup", "dlm"),
                        help="format to write with -o (default: from -o's suffix)")
    boards.add_argument("--format", choices=("table", "json"), default="table",
                        help="how to list the boards when there is no -o (default: table)")
    boards.add_argument("-o", "--output", metavar="FILE", help="write the boards to FILE in its format")
    boards.set_defaults(func=_boards_command)


def _boards_command(args: argparse.Namespace) -> int:
    from cardlab.bridge.boardsets import STREAMED, encode_chunk, format_for, read_board_file

    as_json = args.format == "json"
    if as_json and args.board_format:
        raise ConstraintError(f"--format json lists the boards as JSON; --board-format {args.board_format} asks "
                              f"for a board file: give one of them")
    if args.board_format and not args.output:
        raise ConstraintError(f"--board-format {args.board_format} needs -o FILE to write to (-o - for stdout)")
    board_set = read_board_file(args.file)
    boards = board_set.boards
    if args.output and not as_json:
        fmt = format_for(None if args.output == "-" else args.output, args.board_format)
        with binary_output(args.output) as out:
            if fmt in STREAMED:  # encoded a chunk at a time: never a second copy of the whole file
                for start in range(0, len(boards), _CHUNK):
                    out.write(encode_chunk(fmt, boards[start:start + _CHUNK], start == 0))
            else:  # .dup and .dlm: at most 999 boards
                out.write(board_set.encode(fmt))
        if args.output != "-":
            print(f"cardlab: {len(board_set)} board(s) from {args.file} written to {args.output} ({fmt})",
                  file=sys.stderr)
        return 0
    with output_file(args.output) as out:
        out.writelines(_listing(boards, as_json))
    return 0


def _listing(boards: Any, as_json: bool) -> Iterator[str]:
    """The boards as the table or the JSON list of ``bridge boards``, a chunk at a time."""
    if as_json:
        yield "[" if boards else "[]\n"
    for start in range(0, len(boards), _CHUNK):
        rows = [{"board": b.number, "dealer": b.dealer.value, "vulnerable": b.vulnerability.value,
                 "deal": b.pbn_deal()} for b in boards[start:start + _CHUNK]]
        if as_json:
            yield (("\n  " if start == 0 else ",\n  ") +
                   ",\n  ".join(json.dumps(r, indent=2).replace("\n", "\n  ") for r in rows))
        else:
            yield "".join(f"{r['board']:>5}  {r['dealer']}  {r['vulnerable']:<4}  {r['deal']}\n" for r in rows)
    if as_json and boards:
        yield "\n]\n"


#: Boards listed or encoded at a time.
_CHUNK = 4096


def _deal_streamed(parts: list[Any], out: Any, fmt: str, as_json: bool, seed: int, options: dict[str, Any]) -> Any:
    """Deal the set, each chunk of boards written to the binary stream ``out`` as it comes:
    as the board file ``fmt``, or as the JSON text of the result."""
    from cardlab.bridge.boardsets import deal_board_set, json_stream

    if not as_json:
        return deal_board_set(parts, sink=_chunk_writer(out, fmt), **options)
    head, chunk, tail = json_stream(seed, bool(options["rotate"]))
    put = out.write
    put(head.encode("utf-8"))
    written = [False]

    def write(boards: list[Any]) -> None:
        if boards:
            put(chunk(boards, not written[0]).encode("utf-8"))
            written[0] = True

    try:
        result = deal_board_set(parts, sink=write, **options)
    except KeyboardInterrupt:
        # the boards dealt so far (perhaps none), as valid JSON that says it was cut short
        put('\n  ],\n  "parts": [],\n  "interrupted": true\n}\n'.encode("utf-8"))
        if not written[0]:
            from cardlab.cli.output import NothingProduced

            raise NothingProduced from None  # an existing -o file is kept
        raise
    put((tail(result) + "\n").encode("utf-8"))
    return result


def _chunk_writer(out: Any, fmt: str) -> Callable[[list[Any]], None]:
    """A sink for :func:`cardlab.bridge.boardsets.deal_board_set`: each chunk encoded and written to
    the binary stream ``out`` as it comes."""
    from cardlab.bridge.boardsets import encode_chunk

    first = [True]

    def write(boards: list[Any]) -> None:
        out.write(encode_chunk(fmt, boards, first[0]))
        first[0] = False

    return write

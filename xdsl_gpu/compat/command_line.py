"""mlir-opt's command-line forms, read by ``xdsl-opt``.

MLIR's tools parse their arguments with ``llvm::cl``, which differs from xDSL's
``argparse`` in ways that upstream's RUN lines rely on:

* a long option takes one dash or two (``-split-input-file``, ``--split-input-file``);
* a value follows ``=`` (``-pass-pipeline=...``, ``-o=out.mlir``) or, where the option
  requires one, comes as the next argument (``-o out.mlir``); an option whose value is
  optional, as each pass's flag (``-convert-gpu-to-nvvm``), never takes the next
  argument (the input file after ``--convert-gpu-to-nvvm`` stays the input file);
* a boolean takes ``true``/``false``, ``1``/``0``, ``TRUE``/``FALSE``, ``True``/
  ``False``, or nothing (true);
* ``-`` is standard input, ``-o -`` standard output;
* MLIR's own spellings: ``-mlir-print-op-generic``, ``-mlir-print-debuginfo``, ...

:func:`mlir_opt_arguments` rewrites a command line into what ``xdsl-opt``'s parser
reads, token by token. An argument that ``xdsl-opt`` already reads as written is
left as it is (stock xDSL's command lines mean what they meant); one that it would
refuse, or misread (``-pass-pipeline=...`` is ``-p ass-pipeline=...`` to argparse),
gets mlir-opt's meaning, or a one-line error naming it.
"""

from __future__ import annotations

import argparse
import difflib
from collections.abc import Collection, Mapping, Sequence

TRUE_WORDS = frozenset({"", "true", "TRUE", "True", "1"})
FALSE_WORDS = frozenset({"false", "FALSE", "False", "0"})
"""What ``llvm::cl`` reads as a boolean (``parser<bool>::parse``); MLIR's pass options
use the same parser."""


def llvm_bool(text: str) -> bool | None:
    """``text`` as ``llvm::cl`` reads a boolean, or None if it is not one."""
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    return None


MLIR_SPELLINGS: Mapping[str, str] = {
    "mlir-print-op-generic": "--print-op-generic",
    "mlir-print-debuginfo": "--print-debuginfo",
    "mlir-print-ir-after-all": "--print-between-passes",
    "mlir-timing": "--time-passes",
}
"""mlir-opt's options that xdsl-opt has under another name."""

IGNORED: Mapping[str, str] = {
    "mlir-disable-threading": "xdsl-opt runs a pipeline in one thread",
    "mlir-print-ir-module-scope": "xdsl-opt prints the whole module between passes",
    "mlir-print-assume-verified": "xdsl-opt verifies before it prints",
    "verify-each": "xdsl-opt verifies after every pass (--disable-verify turns it off)",
    "mlir-disable-diagnostic-notes": "xdsl-opt's diagnostics add no notes to turn off",
}
"""mlir-opt's options that change nothing in what xdsl-opt does: accepted (with or
without a boolean value) and dropped. Each says why."""

_PRINT_IR = "it prints the IR between passes only, with -mlir-print-ir-after-all"
_BYTECODE = "it reads and writes MLIR text only"
NOT_SUPPORTED: Mapping[str, str] = {
    **dict.fromkeys(
        (
            "mlir-print-ir-after",
            "mlir-print-ir-after-change",
            "mlir-print-ir-after-failure",
            "mlir-print-ir-before",
            "mlir-print-ir-before-all",
            "mlir-print-ir-tree-dir",
        ),
        _PRINT_IR,
    ),
    **dict.fromkeys(("emit-bytecode", "emit-bytecode-version"), _BYTECODE),
    **dict.fromkeys(
        (
            "dump-pass-pipeline",
            "irdl-file",
            "list-passes",
            "load-dialect-plugin",
            "load-pass-plugin",
            "log-actions-to",
            "mlir-debug-counter",
            "mlir-diagnostic-verbosity-level",
            "mlir-elide-elementsattrs-if-larger",
            "mlir-elide-resource-strings-if-larger",
            "mlir-enable-debugger-hook",
            "mlir-generate-reproducer",
            "mlir-output-format",
            "mlir-pass-pipeline-crash-reproducer",
            "mlir-pass-pipeline-local-reproducer",
            "mlir-pass-statistics",
            "mlir-pass-statistics-display",
            "mlir-pretty-debuginfo",
            "mlir-print-debug-counter",
            "mlir-print-elementsattrs-with-hex-if-larger",
            "mlir-print-op-on-diagnostic",
            "mlir-print-skip-regions",
            "mlir-print-stacktrace-on-diagnostic",
            "mlir-print-unique-ssa-ids",
            "mlir-print-value-users",
            "mlir-timing-display",
            "mlir-use-nameloc-as-prefix",
            "output-split-marker",
            "run-reproducer",
            "show-dialects",
            "verify-roundtrip",
        ),
        "not implemented",
    ),
}
"""mlir-opt's options that xdsl-opt cannot honour: a one-line error names them
(rather than a run that silently does something else)."""

SPLIT_MARKER = "// -----"


class CommandLineError(ValueError):
    """A command-line argument that xdsl-opt cannot take; the message names it."""


def mlir_opt_arguments(
    argv: Sequence[str],
    parser: argparse.ArgumentParser,
    passes: Collection[str],
    targets: Collection[str] = (),
) -> list[str]:
    """``argv`` (mlir-opt's forms, xdsl-opt's own, or both) as ``parser`` reads it
    with mlir-opt's meaning. ``passes`` are the names that have a flag each
    (``--name`` or ``--name=options``); ``targets`` the names ``-t`` takes.

    Raises :class:`CommandLineError` for an mlir-opt option that xdsl-opt cannot
    honour, a bad boolean value, or an argument that argparse would misread as a
    short option with its value glued on (``-pass-pipline`` as ``-p ass-pipline``)."""
    known: dict[str, argparse.Action] = parser._option_string_actions  # pyright: ignore[reportPrivateUsage]
    out: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        i += 1
        if token == "--":
            out.extend(argv[i - 1 :])
            break
        if token == "-":  # standard input, which xdsl-opt reads without a file
            continue
        if not token.startswith("-"):
            out.append(token)
            continue
        head, has_value, value = token.partition("=")
        given = value if has_value else None
        name = head[2:] if head.startswith("--") else head[1:]
        option = head if head in known else None
        if option is None and name in MLIR_SPELLINGS:
            option = MLIR_SPELLINGS[name]
        elif option is None and f"--{name}" in known:
            option = f"--{name}"
        if option is not None:
            action = known[option]
            following = argv[i] if i < len(argv) else None
            taken = _option(option, action, given, following, head)
            if given is None and _takes_next(action) and following is not None:
                if taken:
                    taken.append(following)  # its value, as written
                i += 1
            out.extend(taken)
            continue
        if name in IGNORED:
            _check_flag_value(head, given)
            continue
        if name in NOT_SUPPORTED:
            raise CommandLineError(
                f"mlir-opt's option '{head}' is not supported by xdsl-opt: "
                f"{NOT_SUPPORTED[name]}"
            )
        if not head.startswith("--") and len(head) > 2 and head[:2] in known:
            # argparse reads -pfoo as -p foo and -tfoo as -t foo: keep that where
            # foo is a pass or target, name the argument where it is not.
            rest = token[2:]
            if head[:2] == "-p" and _first_pass(rest) in passes:
                out.append(token)
                continue
            if head[:2] == "-t" and rest.split("{")[0] in targets:
                out.append(token)
                continue
            if head[:2] in ("-p", "-t", "-f"):
                raise CommandLineError(_unknown(head, known, passes))
            out.append(token)  # -ofile, or -v/-h with more (argparse says what)
            continue
        if head.startswith("--") and any(
            o.startswith(head) and a.nargs != "?" for o, a in known.items()
        ):
            out.append(token)  # an abbreviation of xdsl-opt's, which argparse reads
            continue
        raise CommandLineError(_unknown(head, known, passes))
    return out


def _option(
    option: str,
    action: argparse.Action,
    given: str | None,
    following: str | None,
    written: str,
) -> list[str]:
    """The arguments that give ``action`` (reached as ``option``, ``written`` as
    the user did) the value ``given`` (None: no ``=value``) as mlir-opt means it."""
    if action.dest == "output_file" and (
        given == "-" or (given is None and following == "-")
    ):
        return []  # -o -: standard output, where xdsl-opt writes by default
    if action.nargs == "?":  # a pass's flag: its options only after "="
        return [f"{_long(option, action)}={given or ''}"]
    if action.nargs == 0:  # a flag
        if given is None:
            return [option]
        if action.dest == "split_input_file":
            if given in ("", SPLIT_MARKER):
                return [option]
            raise CommandLineError(
                f"'{written}={given}': xdsl-opt splits its input only at "
                f"'{SPLIT_MARKER}'"
            )
        if action.dest == "verify_diagnostics" and given in ("all", "only-expected"):
            return [option]
        if _check_flag_value(written, given):
            return [option]
        return []
    if given is None:
        return [option]
    return [f"{_long(option, action)}={given}"]


def _long(option: str, action: argparse.Action) -> str:
    """The ``--`` spelling of ``action``, which argparse reads with ``=value``."""
    return next((o for o in action.option_strings if o.startswith("--")), option)


def _takes_next(action: argparse.Action) -> bool:
    """Whether ``action``, written without ``=``, takes the next argument as its
    value (an option that requires one, as ``-o``, ``-p``, ``--pass-pipeline``)."""
    return action.nargs is None or (isinstance(action.nargs, int) and action.nargs > 0)


def _check_flag_value(option: str, given: str | None) -> bool:
    """Whether the flag ``option`` is on, given ``=given`` (None: no value)."""
    if given is None:
        return True
    on = llvm_bool(given)
    if on is None:
        raise CommandLineError(
            f"'{given}' is not a value for the boolean option '{option}': give true "
            "or false (or 1 or 0)"
        )
    return on


def _first_pass(pipeline: str) -> str:
    end = len(pipeline)
    for stop in "{,(":
        if (at := pipeline.find(stop)) >= 0:
            end = min(end, at)
    return pipeline[:end].strip()


def _unknown(head: str, known: Mapping[str, object], passes: Collection[str]) -> str:
    names = [o for o in known if o.startswith("--")]
    names += [f"--{n}" for n in (*MLIR_SPELLINGS, *IGNORED, *passes)]
    close = difflib.get_close_matches("--" + head.lstrip("-"), names, n=1)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return f"unknown command line argument '{head}'{hint} (xdsl-opt --help lists them)"

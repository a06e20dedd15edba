"""``python -m xdsl_gpu.targets.llvm_ir [file.mlir] [--triple T] [--data-layout DL]
[--no-verify] [--split-input-file]``: the ``llvmir`` target without ``xdsl-opt``
(stdin without a file); what the filecheck tests run. An error is one line on stderr
and exit status 1; with ``--split-input-file`` every chunk is tried, and a failing one
reports and the next goes on."""

from __future__ import annotations

import argparse
import sys

from xdsl.utils.exceptions import DiagnosticException, ParseError

from xdsl_gpu.targets.cpu_jit import parse_mlir
from xdsl_gpu.targets.llvm_ir.target import LLVMIRTarget


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m xdsl_gpu.targets.llvm_ir")
    parser.add_argument("file", nargs="?", default="-")
    parser.add_argument("--triple", default="")
    parser.add_argument("--data-layout", default="")
    parser.add_argument("--no-verify", action="store_true")
    parser.add_argument("--split-input-file", action="store_true")
    args = parser.parse_args(argv)
    with sys.stdin if args.file == "-" else open(args.file) as f:
        text = f.read()
    target = LLVMIRTarget(
        triple=args.triple, data_layout=args.data_layout, verify=not args.no_verify
    )
    chunks = text.split("// -----") if args.split_input_file else [text]
    status = 0
    for i, chunk in enumerate(chunks):
        if i:
            print("// -----", flush=True)
        try:
            target.emit(None, parse_mlir(chunk), sys.stdout)  # type: ignore[arg-type]
        except (DiagnosticException, ParseError) as e:
            sys.stdout.flush()
            print(f"error: {e}", file=sys.stderr, flush=True)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())

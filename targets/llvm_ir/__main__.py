"""``python -m targets.llvm_ir [file.mlir] [--triple T] [--data-layout DL]
[--no-verify]``: the ``llvmir`` target without ``xdsl-opt`` (reads stdin without a
file); what the filecheck tests run."""

from __future__ import annotations

import argparse
import sys

from gpu_dialect.diagnostics import excepthook
from targets.cpu_jit import parse_mlir
from targets.llvm_ir.target import LLVMIRTarget


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m targets.llvm_ir")
    parser.add_argument("file", nargs="?", default="-")
    parser.add_argument("--triple", default="")
    parser.add_argument("--data-layout", default="")
    parser.add_argument("--no-verify", action="store_true")
    args = parser.parse_args(argv)
    sys.excepthook = excepthook
    text = sys.stdin.read() if args.file == "-" else open(args.file).read()
    target = LLVMIRTarget(
        triple=args.triple, data_layout=args.data_layout, verify=not args.no_verify
    )
    target.emit(None, parse_mlir(text), sys.stdout)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()

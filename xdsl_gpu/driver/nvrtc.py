"""``xdsl-gpu-nvrtc``: CUDA C++ to PTX/cubin per architecture with NVRTC
(:mod:`xdsl_gpu.targets.nvrtc`), no nvcc or CUDA toolkit needed."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from xdsl_gpu.diagnostics import UserError
from xdsl_gpu.targets.nvrtc import NvrtcOptions, compile_file


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="xdsl-gpu-nvrtc",
        description="Compile CUDA C++ to PTX/cubin per architecture with NVRTC "
        "(no nvcc or CUDA toolkit needed).",
    )
    parser.add_argument("sources", nargs="+", help=".cu files")
    parser.add_argument(
        "-arch", "--arch", action="append", default=[],
        help="sm_XY (repeat, or comma-separate, for several)",
    )  # fmt: skip
    parser.add_argument(
        "--emit", default="ptx", help="ptx, cubin or ptx,cubin (default: ptx)"
    )
    parser.add_argument("-O", dest="opt_level", type=int, default=3, help="0 to 3")
    parser.add_argument("-I", dest="include_dirs", action="append", default=[])
    parser.add_argument("-D", dest="defines", action="append", default=[])
    parser.add_argument("-std", "--std", default="", help="c++17, c++20, ...")
    parser.add_argument("--use_fast_math", action="store_true")
    parser.add_argument("-lineinfo", "--lineinfo", action="store_true")
    parser.add_argument(
        "--ptx-version", default="", help="lower the PTX ISA version (X.Y), checked"
    )
    parser.add_argument(
        "-Xnvrtc", action="append", default=[], help="pass an option to NVRTC as is"
    )
    parser.add_argument("-o", "--output-dir", default=None, help="output folder")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    archs = tuple(a for value in args.arch for a in value.split(",") if a)
    options = NvrtcOptions(
        archs=archs,
        emit=tuple(e for e in args.emit.split(",") if e),
        opt_level=args.opt_level,
        include_dirs=tuple(args.include_dirs),
        defines=tuple(args.defines),
        std=args.std,
        fast_math=args.use_fast_math,
        line_info=args.lineinfo,
        ptx_version=args.ptx_version,
        extra=tuple(args.Xnvrtc),
    )
    if args.output_dir is not None and os.path.exists(args.output_dir):
        if not os.path.isdir(args.output_dir):
            print(
                f"xdsl-gpu-nvrtc: error: -o {args.output_dir}: a file of that name "
                "exists; -o names the folder for the outputs",
                file=sys.stderr,
            )
            return 1
    try:
        for source in args.sources:
            warn = lambda log: print(log, file=sys.stderr)  # noqa: E731
            for path in compile_file(source, options, args.output_dir, warn):
                print(path)
    except UserError as e:
        print(f"xdsl-gpu-nvrtc: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""Fuzz xdsl-opt with mutations of the repository's own .mlir programs.

Every case runs ``xdsl-opt`` (with the xdsl-gpu plugin, as a user has it) on a mutated
program, optionally with a pass pipeline, in a forked child of this process (the
dialects and passes load once, a case costs milliseconds). A case is a failure when
the child

* ends in an exception that is not a user diagnostic (what would be a traceback),
* is killed by a signal, or runs past the time limit,
* changes its input file, or leaves a file behind.

Failures are minimized (lines, then characters) while they keep their signature (the
kind of failure, the exception type and the innermost frame of xdsl or xdsl_gpu
code) and written to ``tests/fuzz/crashers/`` (``--save``), where
``tests/fuzz/test_crashers.py`` keeps them as regression tests.

Usage::

    python3 tools/fuzz.py --cases 300 --seed 1          # what CI runs (deterministic)
    python3 tools/fuzz.py --seconds 1800 --seed 7 --save  # a long run

Exit status 1 if any failure was found.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import random
import re
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CRASHERS = ROOT / "tests" / "fuzz" / "crashers"
CORPUS_DIRS = ("tests/filecheck", "examples", "tests/fuzz/crashers")

PIPELINES = (
    "",
    "gpu-kernel-outlining",
    "gpu-async-region",
    "convert-gpu-to-nvvm",
    "convert-arith-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts",
    "finalize-memref-to-llvm",
    "expand-strided-metadata,lower-affine",
    "convert-scf-to-cf,convert-cf-to-llvm",
    "gpu-to-llvm",
    "gpu-lower-to-nvvm-pipeline{cubin-format=isa}",
    "canonicalize",
)

TOKEN = re.compile(r"%[\w.$-]+|@[\w.$-]+|\^[\w.$-]+|#[\w.$-]+|![\w.$-]+|"
                   r"-?0x[0-9a-fA-F]+|-?\d+(\.\d+)?([eE][-+]?\d+)?|\"[^\"\n]*\"|"
                   r"[A-Za-z_][\w.$]*|[^\s\w]")  # fmt: skip

EXTREMES = (
    "0", "-1", "1", "2147483647", "-2147483648", "4294967296",
    "9223372036854775807", "-9223372036854775809", "18446744073709551616",
    "0x7FC00000", "0xFFFFFFFFFFFFFFFFFF", "1.0e309", "-0.0", "nan", "inf",
)  # fmt: skip
TYPES = (
    "i1", "i8", "i32", "i64", "index", "f16", "bf16", "f32", "f64", "none",
    "vector<4xf32>", "memref<?xf32>", "memref<f32, \"shared\">", "!llvm.ptr",
    "tensor<2xi32>", "complex<f32>", "!gpu.async.token",
)  # fmt: skip


# -- corpus and mutations ------------------------------------------------------------


def load_corpus() -> list[str]:
    programs: list[str] = []
    for folder in CORPUS_DIRS:
        for path in sorted((ROOT / folder).rglob("*.mlir")):
            text = path.read_text(errors="replace")
            programs += [c for c in text.split("// -----") if c.strip()]
    return programs


def mutate(text: str, rng: random.Random, corpus: list[str]) -> str:
    for _ in range(rng.choice((1, 1, 2, 3))):
        text = rng.choice(MUTATIONS)(text, rng, corpus)
    return text


def _tokens(text: str) -> list[re.Match[str]]:
    return list(TOKEN.finditer(text))


def _replace_token(text: str, rng: random.Random, corpus: list[str]) -> str:
    tokens = _tokens(text)
    if not tokens:
        return text
    m = rng.choice(tokens)
    donor = _tokens(rng.choice(corpus))
    new = rng.choice(donor).group() if donor else ""
    return text[: m.start()] + new + text[m.end() :]


def _extreme_number(text: str, rng: random.Random, corpus: list[str]) -> str:
    numbers = [
        m for m in _tokens(text) if m.group()[0].isdigit() or m.group()[0] == "-"
    ]
    if not numbers:
        return text
    m = rng.choice(numbers)
    return text[: m.start()] + rng.choice(EXTREMES) + text[m.end() :]


def _swap_type(text: str, rng: random.Random, corpus: list[str]) -> str:
    types = [
        m for m in _tokens(text) if m.group() in TYPES or m.group().startswith("!")
    ]
    if not types:
        return text
    m = rng.choice(types)
    return text[: m.start()] + rng.choice(TYPES) + text[m.end() :]


def _line_edit(text: str, rng: random.Random, corpus: list[str]) -> str:
    lines = text.splitlines(keepends=True)
    if not lines:
        return text
    i = rng.randrange(len(lines))
    kind = rng.randrange(4)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif kind == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        donor = rng.choice(corpus).splitlines(keepends=True) or ["\n"]
        lines.insert(i, rng.choice(donor))
    return "".join(lines)


def _byte_edit(text: str, rng: random.Random, corpus: list[str]) -> str:
    if not text:
        return text
    i = rng.randrange(len(text))
    kind = rng.randrange(3)
    if kind == 0:
        return text[:i] + text[i + 1 :]
    if kind == 1:
        return text[:i] + rng.choice('{}()[]<>,:=%@^!#"\\ \n0x-') + text[i:]
    return text[:i] + chr(rng.randrange(0x20, 0x7F)) + text[i + 1 :]


MUTATIONS: tuple[Callable[[str, random.Random, list[str]], str], ...] = (
    _replace_token, _replace_token, _extreme_number, _swap_type, _line_edit,
    _line_edit, _byte_edit,
)  # fmt: skip


# -- running one case ----------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    # "ok", "error" (a diagnostic in MLIR's form), "form" (a diagnostic in another
    # form), "crash", "signal", "timeout", "file"
    kind: str
    signature: str = ""
    detail: str = ""

    @property
    def failed(self) -> bool:
        return self.kind not in ("ok", "error")


def _user_error_types() -> tuple[type[BaseException], ...]:
    from xdsl_gpu.diagnostics import USER_ERRORS

    return USER_ERRORS


def _innermost_frame(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if "/xdsl" in f.filename]
    frame = (ours or frames or [None])[-1]
    if frame is None:
        return type(error).__name__
    parts = Path(frame.filename).parts
    short = "/".join(parts[-2:])
    return f"{type(error).__name__} at {short}:{frame.name}"


MAX_DIAGNOSTIC_LINES = 6
_LOCATED = re.compile(r"^\S[^\n]*:\d+:\d+: error: ")


def _printed(error: BaseException, argv: list[str]) -> str:
    """What ``xdsl-opt`` prints for the user error ``error``."""
    from xdsl_gpu.diagnostics import RUN_NOTES, user_error_text

    notes = [f"xdsl-opt: note: {note}" for note in RUN_NOTES]
    return "\n".join([user_error_text("xdsl-opt", error, inputs=argv), *notes])


def _form_problem(error: BaseException, argv: list[str]) -> str:
    """Why the diagnostic of ``error`` is not in MLIR's form (``FILE:LINE:COL:
    error:`` first, at most :data:`MAX_DIAGNOSTIC_LINES` lines); empty if it is."""
    text = _printed(error, argv)
    if not _LOCATED.match(text):
        return f"no location ({type(error).__name__})"
    if len(text.splitlines()) > MAX_DIAGNOSTIC_LINES:
        return f"{len(text.splitlines())} lines ({type(error).__name__})"
    return ""


def _child(path: str, pipeline: str, report: int) -> None:
    """Runs in the forked child: xdsl-opt's main on ``path``."""
    from xdsl.xdsl_opt_main import xDSLOptMain

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    sys.stdout = io.StringIO()
    sys.stderr = io.StringIO()
    argv = [path, *(["-p", pipeline] if pipeline else [])]
    message = ""
    code = 0
    from xdsl_gpu.compat import (
        InternalParseError,
        InternalPassError,
        InternalVerifyError,
    )

    try:
        xDSLOptMain(args=argv).run()
    except SystemExit as e:
        code = 0 if e.code in (0, None) else 1
    except (InternalParseError, InternalVerifyError, InternalPassError) as e:
        code = 3  # a diagnostic for the user, but a fault of the tool for us
        cause = e.__cause__ or e
        message = f"{type(e).__name__}: {_innermost_frame(cause)}\n{e}"
    except _user_error_types() as e:
        code = 1
        try:
            if problem := _form_problem(e, argv):
                code = 5  # rejected, but not in MLIR's form
                message = f"form: {problem}\n{_printed(e, argv)}"
        except BaseException as fault:  # printing the diagnostic: a traceback too
            code = 3
            message = _innermost_frame(fault) + "\n"
            message += "".join(traceback.format_exception(fault))
    except BaseException as e:  # what a user would see as a traceback
        code = 3
        message = _innermost_frame(e) + "\n" + "".join(traceback.format_exception(e))
    os.write(report, message.encode()[:60000])
    os._exit(code)


def run_case(text: str, pipeline: str, timeout: float) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="xdsl-gpu-fuzz-") as folder:
        path = os.path.join(folder, "case.mlir")
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        before = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            os.close(read)
            os.chdir(folder)
            try:
                _child(path, pipeline, write)
            finally:
                os._exit(4)
        os.close(write)
        deadline = time.monotonic() + timeout
        status = None
        while time.monotonic() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.002)
        else:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read)
            return Outcome("timeout", "timeout")
        with os.fdopen(read, "rb") as pipe:
            message = pipe.read().decode(errors="replace")
        after = hashlib.sha256(Path(path).read_bytes()).hexdigest()
        leftovers = sorted(set(os.listdir(folder)) - {"case.mlir"})
    assert status is not None
    if os.WIFSIGNALED(status):
        return Outcome("signal", f"signal {os.WTERMSIG(status)}")
    if before != after:
        return Outcome("file", "input changed")
    if leftovers:
        return Outcome("file", "left files behind", ", ".join(leftovers))
    code = os.WEXITSTATUS(status)
    if code == 5:
        signature, _, detail = message.partition("\n")
        return Outcome("form", signature, detail)
    if code == 3:
        signature, _, detail = message.partition("\n")
        return Outcome("crash", signature, detail)
    return Outcome("ok" if code == 0 else "error")


# -- minimizing --------------------------------------------------------------------------


def minimize(
    text: str, pipeline: str, outcome: Outcome, timeout: float, budget: float
) -> str:
    """Delta debugging over lines, then characters, keeping the signature, for at
    most ``budget`` seconds (a time-out is kept as it is)."""
    if outcome.kind == "timeout":
        return text
    stop = time.monotonic() + budget

    def same(candidate: str) -> bool:
        if time.monotonic() > stop:
            return False
        result = run_case(candidate, pipeline, timeout)
        return result.kind == outcome.kind and result.signature == outcome.signature

    for split in (lambda t: t.splitlines(keepends=True), list):
        parts = split(text)
        chunk = max(1, len(parts) // 2)
        while chunk >= 1 and len(parts) > 1:
            i, removed = 0, False
            while i < len(parts):
                candidate = parts[:i] + parts[i + chunk :]
                if candidate and same("".join(candidate)):
                    parts, removed = candidate, True
                else:
                    i += chunk
            if not removed:
                chunk //= 2
            if len(parts) > 400 and chunk == 0:
                break
        text = "".join(parts)
        if len(text) > 2000:  # characters one by one would take too long
            break
    return text


# -- driver --------------------------------------------------------------------------------


def cases(seed: int, corpus: list[str]) -> Iterator[tuple[int, str, str]]:
    rng = random.Random(seed)
    index = 0
    while True:
        yield index, mutate(rng.choice(corpus), rng, corpus), rng.choice(PIPELINES)
        index += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=0, help="stop after N cases")
    parser.add_argument("--seconds", type=float, default=0, help="stop after S seconds")
    parser.add_argument("--timeout", type=float, default=20.0, help="per case")
    parser.add_argument("--save", action="store_true", help="write crashers")
    parser.add_argument(
        "--minimize-seconds", type=float, default=60.0, help="per failure"
    )
    args = parser.parse_args(argv)
    if not args.cases and not args.seconds:
        args.cases = 300

    from xdsl.universe import Universe

    Universe.get_multiverse()  # load the plugin once, before forking
    import xdsl_gpu.driver.universe  # noqa: F401

    corpus = load_corpus()
    start = time.monotonic()
    seen: dict[str, tuple[str, str, Outcome]] = {}
    counts: dict[str, int] = {}
    ran = 0
    for index, text, pipeline in cases(args.seed, corpus):
        if args.cases and index >= args.cases:
            break
        if args.seconds and time.monotonic() - start > args.seconds:
            break
        outcome = run_case(text, pipeline, args.timeout)
        ran += 1
        counts[outcome.kind] = counts.get(outcome.kind, 0) + 1
        if outcome.failed and outcome.signature not in seen:
            seen[outcome.signature] = (text, pipeline, outcome)
            print(
                f"case {index}: {outcome.kind}: {outcome.signature} [-p '{pipeline}']"
            )
    elapsed = time.monotonic() - start
    summary = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    print(f"{ran} cases in {elapsed:.0f} s (seed {args.seed}): {summary}")
    for signature, (text, pipeline, outcome) in seen.items():
        small = minimize(text, pipeline, outcome, args.timeout, args.minimize_seconds)
        name = hashlib.sha256(signature.encode()).hexdigest()[:12]
        print(f"\n== {signature} [-p '{pipeline}']\n{small}")
        if outcome.detail:
            print(outcome.detail.rstrip().splitlines()[-1])
        if args.save:
            CRASHERS.mkdir(parents=True, exist_ok=True)
            header = f"// PIPELINE: {pipeline}\n// FOUND: {signature}\n"
            (CRASHERS / f"{name}.mlir").write_text(header + small)
    return 1 if seen else 0


if __name__ == "__main__":
    sys.exit(main())

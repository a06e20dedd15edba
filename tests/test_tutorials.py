"""The documentation's promises that need no GPU: every relative link resolves, every
bundled example and every ```mlir block of the docs parses and round-trips, and the
tutorials' compile steps print what the pages show."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.xdsl_tools import parse, print_module

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
EXAMPLES = sorted((ROOT / "examples").rglob("*.mlir"))
LINK = re.compile(r"\]\(([^)#\s]+)(#[^)]*)?\)")


def _links() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for page in PAGES:
        for target, _ in LINK.findall(page.read_text()):
            if "://" not in target:
                found.append((str(page.relative_to(ROOT)), target))
    return found


@pytest.mark.parametrize(("page", "target"), _links())
def test_relative_links_resolve(page: str, target: str) -> None:
    assert (ROOT / page).parent.joinpath(target).exists(), f"{page} links to {target}"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_examples_round_trip(example: Path) -> None:
    printed = print_module(parse(example.read_text()))
    assert print_module(parse(printed)) == printed


def _mlir_blocks() -> list[tuple[str, str]]:
    """Every ```mlir block of the documentation (excerpts with elisions are fenced
    as ``text`` instead)."""
    blocks: list[tuple[str, str]] = []
    for page in PAGES:
        for i, match in enumerate(
            re.finditer(r"```mlir\n(.*?)```", page.read_text(), re.S)
        ):
            blocks.append((f"{page.relative_to(ROOT)}#{i}", match.group(1)))
    return blocks


@pytest.mark.parametrize(
    ("where", "source"), _mlir_blocks(), ids=[w for w, _ in _mlir_blocks()]
)
def test_documented_mlir_round_trips(where: str, source: str) -> None:
    printed = print_module(parse(source))
    assert print_module(parse(printed)) == printed, where


def _xdsl_opt(command: str) -> str:
    """Run a documented ``xdsl-opt ...`` command line (the module, so that it works
    without the console script too)."""
    args = shlex.split(command)
    assert args[0] == "xdsl-opt"
    done = subprocess.run(
        [sys.executable, "-m", "xdsl.tools.xdsl_opt", *args[1:]],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def _commands(page: str) -> list[str]:
    text = (ROOT / "docs" / page).read_text()
    return [line[2:] for line in text.splitlines() if line.startswith("$ xdsl-opt ")]


def _shown_lines(page: str, command: str) -> list[str]:
    """The output lines a page shows under ``$ command`` (up to the closing fence),
    without the elisions (``...``)."""
    lines = (ROOT / "docs" / page).read_text().splitlines()
    start = lines.index(f"$ {command}") + 1
    shown: list[str] = []
    for line in lines[start:]:
        if line.startswith("```"):
            break
        if "..." not in line and line.strip():
            shown.append(line.strip())
    return shown


def test_the_parametrized_checks_have_cases() -> None:
    """An empty parameter list collects nothing and passes: the pages, examples,
    links and ```mlir blocks the checks above are parametrized over exist."""
    assert ROOT / "README.md" in PAGES
    assert len(PAGES) > 1
    assert EXAMPLES
    assert _links()
    assert _mlir_blocks()


SEED_001 = "tutorials/seed-001-hello.md"
SEED_001_COMMANDS = [
    "xdsl-opt examples/hello/hello.mlir -p gpu-kernel-outlining",
    "xdsl-opt examples/hello/hello.mlir -p "
    "'gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa}'",
    "xdsl-opt examples/select_object/binary.mlir -t llvm-offload",
]
"""The compile steps of the seed-001 tutorial, each checked below."""


def test_seed_001_tutorial_has_its_commands() -> None:
    """The check below is parametrized over the commands found on the page: if the
    page were renamed (then this fails to read it) or its ``$ xdsl-opt`` prompts
    changed, it would collect nothing and pass silently. Each command also shows some
    output to compare."""
    assert _commands(SEED_001) == SEED_001_COMMANDS
    for command in SEED_001_COMMANDS:
        assert _shown_lines(SEED_001, command), (
            f"{SEED_001} shows no output of {command}"
        )


@pytest.mark.parametrize(
    ("page", "command"), [(SEED_001, c) for c in _commands(SEED_001)]
)
def test_seed_001_tutorial_commands_print_what_it_shows(
    page: str, command: str
) -> None:
    out = [line.strip() for line in _xdsl_opt(command).splitlines()]
    for line in _shown_lines(page, command):
        if "LLVMIRToISATimeInMs" in line or line.startswith("gpu.binary"):
            assert any(o.startswith(line.split("properties")[0]) for o in out), line
        else:
            assert line in out, f"{command}: {line!r} is not in the output"


def test_seed_002_tutorial_compile_command(tmp_path: Path) -> None:
    page = (ROOT / "docs" / "tutorials" / "seed-002-async-matmul.md").read_text()
    (command,) = [
        line[2:] for line in page.splitlines() if line.startswith("$ xdsl-opt ")
    ]
    command = command.replace("-o matmul.ll", f"-o {tmp_path / 'matmul.ll'}")
    _xdsl_opt(command)
    host = (tmp_path / "matmul.ll").read_text()
    for symbol in (
        "test_parallel_kernel",
        "test_parallel_kernel_0",
        "test_parallel_kernel_1",
    ):
        assert f"@{symbol}_binary = internal constant" in host
        assert f"define internal void @{symbol}_load()" in host
    assert "define void @_mlir_ciface_test_parallel(" in host
    assert host.count("call ptr @mgpuStreamCreate()") == 3
    assert host.count("call void @mgpuStreamDestroy(") == 3

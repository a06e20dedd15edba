"""xdsl-opt never loses a file and says what is wrong with one
(``compat.safe_opt_files``)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

HELLO = (Path(__file__).parents[2] / "examples" / "hello" / "hello.mlir").read_text()
BAD = "func.func @f() {\n  %x = arith.bogus\n}\n"


def opt(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["xdsl-opt", *args], cwd=cwd, capture_output=True, text=True, check=False
    )


def test_output_onto_the_input_reads_it_first(tmp_path: Path) -> None:
    (tmp_path / "in.mlir").write_text(HELLO)
    done = opt("in.mlir", "-o", "in.mlir", "-p", "gpu-kernel-outlining", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "gpu.module @main_kernel" in (tmp_path / "in.mlir").read_text()
    assert sorted(os.listdir(tmp_path)) == ["in.mlir"]  # no temporary file left


def test_a_failed_run_leaves_the_output_as_it_was(tmp_path: Path) -> None:
    (tmp_path / "bad.mlir").write_text(BAD)
    (tmp_path / "out.mlir").write_text("keep me\n")
    done = opt("bad.mlir", "-o", "out.mlir", cwd=tmp_path)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert (tmp_path / "out.mlir").read_text() == "keep me\n"
    assert sorted(os.listdir(tmp_path)) == ["bad.mlir", "out.mlir"]
    done = opt("bad.mlir", "-o", "new.mlir", cwd=tmp_path)
    assert not (tmp_path / "new.mlir").exists()


def test_the_output_keeps_its_permissions(tmp_path: Path) -> None:
    (tmp_path / "in.mlir").write_text(HELLO)
    out = tmp_path / "out.mlir"
    out.write_text("")
    out.chmod(0o640)
    assert opt("in.mlir", "-o", "out.mlir", cwd=tmp_path).returncode == 0
    assert out.stat().st_mode & 0o777 == 0o640


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_a_new_output_gets_the_usual_permissions(tmp_path: Path, umask: int) -> None:
    """A new file, as open() (and mlir-opt) would make it: 0666 less the umask, not
    the private 0600 of the temporary file it is renamed from."""
    (tmp_path / "in.mlir").write_text(HELLO)
    before = os.umask(umask)
    try:
        assert opt("in.mlir", "-o", "new.mlir", cwd=tmp_path).returncode == 0
    finally:
        os.umask(before)
    assert (tmp_path / "new.mlir").stat().st_mode & 0o777 == 0o666 & ~umask


def test_output_to_a_device_or_fifo_writes_into_it(tmp_path: Path) -> None:
    """-o /dev/null must not rename a file over the device node (as root it could)."""
    import stat
    import threading

    (tmp_path / "in.mlir").write_text(HELLO)
    done = opt("in.mlir", "-o", os.devnull, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    done = opt("in.mlir", "-o", "pipe", cwd=tmp_path)
    reader.join(timeout=60)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert "gpu.launch" in received[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.mlir"], "cannot read 'missing.mlir': no such file"),
        (["."], "cannot read '.': it is a directory, not a file"),
        (["binary.mlir"], "binary.mlir:1:7: the input is a binary file"),
        (["latin1.mlir"], "latin1.mlir:2:3: the input is not UTF-8 text"),
        (["in.cubin"], "cannot tell how to read 'in.cubin' from its extension"),
        (["in.mlir", "-o", "."], "cannot write output to '.': it is a directory"),
        (["in.mlir", "-o", "no/dir/x.mlir"], "cannot write output to 'no/dir/x.mlir'"),
        (["in.mlir", "-o", "x" * 300], "the name is too long"),
    ],
)
def test_bad_files_are_one_line_diagnostics(
    tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "in.mlir").write_text(HELLO)
    (tmp_path / "in.cubin").write_bytes(b"\x7fELF\x02\x01\x01\x00")
    (tmp_path / "binary.mlir").write_bytes(b"\x7fELF\x00\x01\xff")
    (tmp_path / "latin1.mlir").write_bytes(b"// ok\n//\xe9t\xe9\n")
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    done = opt(*args, cwd=tmp_path)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("xdsl-opt: error: ")
    assert message in done.stderr
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert after == before


def test_a_read_only_directory(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    (tmp_path / "in.mlir").write_text(HELLO)
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    done = opt("in.mlir", "-o", "locked/x.mlir", cwd=tmp_path)
    assert done.returncode == 1
    assert "no permission to write" in done.stderr


@pytest.mark.parametrize("target", ["/proc/version", "/sys/x.mlir", "/proc/x.mlir"])
def test_a_place_that_takes_no_new_file(tmp_path: Path, target: str) -> None:
    """Virtual file systems refuse the temporary file (even to root, which
    ``os.access`` lets through): one diagnostic, nothing changed."""
    if not os.path.isdir(os.path.dirname(target)):
        pytest.skip(f"no {os.path.dirname(target)} here")
    (tmp_path / "in.mlir").write_text(HELLO)
    before = Path(target).read_bytes() if os.path.exists(target) else None
    done = opt("in.mlir", "-o", target, cwd=tmp_path)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"xdsl-opt: error: cannot write output to '{target}'")
    assert done.stderr.count("\n") == 1
    after = Path(target).read_bytes() if os.path.exists(target) else None
    assert after == before


def test_a_failed_write_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that fails half-way (a full disk) is a diagnostic, and the
    temporary file beside the target is removed."""
    from xdsl_gpu.compat.opt_tool import write_output_file
    from xdsl_gpu.diagnostics import UserError

    def full(*args: object) -> None:
        raise OSError(28, "No space left on device")

    (tmp_path / "out.mlir").write_text("keep me\n")
    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(UserError, match="no space left on device"):
        write_output_file(str(tmp_path / "out.mlir"), "new text\n")
    assert sorted(os.listdir(tmp_path)) == ["out.mlir"]
    assert (tmp_path / "out.mlir").read_text() == "keep me\n"


def test_an_output_through_a_symbolic_link_keeps_the_link(tmp_path: Path) -> None:
    (tmp_path / "in.mlir").write_text(HELLO)
    (tmp_path / "real.mlir").write_text("old\n")
    os.symlink("real.mlir", tmp_path / "link.mlir")
    done = opt("in.mlir", "-o", "link.mlir", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert os.path.islink(tmp_path / "link.mlir")
    assert "gpu.launch" in (tmp_path / "real.mlir").read_text()
    assert sorted(os.listdir(tmp_path)) == ["in.mlir", "link.mlir", "real.mlir"]


def test_an_output_onto_a_loop_of_links_is_refused(tmp_path: Path) -> None:
    """As mlir-opt refuses it: the links stay as they were (a rename replaced the
    first link by a regular file, with exit status 0)."""
    (tmp_path / "in.mlir").write_text(HELLO)
    os.symlink("loop2", tmp_path / "loop1")
    os.symlink("loop1", tmp_path / "loop2")
    done = opt("in.mlir", "-o", "loop1", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith(
        "xdsl-opt: error: cannot write output to 'loop1': too many levels of "
        "symbolic links"
    ), done.stderr
    assert os.readlink(tmp_path / "loop1") == "loop2"
    assert sorted(os.listdir(tmp_path)) == ["in.mlir", "loop1", "loop2"]


@pytest.mark.parametrize("forced", [[], ["--xdsl-gpu"]])
def test_an_input_read_only_once_is_compiled_whole(
    tmp_path: Path, forced: list[str]
) -> None:
    """``/dev/stdin`` fed by a pipe (as a shell's ``<(...)`` is): the dialect choice
    reads the program first, and the run still gets all of it (it got nothing: an
    empty module, exit status 0)."""
    done = subprocess.run(
        ["xdsl-opt", *forced, "/dev/stdin"],
        input=HELLO, cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "gpu.launch" in done.stdout


def test_dev_stdout_into_a_redirected_file_writes_through_it(tmp_path: Path) -> None:
    """``-o /dev/stdout`` with stdout redirected to a file: /dev/stdout resolves to
    that regular file, but it is written through, never replaced by a rename
    (which, as root, would replace the /dev/stdout link of the machine)."""
    (tmp_path / "in.mlir").write_text(HELLO)
    with open(tmp_path / "out.txt", "w") as out:
        done = subprocess.run(
            ["xdsl-opt", "in.mlir", "-o", "/dev/stdout"],
            cwd=tmp_path, stdout=out, stderr=subprocess.PIPE, text=True, check=False,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert os.path.islink("/dev/stdout")
    assert "gpu.launch" in (tmp_path / "out.txt").read_text()

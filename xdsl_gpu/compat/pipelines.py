"""MLIR's pass-pipeline syntax (``builtin.module(...)``, options with quoted values)
in ``xdsl-opt``'s ``-p``."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from typing import Any

from xdsl.utils.exceptions import DiagnosticException

from xdsl_gpu.compat._base import XdslChangedError, _mark, is_patched

_OP_ANCHOR = re.compile(r"(?:[A-Za-z_][\w$]*\.)+[A-Za-z_][\w$.]*\(|any\(")
_XDSL_WORD = re.compile(r"[A-Za-z0-9_-]+|[-+]?[0-9]+(\.[0-9]*([eE][-+]?[0-9]+)?)?")


class PassPipelineError(DiagnosticException, ValueError):
    """A pass pipeline that names an unknown pass or gives a pass a bad option."""


def mlir_pipeline_to_xdsl(spec: str) -> str:
    """Rewrite a pass pipeline as MLIR writes it into one xDSL's parser reads.

    * Op anchors (``builtin.module(...)``, ``gpu.module(...)``, ``func.func(...)``,
      ``any(...)``) are dropped: every pass of xdsl-gpu and of xDSL is a module pass
      that visits the ops it applies to wherever they are nested.
    * Option values that xDSL's lexer cannot read bare (``+ptx80``, ``/path/lib.bc``,
      ``sm_90a,+ptx80``...) are quoted, each comma-separated element on its own.

    Text inside quotes and ``mlir-opt[...]`` is kept as it is; a pipeline that xDSL
    already reads comes back unchanged."""
    out: list[str] = []
    anchors: list[bool] = []  # per open parenthesis: is it an op anchor?
    i, n = 0, len(spec)
    braces = 0
    while i < n:
        c = spec[i]
        if c == '"':
            end = _end_of_string(spec, i)
            out.append(spec[i:end])
            i = end
        elif c == "[":
            end = spec.find("]", i)
            end = n if end < 0 else end + 1
            out.append(spec[i:end])
            i = end
        elif (
            braces == 0 and (m := _OP_ANCHOR.match(spec, i)) and _at_word_start(spec, i)
        ):
            anchors.append(True)
            i = m.end()
        elif c == "(":
            anchors.append(False)
            out.append(c)
            i += 1
        elif c == ")" and anchors:
            if not anchors.pop():
                out.append(c)
            i += 1
        elif c.isspace() and braces == 0:
            i += 1
        elif c == "{":
            braces += 1
            out.append(c)
            i += 1
        elif c == "}":
            braces -= 1
            out.append(c)
            i += 1
        elif c == "=" and braces > 0:
            end = i + 1
            while end < n and not spec[end].isspace() and spec[end] != "}":
                if spec[end] == '"':
                    end = _end_of_string(spec, end)
                else:
                    end += 1
            out.append("=" + _quote_value(spec[i + 1 : end]))
            i = end
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _at_word_start(spec: str, i: int) -> bool:
    return i == 0 or spec[i - 1] in " ,("


def _end_of_string(spec: str, start: int) -> int:
    i = start + 1
    while i < len(spec) and spec[i] != '"':
        i += 2 if spec[i] == "\\" else 1
    return min(i + 1, len(spec))


def _quote_value(value: str) -> str:
    if not value or '"' in value:
        return value
    elements = value.split(",")
    if all(_XDSL_WORD.fullmatch(e) for e in elements):
        return value
    return ",".join(
        e if _XDSL_WORD.fullmatch(e) else '"' + e.replace("\\", "\\\\") + '"'
        for e in elements
    )


def upstream_pass_pipelines() -> None:
    """Make ``PassPipeline.parse_spec`` (what ``xdsl-opt -p`` uses) read MLIR's
    pipeline syntax (:func:`mlir_pipeline_to_xdsl`) and report an unknown pass or a
    bad option as a diagnostic that names the valid ones (xDSL raises a bare
    ``ValueError``, a traceback on the command line)."""
    from xdsl.passes import PassPipeline

    current = PassPipeline.__dict__.get("parse_spec")
    if not isinstance(current, staticmethod):
        raise XdslChangedError("xdsl.passes.PassPipeline.parse_spec is gone")
    parse_spec = current.__func__
    if is_patched(parse_spec, "xdsl_gpu_pipelines"):
        return
    if list(inspect.signature(parse_spec).parameters)[:2] != [
        "available_passes",
        "spec",
    ]:
        raise XdslChangedError(
            "PassPipeline.parse_spec no longer takes (available_passes, spec, ...)"
        )

    def parse_upstream_spec(
        available_passes: Mapping[str, Callable[[], Any]],
        spec: str,
        callback: Any = None,
    ) -> Any:
        from xdsl.utils.arg_spec import parse_pipeline

        passes = tuple(
            _build_pass(available_passes, arg_spec)
            for arg_spec in parse_pipeline(mlir_pipeline_to_xdsl(spec))
        )
        return PassPipeline(passes, callback)

    _mark(parse_upstream_spec, "xdsl_gpu_pipelines", parse_spec)
    PassPipeline.parse_spec = staticmethod(parse_upstream_spec)  # type: ignore[method-assign]


def _build_pass(available: Mapping[str, Callable[[], Any]], arg_spec: Any) -> Any:
    """The pass ``arg_spec`` names, with its options; a :class:`PassPipelineError`
    that says what is valid where xDSL raises a bare ``ValueError``. A string option
    given a comma-separated list gets the whole text, as in MLIR."""
    import dataclasses
    import difflib
    from typing import get_type_hints

    from xdsl.utils.arg_spec import ArgSpec

    if arg_spec.name not in available:
        close = difflib.get_close_matches(arg_spec.name, list(available), n=3)
        hint = (
            f"; did you mean {', '.join(repr(c) for c in close)}?"
            if close
            else "; `xdsl-opt --help` lists the passes"
        )
        raise PassPipelineError(f"unknown pass '{arg_spec.name}'{hint}")
    pass_class = available[arg_spec.name]()
    hints = get_type_hints(pass_class)
    parameters: dict[str, tuple[Any, ...]] = {
        key: _as_mlir_reads(values, hints.get(key.replace("-", "_")))
        for key, values in arg_spec.parameters.items()
    }
    fields = {
        f.name.replace("_", "-"): f.name
        for f in dataclasses.fields(pass_class)
        if f.init and f.name != "name"
    }
    for key in list(parameters):
        if key.replace("_", "-") not in fields and (
            (arg_spec.name, key.replace("_", "-")) in OPTIONS_WITHOUT_EFFECT
        ):
            del parameters[key]
            continue
        if key.replace("_", "-") not in fields:
            close = difflib.get_close_matches(key, list(fields), n=1)
            raise PassPipelineError(
                f"pass '{arg_spec.name}' has no option '{key}'"
                + (f"; did you mean '{close[0]}'?" if close else "")
                + f" (its options: {', '.join(fields) or 'none'})"
            )
    try:
        return pass_class.from_pass_spec(ArgSpec(arg_spec.name, parameters))
    except (ValueError, TypeError) as error:
        # xDSL says "Incompatible types: given ('abc',), expected <class 'int'>":
        # name the option whose value that is.
        given = re.search(r"given (\(.*?\)), expected", str(error))
        for key, values in parameters.items():
            if given is not None and given.group(1) == repr(tuple(values)):
                wanted = _OPTION_KINDS.get(
                    str(hints.get(fields[key.replace("_", "-")]))
                )
                text = ",".join(str(v) for v in values) or "nothing"
                raise PassPipelineError(
                    f"option '{key}' of pass '{arg_spec.name}' takes "
                    f"{wanted or 'another kind of value'}, not '{text}'"
                ) from None
        raise PassPipelineError(f"pass '{arg_spec.name}': {error}") from None


OPTIONS_WITHOUT_EFFECT: dict[tuple[str, str], str] = {
    ("canonicalize", "test-convergence"): "MLIR's canonicalize then fails when it "
    "does not converge in 10 rounds; xDSL's runs until nothing changes",
}
"""MLIR's options of a pass of xDSL's that lacks them, which change nothing in its
result: accepted and dropped (where the pass has no field of that name)."""


def _as_mlir_reads(values: tuple[Any, ...], hint: Any) -> tuple[Any, ...]:
    """An option's values as xDSL's checks take them, read as MLIR reads them: a
    string option given a comma-separated list gets the whole text; a boolean takes
    what ``llvm::cl`` takes (``1``/``0``, ``True``/``FALSE``..., nothing for true)."""
    from xdsl_gpu.compat.command_line import llvm_bool

    if hint is str and len(values) > 1:
        return (",".join(map(str, values)),)
    if hint in _BOOLEAN_HINTS and len(values) <= 1:
        word = values[0] if values else ""
        if isinstance(word, bool):
            return values
        if isinstance(word, int) and hint in (bool, bool | None):
            word = str(word)  # 1 and 0; an integer stays one where one is taken
        if isinstance(word, str) and (on := llvm_bool(word)) is not None:
            return (on,)
    return values


_BOOLEAN_HINTS = (bool, bool | None, bool | int, bool | int | None)

_OPTION_KINDS = {
    str(int): "an integer",
    str(bool): "true or false",
    str(float): "a number",
    str(str): "a string",
    str(bool | int): "true, false or an integer",
    str(tuple[str, ...]): "a comma-separated list of strings",
    str(tuple[int, ...]): "a comma-separated list of integers",
}

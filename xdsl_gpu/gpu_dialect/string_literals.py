"""MLIR string literals decoded in C: gpu.object and gpu.binary carry whole GPU
binaries as escaped strings, and the parser reads them through this."""

import codecs


def unescape_mlir_string(body: str) -> bytes:
    """The bytes an MLIR string literal body (without quotes) stands for: ``\\n``,
    ``\\t``, ``\\"``, ``\\\\`` and two-digit hex escapes; everything else as UTF-8.

    The same result as xDSL's ``StringLiteral.bytes_contents``, but in C: the
    escapes are rewritten to ``\\xXX`` and decoded by ``codecs.escape_decode``, so a
    multi-megabyte object decodes in milliseconds.
    """
    raw = body.encode()
    if b"\\" not in raw:
        return raw
    # Escapes are read left to right and only `\\` holds two backslashes, so a
    # left-to-right replace of `\\` meets exactly the escaped backslashes.
    raw = raw.replace(b"\\\\", b"\\5C")
    raw = raw.replace(b"\\n", b"\\0A").replace(b"\\t", b"\\09")
    raw = raw.replace(b'\\"', b"\\22").replace(b"\\", b"\\x")
    try:
        # Every backslash now starts `\\x`; a malformed escape fails here.
        return codecs.escape_decode(raw)[0]
    except ValueError as e:
        raise ValueError(f"invalid escape sequence in string literal: {e}") from None

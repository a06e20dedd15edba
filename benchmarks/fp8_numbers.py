"""e4m3 (``f8E4M3FN``), e5m2 (``f8E5M2``) and bf16 numbers in NumPy, which has none
of these types: arrays of their bit patterns (``uint8``, ``uint16``) and conversions
to and from floats.

e4m3: sign, 4 exponent bits (bias 7), 3 mantissa bits; no infinities, NaN is
``S.1111.111``, the largest finite value 448, the smallest subnormal 2^-9.
e5m2: the upper byte of an IEEE f16 (sign, 5 exponent bits, 2 mantissa bits), with
infinities and NaNs; the largest finite value 57344.
"""

from __future__ import annotations

import numpy as np

E4M3_MAX = 448.0


def _e4m3_table() -> np.ndarray:
    """The value of each of the 256 codes (NaN for the two NaN codes)."""
    codes = np.arange(256)
    exponent = (codes >> 3) & 0xF
    mantissa = (codes & 7).astype(np.float64)
    magnitude = np.where(
        exponent == 0,
        mantissa / 8 * 2.0**-6,
        (1 + mantissa / 8) * 2.0 ** (exponent - 7),
    )
    values = np.where(codes & 0x80, -magnitude, magnitude)
    values[[0x7F, 0xFF]] = np.nan
    return values.astype(np.float32)


_TABLE = _e4m3_table()
_POSITIVE = _TABLE[:0x7F].astype(np.float64)  # codes 0x00-0x7E, increasing


def e4m3_decode(codes: np.ndarray) -> np.ndarray:
    """The float32 values of e4m3 codes (exact)."""
    return _TABLE[np.asarray(codes, dtype=np.uint8)]


def e4m3_encode(values: np.ndarray) -> np.ndarray:
    """The e4m3 codes of ``values``: rounded to nearest, ties to the even code,
    saturated at +-448 (``cvt.rn.satfinite``); NaN is not expected."""
    return _encode(values, _POSITIVE)


def _encode(values: np.ndarray, positive: np.ndarray) -> np.ndarray:
    """Codes of an 8-bit format whose non-negative finite values, increasing, are
    ``positive`` (code i is ``positive[i]``, the sign is bit 7): to nearest, ties
    to the even code, saturated at the largest."""
    x = np.asarray(values, dtype=np.float64)
    magnitude = np.minimum(np.abs(x), positive[-1])
    high = np.clip(np.searchsorted(positive, magnitude), 1, len(positive) - 1)
    low = high - 1
    below = magnitude - positive[low]
    above = positive[high] - magnitude
    take_high = (above < below) | ((above == below) & (high % 2 == 0))
    code = np.where(take_high, high, low).astype(np.uint8)
    return np.where(np.signbit(x), code | 0x80, code).astype(np.uint8)


E5M2_MAX = 57344.0


def e5m2_decode(codes: np.ndarray) -> np.ndarray:
    """The float32 values of e5m2 codes (exact: each is an f16 whose low byte is 0)."""
    wide = np.asarray(codes, dtype=np.uint8).astype(np.uint16) << 8
    return wide.view(np.float16).astype(np.float32)


def e5m2_encode(values: np.ndarray) -> np.ndarray:
    """The e5m2 codes of finite ``values``: rounded to nearest, ties to the even
    code, saturated at +-57344 (``cvt.rn.satfinite``)."""
    return _encode(values, _E5M2_POSITIVE)


_E5M2_POSITIVE = e5m2_decode(np.arange(0x7C)).astype(np.float64)  # 0x00-0x7B


def f32_to_bf16_bits(values: np.ndarray) -> np.ndarray:
    """The bf16 bit patterns of float32 ``values``, rounded to nearest even."""
    bits = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    rounding = ((bits >> 16) & 1) + np.uint32(0x7FFF)
    rounded = ((bits.astype(np.uint64) + rounding) >> 16).astype(np.uint16)
    return np.where(np.isnan(values), np.uint16(0x7FC0), rounded).astype(np.uint16)


def bf16_bits_to_f32(bits: np.ndarray) -> np.ndarray:
    """The float32 values of bf16 bit patterns (exact)."""
    wide = np.ascontiguousarray(bits, dtype=np.uint16).astype(np.uint32) << 16
    return wide.view(np.float32)

"""Shared fixtures for the runner's tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest


def _saxpy_stdout(n: int, a: float) -> str:
    """What examples/verify/saxpy.cu prints, computed independently in float32 like the GPU."""
    import numpy as np  # here, so that the gpu tests also run where numpy is missing

    i = np.arange(n, dtype=np.float32)
    x = np.float32(0.001) * i
    y = np.float32(1.0) - np.float32(0.0005) * i
    y = np.float32(a) * x + y
    total = float(np.sum(y.astype(np.float64)))
    return (f"n = {n}, a = {a:g}\n" f"y[0] = {y[0]:.6f}, y[1] = {y[1]:.6f}, y[n-1] = {y[n - 1]:.6f}\n"
            f"checksum = {total:.6e}\n")  # fmt: skip


@pytest.fixture()
def saxpy_stdout() -> Callable[[int, float], str]:
    return _saxpy_stdout

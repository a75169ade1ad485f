"""Tensors out of `.safetensors` files with numpy alone (no torch): the header is JSON, the data
raw little-endian bytes. bfloat16 (how the CASS checkpoints are stored) widens to float32."""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from cass.runner.diagnostics import CassError

DTYPES = {"F32": np.float32, "F16": np.float16, "BF16": np.uint16, "F64": np.float64}


def _header(path: Path) -> tuple[dict, int]:
    with path.open("rb") as handle:
        raw = handle.read(8)
        if len(raw) < 8:
            raise CassError(f"{path}: not a safetensors file (too short)")
        (size,) = struct.unpack("<Q", raw)
        if size > 100 * 2**20:
            raise CassError(f"{path}: not a safetensors file (header of {size} bytes)")
        try:
            return json.loads(handle.read(size)), 8 + size
        except ValueError:
            raise CassError(f"{path}: not a safetensors file (unreadable header)") from None


def read_tensors(path: Path) -> Iterator[tuple[str, np.ndarray]]:
    """(name, float array) for every tensor of one file, read through a memory map."""
    header, start = _header(path)
    header.pop("__metadata__", None)
    data = np.memmap(path, dtype=np.uint8, mode="r")
    for name, entry in header.items():
        dtype = DTYPES.get(entry["dtype"])
        if dtype is None:
            raise CassError(
                f"{path}: tensor {name} has dtype {entry['dtype']}; only F32, F16 and BF16 checkpoints convert"
            )
        begin, end = (start + o for o in entry["data_offsets"])
        if end > len(data):
            raise CassError(f"{path}: truncated: tensor {name} ends past the end of the file")
        array = data[begin:end].view(dtype).reshape(entry["shape"])
        if entry["dtype"] == "BF16":
            array = (array.astype(np.uint32) << 16).view(np.float32)
        yield name, array


def checkpoint_files(folder: Path) -> list[Path]:
    files = sorted(folder.glob("*.safetensors"))
    if not files:
        raise CassError(
            f"{folder}: no *.safetensors weights; save the checkpoint with safetensors (PyTorch .bin is not read)"
        )
    return files

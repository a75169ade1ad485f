"""Run a few gfx1100 instructions on one wave with chosen register values: assembled and
re-disassembled by LLVM (llvm-mc-16), so the emulator sees exactly what the LLVM decoder prints.
Used by the instruction tests and handy for checking a lowering by hand."""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field

import numpy as np
from cass.runner.diagnostics import CassError
from cass.runner.emulator import memory as mem
from cass.runner.emulator.decode import Instruction, parse_text
from cass.runner.emulator.machine import Machine
from cass.runner.emulator.program import Program, compile_instruction
from cass.runner.emulator.state import EXEC
from cass.runner.toolchain import DEFAULT_GFX_ARCH

LLVM_MC = "llvm-mc-16"
_ENC = re.compile(r"^\s*(\S.*?)\s*;\s*encoding:\s*\[(.*)\]")


def assemble(lines: list[str]) -> list[tuple[str, tuple[int, ...]]]:
    """Assemble then disassemble with LLVM: [(canonical text, words)] per input line."""
    src = "\n".join(lines) + "\n"
    proc = subprocess.run(
        [LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={DEFAULT_GFX_ARCH}", "-show-encoding"],
        input=src,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if proc.returncode != 0:
        raise CassError(f"llvm-mc rejected the snippet:\n{proc.stderr.strip()}")
    encoded = []
    for line in proc.stdout.splitlines():
        m = _ENC.match(line)
        if m:
            data = bytes(int(b, 16) for b in m.group(2).split(","))
            words = tuple(int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data), 4))
            encoded.append(words)
    hexwords = " ".join(
        f"0x{b:02x}" for words in encoded for w in words for b in w.to_bytes(4, "little")
    )
    dis = subprocess.run(
        [LLVM_MC, "-triple=amdgcn-amd-amdhsa", f"-mcpu={DEFAULT_GFX_ARCH}", "--disassemble"],
        input=hexwords,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    texts = [
        ln.split("//")[0].strip()
        for ln in dis.stdout.splitlines()
        if ln.strip() and not ln.strip().startswith(".")
    ]
    return list(zip(texts, encoded))


class _Listing:
    def __init__(self, instructions: dict[int, Instruction]) -> None:
        self.instructions = instructions
        self.kernels = {"snippet": _Kernel()}
        # what the translator's cache is keyed by: the snippet's encoding
        self.elf = b"".join(w.to_bytes(4, "little") for i in instructions.values() for w in i.words)
        self.base = 0
        self.max_vgpr = 255
        self.handlers: dict[int, object] = {}
        self.flows: dict[int, bool] = {}
        self.co = self

    def function_name_at(self, pc: int) -> str:
        return "snippet"

    flow = Program.flow

    def at(self, pc: int):
        if pc not in self.handlers:
            self.handlers[pc] = compile_instruction(self.instructions[pc])
        return self.instructions[pc], self.handlers[pc]


class _NoServices:
    def poll(self, machine) -> None:
        pass


class _NoBudget:
    def check(self, machine, started) -> None:
        pass


@dataclass
class _Kernel:
    name: str = "snippet"
    entry: int = 0
    vgpr_count: int = 256


@dataclass
class Snippet:
    """One wave, its registers and optional memory buffers (numpy arrays it may address)."""

    lines: list[str]
    vgpr: dict[int, object] = field(default_factory=dict)  # reg -> scalar or 32 values
    sgpr: dict[int, int] = field(default_factory=dict)
    exec_mask: int = 0xFFFFFFFF
    buffers: list[np.ndarray] = field(default_factory=list)
    lds_bytes: int = 0
    engine: str = "interp"  # or "jit": translated code, the interpreter for the rest

    def run(self) -> Machine:
        m = self.machine()
        m.run()
        return m

    def machine(self) -> Machine:
        """The wave set up and ready to run (its translated code built under `jit`)."""
        program = {}
        pc = 0
        for text, words in assemble([*self.lines, "s_endpgm"]):
            program[pc] = parse_text(text, pc, words)
            pc += 4 * len(words)
        regions = [
            mem.Region(b.ctypes.data, b.nbytes, f"buffer {i}") for i, b in enumerate(self.buffers)
        ]
        m = Machine(
            _Listing(program),
            _Kernel(),
            mem.AllocationTable(regions),
            1,
            1,
            self.lds_bytes,
            1 << 16,
            _NoServices(),
            _NoBudget(),
        )
        st = m.st
        st.alive[0] = True
        for reg, value in self.vgpr.items():
            st.V[reg, 0] = np.asarray(value).astype(np.int64).astype(np.uint32)
        for reg, value in self.sgpr.items():
            st.S[reg, 0] = value & 0xFFFFFFFF
        st.S[EXEC, 0] = self.exec_mask
        st.sync_exec()
        if self.engine == "jit":
            from cass.runner.emulator.jit.engine import JitEngine

            m.jit = JitEngine(m.program, background=False)
            m.jit.launch_begins()  # the snippet's one kernel, built now
            if m.jit.error:
                raise CassError(m.jit.error)
        return m

"""Port a set of CUDA programs and check each port compiles for gfx1100 (host and device).

Shared by the test suite (a sample) and `benchmarks/bench_rules_port_tasks.py` (every program):
    outcomes = port_and_check(programs, workdir, compile_fn, workers=2)
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from cass.models.engine import Target
from cass.models.rules.engine import port_unit
from cass.runner import rocm_libs
from cass.runner.diagnostics import Severity

# Libraries Debian does not package: a port that includes them cannot be compiled here, unless
# `cass setup --rocm-libs` installed hipCUB and rocThrust (INSTALLABLE), used by every HIP build.
NOT_PACKAGED = {
    "hipcub/hipcub.hpp": "hipCUB",
    "thrust/": "rocThrust",
    "hipblas/": "hipBLAS",
    "hipfft/": "hipFFT",
    "hipsolver/": "hipSOLVER",
    "rccl/": "RCCL",
}
INSTALLABLE = frozenset({"hipCUB", "rocThrust"})


class Compiled(Protocol):
    """What a compile function returns: its exit status and its diagnostics."""

    @property
    def returncode(self) -> int: ...

    @property
    def stderr(self) -> str: ...


@dataclass
class Outcome:
    program: Path
    status: str  # compiles | compile-error | reported | needs-library
    detail: str = ""


def missing_library(text: str) -> str | None:
    """The first library `text` includes that this machine cannot compile against (None: none)."""
    have = INSTALLABLE if rocm_libs.installed() else frozenset()
    return next(
        (
            lib
            for header, lib in NOT_PACKAGED.items()
            if f"#include <{header}" in text and lib not in have
        ),
        None,
    )


def port_program(
    program: Path, root: Path, workdir: Path, target: Target
) -> tuple[Path, list[str]]:
    """Write the port of `program` under `workdir`; return its path and error diagnostics."""
    relative = program.relative_to(root)
    unit = port_unit(program.read_text(encoding="utf-8"), str(relative), target)
    out = workdir / (str(relative.with_suffix("")).replace("/", "__") + ".hip")
    out.write_text(unit.render(), encoding="utf-8", newline="")
    return out, [d.render() for d in unit.diagnostics if d.severity is Severity.ERROR]


def port_and_check(
    programs: Iterable[Path],
    root: Path,
    workdir: Path,
    compile_fn: Callable[[Path], Compiled],
    *,
    workers: int = 2,
    target: Target | None = None,
    progress: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Port every program; compile the ports that have no error diagnostics and no missing library."""
    target = target or Target()
    outcomes, to_compile = [], []
    for program in programs:
        out, errors = port_program(program, root, workdir, target)
        library = missing_library(out.read_text(encoding="utf-8"))
        if errors:
            outcomes.append(Outcome(program, "reported", "; ".join(errors)))
        elif library:
            detail = f"{library} is not packaged by Debian"
            if library in INSTALLABLE:
                detail += f"; install it with `{rocm_libs.FIX}`"
            outcomes.append(Outcome(program, "needs-library", detail))
        else:
            to_compile.append((program, out))

    def check(job: tuple[Path, Path]) -> Outcome:
        result = compile_fn(job[1])
        status = "compiles" if result.returncode == 0 else "compile-error"
        outcome = Outcome(job[0], status, "" if result.returncode == 0 else result.stderr[-1500:])
        if progress is not None:
            progress(outcome)
        return outcome

    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        outcomes += list(pool.map(check, to_compile))
    return sorted(outcomes, key=lambda o: str(o.program))

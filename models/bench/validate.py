"""`cass bench validate`: every task's files are well formed, and each main.cu compiles with nvcc.

report = validate_tasks(tasks, archs=("sm_90", "sm_80"), compile=True, jobs=2)
report.problems        # [Problem(path, line, message), ...]; empty when all is well
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from cass.models.bench.catalog import LIBRARIES
from cass.models.bench.tasks import Problem, Task, validate_task
from cass.runner.diagnostics import CassError
from cass.runner.tools import ToolError, run_tool

DEFAULT_ARCHS = ("sm_90", "sm_80")
COMPILE_TIMEOUT_S = 300


@dataclass
class ValidationReport:
    checked: int = 0
    compiled: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def nvcc_command(nvcc: Path, task: Task, archs: Iterable[str], output: Path) -> list[str]:
    """nvcc -O3 with one -gencode per arch, plus the link flags of the task's libraries."""
    gencode = [f"-gencode=arch=compute_{a[3:]},code={a}" for a in archs]
    libs = [flag for lib in task.libraries for flag in LIBRARIES.get(lib, ((), ""))[0]]
    return [str(nvcc), "-O3", *gencode, "-o", str(output), str(task.source), *libs]


def compile_problems(nvcc: Path, task: Task, archs: tuple[str, ...]) -> list[Problem]:
    """[] when main.cu compiles for every arch, else one located problem with nvcc's first error."""
    with tempfile.TemporaryDirectory(prefix="cass-bench-nvcc-") as work:
        cmd = nvcc_command(nvcc, task, archs, Path(work) / "task")
        try:
            run = run_tool(cmd, "nvcc", COMPILE_TIMEOUT_S, cwd=Path(work))
        except ToolError as exc:  # stuck: one problem for the task, the others go on
            return [Problem(task.source, 1, exc.message)]
    if run.ok:
        return []
    return [_first_error(task.source, run.stderr or run.stdout)]


def _first_error(source: Path, output: str) -> Problem:
    for line in output.splitlines():
        if "error" in line:
            head, _, rest = line.partition(": ")
            number = head.rsplit("(", 1)[-1].rstrip(")") if head.endswith(")") else "1"
            return Problem(source, int(number) if number.isdigit() else 1, f"nvcc: {rest or line}")
    return Problem(source, 1, f"nvcc failed: {output.strip()[:300]}")


def find_nvcc() -> Path:
    from cass.runner import toolchain

    tool = toolchain.find_tool("nvcc")
    if not tool.found:
        raise CassError(
            f"nvcc is not installed, so tasks cannot be compiled: {tool.fix} (or pass --no-compile)"
        )
    return tool.path  # type: ignore[union-attr]


def validate_tasks(
    tasks: list[Task], *, archs: tuple[str, ...] = DEFAULT_ARCHS, compile: bool = True, jobs: int = 2,
    on_task: Callable[[Task, list[Problem]], None] | None = None,
) -> ValidationReport:  # fmt: skip
    """Static checks of every task, then (when `compile`) nvcc for every arch, in `jobs` threads."""
    report = ValidationReport()
    nvcc = find_nvcc() if compile else None

    def check(task: Task) -> list[Problem]:
        problems = validate_task(task.directory)
        if nvcc is not None and not problems:
            problems = compile_problems(nvcc, task, archs)
        return problems

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for task, problems in zip(tasks, pool.map(check, tasks)):
            report.checked += 1
            report.compiled += int(nvcc is not None and not problems)
            report.problems += problems
            if on_task:
                on_task(task, problems)
    return report

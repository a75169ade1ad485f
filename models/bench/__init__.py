"""cass bench: an execution-verified benchmark of CUDA -> AMD translation across GPU domains.

Public API:
- `discover_tasks(domains=..., pattern=...) -> list[Task]`, `validate_task(dir) -> list[Problem]`,
  `coverage(tasks)`, `TASKS_ROOT` (cass.models.bench.tasks);
- `run_benchmark(tasks, RunConfig(...)) -> list[TaskResult]`, `evaluate(task, engine, config)`
  (cass.models.bench.harness);
- `summarize(results)`, `write_reports(results, out_dir, meta)`, `load_results(out_dir)`
  (cass.models.bench.report);
- `validate_tasks(tasks, archs=..., compile=...)` (cass.models.bench.validate);
- the assembly level's steps and `build_with_device_code(host.hip, device.s, work)`
  (cass.models.bench.assembly); task families: `generate(root, check=...)` (cass.models.bench.families).
"""

from cass.models.bench.harness import RunConfig, TaskResult, evaluate, run_benchmark
from cass.models.bench.tasks import (
    TASKS_ROOT,
    Problem,
    Task,
    coverage,
    discover_tasks,
    validate_task,
)

__all__ = [
    "TASKS_ROOT",
    "Problem",
    "RunConfig",
    "Task",
    "TaskResult",
    "coverage",
    "discover_tasks",
    "evaluate",
    "run_benchmark",
    "validate_task",
]

"""The per-program stages as Ray tasks: on a local Ray cluster (`ray="local"`, one CPU per
worker) or on a running cluster (`"auto"`, or its address). Ray schedules; cass only submits the
programs (at most 4 tasks per CPU in flight) and collects the records as they finish.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from cass.models.dataset.stages import Config, Unit, process_unit
from cass.runner.diagnostics import CassError


def connect(address: str, workers: int) -> None:
    import ray

    if ray.is_initialized():
        return
    try:
        if address == "local":
            ray.init(num_cpus=workers or os.cpu_count() or 1, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)  # fmt: skip
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise CassError(f"--ray {address}: cannot join the Ray cluster ({str(exc).splitlines()[0]}); "
                        "start the cluster first (Ray's own `ray start` command on its head node), or use --ray local") from None  # fmt: skip


def run_on_ray(units: list[Unit], config: Config, address: str, workers: int,
               progress: Callable[[dict[str, Any]], None]) -> list[dict[str, Any]]:  # fmt: skip
    import ray

    connect(address, workers)
    task = ray.remote(num_cpus=1, max_retries=2)(process_unit)
    config_ref = ray.put(config)
    window = max(1, int(ray.cluster_resources().get("CPU", 1)) * 4)
    results: dict[int, dict[str, Any]] = {}
    pending: dict[Any, int] = {}
    queue = iter(enumerate(units))
    while True:
        while len(pending) < window:
            nxt = next(queue, None)
            if nxt is None:
                break
            pending[task.remote(nxt[1], config_ref)] = nxt[0]
        if not pending:
            break
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            i = pending.pop(ref)
            results[i] = ray.get(ref)
            progress(results[i])
    return [results[i] for i in range(len(units))]

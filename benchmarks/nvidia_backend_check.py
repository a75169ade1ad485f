"""Exercise the runner's `nvidia` backend on a real NVIDIA GPU and print what it measured.

    python3 benchmarks/nvidia_backend_check.py [SOURCE.cu ...]     # default: examples/verify/saxpy.cu

Standard library only, runnable from a bare checkout (no cass install, no pytest): for each
program it builds with nvcc for the local GPU, runs it `--runs` times, checks that the output is
stable across runs and against a committed `*.recorded.toml` (when one exists), and prints one
row per program: GPU, arch, build time, median runtime, peak RSS, exit code, verdict.
Exit status: 0 all good, 1 a program failed or disagreed, 2 no NVIDIA GPU / nvcc.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if not __package__:  # make `cass.runner` importable from the checkout (no install needed)
    import atexit
    import shutil

    _ns = Path(tempfile.mkdtemp(prefix="cass-ns-")) / "cass"
    _ns.mkdir()
    (_ns / "runner").symlink_to(ROOT / "runner")
    atexit.register(shutil.rmtree, _ns.parent, True)
    sys.path.insert(0, str(_ns.parent))

from cass.runner.backends.nvidia import NvidiaBackend, machine_info  # noqa: E402
from cass.runner.compare import compare_results  # noqa: E402
from cass.runner.diagnostics import CassError  # noqa: E402
from cass.runner.recorded import load_recorded, record_path  # noqa: E402
from cass.runner.spec import load_run_spec  # noqa: E402


def check(source: Path, backend: NvidiaBackend, runs: int) -> tuple[bool, list[str]]:
    spec = load_run_spec(source).replace(runs=runs)
    with tempfile.TemporaryDirectory(prefix="cass-check-") as work:
        started = time.perf_counter()
        try:
            exe = backend.build(source, Path(work))
        except CassError as exc:
            return False, [str(source), "-", "-", "-", "-", "build failed", exc.message[:120]]
        build_s = time.perf_counter() - started
        first = backend.run(source, exe, spec)
        second = backend.run(source, exe, spec.replace(runs=1))
    verdicts = ["stable" if not compare_results(first, second, spec) else "UNSTABLE between runs"]
    if record_path(source).is_file():
        try:
            diffs = compare_results(load_recorded(source, spec), first, spec)
            verdicts.append(
                "matches record" if not diffs else f"DIFFERS from record: {diffs[0].render()}"
            )
        except CassError as exc:
            verdicts.append(exc.message[:120])
    ok = first.finished and all(v in ("stable", "matches record") for v in verdicts)
    runtime = f"{first.runtime_s * 1e3:.2f} ms" if first.runtime_s is not None else "-"
    rss = f"{first.peak_rss_kib / 1024:.1f} MiB" if first.peak_rss_kib else "-"
    return ok, [
        str(source),
        f"{build_s:.1f} s",
        runtime,
        rss,
        first.describe_end(),
        "; ".join(verdicts),
        first.stdout.strip().splitlines()[-1][:60] if first.stdout.strip() else "",
    ]


def main(argv: list[str]) -> int:
    runs = 5
    sources = [Path(a) for a in argv] or [ROOT / "examples" / "verify" / "saxpy.cu"]
    backend = NvidiaBackend()
    reason = backend.unavailable()
    if reason:
        print(f"cannot check the nvidia backend here: {reason}", file=sys.stderr)
        return 2
    info = machine_info()
    print(
        f"GPU: {info['gpu']} (compute capability {info['compute_capability']}), driver {info['driver']}, CUDA {info['cuda']}, host {info['host']}"
    )
    print("source | build | runtime (median of 5) | peak RSS | ended | verdict | last stdout line")
    all_ok = True
    for source in sources:
        ok, row = check(source, backend, runs)
        all_ok &= ok
        print(" | ".join(row), flush=True)
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

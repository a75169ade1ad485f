"""Backend `rocm`: a real ROCm install (hipcc) and a local AMD GPU (rocminfo or /dev/kfd)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from cass.runner import toolchain
from cass.runner.backends.base import BuildFailed, repeat_runs, run_measured
from cass.runner.compiler_output import error_summary, parse_compiler_output
from cass.runner.process import run_compiler
from cass.runner.results import RunResult
from cass.runner.spec import RunSpec

BUILD_TIMEOUT_S = 600


def amd_gpus() -> list[toolchain.Gpu]:
    return [g for g in toolchain.detect_gpus() if g.vendor == "amd"]


class RocmBackend:
    name = "rocm"
    side = "hip"

    def unavailable(self) -> str | None:
        hipcc = toolchain.find_tool("hipcc")
        if not Path("/opt/rocm").is_dir() or isinstance(hipcc, toolchain.MissingTool):
            return "no ROCm install (/opt/rocm with hipcc) on this machine"
        if not amd_gpus():
            return "no AMD GPU on this machine (rocminfo and /dev/kfd show none)"
        return None

    def preflight(self, source: Path, spec: RunSpec) -> None:
        """Nothing to check before building: any source can be compiled and run."""

    def build(self, source: Path, work_dir: Path) -> Path:
        arch = amd_gpus()[0].arch
        exe = work_dir / f"{source.stem}.{arch}.out"
        cmd = [
            str(toolchain.require_tool("hipcc")),
            f"--offload-arch={arch}",
            "-O3",
            "-o",
            str(exe),
            str(source.resolve()),
        ]
        env = {**os.environ, "HIP_PLATFORM": "amd"}
        out = run_compiler(cmd, cwd=work_dir, timeout_s=BUILD_TIMEOUT_S, env=env)
        if out.exit_code != 0:
            text = out.stderr.decode(errors="replace") + out.stdout.decode(errors="replace")
            diags = parse_compiler_output(text, "hipcc", str(source))
            raise BuildFailed(f"{source}: hipcc failed: {error_summary(diags, text)}", tuple(diags))
        return exe

    def run(self, source: Path, artifact: Path, spec: RunSpec) -> RunResult:
        cmd = [str(artifact), *spec.args]
        result = repeat_runs(lambda: run_measured(cmd, spec, self.name), spec)
        gpu = amd_gpus()[0]
        return replace(result, info={"gpu": gpu.name, "arch": gpu.arch, **result.info})

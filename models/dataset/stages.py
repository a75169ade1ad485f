"""One program through the per-program stages: port -> compile both stacks -> align kernels ->
verify by execution. Each stage is cached (cache.py) by the content it depends on.

`process_unit(unit, config)` is the unit of parallel work (a local process or a Ray task); it
returns the program's record as plain data, with a status per stage, never raising for a
program's own failures (a stage that fails is recorded with its first located error).
"""

from __future__ import annotations

import functools
import os
import re
import socket
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from cass.models.dataset.cache import StageCache, text_sha256
from cass.runner.diagnostics import CassError

TOKEN = re.compile(r"\w+|[^\w\s]")
CHECK_LINE = re.compile(r"^CHECK (PASS|FAIL)\s*$", re.M)


@dataclass(frozen=True)
class Unit:
    """One program (or one compile-only CUDA file) to turn into records."""

    ident: str
    origin: str  # "synthetic" or the source folder / repository it came from
    domain: str
    path: str  # relative path in its source ("main.cu" for synthetic programs)
    cuda: str
    runnable: bool  # defines main(): can be run and verified
    cuda_file: str = ""  # the file on disk (project files), else written to a work folder
    hip_file: str = ""  # its port in the ported tree (project files), else ported here
    include_dirs: tuple[str, ...] = ()  # CUDA side
    hip_include_dirs: tuple[str, ...] = ()
    tree_digest: str = ""  # hash of every file the program may include
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Config:
    cache_dir: str
    archs: tuple[str, ...] = ("sm_80",)
    engine: str = "rules"
    verify: bool = True
    references: dict[str, dict[str, Any]] = field(
        default_factory=dict
    )  # cuda sha256 -> NVIDIA record
    run_timeout_s: float = 300.0
    run_unreferenced: bool = False  # run real programs with no NVIDIA reference (self-check only)


def count_tokens(text: str) -> int:
    """Code tokens: identifiers/numbers and single punctuation marks (not a model's BPE count)."""
    return len(TOKEN.findall(text))


def process_unit(unit: Unit, config: Config) -> dict[str, Any]:
    """The record of one program: every stage's outcome and the texts it produced."""
    cache = StageCache(Path(config.cache_dir))
    started = time.perf_counter()
    record: dict[str, Any] = {"id": unit.ident, "origin": unit.origin, "domain": unit.domain, "path": unit.path,
                              "cuda_sha256": text_sha256(unit.cuda), "cuda": unit.cuda, "runnable": unit.runnable, **unit.meta}  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="cass-dataset-") as name:
        work = Path(name)
        cu = Path(unit.cuda_file) if unit.cuda_file else _write(work / "main.cu", unit.cuda)
        port = _port(cache, unit, config, cu)
        record["port"] = port
        hip = _hip_path(unit, work, port)
        record["cuda_compile"] = {a: _compile_cuda(cache, unit, cu, a) for a in config.archs}
        record["hip_compile"] = (
            _compile_hip(cache, unit, hip, port)
            if port["status"] != "error"
            else _skipped("the port failed")
        )
        record["kernels"] = align(record["cuda_compile"], record["hip_compile"])
        record["verification"] = _verify(cache, unit, config, cu, hip, record)
    record["seconds"] = round(time.perf_counter() - started, 3)
    record["worker"] = f"{socket.gethostname()}:{os.getpid()}"
    record["cache_hits"] = cache.hits
    return record


def _hip_path(unit: Unit, work: Path, port: dict[str, Any]) -> Path:
    """The port as a `.hip` file (the suffix picks the AMD stack): a project file's port gets a
    `.hip` sibling in the ported tree (cass's own cache), so its relative includes still resolve."""
    if not unit.hip_file:
        return _write(work / "main.hip", port.get("hip", ""))
    ported = Path(unit.hip_file)
    if ported.suffix == ".hip":
        return ported
    sibling = ported.with_name(ported.name + ".cass.hip")
    if not sibling.is_file() or sibling.read_text(encoding="utf-8", errors="replace") != port.get(
        "hip", ""
    ):
        from cass.runner.outputs import write_atomic

        write_atomic(sibling, port.get("hip", ""))
    return sibling


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def _skipped(reason: str) -> dict[str, Any]:
    return {"status": "skipped", "error": reason}


def _first_error(exc: CassError) -> str:
    lines = [exc.message, *(d.render() for d in exc.diagnostics[:3])]
    return "\n".join(lines)[:800]


# ---------------------------------------------------------------- port


def _port(cache: StageCache, unit: Unit, config: Config, cu: Path) -> dict[str, Any]:
    if unit.hip_file:  # ported with its project by the rules engine (once for the whole tree)
        hip = Path(unit.hip_file).read_text(encoding="utf-8", errors="replace")
        errors = unit.meta.get("port_errors", [])
        return {"status": "error" if errors else "ok", "hip": hip, "hip_sha256": text_sha256(hip), "errors": len(errors),
                "error": errors[0] if errors else "", "engine": "rules"}  # fmt: skip

    def run() -> dict[str, Any]:
        from cass.models.workflow.porting import translate_source

        try:
            translation = translate_source(cu, config.engine)
        except CassError as exc:
            return {"status": "error", "error": _first_error(exc), "engine": config.engine}
        errors = [d for d in translation.diagnostics if d.severity.value == "error"]
        status = "error" if errors else "ok"
        return {"status": status, "hip": translation.text, "hip_sha256": text_sha256(translation.text),
                "errors": len(errors), "error": errors[0].render() if errors else "", "engine": config.engine}  # fmt: skip

    return cache.get_or_run("port", [unit.cuda, config.engine, unit.path], run)


# ---------------------------------------------------------------- compile both stacks


def _kernels(result) -> list[dict[str, Any]]:
    return [{"name": k.name, "demangled": k.demangled, "asm": k.asm, "registers": k.registers,
             "shared_bytes": k.shared_bytes, "spills": k.spills} for k in result.kernels]  # fmt: skip


def _flags(dirs: tuple[str, ...]) -> list[str]:
    return [f"-I{d}" for d in dirs]


def _compile_cuda(cache: StageCache, unit: Unit, cu: Path, arch: str) -> dict[str, Any]:
    def run() -> dict[str, Any]:
        from cass.runner.compile import compile_file

        with tempfile.TemporaryDirectory(prefix="cass-dataset-nv-") as out:
            try:
                result = compile_file(cu, ["sass", "host-asm"], arch=arch, out_dir=out, kernels=True,
                                      extra_flags=_flags(unit.include_dirs))  # fmt: skip
            except CassError as exc:
                return {"status": "error", "error": _first_error(exc)}
        return {"status": "ok", "sass": result.texts.get("sass", ""), "host_asm": result.texts.get("host-asm", ""),
                "kernels": _kernels(result)}  # fmt: skip

    return cache.get_or_run(
        "compile-cuda", [unit.cuda, arch, unit.tree_digest, *unit.include_dirs], run
    )


def _compile_hip(cache: StageCache, unit: Unit, hip: Path, port: dict[str, Any]) -> dict[str, Any]:
    def run() -> dict[str, Any]:
        from cass.runner.compile import compile_file

        with tempfile.TemporaryDirectory(prefix="cass-dataset-amd-") as out:
            try:
                result = compile_file(hip, ["rdna3", "host-asm"], out_dir=out, kernels=True,
                                      extra_flags=_flags(unit.hip_include_dirs))  # fmt: skip
            except CassError as exc:
                return {"status": "error", "error": _first_error(exc)}
        return {"status": "ok", "rdna3": result.texts.get("rdna3", ""), "host_asm": result.texts.get("host-asm", ""),
                "kernels": _kernels(result)}  # fmt: skip

    return cache.get_or_run(
        "compile-hip", [port.get("hip", ""), unit.tree_digest, *unit.hip_include_dirs], run
    )


def align(cuda: dict[str, dict[str, Any]], hip: dict[str, Any]) -> list[dict[str, Any]]:
    """Kernel pairs by mangled name (a CUDA kernel and its HIP port mangle alike): one entry per
    (kernel, SASS arch) found on both sides."""
    amd = {k["name"]: k for k in hip.get("kernels", [])} if hip.get("status") == "ok" else {}
    pairs = []
    for arch, result in cuda.items():
        if result.get("status") != "ok":
            continue
        for k in result["kernels"]:
            other = amd.get(k["name"])
            if other is None or not k["asm"].strip() or not other["asm"].strip():
                continue
            pairs.append({"name": k["name"], "demangled": k["demangled"], "arch": arch, "sass": k["asm"],
                          "rdna3": other["asm"], "nv_registers": k["registers"], "amd_vgprs": other["registers"],
                          "nv_shared_bytes": k["shared_bytes"], "amd_lds_bytes": other["shared_bytes"]})  # fmt: skip
    return pairs


# ---------------------------------------------------------------- verify by execution


def _verify(
    cache: StageCache, unit: Unit, config: Config, cu: Path, hip: Path, record: dict[str, Any]
) -> dict[str, Any]:
    """Run the port on the emulator; judge it against the NVIDIA reference when one was recorded
    for this exact source, else only by the program's own check (CHECK PASS and exit 0)."""
    if not unit.runnable:
        return {"status": "not-run", "detail": "no main(): compiled only"}
    if not config.verify:
        return {"status": "not-run", "detail": "verification turned off (--no-verify)"}
    if record["port"]["status"] != "ok" or record["hip_compile"].get("status") != "ok":
        return {"status": "not-run", "detail": "the port does not compile"}
    reference = config.references.get(record["cuda_sha256"])
    if unit.origin != "synthetic" and reference is None and not config.run_unreferenced:
        return {
            "status": "not-run",
            "detail": "no NVIDIA reference recorded for this source (--references)",
        }
    from cass.runner.spec import load_run_spec

    try:
        spec = load_run_spec(cu).replace(timeout_s=config.run_timeout_s)
    except CassError as exc:
        return {"status": "not-run", "detail": exc.message}
    run = cache.get_or_run("emulator-run", [hip.read_text(encoding="utf-8", errors="replace"), unit.tree_digest,
                                            spec.run_key(), emulator_digest(), *unit.hip_include_dirs],
                           lambda: _emulate(unit, hip, spec))  # fmt: skip
    return judge_run(run, reference, spec)


@functools.lru_cache(maxsize=1)
def emulator_digest() -> str:
    """What an emulated run's result depends on besides the program: the emulator (Python and
    native code, its build flags), cass's emulated libraries and the HIP compiler's version. A
    fixed emulator bug then re-runs the programs it may have judged, instead of reusing their runs."""
    import cass.runner
    from cass.runner.fingerprint import code_digest
    from cass.runner.toolchain import find_tool

    runner_dir = Path(cass.runner.__file__).parent
    code = code_digest([runner_dir / "emulator", runner_dir / "emulated_libraries"])
    return f"{code} clang++-16 {getattr(find_tool('clang++-16'), 'version', 'missing')}"


def _emulate(unit: Unit, hip: Path, spec) -> dict[str, Any]:
    from cass.runner.backends import get_backend
    from cass.runner.emulator.build import build_hip_program

    with tempfile.TemporaryDirectory(prefix="cass-dataset-emu-") as out:
        try:
            exe = build_hip_program(
                hip, Path(out) / "main.emu", extra_args=tuple(_flags(unit.hip_include_dirs))
            )
        except CassError as exc:
            return {"built": False, "error": exc.message[:800]}
        result = get_backend("emulator").run(hip, exe, spec)
    return {"built": True, "exit_code": result.exit_code, "stdout": result.stdout[-20000:], "stderr": result.stderr[-4000:],
            "timed_out": result.timed_out, "output_truncated": result.output_truncated, "finished": result.finished}  # fmt: skip


def _result(run: dict[str, Any], backend: str, info: dict[str, str] | None = None):
    from cass.runner.results import RunResult

    return RunResult(backend=backend, exit_code=run.get("exit_code"), stdout=run.get("stdout", ""),
                     stderr=run.get("stderr", ""), timed_out=bool(run.get("timed_out")),
                     output_truncated=bool(run.get("output_truncated")), info=info or {})  # fmt: skip


def judge_run(run: dict[str, Any], reference: dict[str, Any] | None, spec) -> dict[str, Any]:
    """verified | mismatch | port-failed | reference-failed (against an NVIDIA record), or
    self-checked | self-check-failed (no record for this source)."""
    if not run.get("built"):
        return {
            "status": "port-failed",
            "detail": run.get("error", "the emulator build failed"),
            "stdout": "",
        }
    stdout = run.get("stdout", "")
    if reference is None:
        checks = CHECK_LINE.findall(stdout)
        passed = (
            run.get("finished")
            and run.get("exit_code") == 0
            and (not checks or checks[-1] == "PASS")
        )
        detail = f"no NVIDIA record; the port ran on the emulator: exit {run.get('exit_code')}" + (
            f", CHECK {checks[-1]}" if checks else ", no CHECK line"
        )
        return {
            "status": "self-checked" if passed else "self-check-failed",
            "detail": detail,
            "stdout": stdout,
        }
    from cass.runner.verify import judge

    info = {
        k: str(reference.get(k, ""))
        for k in ("gpu", "compute_capability", "driver", "cuda", "date")
    }
    if reference.get("exit_code") is None and not reference.get("built", True):
        return {
            "status": "reference-failed",
            "detail": reference.get("stderr", "")[:300],
            "stdout": stdout,
        }
    verdict = judge(
        _result(reference, "recorded", info),
        _result(run, "emulator"),
        spec,
        ("recorded", "emulator"),
    )
    status = {
        "match": "verified",
        "mismatch": "mismatch",
        "error": "port-failed",
        "unverifiable": "reference-failed",
    }[verdict.status]
    return {"status": status, "detail": verdict.message[:800], "stdout": stdout, "reference_stdout": reference.get("stdout", ""),
            "reference_gpu": info["gpu"], "reference_date": info["date"]}  # fmt: skip


def unit_dict(unit: Unit) -> dict[str, Any]:
    return asdict(unit)

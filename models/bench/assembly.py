"""The assembly level: the SASS of each task's kernels is the engine's input; the rules engine's
HIP host code is kept, and the translated device code object replaces the compiled one.

    SASS (nvcc -cubin -arch=sm_90 or sm_80, cuobjdump -sass)  --engine-->  RDNA3 assembly (.s)
    llvm-mc + ld.lld -> code object -> clang-offload-bundler -> .hipfb
    rules port of main.cu, compiled host-only with `-fcuda-include-gpubinary <.hipfb>`,
    linked against the cass HIP runtime -> run on the emulator -> compared with the reference.

The engine must name its kernels as the SASS does (the mangled CUDA names), since the host code
registers and launches kernels by those names. The SASS arch is `RunConfig.sass_arch`
(`cass bench run --level assembly --sass-arch sm_80|sm_90|all`); results are keyed by it.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from cass.models.bench.attempt import Attempt, step_libraries, step_reference, verdict_status
from cass.runner.diagnostics import CassError
from cass.runner.toolchain import DEFAULT_GFX_ARCH
from cass.runner.tools import run_tool

OFFLOAD_ARCH = DEFAULT_GFX_ARCH
BUNDLE_TARGETS = f"-targets=host-x86_64-unknown-linux-gnu,hipv4-amdgcn-amd-amdhsa--{OFFLOAD_ARCH}"
TOOL_TIMEOUT_S = 120


def step_backend(a: Attempt) -> None:
    if a.config.backend != "emulator":
        a.finish(
            "unverifiable",
            f"the assembly level runs ports on the emulator backend only, not {a.config.backend}",
        )


def step_sass(a: Attempt) -> None:
    """The task's SASS: the input an assembly-level engine translates."""
    from cass.runner.compile import compile_file

    with tempfile.TemporaryDirectory(prefix="cass-bench-sass-") as work:
        try:
            result = compile_file(a.task.source, ["sass"], arch=a.config.sass_arch, out_dir=work)
        except CassError as exc:
            a.finish(
                "unverifiable",
                f"the original does not compile to {a.config.sass_arch} SASS: {exc.message}",
            )
            return
    a.artifacts["sass"] = result.texts.get("sass", "")
    if "Function :" not in a.artifacts["sass"]:
        # a program whose every GPU computation is a library call (cuSOLVER's dense solvers): its
        # cubin holds no kernel, so nothing of it can be lifted or verified at this level
        a.finish("unverifiable", f"the original has no kernel of its own in its {a.config.sass_arch} "
                                 "SASS: nothing to lift (its GPU work is library calls)")  # fmt: skip


def step_translate_sass(a: Attempt) -> None:
    import time

    from cass.models.engine import Target, TranslationRequest
    from cass.models.registry import get_engine

    start = time.perf_counter()
    request = TranslationRequest("assembly", a.artifacts["sass"], str(a.task.source),
                                 Target(gfx_arch=OFFLOAD_ARCH, sass_arch=a.config.sass_arch))  # fmt: skip
    try:
        translation = get_engine(a.engine, a.config.model).translate(request)
    except CassError as exc:
        a.translate_s = time.perf_counter() - start
        a.finish("translate-error", exc.message)
        return
    a.translate_s = time.perf_counter() - start
    a.diagnostics = len(translation.diagnostics)
    errors = [d for d in translation.diagnostics if d.severity.value == "error"]
    if errors:
        a.finish("translate-error", f"{len(errors)} error(s), first: {errors[0].render()}")
        return
    a.port_text = translation.text
    a.facts["translated"] = True


def step_host_port(a: Attempt) -> None:
    """The HIP host code around the kernels: the rules engine's port of the whole program, for the
    HIP version the task is ported for (its `[port]` table: rocWMMA needs 5.5)."""
    from cass.models.engine import Target
    from cass.models.workflow.porting import translate_source

    try:
        host = translate_source(a.task.source, "rules", Target(hip_version=a.task.hip_version))
    except CassError as exc:
        a.finish("compile-error", f"the rules engine could not port the host code: {exc.message}")
        return
    a.artifacts["host"] = host.text


def bundle_code_object(code_object: Path, output: Path) -> Path:
    """Wrap a gfx1100 code object in the offload bundle clang embeds into a HIP host object."""
    cmd = ["clang-offload-bundler-16", "-type=o", "-bundle-align=4096", BUNDLE_TARGETS,
           "-input=/dev/null", f"-input={code_object}", f"-output={output}"]  # fmt: skip
    run_tool(
        cmd, f"bundling {code_object.name} (clang-offload-bundler-16)", TOOL_TIMEOUT_S, check=True
    )
    return output


def build_with_device_code(
    host_source: Path, assembly: Path, work: Path, *, library_kernels: bool = False
) -> Path:
    """Assemble the translated device code and link it under the host port; the emulator executable."""
    return build_program(host_source, assembly, work, library_kernels=library_kernels)[0]


def build_program(host_source: Path, assembly: Path, work: Path, *, library_kernels: bool = False):
    """Assemble the translated device code and link it under the host port; the emulator executable
    and, where `library_kernels` (a Thrust/CUB program), the split of its kernels between the lift
    and the HIP library (cass.models.bench.mixed), else None."""
    from cass.models.bench.mixed import link_with_library_kernels
    from cass.runner.compile import compile_file
    from cass.runner.emulator.build import build_hip_program

    code_object = compile_file(assembly, ["code-object"], out_dir=work / "device").artifacts[
        "code-object"
    ]
    split = None
    if library_kernels:
        code_object, split = link_with_library_kernels(
            host_source, assembly, work / "mixed", OFFLOAD_ARCH
        )
    bundle = bundle_code_object(code_object, work / "device.hipfb")
    embed = ("--cuda-host-only", "-Xclang", "-fcuda-include-gpubinary", "-Xclang", str(bundle))
    exe = build_hip_program(
        host_source, work / f"main.{OFFLOAD_ARCH}.emu", offload_arch=OFFLOAD_ARCH, extra_args=embed
    )
    return exe, split


def step_build_and_run(a: Attempt) -> None:
    import time

    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="cass-bench-asm-") as name:
        work = Path(name)
        host, assembly = work / "main.hip", work / "device.s"
        host.write_text(a.artifacts["host"], encoding="utf-8")
        assembly.write_text(a.port_text, encoding="utf-8")
        try:
            exe, split = build_program(host, assembly, work, library_kernels=bool(a.task.libraries))
        except CassError as exc:
            a.facts["verify_s"] = round(time.perf_counter() - start, 3)
            a.finish("compile-error", (exc.message or "build failed").splitlines()[0][:500])
            return
        a.facts["compiled"] = True
        if split is not None:
            a.facts["notes"] = split.notes()
        verdict = None if a.reference_problem else _run_and_judge(a, host, exe)
    a.facts["verify_s"] = round(time.perf_counter() - start, 3)
    if verdict is None:
        a.finish("no-reference", a.reference_problem or "")
        return
    status, stages = verdict_status(verdict.status, verdict.candidate is not None)
    message = verdict.message
    if split is not None:
        message += f" [{split.summary()}]"
        if status == "pass" and not split.lifted:
            # Only lifted kernels make an assembly-level pass: here every kernel that ran was
            # compiled by clang from the HIP library, none was translated from the SASS.
            status = "unverifiable"
            message = f"no lifted kernel runs: {message}"
    a.finish(
        status,
        message,
        runtime_ratio=verdict.runtime_ratio,
        memory_ratio=verdict.memory_ratio,
        **stages,
    )


def _run_and_judge(a: Attempt, host: Path, exe: Path):  # -> cass.runner.verify.Verdict
    from cass.runner.backends import get_backend
    from cass.runner.recorded import load_recorded
    from cass.runner.verify import judge

    spec = a.config.spec_for(a.task)
    reference = load_recorded(a.task.source, spec)
    candidate = get_backend("emulator").run(host, exe, spec)
    return judge(
        reference,
        candidate,
        spec,
        ("recorded", "emulator"),
        original=str(a.task.source),
        port=str(host),
    )


ASSEMBLY_STEPS = (
    step_backend, step_libraries, step_reference, step_sass, step_translate_sass, step_host_port, step_build_and_run,
)  # fmt: skip

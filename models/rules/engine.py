"""The rules engine: CUDA source -> HIP source as a pipeline of named passes over one lexed file.

Structural passes run first and take the tokens they rewrite; the table-driven renames run last
and skip anything already taken. Nothing is rewritten inside comments or string literals.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from cass.models.engine import Target, Translation, TranslationRequest
from cass.models.rules.passes import (
    async_copy,
    checks,
    cudnn_calls,
    groups,
    intrinsics,
    library_calls,
    limits,
    names,
    order,
    preprocessor,
    ptx,
    runtime_sources,
    shifts,
    signatures,
    textures,
    warp,
    wavesize,
    wmma,
)
from cass.models.rules.prelude import add_prelude
from cass.models.rules.tables import parse_version
from cass.models.rules.unit import Unit
from cass.runner.diagnostics import CassError

VERSION = "0.1.0"

Pass = Callable[[Unit], None]

PIPELINE: tuple[Pass, ...] = (
    checks.report_lex_problems,
    runtime_sources.port_runtime_sources,
    checks.join_spaced_launch_brackets,
    checks.check_launch_brackets,
    checks.check_device_side_synchronize,
    checks.check_device_prop_members,
    wmma.port_wmma,
    async_copy.port_async_copies,
    checks.report_unportable,
    checks.check_constant_warp_size,
    checks.map_thrust_execution_policy,
    ptx.translate_inline_ptx,
    preprocessor.rewrite_cuda_macros,
    preprocessor.rewrite_header_guards,
    signatures.rewrite_graph_instantiate,
    signatures.rewrite_malloc_host,
    signatures.wrap_arguments,
    signatures.rewrite_launch_bounds,
    signatures.rewrite_pointer_attributes,
    limits.rewrite_device_limits,
    limits.rewrite_managed_memory_type,
    limits.report_dynamic_shared_memory_limit,
    order.report_argument_order,
    shifts.report_full_width_shifts,
    signatures.report_capability_checks,
    signatures.report_binary_module_loads,
    warp.rewrite_warp_intrinsics,
    groups.rewrite_cooperative_groups,
    intrinsics.rewrite_missing_intrinsics,
    intrinsics.add_signed_64bit_atomics,
    textures.rewrite_channel_descs,
    textures.rewrite_texture_reference_descs,
    textures.rewrite_gather_components,
    textures.rewrite_surface_calls,
    wavesize.rewrite_warp_size_assumptions,
    names.report_token_pasting,
    library_calls.rewrite_library_enum_arguments,
    cudnn_calls.rewrite_cudnn_calls,
    cudnn_calls.rewrite_perf_members,
    names.map_headers,
    names.rename_identifiers,
    library_calls.report_unknown_library_names,
    add_prelude,
)


def check_target(target: Target) -> None:
    """CassError for a HIP version or gfx arch cass cannot translate for."""
    try:
        version = parse_version(target.hip_version)
    except ValueError as exc:
        raise CassError(f"{exc}; pass e.g. --hip-version 5.2") from None
    if version < (5, 2):
        raise CassError(f"HIP {target.hip_version} is older than the oldest HIP cass targets (5.2)")
    arch = target.gfx_arch
    if not (
        arch.startswith("gfx") and len(arch) >= 6 and all(c in "0123456789abcdef" for c in arch[3:])
    ):
        raise CassError(
            f"'{arch}' is not an AMD GPU arch name (expected e.g. gfx1100, gfx90a, gfx942)"
        )


@contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector for the duration of a port.

    A port allocates one object per token (50,000 for 5,000 lines) and keeps them all alive, so
    the collector, triggered by the allocation count, traverses them again and again (a full
    collection included): about a third of the time on a 5,000-line file. Tokens, edits and
    diagnostics never form reference cycles, so nothing is left for the collector to free;
    reference counting frees them all when the port ends."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _embedded_steps() -> tuple[Pass, ...]:
    """The pipeline for CUDA embedded in a file (an NVRTC program's text), read when it runs: no
    nested embedded sources, no prelude."""
    return tuple(
        s for s in PIPELINE if s not in (runtime_sources.port_runtime_sources, add_prelude)
    )


def port_unit(text: str, path: str, target: Target, steps: tuple[Pass, ...] | None = None) -> Unit:
    """Run the whole pipeline (or `steps` of it) over one file; the result is in `unit.render()` /
    `unit.diagnostics`."""
    with cycle_collector_paused():
        unit = Unit(
            path=path,
            text=text,
            target=target,
            port_embedded=lambda inner: port_unit(inner, path, target, _embedded_steps()),
        )
        for step in PIPELINE if steps is None else steps:
            step(unit)
        unit.diagnostics.sort(key=lambda d: (d.line, d.column, d.code))
    return unit


class RulesEngine:
    """The embedded default engine: deterministic, table-driven, no model."""

    name = "rules"
    version = VERSION

    def translate(self, request: TranslationRequest) -> Translation:
        if request.level != "source":
            raise CassError(
                "the rules engine translates CUDA source; use the 'lift' engine for SASS"
            )
        check_target(request.target)
        started = time.perf_counter()
        with cycle_collector_paused():  # and the tokens freed before it runs again
            unit = port_unit(request.text, request.path, request.target)
            text, diagnostics = unit.render(), tuple(unit.diagnostics)
            del unit
        return Translation(
            text=text,
            diagnostics=diagnostics,
            engine=self.name,
            elapsed_s=time.perf_counter() - started,
        )

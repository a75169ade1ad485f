"""A decoded code object: instructions by PC (from llvm-objdump) and their compiled handlers,
built once per code object. Anything the emulator cannot execute becomes a handler that raises
an `unsupported` fault when (and only when) a wave reaches it."""

from __future__ import annotations

from cass.runner.emulator.codeobject import CodeObject
from cass.runner.emulator.decode import Instruction, disassemble_text, parse_listing
from cass.runner.emulator.ops_control import compile_control
from cass.runner.emulator.ops_image import compile_image
from cass.runner.emulator.ops_memory import compile_ds, compile_smem, compile_vmem
from cass.runner.emulator.ops_scalar import compile_scalar
from cass.runner.emulator.ops_vector import compile_vector
from cass.runner.emulator.state import Fault

FLOW_OPS = {
    "s_branch",
    "ds_gws_barrier",
    "s_endpgm",
    "s_barrier",
    "s_setpc_b64",
    "s_swappc_b64",
    "s_call_b64",
    "s_sleep",
    "s_trap",
    "<none>",
    "<unparsed>",
}


def _unsupported(ins: Instruction, why: str):
    def run(m, g):
        raise Fault("unsupported", why)

    return run


def compile_instruction(ins: Instruction):
    if ins.mnemonic == "<unparsed>":
        return _unsupported(ins, f"cannot parse operands: {ins.modifiers.get('error')}")
    op = ins.op
    if ins.mnemonic.endswith(("_dpp", "_sdwa")) or "dpp8" in ins.modifiers:
        from cass.runner.emulator.dpp import compile_dpp

        return compile_dpp(ins) or _unsupported(
            ins,
            f"{ins.mnemonic} with "
            f"{ins.text.split(' ', 1)[-1]}: this DPP "
            "form is not supported by the emulator",
        )
    try:
        if op.startswith(("global_", "flat_", "scratch_")):
            handler = compile_vmem(ins)
        elif op.startswith("ds_"):
            handler = compile_ds(ins)
        elif op.startswith(("image_", "buffer_load_format_")):
            handler = compile_image(ins)
        elif op.startswith(("s_load", "s_buffer_load", "s_dcache", "s_gl1_inv")):
            handler = compile_smem(ins)
        elif op.startswith("v_"):
            handler = compile_vector(ins)
        else:
            handler = compile_control(ins) or compile_scalar(ins)
    except (ValueError, IndexError, KeyError, AttributeError) as exc:
        return _unsupported(ins, f"cannot decode operands ({exc})")
    if handler is None:
        return _unsupported(ins, f"instruction {op} is not supported by the emulator")
    return handler


class Program:
    def __init__(self, co: CodeObject, cache_dir=None) -> None:
        self.co = co
        self.base = co.base
        self.instructions = parse_listing(disassemble_text(co.elf, cache_dir))
        self.handlers: dict[int, object] = {}
        self.flows: dict[int, bool] = {}
        self.max_vgpr = 0
        self.uses_grid_sync = any(i.op.startswith("ds_gws") for i in self.instructions.values())
        for ins in self.instructions.values():
            for part in (ins, ins.second) if ins.second else (ins,):
                for o in part.operands:
                    if o.kind == "v":
                        self.max_vgpr = max(self.max_vgpr, o.index + o.count - 1)
                    elif o.kind == "vlist":
                        self.max_vgpr = max(self.max_vgpr, *o.regs)

    def flow(self, pc: int) -> bool:
        """Whether the instruction at `pc` may change PC, liveness or barrier state."""
        known = self.flows.get(pc)
        if known is None:
            ins = self.instructions.get(pc)
            op = ins.op if ins else "<none>"
            known = self.flows[pc] = op in FLOW_OPS or op.startswith("s_cbranch")
        return known

    def at(self, pc: int):
        handler = self.handlers.get(pc)
        if handler is None:
            ins = self.instructions.get(pc)
            if ins is None:
                missing = Instruction(pc, 4, (), "<no instruction>", "<none>")
                return missing, _unsupported(
                    missing,
                    f"jump to 0x{pc:x}, which is not the start "
                    "of an instruction in the code object",
                )
            handler = self.handlers[pc] = compile_instruction(ins)
        return self.instructions[pc], handler

"""Quick fixes: every rule with a safe rewrite attaches one fix, and applying it keeps the CUDA
source valid CUDA (real nvcc compiles it) while the finding goes away; in the editor the fixes
arrive as quick fixes and as one "fix all" source action, through a real LSP client.

A safe rewrite is one that means the same on NVIDIA (`warpSize` is 32 there, an `unsigned long
long` holds a 32-bit ballot, nvcc reads `<<<` as it reads `<< <`). The other rewrites the rules
engine makes are HIP-only: they belong in the mirror, not in the CUDA source.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from cass.models.engine import Target, TranslationRequest
from cass.models.registry import get_engine
from cass.runner.diagnostics import Fix
from lsp_testing import apply_text_edits, diagnostics_of, open_file
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

# code -> (target, CUDA program with that finding)
FIXABLE = {
    "CASS081": (
        "gfx1100",
        """__global__ void fill(int *p) { p[threadIdx.x] = 1; }
int main() {
  int *p;
  cudaMalloc(&p, 64 * sizeof(int));
  fill << < 1, 64 >> > (p);
  return cudaDeviceSynchronize() != cudaSuccess;
}
""",
    ),
    "CASS022": (
        "gfx1100",
        """__global__ void votes(int *out) {
  unsigned m = __ballot_sync(0xffffffff, threadIdx.x & 1);
  out[threadIdx.x] = __popc(m);
}
""",
    ),
    "CASS030": (
        "gfx90a",
        """__global__ void lanes(float *out, const float *in) {
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x / 32;
  unsigned below = (1u << lane) - 1;
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  if (lane == 0) out[warp] = v + __popc(below);
}
""",
    ),
}


def findings(text: str, arch: str, code: str):
    request = TranslationRequest("source", text, "k.cu", Target(gfx_arch=arch))
    return [d for d in get_engine("rules").translate(request).diagnostics if d.code == code]


def apply(text: str, fixes: list[Fix]) -> str:
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    for fix in sorted(fixes, key=lambda f: (f.line, f.column), reverse=True):
        start = starts[fix.line - 1] + fix.column - 1
        end = starts[fix.end_line - 1] + fix.end_column - 1
        text = text[:start] + fix.replacement + text[end:]
    return text


@pytest.mark.toolchain
@pytest.mark.parametrize("code", sorted(FIXABLE))
def test_each_fixable_rule_carries_a_fix_that_keeps_cuda_valid(code: str, tmp_path: Path) -> None:
    arch, program = FIXABLE[code]
    found = findings(program, arch, code)
    assert found and all(d.fix is not None for d in found), found
    fixed = apply(program, [d.fix for d in found if d.fix is not None])
    assert fixed != program
    assert findings(fixed, arch, code) == [], fixed  # nothing left to rewrite
    source = tmp_path / "k.cu"
    source.write_text(fixed)
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    done = subprocess.run(
        [nvcc, "-arch=sm_80", "-c", str(source), "-o", str(tmp_path / "k.o")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.asyncio
async def test_quick_fixes_and_fix_all_in_the_editor(vscode: LanguageClient, project: Path) -> None:
    path = project / "src" / "launch.cu"
    path.write_text(FIXABLE["CASS081"][1] + FIXABLE["CASS022"][1])
    uri = open_file(vscode, path)
    await diagnostics_of(vscode, uri)
    published = [d for d in vscode.diagnostics[uri] if d.code in ("CASS081", "CASS022")]
    assert {d.code for d in published} == {"CASS081", "CASS022"}
    for finding in published:
        actions = await vscode.text_document_code_action_async(
            lsp.CodeActionParams(
                text_document=lsp.TextDocumentIdentifier(uri),
                range=finding.range,
                context=lsp.CodeActionContext(
                    diagnostics=[finding], only=[lsp.CodeActionKind.QuickFix]
                ),
            )
        )
        assert actions and actions[0].kind == lsp.CodeActionKind.QuickFix
        edited = apply_text_edits(path.read_text(), actions[0].edit.changes[uri])
        assert "<<< 1, 64 >>>" in edited or "unsigned long long m" in edited
    every = await vscode.text_document_code_action_async(
        lsp.CodeActionParams(
            text_document=lsp.TextDocumentIdentifier(uri),
            range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
            context=lsp.CodeActionContext(diagnostics=[], only=[lsp.CodeActionKind.SourceFixAll]),
        )
    )
    assert [a.kind for a in every] == ["source.fixAll.cass"]
    fixed = apply_text_edits(path.read_text(), every[0].edit.changes[uri])
    assert "fill <<< 1, 64 >>> (p)" in fixed
    assert "unsigned long long m = __ballot_sync" in fixed


def test_diagnostic_links_point_at_the_published_docs() -> None:
    import tomllib

    from cass.server.lsp.engines import DOCS_BASE, diagnostic_docs

    published = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())[
        "project"
    ]["urls"]["Repository"]
    assert DOCS_BASE == published + "/blob/main/"
    assert diagnostic_docs()["CASS081"] == DOCS_BASE + "docs/rules-diagnostics.md#cass081"

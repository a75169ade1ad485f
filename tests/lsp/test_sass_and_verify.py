"""End to end: "Translate SASS to RDNA3" on SASS files and cuobjdump output."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.models import registry
from lsp_testing import actions_at, messages, open_file, run_command, wait_for
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio
HAS_LIFTER = "lift" in registry.ENGINES


async def test_sass_file_offers_translation(vscode: LanguageClient, project: Path) -> None:
    uri = open_file(vscode, project / "asm" / "vadd.sass", language_id="nvidia-sass")
    found = await actions_at(vscode, uri)
    assert [a.kind for a in found] == ["source.cass.translateSass"]
    assert found[0].title == "Translate SASS to RDNA3"
    cuobjdump_text = project / "asm" / "dump.txt"  # cuobjdump output saved as plain text
    cuobjdump_text.write_text((project / "asm" / "vadd.sass").read_text())
    plain = open_file(vscode, cuobjdump_text, language_id="plaintext")
    assert [a.kind for a in await actions_at(vscode, plain)] == ["source.cass.translateSass"]


@pytest.mark.skipif(HAS_LIFTER, reason="the lift engine is installed: see the translation test")
async def test_translate_sass_says_no_assembly_engine_is_available(
    emacs: LanguageClient, project: Path
) -> None:
    uri = open_file(emacs, project / "asm" / "vadd.sass", language_id="nvidia-sass")
    result = await run_command(emacs, "cass.translateSass", uri)
    assert result["status"] == "error"
    assert "no assembly engine is available" in result["message"]
    assert not (project / "asm" / "vadd.s").exists()
    await wait_for(
        lambda: any("no assembly engine" in m for m in messages(emacs)), what="the message"
    )


@pytest.mark.skipif(not HAS_LIFTER, reason="needs the lift engine (cass.models.lift)")
async def test_translate_sass_creates_rdna3_assembly_beside_it(
    client: LanguageClient, project: Path
) -> None:
    uri = open_file(client, project / "asm" / "vadd.sass", language_id="nvidia-sass")
    result = await run_command(client, "cass.translateSass", uri)
    assert result["status"] == "ok", result
    target = project / "asm" / "vadd.s"
    if client.client_name == "vscode":
        create, fill = client.applied_edits[-1].document_changes
        assert create.uri == target.as_uri()
        text = fill.edits[0].new_text
    else:
        text = target.read_text()
    assert "s_endpgm" in text and "gfx1100" in text

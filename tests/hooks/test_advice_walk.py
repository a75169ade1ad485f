"""Every finding of the hooks and the CI gate names what resolves it; followed literally, it does.

Each case builds one situation in a real git repository, runs cass-check (as CI does), takes
every command the finding names (between backticks), runs it through a real shell with cass's
console scripts on PATH (as a user who installed cass would), and checks the finding is gone.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from cass.hooks import check, port
from cass.models.workflow import mirror as m

BIN = str(Path(sys.executable).parent)
COMMAND = re.compile(r"`((?:cass|git|CASS_PORT_MODE|pre-commit)[^`]*)`")
DYNAMIC = """__global__ void child(int *p) { p[0] = 1; }
__global__ void parent(int *p) { child<<<1, 1>>>(p); }
int main() { return 0; }
"""


def shell(repo, command: str) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"PATH": f"{BIN}:{os.environ['PATH']}"}
    env.pop("PRE_COMMIT", None)
    return subprocess.run(
        ["bash", "-c", command], cwd=repo.root, env=env, text=True, capture_output=True, timeout=300
    )


def finding_lines(capsys, code: str) -> list[str]:
    return [line for line in capsys.readouterr().out.splitlines() if f"[{code}]" in line]


def edited(repo, rel: str, old: str, new: str) -> None:
    repo.write(rel, repo.read(rel).replace(old, new, 1))


def committed_mirror(repo, example) -> None:
    repo.write("pyproject.toml", "[tool.cass.mirror]\nverify = false\n")
    repo.write("k.cu", example("saxpy.cu"))
    port.main(["k.cu"])
    repo.commit("saxpy and its mirror")


def missing(repo, example) -> None:
    repo.write("pyproject.toml", "[tool.cass.mirror]\nverify = false\n")
    repo.write("k.cu", example("saxpy.cu"))


def stale(repo, example) -> None:
    committed_mirror(repo, example)
    edited(repo, "k.cu", "// saxpy", "// saxpy, single precision")


def hand_edited(repo, example) -> None:
    committed_mirror(repo, example)
    edited(repo, "k.hip", "int main() {", "int main() {  // mine")


def conflict(repo, example) -> None:
    hand_edited(repo, example)
    repo.commit("hand edit")
    edited(repo, "k.cu", "// saxpy", "// saxpy, single precision")


def foreign(repo, example) -> None:
    missing(repo, example)
    repo.write("k.hip", "#include <hip/hip_runtime.h>\n// my own port\nint main() { return 0; }\n")


def damaged(repo, example) -> None:
    committed_mirror(repo, example)
    edited(repo, "k.hip", "// verdict:", "// verdict")


def conflict_markers(repo, example) -> None:
    committed_mirror(repo, example)
    text = repo.read("k.hip").replace(
        "int main() {", "<<<<<<< mine\nint main() {\n=======\nint main(void) {\n>>>>>>> theirs\n", 1
    )
    body = m.parse_mirror(text)
    assert body is not None
    repo.write("k.hip", m.render_header(replace(body[0], hand_edited=True)) + body[1])


def orphan(repo, example) -> None:
    committed_mirror(repo, example)
    repo.git("rm", "-q", "k.cu")


# finding code -> (situation, files given to cass-check, how many commands the finding names)
CASES: dict[str, tuple[Callable[..., None], list[str], int]] = {
    "mirror-missing": (missing, ["k.cu"], 1),
    "mirror-stale": (stale, ["k.cu"], 1),
    "mirror-hand-edited": (hand_edited, ["k.cu"], 2),
    "mirror-conflict": (conflict, ["k.cu"], 2),
    "mirror-foreign": (foreign, ["k.cu"], 2),
    "mirror-conflict-markers": (conflict_markers, ["k.cu"], 1),
    "mirror-damaged": (damaged, ["k.hip"], 1),
    "mirror-orphan": (orphan, ["k.cu"], 1),
}


def advised(repo, example, capsys, code: str) -> list[str]:
    build, names, count = CASES[code]
    build(repo, example)
    capsys.readouterr()
    assert check.main(names) == 1
    lines = finding_lines(capsys, code)
    assert lines, code
    commands = COMMAND.findall(lines[0])
    assert len(commands) == count, lines[0]
    return commands


@pytest.mark.parametrize(
    ("code", "which"), [(code, i) for code, case in CASES.items() for i in range(case[2])]
)
def test_every_advised_command_resolves_its_finding(
    repo, example, capsys, code: str, which: int
) -> None:
    commands = advised(repo, example, capsys, code)
    done = shell(repo, commands[which])
    assert done.returncode in (0, 1), f"{commands[which]}: {done.stdout}{done.stderr}"
    assert "error:" not in done.stderr, done.stderr
    names = CASES[code][1]
    check.main(names)
    assert not finding_lines(capsys, code), f"`{commands[which]}` left the finding"


def test_an_unportable_source_gets_its_mirror_and_the_escape_hatch_works(repo, capsys) -> None:
    repo.write("pyproject.toml", "[tool.cass.mirror]\nverify = false\n")
    repo.write("src/dp.cu", DYNAMIC)
    assert port.main(["src/dp.cu"]) == 1  # the mirror is written, with what is left listed
    out = capsys.readouterr().out
    assert "src/dp.cu:2:" in out and "[CASS070]" in out and "[port-untranslated]" in out
    provenance, body = m.parse_mirror(repo.read("src/dp.hip"))  # type: ignore[misc]
    assert provenance.verdict == m.UNTRANSLATED and "[CASS070]" in body.splitlines()[1]
    assert check.main(["src/dp.cu"]) == 1
    exclude = re.search(
        r"`(exclude = \[[^`]*\])` under \[tool\.cass\.mirror\] in "
        r"pyproject\.toml",
        capsys.readouterr().out,
    )
    assert exclude is not None
    repo.write("pyproject.toml", f"[tool.cass.mirror]\nverify = false\n{exclude.group(1)}\n")
    assert check.main(["src/dp.cu"]) == 0  # followed literally: the file is out of mirroring
    assert port.main(["src/dp.cu"]) == 0


def test_an_unportable_source_finished_by_hand_passes(repo, capsys) -> None:
    repo.write("pyproject.toml", "[tool.cass.mirror]\nverify = false\n")
    repo.write("dp.cu", DYNAMIC)
    port.main(["dp.cu"])
    edited(repo, "dp.hip", "child<<<1, 1>>>(p);", "p[0] = 1;  // inlined by hand")
    assert check.main(["dp.cu"]) == 1
    assert "[mirror-hand-edited]" in capsys.readouterr().out
    edited(repo, "dp.hip", "// hand-edited: no", "// hand-edited: yes")
    assert check.main(["dp.cu"]) == 0
    assert port.main(["dp.cu"]) == 0


def test_pre_commit_form_of_the_advice(repo, example, capsys, monkeypatch) -> None:
    monkeypatch.setenv("PRE_COMMIT", "1")
    commands = advised(repo, example, capsys, "mirror-conflict")
    assert commands == [
        "CASS_PORT_MODE=merge pre-commit run cass-port --files k.cu",
        "CASS_PORT_MODE=force pre-commit run cass-port --files k.cu",
    ]
    monkeypatch.setenv("CASS_PORT_MODE", "merge")
    assert port.main(["k.cu"]) == 1  # what pre-commit runs with that environment
    assert "merged k.hip" in capsys.readouterr().out


@pytest.mark.parametrize("which", [0, 1])
def test_a_merge_without_history_names_commands_that_resolve_it(
    repo, example, capsys, which: int
) -> None:
    missing(repo, example)
    port.main(["k.cu"])  # generated, never committed: no base for a three-way merge
    edited(repo, "k.hip", "int main() {", "int main() {  // mine")
    edited(repo, "k.cu", "// saxpy", "// saxpy, single precision")
    capsys.readouterr()
    assert port.main(["--merge", "k.cu"]) == 1
    lines = finding_lines(capsys, "merge-no-base")
    commands = COMMAND.findall(lines[0]) if lines else []
    assert commands == ["cass-port --adopt k.cu", "cass-port --force k.cu"], lines
    done = shell(repo, commands[which])
    assert done.returncode in (0, 1) and "error:" not in done.stderr, done.stderr
    assert check.main(["k.cu"]) == 0, capsys.readouterr().out

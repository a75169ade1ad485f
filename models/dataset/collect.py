"""Collect programs: the synthetic generator, CUDA folders and git repositories.

A folder or repository is ported as a project (cass.models.rules.project.port_project: every
file that uses CUDA, the headers it includes, the build files), once per content of the tree;
each `.cu` file becomes a unit compiled with its folder, the tree's root and the given include
folders on the include path (on the CUDA side in the original tree, on the HIP side in the
ported one). A `.cu` file that defines `main()` is a program that can be run.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from pathlib import Path

from cass.models.dataset.cache import text_sha256
from cass.models.dataset.domains import DOMAINS
from cass.models.dataset.stages import Unit
from cass.runner.diagnostics import CassError
from cass.runner.outputs import write_atomic

MAIN = re.compile(r"\bint\s+main\s*\(")
KERNEL = re.compile(r"__global__")
MAX_FILE_BYTES = 4 * 1024 * 1024


def synthetic_units(count: int, seed: int) -> list[Unit]:
    from cass.models.dataset.synth import generate

    return [Unit(p.ident, "synthetic", p.domain, f"{p.ident}/main.cu", p.source, True,
                 meta={"blocks": list(p.blocks), "features": list(p.features), "value_type": p.value_type})
            for p in generate(count, seed)]  # fmt: skip


def is_git_url(source: str) -> bool:
    return bool(re.match(r"^(https?|git|ssh)://|^[\w.-]+@[\w.-]+:", source))


def fetch_repository(url: str, cache: Path) -> Path:
    """A shallow clone of `url` under `cache` (reused when it exists)."""
    folder = cache / "repos" / hashlib.sha256(url.encode()).hexdigest()[:16]
    if (folder / ".git").is_dir():
        return folder
    folder.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(["git", "clone", "--depth", "1", "--quiet", url, str(folder)],
                          capture_output=True, text=True, timeout=900, check=False)  # fmt: skip
    if proc.returncode != 0:
        raise CassError(
            f"{url}: git clone failed: {(proc.stderr.strip().splitlines() or ['?'])[-1]}; check the URL or clone it yourself and pass the folder"
        )
    return folder


def tree_files(root: Path) -> list[Path]:
    """The files of a folder, or of a git work tree the files git tracks (build outputs skipped)."""
    if (root / ".git").exists():
        proc = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z"],
            capture_output=True,
            timeout=120,
            check=False,
        )
        if proc.returncode == 0:
            return sorted(
                root / p for p in proc.stdout.decode("utf-8", "surrogateescape").split("\0") if p
            )
    return sorted(p for p in root.rglob("*") if p.is_file() and ".git" not in p.parts)


def tree_digest(files: list[Path], root: Path) -> str:
    h = hashlib.sha256()
    for path in files:
        if path.is_file() and path.stat().st_size <= MAX_FILE_BYTES:
            h.update(str(path.relative_to(root)).encode("utf-8", "surrogateescape") + b"\0")
            h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def guess_domain(path: str, text: str) -> str:
    """The benchmark domain whose vocabulary (kernel words, operation names) the file uses most;
    `unclassified` when none of it appears. A heuristic for real code, which has no label."""
    lowered = (path + " " + text[:20000]).lower()
    scores = {
        name: sum(lowered.count(w) for w in (*d.words, *d.float_ops, *d.int_ops))
        for name, d in DOMAINS.items()
    }
    best = max(scores, key=lambda k: scores[k])
    return best if scores[best] else "unclassified"


def project_units(source: str, root: Path, cache: Path, include_dirs: list[Path]) -> list[Unit]:
    """Every `.cu` file of the tree at `root`, with the tree ported once into the cache."""
    from cass.models.engine import Target
    from cass.models.rules.project import port_project

    root = root.resolve()
    files = tree_files(root)
    digest = tree_digest(files, root)
    ported = cache / "ported" / digest[:24]
    marker = ported / ".cass-ported.json"
    if not marker.is_file():
        result = port_project(root, ported, Target(), force=True, include_dirs=include_dirs)
        errors: dict[str, list[str]] = {}
        for d in result.diagnostics:
            if d.severity.value == "error":
                errors.setdefault(d.path, []).append(d.render())
        write_atomic(marker, json.dumps({"source": source, "errors": errors}))
    port_errors = json.loads(marker.read_text(encoding="utf-8"))["errors"]
    units = []
    for path in files:
        if path.suffix != ".cu" or not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            continue
        rel = path.relative_to(root)
        text = path.read_text(encoding="utf-8", errors="replace")
        if not KERNEL.search(text) and not MAIN.search(text):
            continue
        hip = ported / rel
        dirs = (str(path.parent), str(root), *map(str, include_dirs))
        hip_dirs = (str(hip.parent), str(ported), *map(str, include_dirs))
        ident = f"{Path(source).name or source}/{rel}"
        units.append(Unit(ident, source, guess_domain(str(rel), text), str(rel), text, bool(MAIN.search(text)),
                          cuda_file=str(path), hip_file=str(hip) if hip.is_file() else "", include_dirs=dirs,
                          hip_include_dirs=hip_dirs, tree_digest=digest,
                          meta={"port_errors": port_errors.get(str(rel), [])}))  # fmt: skip
    return units


def collect(sources: list[str], cache: Path, *, synthetic: int = 0, seed: int = 0,
            include_dirs: list[Path] | None = None) -> list[Unit]:  # fmt: skip
    """Units from every source, in order: synthetic programs first, then each folder/repository."""
    units = synthetic_units(synthetic, seed) if synthetic else []
    for source in sources:
        if is_git_url(source):
            root = fetch_repository(source, cache)
        else:
            root = Path(source)
            if not root.exists():
                raise CassError(
                    f"{source}: no such folder; give a folder or git repository of CUDA code"
                )
            if not root.is_dir():
                raise CassError(
                    f"{source}: is a file; give the folder that holds it (projects are ported whole)"
                )
        found = project_units(source, root, cache, list(include_dirs or []))
        if not found:
            raise CassError(f"{source}: no .cu file with a kernel or a main() in it")
        units += found
    return units


def unit_fingerprint(unit: Unit) -> str:
    return text_sha256(unit.cuda)

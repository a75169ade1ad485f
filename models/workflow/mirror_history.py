"""The last generated text of a mirror, recovered from git history, and the three-way merge.

When a hand-edited mirror's source changes, the hand edits are carried onto the new translation
with a three-way merge: base = the text cass generated last (what the person started from),
ours = the mirror as it is now (with the hand edits), theirs = the new translation.

The base is found, in order: (1) a version of the mirror in the index or in HEAD's history whose
body still hashes to what its header recorded (an untouched generated version) and that matches
the current header's `body-sha256`; (2) the version of the source in history whose sha256 is the
header's `source-sha256`, translated again by the caller's `regenerate` and accepted only when
the result hashes to `body-sha256`.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from cass.models.workflow.mirror import Provenance, parse_mirror, sha256_bytes, sha256_text
from cass.runner.diagnostics import CassError, WorkError
from cass.runner.tools import run_tool

MAX_COMMITS = 200  # how far back to look for the last generated text
GIT_TIMEOUT_S = 30


@dataclass(frozen=True)
class MergeResult:
    text: str
    conflicts: int  # 0: clean; otherwise the number of conflict blocks left in `text`


def merge_texts(base: str, ours: str, theirs: str) -> MergeResult:
    """Three-way merge with `git merge-file` (diff3 conflict markers, labelled)."""
    with tempfile.TemporaryDirectory(prefix="cass-merge-") as folder:
        paths = []
        for name, text in (("ours", ours), ("base", base), ("theirs", theirs)):
            path = Path(folder) / name
            path.write_text(text, encoding="utf-8", newline="")
            paths.append(str(path))
        labels = ["mirror with your edits", "last generated", "new translation"]
        command = ["git", "merge-file", "-p", "--diff3"]
        for label in labels:
            command += ["-L", label]
        done = run_tool(command + paths, "git merge-file", GIT_TIMEOUT_S)
    if done.exit_code > 127:  # killed by a signal; otherwise the number of conflicts
        raise WorkError(f"git merge-file failed: {done.stderr.strip()}")
    return MergeResult(done.stdout, done.exit_code)


def _open_repo(root: Path):  # -> git.Repo | None
    import git

    try:
        return git.Repo(root, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None


def _blob_versions(repo, rel: str) -> Iterator[bytes]:
    """The file's content in the index, then in each commit of HEAD's history touching it."""
    import git

    try:
        entry = repo.index.entries.get((rel, 0))
        if entry is not None:
            yield repo.odb.stream(entry.binsha).read()
        commits = repo.iter_commits("HEAD", paths=rel, max_count=MAX_COMMITS)
        for commit in commits:
            try:
                yield (commit.tree / rel).data_stream.read()
            except KeyError:  # deleted in this commit
                continue
    except (ValueError, git.GitCommandError, git.BadName):  # no HEAD yet, shallow boundary
        return


def last_generated_body(
    root: Path,
    mirror_rel: str,
    provenance: Provenance,
    regenerate: Callable[[str], str] | None = None,
) -> str | None:
    """The body cass generated last for this mirror (see the module docstring), or None."""
    repo = _open_repo(root)
    if repo is None:
        return None
    for data in _blob_versions(repo, mirror_rel):
        parsed = _parse(data)
        if parsed and sha256_text(parsed[1]) == provenance.body_sha256:
            return parsed[1]
    if regenerate is None:
        return None
    for data in _blob_versions(repo, provenance.source):
        if sha256_bytes(data) != provenance.source_sha256:
            continue
        body = regenerate(data.decode("utf-8", errors="replace"))
        return body if sha256_text(body) == provenance.body_sha256 else None
    return None


def _parse(data: bytes) -> tuple[Provenance, str] | None:
    try:
        return parse_mirror(data.decode("utf-8"))
    except (CassError, UnicodeDecodeError):
        return None


def save_backup(root: Path, rel: str, content: str | bytes) -> Path:
    """Keep a copy of `content` (a mirror about to be replaced) under `.git/cass/backups/`, so
    that nothing written by hand is ever lost; returns where it went."""
    repo = _open_repo(root)
    base = Path(repo.git_dir) if repo is not None else root / ".cass"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = base / "cass" / "backups" / stamp / rel
    target.parent.mkdir(parents=True, exist_ok=True)
    counter = 0
    while target.exists():
        counter += 1
        target = target.with_name(f"{Path(rel).name}.{counter}")
    target.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return target

"""The git repository the hooks run in: its root and state, changed and tracked files.

Plain `git` with time limits (pre-commit runs the hooks inside a repository; CI checks out one).
Unusual states get a clear message: detached HEAD (fine, noted), a shallow clone (the base of a
pull request may be missing: say how to fetch it), a merge / rebase / cherry-pick in progress
(mirrors with conflicts are left to the person resolving them).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cass.runner.diagnostics import CassError
from cass.runner.tools import ToolRun, run_tool

GIT_TIMEOUT_S = 60
_IN_PROGRESS = {  # marker file in the git dir -> what is in progress
    "MERGE_HEAD": "a merge",
    "CHERRY_PICK_HEAD": "a cherry-pick",
    "REVERT_HEAD": "a revert",
    "rebase-merge": "a rebase",
    "rebase-apply": "a rebase",
}


@dataclass(frozen=True)
class RepoState:
    root: Path
    git_dir: Path
    branch: str | None  # None: detached HEAD (or no commit yet)
    has_commits: bool
    shallow: bool
    in_progress: str | None  # "a merge", "a rebase", ... or None
    unmerged: frozenset[str]  # paths with unresolved conflicts


def git(root: Path, *args: str, check: bool = True) -> ToolRun:
    """Run git in `root` (time-limited, contained); a failure raises CassError with git's words."""
    done = run_tool(
        ["git", "-c", "core.quotepath=off", *args],
        f"`git {' '.join(args)}`",
        GIT_TIMEOUT_S,
        cwd=root,
    )
    if check and not done.ok:
        raise CassError(f"`git {' '.join(args)}` failed in {root}: {done.stderr.strip()}")
    return done


def _text(done: ToolRun) -> str:
    return done.out.decode("utf-8", errors="surrogateescape").strip()


def open_repo(start: Path) -> RepoState:
    """The repository containing `start`; CassError when there is none."""
    probe = git(start, "rev-parse", "--show-toplevel", "--absolute-git-dir", check=False)
    if probe.exit_code != 0:
        raise CassError(
            f"{start}: not inside a git repository; run this from a git checkout "
            "(or `git init` first)"
        )
    top, git_dir = _text(probe).splitlines()[:2]
    root, gdir = Path(top), Path(git_dir)
    has_commits = git(root, "rev-parse", "--verify", "-q", "HEAD", check=False).exit_code == 0
    branch = _text(git(root, "symbolic-ref", "-q", "--short", "HEAD", check=False)) or None
    shallow = _text(git(root, "rev-parse", "--is-shallow-repository")) == "true"
    in_progress = next(
        (what for name, what in _IN_PROGRESS.items() if (gdir / name).exists()), None
    )
    unmerged = frozenset(_z(git(root, "diff", "--name-only", "-z", "--diff-filter=U")))
    return RepoState(root, gdir, branch, has_commits, shallow, in_progress, unmerged)


def _z(done: ToolRun) -> list[str]:
    return [p.decode("utf-8", errors="surrogateescape") for p in done.out.split(b"\0") if p]


def describe(state: RepoState) -> list[str]:
    """Notes about an unusual state, for the report."""
    notes = []
    if state.has_commits and state.branch is None:
        notes.append("HEAD is detached (checked out at a commit, not a branch); checking it as is")
    if state.shallow:
        notes.append(
            "this is a shallow clone: history is incomplete, so the last generated text "
            "of a hand-edited mirror may not be found (`git fetch --unshallow` fixes it)"
        )
    if state.in_progress:
        notes.append(
            f"{state.in_progress} is in progress: mirrors with unresolved conflicts are "
            "left alone; resolve them (or regenerate with --force), then commit"
        )
    return notes


def resolve_base(state: RepoState, base: str) -> str:
    """The commit where the branch left `base` (merge base); clear errors for CI checkouts."""
    if not state.has_commits:
        raise CassError("the repository has no commits yet; commit first or use --all")
    found = git(state.root, "rev-parse", "--verify", "-q", f"{base}^{{commit}}", check=False)
    if found.exit_code != 0:
        hint = (
            " (the clone is shallow: fetch it with `git fetch --deepen=100 origin "
            f"{base.removeprefix('origin/')}`)"
            if state.shallow
            else ""
        )
        raise CassError(
            f"base {base!r} is not a commit here{hint}; fetch it "
            f"(`git fetch origin {base.removeprefix('origin/')}`) and pass "
            "--base origin/<branch>, or use --all"
        )
    merge_base = git(state.root, "merge-base", _text(found), "HEAD", check=False)
    if merge_base.exit_code != 0:
        deepen = (
            " (the clone is shallow: use fetch-depth: 0 in CI or `git fetch --unshallow`)"
            if state.shallow
            else ""
        )
        raise CassError(f"no common ancestor of {base!r} and HEAD{deepen}; or use --all")
    return _text(merge_base)


def changed_since(state: RepoState, base: str) -> list[str]:
    """Files added, modified or deleted between the merge base with `base` and HEAD (a deleted
    source whose mirror is still there makes that mirror an orphan)."""
    merge_base = resolve_base(state, base)
    done = git(state.root, "diff", "--name-only", "-z", "--no-renames", merge_base, "HEAD")
    return _z(done)


def tracked_files(state: RepoState) -> list[str]:
    """Every file git tracks (the index), for `--all`."""
    return _z(git(state.root, "ls-files", "-z", "--cached"))


def first_changed_lines(state: RepoState, base: str) -> dict[str, int]:
    """For each file changed since the merge base with `base`: the first line of its first hunk
    on the HEAD side (where a pull request's annotations can sit)."""
    merge_base = resolve_base(state, base)
    done = git(state.root, "diff", "-U0", "--no-renames", "--no-color", merge_base, "HEAD")
    first: dict[str, int] = {}
    path = None
    for raw in done.out.split(b"\n"):
        if raw.startswith(b"+++ "):
            name = raw[4:].decode("utf-8", errors="surrogateescape").rstrip("\t")
            path = name[2:] if name.startswith("b/") else None
        elif raw.startswith(b"@@ ") and path is not None and path not in first:
            new_side = raw.split(b" ")[2]  # +start[,count]
            first[path] = max(1, int(new_side[1:].split(b",")[0]))
    return first

"""The one output policy of every cass command that writes a file.

- never the input file itself (by inode, so a hard link or a second spelling counts too);
- never through a symbolic link, never onto a directory, FIFO, socket or device node;
- never over an existing file unless the caller passes `force` (reports included);
- atomic: a temporary file in the target's folder, then `os.replace`, so an interrupted run
  leaves the old file or the new one, never half of one;
- permissions: an existing file keeps its mode; a new one gets 0666 (0777 for executables)
  less the umask, as `open()` or a compiler would give it.

A refused write raises `OutputError` (a `CassError`) whose one line names the path and what to
do. Library code calls `check_output` (the policy) and `write_atomic` (the write); `write_output`
does both. What is too large to hold in memory is written through `staged_file` (a GGUF model);
a whole folder through `staged_dir` (installed headers, the device-library folder). Nothing else
in cass renames a file into place (a test keeps it so).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from cass.runner.diagnostics import CassError

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class OutputError(CassError):
    """A write the output policy refuses, or one the operating system failed."""


def file_kind(mode: int) -> str:
    """'a directory', 'a FIFO (named pipe)', ... for a non-regular `st_mode`; '' for a file."""
    return next(
        (name for test, name in _KINDS if test(mode)),
        "" if stat.S_ISREG(mode) else "not a regular file",
    )


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return path.lstat()
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        raise OutputError(
            f"{path}: a parent of it is a file, not a folder; choose another output path"
        ) from None
    except OSError as exc:
        raise OutputError(
            f"{path}: cannot inspect it ({exc.strerror}); choose another output path"
        ) from None


def _is_input(found: os.stat_result, inputs: Iterable[Path]) -> bool:
    for source in inputs:
        try:
            st = os.stat(source)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) == (found.st_dev, found.st_ino):
            return True
    return False


def check_output(path: Path, *, inputs: Iterable[Path] = (), force: bool = False) -> None:
    """Raise OutputError unless the policy allows writing `path` (see the module docstring)."""
    found = _lstat(path)
    if found is None:
        return
    _refuse_special(path, found)
    if _is_input(found, inputs):
        raise OutputError(f"{path}: is the input; choose another output path")
    if not force:
        raise OutputError(f"{path}: exists; pass --force to overwrite it")


def current_umask() -> int:
    """The process umask, read without changing it where Linux shows it (/proc/self/status)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _make_parent(path: Path) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise OutputError(
            f"{path}: a parent of it is a file, not a folder; choose another output path"
        ) from None
    except OSError as exc:
        raise OutputError(
            f"{path}: cannot create its folder ({exc.strerror}); choose another output path"
        ) from None


def _target_mode(found: os.stat_result | None, executable: bool) -> int:
    if found is not None:
        kept = stat.S_IMODE(found.st_mode)
        return kept | (0o111 & ~current_umask()) if executable else kept
    return (0o777 if executable else 0o666) & ~current_umask()


def _refuse_special(path: Path, found: os.stat_result | None) -> None:
    if found is None:
        return
    if stat.S_ISLNK(found.st_mode):
        raise OutputError(
            f"{path}: is a symbolic link; cass never writes through links: choose another output path"
        )
    kind = file_kind(found.st_mode)
    if kind:
        raise OutputError(f"{path}: is {kind}, not a regular file; choose another output path")


def write_atomic(
    path: Path, data: str | bytes, *, executable: bool = False, sync: bool = False
) -> None:
    """Write `data` (text as UTF-8, line endings untouched) to `path` atomically. Refuses links
    and special files whatever the caller decided about overwriting; OS failures are one line."""
    path = Path(path)
    _make_parent(path)
    found = _lstat(path)
    _refuse_special(path, found)
    payload = data.encode("utf-8", errors="surrogateescape") if isinstance(data, str) else data
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".cass-tmp", dir=path.parent)
    except OSError as exc:
        raise OutputError(
            f"{path}: cannot write there ({exc.strerror}); choose another output path"
        ) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, _target_mode(found, executable))
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise OutputError(
            f"{path}: cannot write it ({exc.strerror}); choose another output path"
        ) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def install_file(
    produced: Path, path: Path, *, inputs: Iterable[Path] = (), force: bool = True
) -> None:
    """Put the finished file `produced` at `path` under the policy: renamed when it is on the
    same filesystem, copied through a temporary file otherwise. Keeps `produced`'s mode bits'
    executable flag; the rest follows the umask (a new file) or the replaced file's mode."""
    check_output(path, inputs=inputs, force=force)
    executable = bool(produced.stat().st_mode & stat.S_IXUSR)
    write_atomic(path, produced.read_bytes(), executable=executable)


def write_output(
    path: Path,
    data: str | bytes,
    *,
    inputs: Iterable[Path] = (),
    force: bool = False,
    executable: bool = False,
) -> None:
    """`check_output` then `write_atomic`: what a command does with a user-named output."""
    check_output(path, inputs=inputs, force=force)
    write_atomic(path, data, executable=executable)


@contextlib.contextmanager
def staged_file(path: Path) -> Iterator[Path]:
    """A temporary path beside `path` for a writer that streams to a file itself; when the block
    ends without an error it replaces `path` in one rename, otherwise it is removed. The caller
    applies `check_output` first."""
    path = Path(path)
    _make_parent(path)
    _refuse_special(path, _lstat(path))
    staging = path.with_name(f".{path.name}.{os.getpid()}.cass-tmp")
    try:
        yield staging
        os.replace(staging, path)
    except OSError as exc:
        raise OutputError(
            f"{path}: cannot write it ({exc.strerror}); choose another output path"
        ) from None
    finally:
        staging.unlink(missing_ok=True)


@contextlib.contextmanager
def staged_dir(target: Path, *, replace: bool) -> Iterator[Path]:
    """A private folder beside `target` to fill; when the block ends without an error it becomes
    `target` in one rename, otherwise it is removed. An existing `target` is removed first with
    `replace`; without it, an existing one is kept (another process built the same folder first)."""
    target = Path(target)
    _make_parent(target)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        yield staging
        if replace and target.exists():
            shutil.rmtree(target)
        try:
            os.rename(staging, target)
        except OSError as exc:
            if replace or not target.is_dir():  # not a lost race: a real failure
                raise OutputError(
                    f"{target}: cannot put the folder in place ({exc.strerror})"
                ) from None
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)

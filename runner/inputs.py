"""Reading what a user names: bounded by the bytes actually read, never by what `stat` claims.

A size check on `st_size` trusts the file system: a FIFO reports 0 and blocks forever,
`/dev/zero` reports 0 and never ends, `/proc` files report 0 and hold data. `read_input` opens
without blocking, refuses anything but a regular file (one line naming the path and the kind of
file), and reads at most `limit + 1` bytes, so a file that grows or lies about its size still
cannot take more than the limit. `read_stream` applies the same cap to stdin.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from cass.runner.diagnostics import CassError, WorkError
from cass.runner.outputs import file_kind

DEFAULT_LIMIT = 64 * 2**20
_CHUNK = 2**20


class InputError(CassError):
    """An input that cannot be read: missing, a special file, unreadable."""


class UnusableInput(InputError, WorkError):
    """An input that was read but cannot be used as it is: larger than the limit, not UTF-8."""


def _open(path: Path, hint: str) -> int:
    try:
        return os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except NotADirectoryError:
        raise InputError(f"{path}: no such file (a parent of it is a file, not a folder)") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied; check the file's permissions") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot open it ({exc.strerror}){hint}") from None


def _size(limit: int) -> str:
    return f"{limit // 2**20} MiB" if limit >= 2**20 else f"{limit} bytes"


def _too_large(name: str, limit: int) -> UnusableInput:
    return UnusableInput(f"{name}: larger than {_size(limit)}; split it and try again")


def _read_capped(read, name: str, limit: int) -> bytes:
    parts: list[bytes] = []
    total = 0
    while total <= limit:
        chunk = read(min(_CHUNK, limit + 1 - total))
        if not chunk:
            break
        parts.append(chunk)
        total += len(chunk)
    if total > limit:
        raise _too_large(name, limit)
    return b"".join(parts)


def read_input(path: Path, *, limit: int = DEFAULT_LIMIT, directory_hint: str = "") -> bytes:
    """The bytes of the regular file `path` (at most `limit`), or an InputError saying why not.

    `directory_hint` is appended when `path` is a directory (e.g. "; give -o DIR to port a
    project")."""
    path = Path(path)
    fd = _open(path, "")
    try:
        mode = os.fstat(fd).st_mode
        kind = file_kind(mode)
        if stat.S_ISDIR(mode):
            raise InputError(f"{path}: is a directory{directory_hint}")
        if kind:
            raise InputError(
                f"{path}: is {kind}, not a regular file; save its content to a file first"
            )
        os.set_blocking(fd, True)
        try:
            return _read_capped(lambda n: os.read(fd, n), str(path), limit)
        except OSError as exc:
            raise InputError(
                f"{path}: cannot read it ({exc.strerror}); give a regular file"
            ) from None
    finally:
        os.close(fd)


def read_stream(stream: BinaryIO, name: str = "<stdin>", *, limit: int = DEFAULT_LIMIT) -> bytes:
    """At most `limit` bytes of `stream` (stdin), or an InputError when it holds more."""
    try:
        return _read_capped(stream.read, name, limit)
    except OSError as exc:
        raise InputError(f"{name}: cannot read it ({exc.strerror})") from None


def read_input_text(path: Path, *, limit: int = DEFAULT_LIMIT, directory_hint: str = "") -> str:
    """`read_input` decoded as UTF-8; the first invalid byte is located (line and column)."""
    return decode_utf8(read_input(path, limit=limit, directory_hint=directory_hint), str(path))


def decode_utf8(
    data: bytes, name: str, advice: str = "save the file as UTF-8 and try again"
) -> str:
    """UTF-8 text of `data`; InputError naming the line and column of the first invalid byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise UnusableInput(
            f"{name}:{line}:{column}: invalid UTF-8 (byte 0x{data[exc.start]:02x}); {advice}"
        ) from None


ELF_MAGIC = b"\x7fELF"


def check_program(path: Path, *, build_hint: str = "") -> None:
    """Refuse, in one line, a program path that is missing, not a regular file, not an ELF
    executable or not executable: what `execve` would otherwise fail on with an OS error."""
    path = Path(path)
    fd = _open(path, "")
    try:
        mode = os.fstat(fd).st_mode
        kind = file_kind(mode)
        if kind:
            raise InputError(f"{path}: is {kind}, not a program{build_hint}")
        os.set_blocking(fd, True)
        try:
            head = os.read(fd, 4)
        except OSError as exc:
            raise InputError(f"{path}: cannot read it ({exc.strerror})") from None
    finally:
        os.close(fd)
    if head != ELF_MAGIC:
        raise InputError(f"{path}: is not an ELF executable{build_hint}")
    if not os.access(path, os.X_OK):
        raise InputError(f"{path}: is not executable; chmod +x it or rebuild it{build_hint}")

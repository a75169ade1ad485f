"""AMD's header-only GPU primitives libraries (rocPRIM, hipCUB, rocThrust) in cass's cache.

Thrust ports need rocThrust, CUB ports hipCUB, both sit on rocPRIM. Debian 12 packages only a
rocPRIM (5.3.3) that clang-16 cannot compile for gfx1100, and PyPI has none of them, so
`cass setup --rocm-libs PATH_OR_URL` (or `$CASS_ROCM_LIBS`) installs them from an archive or a
folder the user names, e.g. a ROCm 5.2 prefix (`/opt/rocm`) or an archive of its `include/`:

    install(source) -> RocmLibs(include_dir, versions, source)     # into cache_dir()/rocm-libs
    installed() -> RocmLibs | None                                 # what a build puts first
    include_args() -> ["-isystem", DIR] or []                      # for every HIP compile

Every HIP compile puts the installed folder ahead of the system's include directories
(`toolchain.hip_clang_command`), so Debian's /usr/include/rocprim is never picked up beside them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tarfile
import tempfile
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from cass.runner.cache import cache_dir
from cass.runner.diagnostics import CassError
from cass.runner.outputs import staged_dir, write_atomic

ENV_VAR = "CASS_ROCM_LIBS"
# library -> (folder under include/, its version header, the cass library names it provides)
LIBRARIES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "rocPRIM": ("rocprim", "rocprim/rocprim_version.hpp", ()),
    "hipCUB": ("hipcub", "hipcub/hipcub_version.hpp", ("cub",)),
    "rocThrust": ("thrust", "thrust/rocthrust_version.hpp", ("thrust",)),
}
UPSTREAM_TAG = "rocm-5.2.3"
FIX = (
    "cass setup --rocm-libs PATH_OR_URL (an archive or folder holding include/rocprim, "
    "include/hipcub and include/thrust: a ROCm 5.2 install such as /opt/rocm, or "
    f"ROCm/rocPRIM, ROCm/hipCUB and ROCm/rocThrust at tag {UPSTREAM_TAG} installed by CMake)"
)
RECORD = "installed.json"
SEARCH_DEPTH = 3
DOWNLOAD_TIMEOUT_S = 300


class _Record(Protocol):
    @property
    def include_dir(self) -> Path: ...
    @property
    def versions(self) -> dict[str, str]: ...
    @property
    def source(self) -> str: ...


Installed = TypeVar("Installed", bound=_Record)


@dataclass(frozen=True)
class RocmLibs:
    """An installed copy: its include folder, each library's version, where it came from."""

    include_dir: Path
    versions: dict[str, str]
    source: str

    def provides(self) -> frozenset[str]:
        """The cass library names (task.toml `libraries`) these headers make buildable."""
        return frozenset(name for _, _, names in LIBRARIES.values() for name in names)


class HeaderInstall(Generic[Installed]):
    """One header set that `cass setup` installs into cass's cache (these libraries; AMD's API
    headers in rocm_api_headers): the record of what is installed, what makes a folder its
    include/, the compile flags, the set-up decision and the doctor line."""

    def __init__(self, folder: str, env_var: str, version_headers: tuple[str, ...], fix: str,
                 make: Callable[[Path, dict[str, str], str], Installed]) -> None:  # fmt: skip
        self.folder = folder
        self.env_var = env_var
        self.version_headers = version_headers
        self.fix = fix
        self.make = make
        self._read: tuple[tuple[int, int, int], Installed | None] | None = None

    def root(self) -> Path:
        return cache_dir() / self.folder

    def is_include_dir(self, folder: Path) -> bool:
        return all((folder / header).is_file() for header in self.version_headers)

    def find_include_dir(self, folder: Path) -> Path | None:
        """The folder under `folder` (itself, `include/`, or up to SEARCH_DEPTH levels down)
        that holds every library with its version header."""
        frontier = [folder]
        for _ in range(SEARCH_DEPTH + 1):
            for candidate in frontier:
                if self.is_include_dir(candidate):
                    return candidate
            frontier = [sub for f in frontier for sub in sorted(f.iterdir()) if sub.is_dir()]
        return None

    def installed(self) -> Installed | None:
        """The copy `cass setup` installed (None when there is none, or it was removed since).
        The record is parsed again only when it changed (every HIP compile command asks)."""
        record = self.root() / RECORD
        try:
            stat = record.stat()
        except OSError:
            return None
        key = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        if self._read is None or self._read[0] != key:
            self._read = (key, self._parse(record))
        found = self._read[1]
        return found if found is not None and self.is_include_dir(found.include_dir) else None

    def _parse(self, record: Path) -> Installed | None:
        try:
            data = json.loads(record.read_text(encoding="utf-8"))
            include_dir = Path(data["include_dir"])
            return self.make(
                include_dir, dict(data.get("versions", {})), str(data.get("source", ""))
            )
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def write_record(self, include_dir: Path, versions: dict[str, str], source: str) -> Installed:
        data = {"include_dir": str(include_dir), "versions": versions, "source": source}
        write_atomic(self.root() / RECORD, json.dumps(data, indent=2) + "\n")
        return self.make(include_dir, versions, source)

    def include_args(self) -> list[str]:
        """The compiler flags that put the installed headers ahead of the system's."""
        found = self.installed()
        return ["-isystem", str(found.include_dir)] if found else []

    def configured_source(self) -> str:
        """The source the environment variable names ('' when unset)."""
        return os.environ.get(self.env_var, "").strip()

    def needs_install(self, source: str) -> bool:
        """True when `source` is given and is not what is installed now."""
        if not source:
            return False
        current = self.installed()
        return current is None or current.source != _normalise(source)

    def describe(self) -> tuple[bool, str]:
        """For `cass doctor`: (installed?, versions and folder, or the command that installs them)."""
        found = self.installed()
        if found is None:
            return False, f"not installed: run `{self.fix}`"
        versions = ", ".join(f"{lib} {v}" for lib, v in found.versions.items())
        return True, f"{versions} in {found.include_dir}"


HEADERS: HeaderInstall[RocmLibs] = HeaderInstall(
    "rocm-libs", ENV_VAR, tuple(header for _, header, _ in LIBRARIES.values()), FIX, RocmLibs
)
installed = HEADERS.installed
include_args = HEADERS.include_args
configured_source = HEADERS.configured_source
needs_install = HEADERS.needs_install
describe = HEADERS.describe
find_include_dir = HEADERS.find_include_dir


def root() -> Path:
    return HEADERS.root()


def header_version(header: Path) -> str:
    """`MAJOR.MINOR.PATCH` from a `*_version.hpp` (its `*_VERSION_MAJOR/MINOR/PATCH` defines)."""
    text = header.read_text(encoding="utf-8", errors="replace")
    parts = [
        re.search(rf"#define\s+\w+_VERSION_{part}\s+(\d+)", text)
        for part in ("MAJOR", "MINOR", "PATCH")
    ]
    if not all(parts):
        raise CassError(f"{header}: no *_VERSION_MAJOR/MINOR/PATCH defines; not a version header")
    return ".".join(m.group(1) for m in parts if m)


def read_installed(include_dir: Path, source: str) -> RocmLibs:
    versions = {
        lib: header_version(include_dir / header) for lib, (_, header, _) in LIBRARIES.items()
    }
    return RocmLibs(include_dir, versions, source)


def _normalise(source: str) -> str:
    if re.match(r"^[a-z][a-z0-9+.-]*://", source):
        return source
    return str(Path(source).expanduser().resolve())


def _download(url: str, work: Path) -> Path:
    scheme = urllib.parse.urlparse(url).scheme
    if scheme not in ("http", "https", "file"):
        raise CassError(f"--rocm-libs {url}: only http(s):// and file:// URLs, or a local path")
    target = work / Path(urllib.parse.urlparse(url).path).name
    try:
        from urllib.request import urlopen  # only a download needs it, not every import

        with urlopen(url, timeout=DOWNLOAD_TIMEOUT_S) as response:  # noqa: S310
            target.write_bytes(response.read())
    except OSError as exc:
        raise CassError(
            f"--rocm-libs {url}: download failed ({exc}); download it and give its path"
        ) from None
    return target


def _unpack(archive: Path, work: Path) -> Path:
    try:
        with tarfile.open(archive) as tar:
            tar.extractall(work / "unpacked", filter="data")
    except (OSError, tarfile.TarError) as exc:
        raise CassError(
            f"{archive}: not a readable tar archive ({exc}); give a .tar.gz or a folder"
        ) from None
    return work / "unpacked"


def _source_folder(source: str, work: Path) -> Path:
    """The local folder to install from: the folder itself, or an archive unpacked into `work`."""
    if re.match(r"^[a-z][a-z0-9+.-]*://", source):
        return _unpack(_download(source, work), work)
    path = Path(source).expanduser()
    if path.is_dir():
        return path
    if path.is_file():
        return _unpack(path, work)
    raise CassError(f"{source}: no such file or folder; {FIX}")


def _copy_licences(include_dir: Path, staging: Path) -> None:
    """Licences travel with the headers: any licenses/ folder beside include/."""
    licences = include_dir.parent / "licenses"
    if licences.is_dir():
        shutil.copytree(licences, staging / "licenses")


def install(source: str) -> RocmLibs:
    """Copy the three libraries from `source` (folder, archive or URL) into the cache; record it."""
    normal = _normalise(source)
    with tempfile.TemporaryDirectory(prefix="cass-rocm-libs-") as name:
        folder = _source_folder(source, Path(name))
        include_dir = find_include_dir(folder)
        if include_dir is None:
            raise CassError(
                f"{source}: no include/ holding rocprim, hipcub and thrust with their "
                f"*_version.hpp headers; {FIX}"
            )
        found = read_installed(include_dir, normal)
        target = root() / "-".join(f"{lib.lower()}{v}" for lib, v in found.versions.items())
        _publish(include_dir, target)
    return HEADERS.write_record(target / "include", found.versions, normal)


def _publish(include_dir: Path, target: Path) -> None:
    """Copy into a private folder beside `target`, then rename it into place (replacing it)."""
    with staged_dir(target, replace=True) as staging:
        for folder, _, _ in LIBRARIES.values():
            shutil.copytree(include_dir / folder, staging / "include" / folder)
        _copy_licences(include_dir, staging)

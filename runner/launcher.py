"""A tiny native launcher that measures a program's own peak memory and wall time.

Linux charges a child the peak RSS of the process it was forked from (the kernel keeps the
parent's high-water mark across exec), so a program started straight from a 200 MB Python
process "uses" 200 MB. `cass-launch` is a 1 MB C program: it forks the real program, waits
with wait4, and writes `peak_rss_kib raw_wait_status wall_ns` to a report file. It is built
once with the system C compiler into the cass cache; without a C compiler the runner starts
programs directly and says their peak memory is an upper bound. Standard library only.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from cass.runner.toolchain import cache_dir

SOURCE = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* cass-launch REPORT PROGRAM [ARGS...]: run PROGRAM, then write its peak RSS (KiB), raw wait
   status and wall time (ns) to REPORT. Exit status: 0 when the report was written. */
int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: cass-launch REPORT PROGRAM [ARGS...]\n"); return 125; }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) { perror("cass-launch: fork"); return 125; }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        fprintf(stderr, "cass-launch: cannot run %s: ", argv[2]);
        perror("");
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) { perror("cass-launch: wait4"); return 125; }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long long wall = (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    FILE *report = fopen(argv[1], "w");
    if (!report) { perror("cass-launch: report"); return 125; }
    fprintf(report, "%ld %d %lld\n", usage.ru_maxrss, status, wall);
    return fclose(report) == 0 ? 0 : 125;
}
"""
COMPILERS = ("cc", "gcc", "clang", "clang-16")
BUILD_TIMEOUT_S = 60


def build_native(name: str, source: str, flags: tuple[str, ...] = ()) -> Path | None:
    """Compile a small C helper once into the cass cache (keyed by its source); None where no C
    compiler can build it. Concurrent first uses are safe (atomic rename)."""
    key = hashlib.sha256((source + " ".join(flags)).encode()).hexdigest()[:12]
    target = cache_dir() / f"{name}-{key}" / name
    if target.is_file():
        return target
    compiler = next((c for c in COMPILERS if shutil.which(c)), None)
    if compiler is None:
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        src, out = Path(tmp) / f"{name}.c", Path(tmp) / name
        src.write_text(source)
        try:
            proc = subprocess.run([compiler, "-O2", *flags, "-o", str(out), str(src)], capture_output=True, timeout=BUILD_TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired):
            return None
        if proc.returncode != 0:
            return None
        os.replace(out, target)
    return target


@functools.cache
def launcher() -> Path | None:
    """The built launcher, or None where no C compiler can build it."""
    return build_native("cass-launch", SOURCE)


def parse_report(path: Path) -> tuple[int, int, float] | None:
    """(peak RSS KiB, raw wait status, wall seconds) from a launcher report, None when absent."""
    try:
        rss, status, wall_ns = path.read_text().split()
        return int(rss), int(status), int(wall_ns) / 1e9
    except (OSError, ValueError):
        return None

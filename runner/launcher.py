"""A tiny native launcher: the program's own peak memory and wall time, its resource limits, and
the end of its whole process tree.

Linux charges a child the peak RSS of the process it was forked from (the kernel keeps the
parent's high-water mark across exec), so a program started straight from a 200 MB Python
process "uses" 200 MB. `cass-launch` is a small C program: it forks the real program with the
run's resource limits (setrlimit in the child), waits with wait4, and writes
`peak_rss_kib raw_wait_status wall_ns` to a report file. It is a child subreaper
(PR_SET_CHILD_SUBREAPER): whatever the program leaves behind, double-forked and `setsid`
daemons included, becomes the launcher's child and is killed when the program exits, when the
launcher gets SIGTERM/SIGINT/SIGHUP, or when the process that started it dies (PR_SET_PDEATHSIG).
It is built once with the system C compiler into the cass cache; without a C compiler the runner
starts programs directly (process-group kill only) and says their peak memory is unknown.
Standard library only.
"""

from __future__ import annotations

import functools
import hashlib
import shutil
import subprocess
import tempfile
from pathlib import Path

from cass.runner.cache import cache_dir
from cass.runner.outputs import install_file

SOURCE = r"""
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* cass-launch REPORT LIMITS PROGRAM [ARGS...]
   LIMITS: "-" or comma-separated key=value: parent=PID (the starter; the launcher stops with it),
   data=BYTES, as=BYTES, nproc=COUNT, fsize=BYTES, cpu=SECONDS. Exit status 0 when the report
   was written, 125 on a launcher error, 128+N when stopped by signal N (the tree killed). */

static int resource_of(const char *key) {
    if (!strcmp(key, "data")) return RLIMIT_DATA;
    if (!strcmp(key, "as")) return RLIMIT_AS;
    if (!strcmp(key, "nproc")) return RLIMIT_NPROC;
    if (!strcmp(key, "fsize")) return RLIMIT_FSIZE;
    if (!strcmp(key, "cpu")) return RLIMIT_CPU;
    return -1;
}

/* In the child, before exec: never above the current hard limit; CPU gets SIGXCPU first and
   SIGKILL two seconds later. */
static int apply_limits(char *spec) {
    for (char *tok = strtok(spec, ","); tok; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        if (!eq) return -1;
        *eq = 0;
        if (!strcmp(tok, "parent")) continue;
        int res = resource_of(tok);
        if (res < 0) return -1;
        struct rlimit now, rl;
        rlim_t value = (rlim_t)strtoull(eq + 1, NULL, 10);
        if (getrlimit(res, &now) != 0) return -1;
        rl.rlim_cur = value;
        rl.rlim_max = res == RLIMIT_CPU ? value + 2 : value;
        if (now.rlim_max != RLIM_INFINITY && rl.rlim_max > now.rlim_max) rl.rlim_max = now.rlim_max;
        if (rl.rlim_cur > rl.rlim_max) rl.rlim_cur = rl.rlim_max;
        if (setrlimit(res, &rl) != 0) return -1;
    }
    return 0;
}

static pid_t parent_of(const char *spec) {
    const char *p = strstr(spec, "parent=");
    return p ? (pid_t)atol(p + 7) : 0;
}

/* SIGKILL every live child of this process; returns how many were signalled. */
static int kill_children(pid_t self) {
    DIR *dir = opendir("/proc");
    if (!dir) return 0;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        if (!isdigit((unsigned char)entry->d_name[0])) continue;
        char path[64], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", entry->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t len = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[len] = 0;
        char *p = strrchr(buf, ')');
        char state;
        int ppid;
        if (!p || sscanf(p + 1, " %c %d", &state, &ppid) != 2) continue;
        if (ppid == self && state != 'Z') {
            kill((pid_t)atol(entry->d_name), SIGKILL);
            count++;
        }
    }
    closedir(dir);
    return count;
}

/* Kill and reap every descendant: orphans are re-parented here (subreaper), so repeat until
   this process has no children at all. */
static void kill_tree(pid_t self) {
    for (;;) {
        int killed = kill_children(self), status, reaped = 0;
        while (waitpid(-1, &status, WNOHANG) > 0) reaped++;
        if (waitpid(-1, &status, WNOHANG) < 0 && errno == ECHILD) return;
        if (!killed && !reaped) usleep(1000);
    }
}

int main(int argc, char **argv) {
    if (argc < 4) { fprintf(stderr, "usage: cass-launch REPORT LIMITS PROGRAM [ARGS...]\n"); return 125; }
    pid_t self = getpid();
    sigset_t stops, old;
    sigemptyset(&stops);
    sigaddset(&stops, SIGCHLD);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGHUP);
    signal(SIGCHLD, SIG_DFL);
    sigprocmask(SIG_BLOCK, &stops, &old);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    pid_t parent = parent_of(argv[2]);
    if (parent && getppid() != parent) return 128 + SIGTERM;  /* the starter is already gone */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) { perror("cass-launch: fork"); return 125; }
    if (pid == 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        prctl(PR_SET_PDEATHSIG, 0);
        if (strcmp(argv[2], "-") && apply_limits(argv[2]) != 0) {
            perror("cass-launch: setrlimit");
            _exit(125);
        }
        execvp(argv[3], argv + 3);
        fprintf(stderr, "cass-launch: cannot run %s: ", argv[3]);
        perror("");
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    for (;;) {
        pid_t done = wait4(pid, &status, WNOHANG, &usage);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) { perror("cass-launch: wait4"); kill_tree(self); return 125; }
        int sig = sigwaitinfo(&stops, NULL);
        if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP) {
            kill_tree(self);
            return 128 + sig;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    kill_tree(self);  /* what the program left behind */
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
            proc = subprocess.run(
                [compiler, "-O2", *flags, "-o", str(out), str(src)],
                capture_output=True,
                timeout=BUILD_TIMEOUT_S,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired):
            return None
        if proc.returncode != 0:
            return None
        install_file(out, target)
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

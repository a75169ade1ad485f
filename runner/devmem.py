"""Peak device memory of a GPU program, measured by interposing the runtime's allocators.

A program that calls `cudaMalloc` (built with `-cudart shared`) or `hipMalloc` & co. through the
dynamic linker is seen by a small preloaded library (`LD_PRELOAD`): every allocation and free. It keeps the live total
and its peak and appends `peak_bytes allocations attempts` to `$CASS_DEVICE_MEMORY_REPORT` when
each process that loaded it exits. The emulator counts its `hipMalloc`s the same way, so the two peaks compare
directly (the CASS paper's "memory preserved" measure). Standard library only.
"""

from __future__ import annotations

import functools
from pathlib import Path

from cass.runner.launcher import build_native

REPORT_ENV = "CASS_DEVICE_MEMORY_REPORT"
SOURCE = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

/* cass device-memory interposer: live and peak bytes of cudaMalloc / hipMalloc & co. */
typedef int (*alloc_fn)(void **, size_t);
typedef int (*alloc_flags_fn)(void **, size_t, unsigned int);
typedef int (*pitch_fn)(void **, size_t *, size_t, size_t);
typedef int (*async_fn)(void **, size_t, void *);
typedef int (*free_fn)(void *);
typedef int (*free_async_fn)(void *, void *);

struct entry { void *ptr; size_t size; struct entry *next; };
static struct entry *live;
static size_t current, peak, allocations, attempts;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *next_fn(const char *name) { return dlsym(RTLD_NEXT, name); }

static void added(int err, void *ptr, size_t size) {
    pthread_mutex_lock(&lock);
    attempts++;
    if (err == 0 && ptr) {
        struct entry *e = malloc(sizeof *e);
        if (e) { e->ptr = ptr; e->size = size; e->next = live; live = e; }
        current += size; allocations++;
        if (current > peak) peak = current;
    }
    pthread_mutex_unlock(&lock);
}

static void removed(void *ptr) {
    pthread_mutex_lock(&lock);
    for (struct entry **p = &live; *p; p = &(*p)->next) {
        if ((*p)->ptr == ptr) { struct entry *e = *p; current -= e->size; *p = e->next; free(e); break; }
    }
    pthread_mutex_unlock(&lock);
}

/* One wrapper per allocator: call the real one (next in link order), then account for it. */
#define WRAP_ALLOC(name) \
    int name(void **ptr, size_t size) { \
        alloc_fn f = (alloc_fn)next_fn(#name); if (!f) return 1; \
        int err = f(ptr, size); added(err, err == 0 ? *ptr : NULL, size); return err; }
#define WRAP_ALLOC_FLAGS(name) \
    int name(void **ptr, size_t size, unsigned int flags) { \
        alloc_flags_fn f = (alloc_flags_fn)next_fn(#name); if (!f) return 1; \
        int err = f(ptr, size, flags); added(err, err == 0 ? *ptr : NULL, size); return err; }
#define WRAP_PITCH(name) \
    int name(void **ptr, size_t *pitch, size_t width, size_t height) { \
        pitch_fn f = (pitch_fn)next_fn(#name); if (!f) return 1; \
        int err = f(ptr, pitch, width, height); \
        added(err, err == 0 ? *ptr : NULL, err == 0 ? *pitch * height : 0); return err; }
#define WRAP_ASYNC(name) \
    int name(void **ptr, size_t size, void *stream) { \
        async_fn f = (async_fn)next_fn(#name); if (!f) return 1; \
        int err = f(ptr, size, stream); added(err, err == 0 ? *ptr : NULL, size); return err; }
#define WRAP_FREE(name) \
    int name(void *ptr) { free_fn f = (free_fn)next_fn(#name); if (!f) return 1; removed(ptr); return f(ptr); }
#define WRAP_FREE_ASYNC(name) \
    int name(void *ptr, void *stream) { \
        free_async_fn f = (free_async_fn)next_fn(#name); if (!f) return 1; removed(ptr); return f(ptr, stream); }

/* CUDA runtime (nvidia backend) and HIP runtime (rocm backend): the same shapes. */
WRAP_ALLOC(cudaMalloc) WRAP_ALLOC_FLAGS(cudaMallocManaged) WRAP_PITCH(cudaMallocPitch)
WRAP_ASYNC(cudaMallocAsync) WRAP_FREE(cudaFree) WRAP_FREE_ASYNC(cudaFreeAsync)
WRAP_ALLOC(hipMalloc) WRAP_ALLOC_FLAGS(hipMallocManaged) WRAP_PITCH(hipMallocPitch)
WRAP_ASYNC(hipMallocAsync) WRAP_FREE(hipFree) WRAP_FREE_ASYNC(hipFreeAsync)

/* One line per process that loaded the library (the launcher, the program, its children). */
__attribute__((destructor)) static void report(void) {
    const char *path = getenv("CASS_DEVICE_MEMORY_REPORT");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (!f) return;
    fprintf(f, "%zu %zu %zu\n", peak, allocations, attempts);
    fclose(f);
}
"""


@functools.cache
def interposer() -> Path | None:
    """The built interposer library, or None where no C compiler can build it."""
    return build_native("libcass-devmem.so", SOURCE, ("-shared", "-fPIC", "-ldl", "-lpthread"))


def parse_report(path: Path) -> tuple[int, int, int] | None:
    """(peak bytes, successful allocations, allocation calls) of the process that allocated the
    most; None when no process finished normally (a crash leaves no line)."""
    try:
        rows = [
            tuple(int(v) for v in line.split())
            for line in path.read_text().splitlines()
            if line.strip()
        ]
    except (OSError, ValueError):
        return None
    rows = [r for r in rows if len(r) == 3]
    return max(rows) if rows else None


def preload_env(env: dict[str, str], report: Path) -> dict[str, str]:
    """`env` with the interposer preloaded and its report path set (unchanged when unbuilt)."""
    lib = interposer()
    if lib is None:
        return env
    preload = " ".join(p for p in (str(lib), env.get("LD_PRELOAD", "")) if p)
    return {**env, "LD_PRELOAD": preload, REPORT_ENV: str(report)}

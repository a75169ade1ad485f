// cass's reference implementation of roctx for emulated verification: NVTX ports call it where
// AMD's roctracer would record ranges for a profiler. Nested ranges keep a per-thread level, start/
// stop ranges get process-wide ids, as roctx specifies; nothing is recorded. With
// CASS_ROCTX_TRACE set (to anything but 0) each call is written to stderr, never stdout, so a
// program's output is the same with and without it.
#include <roctracer/roctx.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

thread_local int g_level = 0;
std::atomic<roctx_range_id_t> g_next_id{1};

bool tracing() {
    static const bool on = [] {
        const char* v = getenv("CASS_ROCTX_TRACE");
        return v && *v && strcmp(v, "0") != 0;
    }();
    return on;
}

void trace(const char* what, const char* message, long long number) {
    if (!tracing()) return;
    if (message)
        fprintf(stderr, "cass roctx: %s \"%s\" %lld\n", what, message, number);
    else
        fprintf(stderr, "cass roctx: %s %lld\n", what, number);
}

}  // namespace

extern "C" {

uint32_t roctx_version_major(void) { return ROCTX_VERSION_MAJOR; }
uint32_t roctx_version_minor(void) { return ROCTX_VERSION_MINOR; }
const char* roctracer_error_string(void) { return ""; }

void roctxMarkA(const char* message) { trace("mark", message, g_level); }

int roctxRangePushA(const char* message) {
    trace("push", message, g_level);
    return g_level++;
}

int roctxRangePop(void) {
    if (g_level == 0) {
        trace("pop without a range", nullptr, -1);
        return -1;
    }
    trace("pop", nullptr, g_level - 1);
    return --g_level;
}

roctx_range_id_t roctxRangeStartA(const char* message) {
    roctx_range_id_t id = g_next_id++;
    trace("start", message, (long long)id);
    return id;
}

void roctxRangeStop(roctx_range_id_t id) { trace("stop", nullptr, (long long)id); }

}  // extern "C"

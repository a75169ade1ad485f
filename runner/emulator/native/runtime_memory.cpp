// Memory half of the cass HIP runtime: allocations (recorded in a table the emulator reads to
// check every device access), copies, sets, symbols. Device pointer == host pointer.
#include <sys/mman.h>
#include <sys/resource.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "runtime.h"

namespace {
struct Allocation {
    uint64_t base, size;
    int kind, serial;
    uint64_t mapped;  // bytes mapped with mmap (0: aligned_alloc)
};
std::mutex g_mem_lock;
std::vector<Allocation> g_allocs;
int g_serial = 0;
const uint64_t kDefaultDeviceMemory = 24ull << 30;  // 24 GiB, like a Radeon RX 7900 XTX
const size_t kMapThreshold = 64 << 10;  // larger blocks are mapped: zero pages on first touch
uint64_t g_in_use = 0;
uint64_t g_device_in_use = 0;  // hipMalloc / hipMallocManaged bytes: what the device holds

// The device's memory size: $CASS_EMULATOR_DEVICE_MEMORY bytes, else 24 GiB.
uint64_t device_memory() {
    static uint64_t total = [] {
        const char* text = getenv("CASS_EMULATOR_DEVICE_MEMORY");
        unsigned long long v = text ? strtoull(text, nullptr, 10) : 0;
        return v ? (uint64_t)v : kDefaultDeviceMemory;
    }();
    return total;
}

bool on_device(int kind) { return kind == CASS_DEVICE || kind == CASS_MANAGED; }
double g_copy_ns = 0.0;
const double kBytesPerNs = 64.0;  // modelled PCIe 4.0 x16 transfer rate (64 GB/s)
}  // namespace

void cass_account_copy(size_t bytes) { g_copy_ns += 1000.0 + (double)bytes / kBytesPerNs; }
double cass_copy_ns(void) { return g_copy_ns; }

extern "C" int cass_rt_allocation_count(void) {
    std::lock_guard<std::mutex> guard(g_mem_lock);
    return (int)g_allocs.size();
}

extern "C" int cass_rt_allocation_get(int i, uint64_t* base, uint64_t* size, int* kind,
                                      int* serial) {
    std::lock_guard<std::mutex> guard(g_mem_lock);
    if (i < 0 || i >= (int)g_allocs.size()) return 0;
    *base = g_allocs[i].base;
    *size = g_allocs[i].size;
    *kind = g_allocs[i].kind;
    *serial = g_allocs[i].serial;
    return 1;
}

extern "C" void cass_rt_write_stdout(const char* text, size_t size) {
    fwrite(text, 1, size, stdout);
}

extern "C" void cass_rt_flush(void) {
    fflush(stdout);
    fflush(stderr);
}

static void record(void* p, size_t size, int kind, uint64_t mapped = 0) {
    std::lock_guard<std::mutex> guard(g_mem_lock);
    g_allocs.push_back({(uint64_t)(uintptr_t)p, (uint64_t)size, kind, ++g_serial, mapped});
    g_in_use += size;
    if (on_device(kind)) g_device_in_use += size;
}

// Room on the emulated device for `size` more bytes (host allocations do not count).
static bool device_has_room(size_t size, int kind) {
    std::lock_guard<std::mutex> guard(g_mem_lock);
    return !on_device(kind) || size <= device_memory() - g_device_in_use;
}

static void explain_host_refusal(size_t size) {
    static bool said = false;
    struct rlimit data;
    if (said || getrlimit(RLIMIT_DATA, &data) != 0 || data.rlim_cur == RLIM_INFINITY) return;
    said = true;
    cass_rt_flush();
    fprintf(stderr, "cass emulator: an allocation of %zu bytes failed: the run's memory limit of %llu "
            "bytes is reached (raise it with --memory-limit or the run spec's memory_limit)\n",
            size, (unsigned long long)data.rlim_cur);
}

// Zeroed memory, page-aligned. Large blocks are anonymous mappings whose pages the kernel
// provides zeroed on first touch, so a large hipMalloc costs only what the program touches.
void* cass_allocate(size_t size, int kind) {
    size_t rounded = (size + 255) & ~(size_t)255;
    if (rounded == 0) rounded = 256;
    size_t pages = (rounded + 4095) & ~(size_t)4095;
    if (!device_has_room(pages, kind)) return nullptr;
    if (pages >= kMapThreshold) {
        void* p = mmap(nullptr, pages, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            explain_host_refusal(size);
            return nullptr;
        }
        record(p, size, kind, pages);
        return p;
    }
    void* p = aligned_alloc(4096, pages);
    if (!p) {
        explain_host_refusal(size);
        return nullptr;
    }
    memset(p, 0, rounded);
    record(p, size, kind);
    return p;
}

int cass_release(void* ptr, int kind) {
    if (!ptr) return 1;
    std::lock_guard<std::mutex> guard(g_mem_lock);
    for (size_t i = 0; i < g_allocs.size(); i++) {
        const Allocation& a = g_allocs[i];
        if (a.base == (uint64_t)(uintptr_t)ptr && (kind == 0 || a.kind == kind)) {
            if (a.mapped) munmap(ptr, a.mapped);
            else if (a.kind != CASS_REGISTERED) free(ptr);
            g_in_use -= a.size;
            if (on_device(a.kind)) g_device_in_use -= a.size;
            g_allocs.erase(g_allocs.begin() + i);
            return 1;
        }
    }
    return 0;
}

int cass_find_allocation(const void* ptr, uint64_t* base, uint64_t* size, int* kind) {
    std::lock_guard<std::mutex> guard(g_mem_lock);
    uint64_t a = (uint64_t)(uintptr_t)ptr;
    for (const Allocation& al : g_allocs) {
        if (a >= al.base && a < al.base + (al.size ? al.size : 1)) {
            *base = al.base;
            *size = al.size;
            *kind = al.kind;
            return 1;
        }
    }
    return 0;
}

static hipError_t alloc_into(void** ptr, size_t size, int kind) {
    if (!ptr) return cass_set_error(hipErrorInvalidValue);
    *ptr = cass_allocate(size, kind);
    return cass_set_error(*ptr ? hipSuccess : hipErrorOutOfMemory);
}

hipError_t hipMalloc(void** ptr, size_t size) { return alloc_into(ptr, size, CASS_DEVICE); }
hipError_t hipMallocManaged(void** ptr, size_t size, unsigned int) {
    return alloc_into(ptr, size, CASS_MANAGED);
}
hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int) {
    return alloc_into(ptr, size, CASS_HOST);
}
hipError_t hipMallocHost(void** ptr, size_t size) { return alloc_into(ptr, size, CASS_HOST); }
hipError_t hipHostAlloc(void** ptr, size_t size, unsigned int) {
    return alloc_into(ptr, size, CASS_HOST);
}
hipError_t hipExtMallocWithFlags(void** ptr, size_t size, unsigned int) {
    return alloc_into(ptr, size, CASS_DEVICE);
}
hipError_t hipMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
    size_t p = (width + 255) & ~(size_t)255;
    if (pitch) *pitch = p;
    return alloc_into(ptr, p * height, CASS_DEVICE);
}

hipError_t hipFree(void* ptr) {
    return cass_set_error(cass_release(ptr, 0) ? hipSuccess : hipErrorInvalidValue);
}
hipError_t hipHostFree(void* ptr) { return hipFree(ptr); }
hipError_t hipFreeHost(void* ptr) { return hipFree(ptr); }

hipError_t hipHostRegister(void* ptr, size_t size, unsigned int) {
    record(ptr, size, CASS_REGISTERED);
    return cass_set_error(hipSuccess);
}
hipError_t hipHostUnregister(void* ptr) {
    return cass_set_error(cass_release(ptr, CASS_REGISTERED) ? hipSuccess : hipErrorInvalidValue);
}
hipError_t hipHostGetDevicePointer(void** dev, void* host, unsigned int) {
    *dev = host;
    return cass_set_error(hipSuccess);
}
hipError_t hipHostGetFlags(unsigned int* flags, void*) {
    *flags = 0;
    return cass_set_error(hipSuccess);
}

hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attr, const void* ptr) {
    uint64_t base, size;
    int kind;
    if (!cass_find_allocation(ptr, &base, &size, &kind)) return cass_set_error(hipErrorInvalidValue);
    memset(attr, 0, sizeof(*attr));
    attr->memoryType = (kind == CASS_DEVICE) ? hipMemoryTypeDevice : hipMemoryTypeHost;
    attr->isManaged = kind == CASS_MANAGED;
    attr->devicePointer = const_cast<void*>(ptr);
    attr->hostPointer = const_cast<void*>(ptr);
    return cass_set_error(hipSuccess);
}

hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total) {
    std::lock_guard<std::mutex> guard(g_mem_lock);
    uint64_t size = device_memory();
    if (total) *total = size;
    if (free_bytes) *free_bytes = size > g_device_in_use ? size - g_device_in_use : 0;
    return cass_set_error(hipSuccess);
}

hipError_t hipMemcpy(void* dst, const void* src, size_t n, hipMemcpyKind) {
    if (n && (!dst || !src)) return cass_set_error(hipErrorInvalidValue);
    if (n) memmove(dst, src, n);
    cass_account_copy(n);
    return cass_set_error(hipSuccess);
}
hipError_t hipMemcpyAsync(void* d, const void* s, size_t n, hipMemcpyKind k, hipStream_t) {
    return hipMemcpy(d, s, n, k);
}
hipError_t hipMemcpyWithStream(void* d, const void* s, size_t n, hipMemcpyKind k, hipStream_t) {
    return hipMemcpy(d, s, n, k);
}
hipError_t hipMemcpyHtoD(hipDeviceptr_t d, void* s, size_t n) {
    return hipMemcpy(d, s, n, hipMemcpyHostToDevice);
}
hipError_t hipMemcpyDtoH(void* d, hipDeviceptr_t s, size_t n) {
    return hipMemcpy(d, s, n, hipMemcpyDeviceToHost);
}
hipError_t hipMemcpyDtoD(hipDeviceptr_t d, hipDeviceptr_t s, size_t n) {
    return hipMemcpy(d, s, n, hipMemcpyDeviceToDevice);
}
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t d, void* s, size_t n, hipStream_t) {
    return hipMemcpy(d, s, n, hipMemcpyHostToDevice);
}
hipError_t hipMemcpyDtoHAsync(void* d, hipDeviceptr_t s, size_t n, hipStream_t) {
    return hipMemcpy(d, s, n, hipMemcpyDeviceToHost);
}
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t d, hipDeviceptr_t s, size_t n, hipStream_t) {
    return hipMemcpy(d, s, n, hipMemcpyDeviceToDevice);
}
hipError_t hipMemcpyPeer(void* d, int, const void* s, int, size_t n) {
    return hipMemcpy(d, s, n, hipMemcpyDeviceToDevice);
}

hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                       size_t height, hipMemcpyKind) {
    if (width > dpitch || width > spitch) return cass_set_error(hipErrorInvalidPitchValue);
    for (size_t r = 0; r < height; r++)
        memmove((char*)dst + r * dpitch, (const char*)src + r * spitch, width);
    cass_account_copy(width * height);
    return cass_set_error(hipSuccess);
}
hipError_t hipMemcpy2DAsync(void* d, size_t dp, const void* s, size_t sp, size_t w, size_t h,
                            hipMemcpyKind k, hipStream_t) {
    return hipMemcpy2D(d, dp, s, sp, w, h, k);
}

hipError_t hipMemset(void* dst, int value, size_t n) {
    if (n && !dst) return cass_set_error(hipErrorInvalidValue);
    memset(dst, value, n);
    cass_account_copy(n / 8);  // a device fill runs at device bandwidth, not PCIe
    return cass_set_error(hipSuccess);
}
hipError_t hipMemsetAsync(void* d, int v, size_t n, hipStream_t) { return hipMemset(d, v, n); }
hipError_t hipMemsetD8(hipDeviceptr_t d, unsigned char v, size_t n) { return hipMemset(d, v, n); }
hipError_t hipMemsetD8Async(hipDeviceptr_t d, unsigned char v, size_t n, hipStream_t) {
    return hipMemset(d, v, n);
}
hipError_t hipMemsetD16(hipDeviceptr_t d, unsigned short v, size_t n) {
    for (size_t i = 0; i < n; i++) ((unsigned short*)d)[i] = v;
    return cass_set_error(hipSuccess);
}
hipError_t hipMemsetD16Async(hipDeviceptr_t d, unsigned short v, size_t n, hipStream_t) {
    return hipMemsetD16(d, v, n);
}
hipError_t hipMemsetD32(hipDeviceptr_t d, int v, size_t n) {
    for (size_t i = 0; i < n; i++) ((int*)d)[i] = v;
    return cass_set_error(hipSuccess);
}
hipError_t hipMemsetD32Async(hipDeviceptr_t d, int v, size_t n, hipStream_t) {
    return hipMemsetD32(d, v, n);
}
hipError_t hipMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height) {
    for (size_t r = 0; r < height; r++) memset((char*)dst + r * pitch, value, width);
    return cass_set_error(hipSuccess);
}
hipError_t hipMemset2DAsync(void* d, size_t p, int v, size_t w, size_t h, hipStream_t) {
    return hipMemset2D(d, p, v, w, h);
}

hipError_t hipMemPrefetchAsync(const void*, size_t, int, hipStream_t) {
    return cass_set_error(hipSuccess);
}
hipError_t hipMemAdvise(const void*, size_t, hipMemoryAdvise, int) {
    return cass_set_error(hipSuccess);
}

// --- symbols: the host shadow address maps to the device global of the loaded code object ---
static hipError_t symbol_address(const void* symbol, char** addr, size_t* size) {
    int module_id;
    const char* name;
    size_t host_size;
    if (!cass_var_lookup(symbol, &module_id, &name, &host_size))
        return hipErrorInvalidSymbol;
    uint64_t a = 0, s = 0;
    if (!cass_bridge_symbol(module_id, name, &a, &s)) return hipErrorInvalidSymbol;
    *addr = (char*)(uintptr_t)a;
    *size = (size_t)s;
    return hipSuccess;
}

hipError_t hipGetSymbolAddress(void** dev, const void* symbol) {
    char* a;
    size_t s;
    hipError_t e = symbol_address(symbol, &a, &s);
    if (e == hipSuccess) *dev = a;
    return cass_set_error(e);
}
hipError_t hipGetSymbolSize(size_t* size, const void* symbol) {
    char* a;
    return cass_set_error(symbol_address(symbol, &a, size));
}
hipError_t hipMemcpyToSymbol(const void* symbol, const void* src, size_t n, size_t offset,
                             hipMemcpyKind) {
    char* a;
    size_t s;
    hipError_t e = symbol_address(symbol, &a, &s);
    if (e != hipSuccess) return cass_set_error(e);
    if (offset + n > s) return cass_set_error(hipErrorInvalidValue);
    memcpy(a + offset, src, n);
    return cass_set_error(hipSuccess);
}
hipError_t hipMemcpyToSymbolAsync(const void* sym, const void* src, size_t n, size_t off,
                                  hipMemcpyKind k, hipStream_t) {
    return hipMemcpyToSymbol(sym, src, n, off, k);
}
hipError_t hipMemcpyFromSymbol(void* dst, const void* symbol, size_t n, size_t offset,
                               hipMemcpyKind) {
    char* a;
    size_t s;
    hipError_t e = symbol_address(symbol, &a, &s);
    if (e != hipSuccess) return cass_set_error(e);
    if (offset + n > s) return cass_set_error(hipErrorInvalidValue);
    memcpy(dst, a + offset, n);
    return cass_set_error(hipSuccess);
}
hipError_t hipMemcpyFromSymbolAsync(void* dst, const void* sym, size_t n, size_t off,
                                    hipMemcpyKind k, hipStream_t) {
    return hipMemcpyFromSymbol(dst, sym, n, off, k);
}

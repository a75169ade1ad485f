// Less common HIP entry points with obvious meanings on one synchronous emulated device:
// stream-ordered allocation, driver-style allocation, context queries, host functions.
#include "runtime.h"

#include <vector>

hipError_t hipMallocAsync(void** ptr, size_t size, hipStream_t) { return hipMalloc(ptr, size); }
hipError_t hipFreeAsync(void* ptr, hipStream_t) { return hipFree(ptr); }
hipError_t hipMemAllocHost(void** ptr, size_t size) { return hipHostMalloc(ptr, size, 0); }

hipError_t hipMemAllocPitch(hipDeviceptr_t* ptr, size_t* pitch, size_t width, size_t height,
                            unsigned int) {
    return hipMallocPitch(ptr, pitch, width, height);
}

hipError_t hipMemGetAddressRange(hipDeviceptr_t* base, size_t* size, hipDeviceptr_t ptr) {
    uint64_t b, s;
    int kind;
    if (!cass_find_allocation(ptr, &b, &s, &kind)) return cass_set_error(hipErrorNotFound);
    if (base) *base = (hipDeviceptr_t)(uintptr_t)b;
    if (size) *size = (size_t)s;
    return hipSuccess;
}

hipError_t hipLaunchHostFunc(hipStream_t, hipHostFn_t fn, void* data) {
    fn(data);  // streams are synchronous: the host function runs in order, now
    return hipSuccess;
}

hipError_t hipChooseDevice(int* device, const hipDeviceProp_t*) {
    *device = 0;
    return hipSuccess;
}

hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig* config) {
    *config = hipSharedMemBankSizeFourByte;
    return hipSuccess;
}

hipError_t hipCtxGetDevice(hipDevice_t* device) {
    *device = 0;
    return hipSuccess;
}

hipError_t hipCtxSynchronize(void) { return hipDeviceSynchronize(); }

hipError_t hipDeviceEnablePeerAccess(int, unsigned int) {
    return cass_set_error(hipErrorInvalidDevice);  // one device: there is no peer
}

hipError_t hipDeviceDisablePeerAccess(int) { return cass_set_error(hipErrorInvalidDevice); }

hipError_t hipFuncGetAttribute(int* value, hipFunction_attribute attrib, hipFunction_t f) {
    hipFuncAttributes attrs;
    if (!f || !cass_bridge_kernel_attrs(f->module_id, f->name, &attrs))
        return cass_set_error(hipErrorInvalidValue);
    switch (attrib) {
        case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = attrs.maxThreadsPerBlock; break;
        case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = (int)attrs.sharedSizeBytes; break;
        case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *value = (int)attrs.localSizeBytes; break;
        case HIP_FUNC_ATTRIBUTE_NUM_REGS: *value = attrs.numRegs; break;
        default: *value = 0; break;
    }
    return hipSuccess;
}

// --- driver-API contexts: one emulated device has one context (its primary one); the calls
// keep the current-context stack a program can observe and check the device number.
struct ihipCtx_t {
    unsigned flags;
    int retained;
};
static ihipCtx_t g_primary{0, 0};
static std::vector<hipCtx_t> g_ctx_stack;

hipError_t hipDevicePrimaryCtxRetain(hipCtx_t* ctx, hipDevice_t device) {
    if (!ctx) return cass_set_error(hipErrorInvalidValue);
    if (device != 0) return cass_set_error(hipErrorInvalidDevice);
    ++g_primary.retained;
    *ctx = &g_primary;
    return hipSuccess;
}

hipError_t hipDevicePrimaryCtxRelease(hipDevice_t device) {
    if (device != 0) return cass_set_error(hipErrorInvalidDevice);
    if (g_primary.retained > 0) --g_primary.retained;
    return hipSuccess;
}

hipError_t hipDevicePrimaryCtxGetState(hipDevice_t device, unsigned int* flags, int* active) {
    if (device != 0) return cass_set_error(hipErrorInvalidDevice);
    if (flags) *flags = g_primary.flags;
    if (active) *active = g_primary.retained > 0;
    return hipSuccess;
}

hipError_t hipDevicePrimaryCtxSetFlags(hipDevice_t device, unsigned int flags) {
    if (device != 0) return cass_set_error(hipErrorInvalidDevice);
    g_primary.flags = flags;
    return hipSuccess;
}

hipError_t hipDevicePrimaryCtxReset(hipDevice_t device) {
    return device == 0 ? hipSuccess : cass_set_error(hipErrorInvalidDevice);
}

hipError_t hipCtxCreate(hipCtx_t* ctx, unsigned int flags, hipDevice_t device) {
    if (!ctx) return cass_set_error(hipErrorInvalidValue);
    if (device != 0) return cass_set_error(hipErrorInvalidDevice);
    g_primary.flags = flags;
    *ctx = &g_primary;
    g_ctx_stack.push_back(&g_primary);
    return hipSuccess;
}

hipError_t hipCtxDestroy(hipCtx_t ctx) {
    if (ctx != &g_primary) return cass_set_error(hipErrorInvalidContext);
    if (!g_ctx_stack.empty()) g_ctx_stack.pop_back();
    return hipSuccess;
}

hipError_t hipCtxSetCurrent(hipCtx_t ctx) {
    if (ctx && ctx != &g_primary) return cass_set_error(hipErrorInvalidContext);
    if (g_ctx_stack.empty()) g_ctx_stack.push_back(ctx);
    else g_ctx_stack.back() = ctx;
    return hipSuccess;
}

hipError_t hipCtxGetCurrent(hipCtx_t* ctx) {
    if (!ctx) return cass_set_error(hipErrorInvalidValue);
    *ctx = g_ctx_stack.empty() ? nullptr : g_ctx_stack.back();
    return hipSuccess;
}

hipError_t hipCtxPushCurrent(hipCtx_t ctx) {
    if (ctx != &g_primary) return cass_set_error(hipErrorInvalidContext);
    g_ctx_stack.push_back(ctx);
    return hipSuccess;
}

hipError_t hipCtxPopCurrent(hipCtx_t* ctx) {
    if (g_ctx_stack.empty()) return cass_set_error(hipErrorInvalidContext);
    if (ctx) *ctx = g_ctx_stack.back();
    g_ctx_stack.pop_back();
    return hipSuccess;
}

// Device, stream, event, error and occupancy half of the cass HIP runtime. Describes one
// gfx1100 GPU (Radeon RX 7900 XTX); streams are in-order and synchronous; event times come
// from the emulator's device clock.
#include <cstdio>
#include <cstring>

#include "runtime.h"

static thread_local hipError_t t_last_error = hipSuccess;
static int g_device_flags = 0;

hipError_t cass_set_error(hipError_t err) {
    if (err != hipSuccess) t_last_error = err;
    return err;
}

namespace {
struct ErrorName {
    hipError_t code;
    const char* name;
};
const ErrorName kErrorNames[] = {
    {hipSuccess, "hipSuccess"},
    {hipErrorInvalidValue, "hipErrorInvalidValue"},
    {hipErrorOutOfMemory, "hipErrorOutOfMemory"},
    {hipErrorNotInitialized, "hipErrorNotInitialized"},
    {hipErrorDeinitialized, "hipErrorDeinitialized"},
    {hipErrorProfilerDisabled, "hipErrorProfilerDisabled"},
    {hipErrorProfilerNotInitialized, "hipErrorProfilerNotInitialized"},
    {hipErrorProfilerAlreadyStarted, "hipErrorProfilerAlreadyStarted"},
    {hipErrorProfilerAlreadyStopped, "hipErrorProfilerAlreadyStopped"},
    {hipErrorInvalidConfiguration, "hipErrorInvalidConfiguration"},
    {hipErrorInvalidPitchValue, "hipErrorInvalidPitchValue"},
    {hipErrorInvalidSymbol, "hipErrorInvalidSymbol"},
    {hipErrorInvalidDevicePointer, "hipErrorInvalidDevicePointer"},
    {hipErrorInvalidMemcpyDirection, "hipErrorInvalidMemcpyDirection"},
    {hipErrorInsufficientDriver, "hipErrorInsufficientDriver"},
    {hipErrorMissingConfiguration, "hipErrorMissingConfiguration"},
    {hipErrorPriorLaunchFailure, "hipErrorPriorLaunchFailure"},
    {hipErrorInvalidDeviceFunction, "hipErrorInvalidDeviceFunction"},
    {hipErrorNoDevice, "hipErrorNoDevice"},
    {hipErrorInvalidDevice, "hipErrorInvalidDevice"},
    {hipErrorInvalidImage, "hipErrorInvalidImage"},
    {hipErrorInvalidContext, "hipErrorInvalidContext"},
    {hipErrorContextAlreadyCurrent, "hipErrorContextAlreadyCurrent"},
    {hipErrorMapFailed, "hipErrorMapFailed"},
    {hipErrorMapBufferObjectFailed, "hipErrorMapBufferObjectFailed"},
    {hipErrorUnmapFailed, "hipErrorUnmapFailed"},
    {hipErrorArrayIsMapped, "hipErrorArrayIsMapped"},
    {hipErrorAlreadyMapped, "hipErrorAlreadyMapped"},
    {hipErrorNoBinaryForGpu, "hipErrorNoBinaryForGpu"},
    {hipErrorAlreadyAcquired, "hipErrorAlreadyAcquired"},
    {hipErrorNotMapped, "hipErrorNotMapped"},
    {hipErrorNotMappedAsArray, "hipErrorNotMappedAsArray"},
    {hipErrorNotMappedAsPointer, "hipErrorNotMappedAsPointer"},
    {hipErrorECCNotCorrectable, "hipErrorECCNotCorrectable"},
    {hipErrorUnsupportedLimit, "hipErrorUnsupportedLimit"},
    {hipErrorContextAlreadyInUse, "hipErrorContextAlreadyInUse"},
    {hipErrorPeerAccessUnsupported, "hipErrorPeerAccessUnsupported"},
    {hipErrorInvalidKernelFile, "hipErrorInvalidKernelFile"},
    {hipErrorInvalidGraphicsContext, "hipErrorInvalidGraphicsContext"},
    {hipErrorInvalidSource, "hipErrorInvalidSource"},
    {hipErrorFileNotFound, "hipErrorFileNotFound"},
    {hipErrorSharedObjectSymbolNotFound, "hipErrorSharedObjectSymbolNotFound"},
    {hipErrorSharedObjectInitFailed, "hipErrorSharedObjectInitFailed"},
    {hipErrorOperatingSystem, "hipErrorOperatingSystem"},
    {hipErrorInvalidHandle, "hipErrorInvalidHandle"},
    {hipErrorIllegalState, "hipErrorIllegalState"},
    {hipErrorNotFound, "hipErrorNotFound"},
    {hipErrorNotReady, "hipErrorNotReady"},
    {hipErrorIllegalAddress, "hipErrorIllegalAddress"},
    {hipErrorLaunchOutOfResources, "hipErrorLaunchOutOfResources"},
    {hipErrorLaunchTimeOut, "hipErrorLaunchTimeOut"},
    {hipErrorPeerAccessAlreadyEnabled, "hipErrorPeerAccessAlreadyEnabled"},
    {hipErrorPeerAccessNotEnabled, "hipErrorPeerAccessNotEnabled"},
    {hipErrorSetOnActiveProcess, "hipErrorSetOnActiveProcess"},
    {hipErrorContextIsDestroyed, "hipErrorContextIsDestroyed"},
    {hipErrorAssert, "hipErrorAssert"},
    {hipErrorHostMemoryAlreadyRegistered, "hipErrorHostMemoryAlreadyRegistered"},
    {hipErrorHostMemoryNotRegistered, "hipErrorHostMemoryNotRegistered"},
    {hipErrorLaunchFailure, "hipErrorLaunchFailure"},
    {hipErrorCooperativeLaunchTooLarge, "hipErrorCooperativeLaunchTooLarge"},
    {hipErrorNotSupported, "hipErrorNotSupported"},
    {hipErrorStreamCaptureUnsupported, "hipErrorStreamCaptureUnsupported"},
    {hipErrorStreamCaptureInvalidated, "hipErrorStreamCaptureInvalidated"},
    {hipErrorStreamCaptureMerge, "hipErrorStreamCaptureMerge"},
    {hipErrorStreamCaptureUnmatched, "hipErrorStreamCaptureUnmatched"},
    {hipErrorStreamCaptureUnjoined, "hipErrorStreamCaptureUnjoined"},
    {hipErrorStreamCaptureIsolation, "hipErrorStreamCaptureIsolation"},
    {hipErrorStreamCaptureImplicit, "hipErrorStreamCaptureImplicit"},
    {hipErrorCapturedEvent, "hipErrorCapturedEvent"},
    {hipErrorStreamCaptureWrongThread, "hipErrorStreamCaptureWrongThread"},
    {hipErrorGraphExecUpdateFailure, "hipErrorGraphExecUpdateFailure"},
    {hipErrorUnknown, "hipErrorUnknown"},
    {hipErrorRuntimeMemory, "hipErrorRuntimeMemory"},
    {hipErrorRuntimeOther, "hipErrorRuntimeOther"},
};
}  // namespace

const char* hipGetErrorName(hipError_t err) {
    for (const ErrorName& e : kErrorNames)
        if (e.code == err) return e.name;
    return "hipErrorUnknown";
}
const char* hipGetErrorString(hipError_t err) {
    if (err == hipSuccess) return "no error";
    return hipGetErrorName(err);
}
hipError_t hipGetLastError(void) {
    hipError_t e = t_last_error;
    t_last_error = hipSuccess;
    return e;
}
hipError_t hipPeekAtLastError(void) { return t_last_error; }

// --- devices ---
hipError_t hipInit(unsigned int) { return hipSuccess; }
hipError_t hipGetDeviceCount(int* count) {
    *count = 1;
    return hipSuccess;
}
hipError_t hipSetDevice(int id) { return cass_set_error(id == 0 ? hipSuccess : hipErrorInvalidDevice); }
hipError_t hipGetDevice(int* id) {
    *id = 0;
    return hipSuccess;
}
hipError_t hipDeviceGet(hipDevice_t* device, int ordinal) {
    if (ordinal != 0) return cass_set_error(hipErrorInvalidDevice);
    *device = 0;
    return hipSuccess;
}
hipError_t hipSetDeviceFlags(unsigned flags) {
    g_device_flags = (int)flags;
    return hipSuccess;
}
hipError_t hipGetDeviceFlags(unsigned int* flags) {
    *flags = (unsigned)g_device_flags;
    return hipSuccess;
}
hipError_t hipDeviceSynchronize(void) { return t_last_error == hipErrorLaunchFailure ? hipErrorLaunchFailure : hipSuccess; }
hipError_t hipDeviceReset(void) { return hipSuccess; }
hipError_t hipDeviceSetCacheConfig(hipFuncCache_t) { return hipSuccess; }
hipError_t hipDeviceGetCacheConfig(hipFuncCache_t* c) {
    *c = hipFuncCachePreferNone;
    return hipSuccess;
}
hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig) { return hipSuccess; }
hipError_t hipDeviceGetLimit(size_t* value, enum hipLimit_t limit) {
    *value = limit == hipLimitMallocHeapSize ? (size_t)8 << 20 : 0;
    return hipSuccess;
}
hipError_t hipDeviceCanAccessPeer(int* can, int, int) {
    *can = 0;
    return hipSuccess;
}
hipError_t hipRuntimeGetVersion(int* v) {
    *v = 50231;
    return hipSuccess;
}
hipError_t hipDriverGetVersion(int* v) {
    *v = 50231;
    return hipSuccess;
}
hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t) {
    size_t free_bytes;
    return hipMemGetInfo(&free_bytes, bytes);
}
hipError_t hipDeviceComputeCapability(int* major, int* minor, hipDevice_t) {
    *major = 11;
    *minor = 0;
    return hipSuccess;
}
hipError_t hipDeviceGetName(char* name, int len, hipDevice_t) {
    snprintf(name, (size_t)len, "%s", "cass emulated AMD Radeon RX 7900 XTX (gfx1100)");
    return hipSuccess;
}
hipError_t hipDeviceGetPCIBusId(char* bus, int len, int) {
    snprintf(bus, (size_t)len, "0000:00:00.0");
    return hipSuccess;
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t* p, int id) {
    if (id != 0) return cass_set_error(hipErrorInvalidDevice);
    memset(p, 0, sizeof(*p));
    hipDeviceGetName(p->name, sizeof(p->name), 0);
    hipMemGetInfo(nullptr, &p->totalGlobalMem);
    p->sharedMemPerBlock = 65536;
    p->regsPerBlock = 65536;
    p->warpSize = 32;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = p->maxThreadsDim[2] = 1024;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = p->maxGridSize[2] = 65536;
    p->clockRate = 2500000;
    p->memoryClockRate = 1250000;
    p->memoryBusWidth = 384;
    p->totalConstMem = 2147483647;
    p->major = 11;
    p->minor = 0;
    p->multiProcessorCount = 48;
    p->l2CacheSize = 6 << 20;
    p->maxThreadsPerMultiProcessor = 2048;
    p->clockInstructionRate = 1000000;
    p->concurrentKernels = 1;
    p->maxSharedMemoryPerMultiProcessor = 65536 * 2;
    p->canMapHostMemory = 1;
    p->gcnArch = 1100;
    snprintf(p->gcnArchName, sizeof(p->gcnArchName), "gfx1100");
    p->cooperativeLaunch = 1;
    p->memPitch = 2147483647;
    p->textureAlignment = 256;
    p->texturePitchAlignment = 256;
    p->isLargeBar = 1;
    p->managedMemory = 1;
    p->directManagedMemAccessFromHost = 1;
    p->concurrentManagedAccess = 1;
    p->pageableMemoryAccess = 1;
    p->arch.hasGlobalInt32Atomics = 1;
    p->arch.hasGlobalFloatAtomicExch = 1;
    p->arch.hasSharedInt32Atomics = 1;
    p->arch.hasSharedFloatAtomicExch = 1;
    p->arch.hasFloatAtomicAdd = 1;
    p->arch.hasGlobalInt64Atomics = 1;
    p->arch.hasSharedInt64Atomics = 1;
    p->arch.hasDoubles = 1;
    p->arch.hasWarpVote = 1;
    p->arch.hasWarpBallot = 1;
    p->arch.hasWarpShuffle = 1;
    p->arch.hasFunnelShift = 1;
    p->arch.hasThreadFenceSystem = 1;
    p->arch.hasSyncThreadsExt = 1;
    p->arch.has3dGrid = 1;
    p->arch.hasDynamicParallelism = 0;
    return hipSuccess;
}

hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attr, int id) {
    hipDeviceProp_t p;
    if (hipGetDeviceProperties(&p, id) != hipSuccess) return hipErrorInvalidDevice;
    switch (attr) {
        case hipDeviceAttributeMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
        case hipDeviceAttributeMaxBlockDimX:
        case hipDeviceAttributeMaxBlockDimY:
        case hipDeviceAttributeMaxBlockDimZ: *value = 1024; break;
        case hipDeviceAttributeMaxGridDimX: *value = p.maxGridSize[0]; break;
        case hipDeviceAttributeMaxGridDimY:
        case hipDeviceAttributeMaxGridDimZ: *value = p.maxGridSize[1]; break;
        case hipDeviceAttributeWarpSize: *value = 32; break;
        case hipDeviceAttributeMultiprocessorCount: *value = p.multiProcessorCount; break;
        case hipDeviceAttributeMaxSharedMemoryPerBlock: *value = 65536; break;
        case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: *value = 131072; break;
        case hipDeviceAttributeComputeCapabilityMajor: *value = 11; break;
        case hipDeviceAttributeComputeCapabilityMinor: *value = 0; break;
        case hipDeviceAttributeClockRate: *value = p.clockRate; break;
        case hipDeviceAttributeMemoryClockRate: *value = p.memoryClockRate; break;
        case hipDeviceAttributeMemoryBusWidth: *value = p.memoryBusWidth; break;
        case hipDeviceAttributeL2CacheSize: *value = p.l2CacheSize; break;
        case hipDeviceAttributeMaxThreadsPerMultiProcessor: *value = 2048; break;
        case hipDeviceAttributeTotalConstantMemory: *value = 2147483647; break;
        case hipDeviceAttributeMaxRegistersPerBlock: *value = 65536; break;
        case hipDeviceAttributeManagedMemory:
        case hipDeviceAttributeConcurrentManagedAccess:
        case hipDeviceAttributeCooperativeLaunch: *value = 1; break;
        case hipDeviceAttributeIntegrated: *value = 0; break;
        default: *value = 0; break;
    }
    return hipSuccess;
}

// --- streams (in order, synchronous) ---
hipError_t hipStreamCreateWithPriority(hipStream_t* s, unsigned int flags, int priority) {
    *s = new ihipStream_t{flags, priority};
    return hipSuccess;
}
hipError_t hipStreamCreateWithFlags(hipStream_t* s, unsigned int flags) {
    return hipStreamCreateWithPriority(s, flags, 0);
}
hipError_t hipStreamCreate(hipStream_t* s) { return hipStreamCreateWithPriority(s, 0, 0); }
hipError_t hipStreamDestroy(hipStream_t s) {
    delete s;
    return hipSuccess;
}
hipError_t hipStreamSynchronize(hipStream_t) { return hipDeviceSynchronize(); }
hipError_t hipStreamQuery(hipStream_t) { return hipSuccess; }
hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t, unsigned int) { return hipSuccess; }
hipError_t hipStreamGetFlags(hipStream_t s, unsigned int* flags) {
    *flags = s ? s->flags : 0;
    return hipSuccess;
}
hipError_t hipStreamGetPriority(hipStream_t s, int* priority) {
    *priority = s ? s->priority : 0;
    return hipSuccess;
}
hipError_t hipDeviceGetStreamPriorityRange(int* least, int* greatest) {
    *least = 0;
    *greatest = -1;
    return hipSuccess;
}
hipError_t hipStreamAddCallback(hipStream_t s, hipStreamCallback_t cb, void* data, unsigned int) {
    cb(s, hipSuccess, data);
    return hipSuccess;
}

// --- events ---
hipError_t hipEventCreateWithFlags(hipEvent_t* e, unsigned flags) {
    *e = new ihipEvent_t{flags, 0, 0.0};
    return hipSuccess;
}
hipError_t hipEventCreate(hipEvent_t* e) { return hipEventCreateWithFlags(e, 0); }
hipError_t hipEventDestroy(hipEvent_t e) {
    delete e;
    return hipSuccess;
}
hipError_t hipEventRecord(hipEvent_t e, hipStream_t) {
    if (!e) return cass_set_error(hipErrorInvalidHandle);
    e->recorded = 1;
    e->device_ns = cass_bridge_device_ns() + cass_copy_ns();
    return hipSuccess;
}
hipError_t hipEventSynchronize(hipEvent_t e) {
    return cass_set_error(e ? hipSuccess : hipErrorInvalidHandle);
}
hipError_t hipEventQuery(hipEvent_t e) {
    return cass_set_error(e ? hipSuccess : hipErrorInvalidHandle);
}
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
    if (!start || !stop || !ms) return cass_set_error(hipErrorInvalidHandle);
    if (!start->recorded || !stop->recorded) return cass_set_error(hipErrorNotReady);
    *ms = (float)((stop->device_ns - start->device_ns) / 1e6);
    return hipSuccess;
}

// --- occupancy (gfx1100: 16 waves of 32 per SIMD pair, 64 KiB LDS per workgroup) ---
hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void*, int block_size,
                                                        size_t dyn_shared) {
    if (block_size <= 0) return cass_set_error(hipErrorInvalidValue);
    int by_threads = 2048 / block_size;
    int by_lds = dyn_shared ? (int)(131072 / dyn_shared) : by_threads;
    *blocks = by_threads < by_lds ? by_threads : by_lds;
    if (*blocks < 1) *blocks = 1;
    return hipSuccess;
}
hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* f,
                                                                 int block_size, size_t dyn,
                                                                 unsigned int) {
    return hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, f, block_size, dyn);
}
hipError_t hipOccupancyMaxPotentialBlockSize(int* grid, int* block, const void*, size_t,
                                             int limit) {
    *block = (limit > 0 && limit < 1024) ? limit : 1024;
    *grid = 48 * (2048 / *block);
    return hipSuccess;
}

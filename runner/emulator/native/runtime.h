// cass HIP host runtime: shared declarations of the C++ shim that stands in for libamdhip64.
// Device pointer == host pointer; kernels run in the embedded Python RDNA3 emulator.
#pragma once
#define __HIP_PLATFORM_AMD__ 1
#include <hip/hip_runtime_api.h>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

struct ihipStream_t {
    unsigned flags;
    int priority;
};

struct ihipEvent_t {
    unsigned flags;
    int recorded;
    double device_ns;  // emulator clock when recorded
};

struct ihipModule_t {
    int module_id;
};

struct ihipModuleSymbol_t {
    int module_id;
    char name[512];
};

enum cass_alloc_kind { CASS_DEVICE = 1, CASS_HOST = 2, CASS_MANAGED = 3, CASS_REGISTERED = 4 };

// Allocation table (runtime_memory.cpp); read by the emulator through ctypes.
extern "C" int cass_rt_allocation_count(void);
extern "C" int cass_rt_allocation_get(int index, uint64_t* base, uint64_t* size, int* kind,
                                      int* serial);
extern "C" void cass_rt_write_stdout(const char* text, size_t size);
extern "C" void cass_rt_flush(void);
void* cass_allocate(size_t size, int kind);
int cass_release(void* ptr, int kind);
int cass_find_allocation(const void* ptr, uint64_t* base, uint64_t* size, int* kind);
void cass_account_copy(size_t bytes);  // modelled transfer time, added to the device clock
double cass_copy_ns(void);

// Python bridge (runtime_bridge.cpp).
int cass_bridge_load_fatbin(const void* wrapper_binary);
int cass_bridge_load_image(const void* image);
int cass_bridge_launch(int module_id, const char* kernel, dim3 grid, dim3 block, size_t shmem,
                       void** args, const void* blob, size_t blob_size);
int cass_bridge_symbol(int module_id, const char* name, uint64_t* address, uint64_t* size);
int cass_bridge_kernel_attrs(int module_id, const char* name, hipFuncAttributes* attrs);
double cass_bridge_device_ns(void);
struct CassRtcRequest {  // one hiprtcCompileProgram call (runtime_rtc.cpp)
    const char* source;
    const char* name;
    int num_headers;
    const char* const* headers;
    const char* const* include_names;
    int num_options;
    const char* const* options;
    std::vector<std::string> name_expressions;
};
// Compiles through cass.runner.emulator.hiprtc; returns a hiprtcResult value.
int cass_bridge_rtc_compile(const CassRtcRequest& request, std::string* log, std::string* code,
                            std::vector<std::string>* lowered);
[[noreturn]] void cass_fatal(const char* what, const char* detail);

// Error bookkeeping (runtime_api.cpp).
hipError_t cass_set_error(hipError_t err);
int cass_function_lookup(const void* host_function, int* module_id, const char** name);
int cass_var_lookup(const void* host_var, int* module_id, const char** name, size_t* size);

// Launch half of the cass HIP runtime: registration of the code objects clang embeds in the
// host program, the call-configuration stack, hipLaunchKernel and the hipModule* API.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

#include "runtime.h"

namespace {
struct FatModule {
    void* handle_slot;     // what __hipRegisterFatBinary returns points here
    const void* binary;    // the offload bundle in .hip_fatbin
    int python_id;         // -1 until the emulator loaded it
};
struct KernelEntry {
    const void* host_function;
    int module;
    std::string name;
};
struct VarEntry {
    const void* host_var;
    int module;
    std::string name;
    size_t size;
};
struct ManagedEntry {
    int module;
    std::string name;
    void* allocation;
};
struct CallConfig {
    dim3 grid, block;
    size_t shmem;
    hipStream_t stream;
};

std::recursive_mutex g_reg_lock;
std::vector<FatModule*> g_modules;
std::vector<KernelEntry> g_kernels;
std::vector<VarEntry> g_vars;
std::vector<ManagedEntry> g_managed;
thread_local std::vector<CallConfig> t_configs;

const int kFatMagic = 0x48495046;

int module_of_handle(void** handle) {
    for (size_t i = 0; i < g_modules.size(); i++)
        if (&g_modules[i]->handle_slot == (void*)handle) return (int)i;
    return -1;
}

int ensure_loaded(int index) {
    FatModule* m = g_modules[index];
    if (m->python_id >= 0) return m->python_id;
    m->python_id = cass_bridge_load_fatbin(m->binary);
    for (ManagedEntry& e : g_managed) {
        if (e.module != index) continue;
        uint64_t addr, size;
        if (cass_bridge_symbol(m->python_id, e.name.c_str(), &addr, &size) && size >= sizeof(void*))
            memcpy((void*)(uintptr_t)addr, &e.allocation, sizeof(void*));
    }
    return m->python_id;
}
}  // namespace

int cass_function_lookup(const void* fn, int* module_id, const char** name) {
    std::lock_guard<std::recursive_mutex> guard(g_reg_lock);
    for (const KernelEntry& k : g_kernels) {
        if (k.host_function == fn) {
            *module_id = ensure_loaded(k.module);
            *name = k.name.c_str();
            return 1;
        }
    }
    return 0;
}

int cass_var_lookup(const void* var, int* module_id, const char** name, size_t* size) {
    std::lock_guard<std::recursive_mutex> guard(g_reg_lock);
    for (const VarEntry& v : g_vars) {
        if (v.host_var == var) {
            *module_id = ensure_loaded(v.module);
            *name = v.name.c_str();
            *size = v.size;
            return 1;
        }
    }
    return 0;
}

extern "C" void** __hipRegisterFatBinary(const void* data) {
    struct Wrapper {
        int magic, version;
        const void* binary;
        const void* unused;
    };
    const Wrapper* w = (const Wrapper*)data;
    if (!w || w->magic != kFatMagic)
        cass_fatal("__hipRegisterFatBinary", "bad fat binary wrapper (magic is not HIPF)");
    std::lock_guard<std::recursive_mutex> guard(g_reg_lock);
    FatModule* m = new FatModule{nullptr, w->binary, -1};
    g_modules.push_back(m);
    return &m->handle_slot;
}

extern "C" void __hipUnregisterFatBinary(void**) {}

extern "C" void __hipRegisterFunction(void** handle, const void* host_function, char* device_fn,
                                      const char* device_name, unsigned int, void*, void*, dim3*,
                                      dim3*, int*) {
    std::lock_guard<std::recursive_mutex> guard(g_reg_lock);
    const char* name = device_name ? device_name : device_fn;
    g_kernels.push_back({host_function, module_of_handle(handle), name});
}

extern "C" void __hipRegisterVar(void** handle, void* host_var, char*, char* device_name, int,
                                 size_t size, int, int) {
    std::lock_guard<std::recursive_mutex> guard(g_reg_lock);
    g_vars.push_back({host_var, module_of_handle(handle), device_name, size});
}

extern "C" void __hipRegisterManagedVar(void* handle, void** pointer, void* init_value,
                                        const char* name, size_t size, unsigned int) {
    std::lock_guard<std::recursive_mutex> guard(g_reg_lock);
    void* mem = cass_allocate(size, CASS_MANAGED);
    if (init_value) memcpy(mem, init_value, size);
    *pointer = mem;
    g_managed.push_back({module_of_handle((void**)handle), name, mem});
}

extern "C" hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shmem,
                                                 hipStream_t stream) {
    t_configs.push_back({grid, block, shmem, stream});
    return hipSuccess;
}

extern "C" hipError_t __hipPopCallConfiguration(dim3* grid, dim3* block, size_t* shmem,
                                                hipStream_t* stream) {
    if (t_configs.empty()) return cass_set_error(hipErrorInvalidConfiguration);
    CallConfig c = t_configs.back();
    t_configs.pop_back();
    *grid = c.grid;
    *block = c.block;
    *shmem = c.shmem;
    *stream = c.stream;
    return hipSuccess;
}

// HIP's launch checks: work-items per dimension (grid x block) fit in 32 bits, at most 1024
// threads per block, dynamic LDS at most the 64 KiB a gfx1100 workgroup has.
static hipError_t check_dims(dim3 grid, dim3 block, size_t shmem) {
    unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
    if (threads == 0 || grid.x == 0 || grid.y == 0 || grid.z == 0) return hipErrorInvalidConfiguration;
    if (threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 1024)
        return hipErrorInvalidConfiguration;
    const unsigned long long most = 0xFFFFFFFFull;
    if ((unsigned long long)grid.x * block.x > most || (unsigned long long)grid.y * block.y > most ||
        (unsigned long long)grid.z * block.z > most)
        return hipErrorInvalidConfiguration;
    if (shmem > 65536) return hipErrorInvalidValue;
    return hipSuccess;
}

static hipError_t launch(int module_id, const char* name, dim3 grid, dim3 block, size_t shmem,
                         void** args, const void* blob, size_t blob_size) {
    hipError_t e = check_dims(grid, block, shmem);
    if (e != hipSuccess) return cass_set_error(e);
    int status = cass_bridge_launch(module_id, name, grid, block, shmem, args, blob, blob_size);
    return cass_set_error(status == 0 ? hipSuccess : hipErrorLaunchFailure);
}

hipError_t hipLaunchKernel(const void* fn, dim3 grid, dim3 block, void** args, size_t shmem,
                           hipStream_t) {
    int module_id;
    const char* name;
    if (!cass_function_lookup(fn, &module_id, &name))
        return cass_set_error(hipErrorInvalidDeviceFunction);
    return launch(module_id, name, grid, block, shmem, args, nullptr, 0);
}

hipError_t hipLaunchCooperativeKernel(const void* fn, dim3 grid, dim3 block, void** args,
                                      unsigned int shmem, hipStream_t stream) {
    return hipLaunchKernel(fn, grid, block, args, shmem, stream);
}

hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, const void* fn) {
    int module_id;
    const char* name;
    if (!cass_function_lookup(fn, &module_id, &name))
        return cass_set_error(hipErrorInvalidDeviceFunction);
    return cass_set_error(cass_bridge_kernel_attrs(module_id, name, attr) ? hipSuccess
                                                                          : hipErrorInvalidValue);
}

hipError_t hipFuncSetAttribute(const void*, hipFuncAttribute, int) { return hipSuccess; }
hipError_t hipFuncSetCacheConfig(const void*, hipFuncCache_t) { return hipSuccess; }
hipError_t hipFuncSetSharedMemConfig(const void*, hipSharedMemConfig) { return hipSuccess; }

// --- hipModule API: code objects loaded at run time ---
hipError_t hipModuleLoadData(hipModule_t* module, const void* image) {
    if (!module || !image) return cass_set_error(hipErrorInvalidValue);
    int id = cass_bridge_load_image(image);
    if (id < 0) return cass_set_error(hipErrorInvalidImage);
    *module = new ihipModule_t{id};
    return cass_set_error(hipSuccess);
}

hipError_t hipModuleLoadDataEx(hipModule_t* module, const void* image, unsigned int,
                               hipJitOption*, void**) {
    return hipModuleLoadData(module, image);
}

hipError_t hipModuleLoad(hipModule_t* module, const char* path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        fprintf(stderr, "cass HIP runtime: hipModuleLoad: cannot open %s\n", path);
        return cass_set_error(hipErrorFileNotFound);
    }
    std::vector<char>* bytes = new std::vector<char>((std::istreambuf_iterator<char>(in)),
                                                     std::istreambuf_iterator<char>());
    bytes->resize(bytes->size() + 64, 0);  // kept alive: the emulator reads it lazily
    return hipModuleLoadData(module, bytes->data());
}

hipError_t hipModuleUnload(hipModule_t module) {
    delete module;
    return cass_set_error(hipSuccess);
}

hipError_t hipModuleGetFunction(hipFunction_t* fn, hipModule_t module, const char* name) {
    hipFuncAttributes attrs;
    if (!module || !cass_bridge_kernel_attrs(module->module_id, name, &attrs))
        return cass_set_error(hipErrorNotFound);
    ihipModuleSymbol_t* f = new ihipModuleSymbol_t;
    f->module_id = module->module_id;
    snprintf(f->name, sizeof(f->name), "%s", name);
    *fn = f;
    return cass_set_error(hipSuccess);
}

hipError_t hipModuleGetGlobal(hipDeviceptr_t* dptr, size_t* bytes, hipModule_t module,
                              const char* name) {
    uint64_t a, s;
    if (!module || !cass_bridge_symbol(module->module_id, name, &a, &s))
        return cass_set_error(hipErrorNotFound);
    if (dptr) *dptr = (hipDeviceptr_t)(uintptr_t)a;
    if (bytes) *bytes = (size_t)s;
    return cass_set_error(hipSuccess);
}

hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gx, unsigned int gy,
                                 unsigned int gz, unsigned int bx, unsigned int by,
                                 unsigned int bz, unsigned int shmem, hipStream_t,
                                 void** params, void** extra) {
    const void* blob = nullptr;
    size_t blob_size = 0;
    for (int i = 0; extra && extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
        if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER) blob = extra[i + 1];
        if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE) blob_size = *(size_t*)extra[i + 1];
    }
    if (!f || (!params && !blob)) return cass_set_error(hipErrorInvalidValue);
    return launch(f->module_id, f->name, dim3(gx, gy, gz), dim3(bx, by, bz), shmem, params, blob,
                  blob_size);
}

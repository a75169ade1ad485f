// Texture references (HIP 5.2's deprecated `texture<T, dim, mode>` API), bound the way AMD's
// runtime binds them: clang registers each `texture<>` variable with __hipRegisterTexture (its host
// shadow, the device global of the same name: the whole textureReference struct). A bind builds a
// texture object from the reference's fields (normalized, readMode, filterMode, addressMode) and
// the resource, stores it in the shadow's `textureObject` and copies the shadow to the device
// global, where HIP's device functions (texture_fetch_functions.h) read `t.textureObject`.
#include <climits>
#include <cstdio>
#include <cstring>

#include "runtime.h"

extern "C" void __hipRegisterVar(void** handle, void* host_var, char*, char* device_name, int,
                                 size_t size, int, int);

extern "C" void __hipRegisterTexture(void** handle, void* host_var, char* device_var,
                                     char* device_name, int, int, int) {
    __hipRegisterVar(handle, host_var, device_var, device_name, 0, sizeof(textureReference), 0, 0);
}

namespace {

hipError_t refuse(const char* api, const char* why) {
    fprintf(stderr, "cass HIP runtime: %s: %s\n", api, why);
    return cass_set_error(hipErrorInvalidValue);
}

bool registered(const textureReference* ref) {
    int module_id;
    const char* name;
    size_t size;
    return ref && cass_var_lookup(ref, &module_id, &name, &size);
}

// The sampling state CUDA reads from a reference's fields at bind time.
hipTextureDesc texture_desc(const textureReference* ref) {
    hipTextureDesc t{};
    for (int d = 0; d < 3; ++d) t.addressMode[d] = ref->addressMode[d];
    t.filterMode = ref->filterMode;
    t.readMode = ref->readMode;
    t.normalizedCoords = ref->normalized;
    t.sRGB = ref->sRGB;
    t.maxAnisotropy = ref->maxAnisotropy;
    return t;
}

// Replaces the reference's object (null: unbinds) and publishes the shadow to the device global.
hipError_t publish(const char* api, const textureReference* ref, hipTextureObject_t object) {
    textureReference* shadow = const_cast<textureReference*>(ref);
    if (shadow->textureObject) hipDestroyTextureObject(shadow->textureObject);
    shadow->textureObject = object;
    hipError_t e = hipMemcpyToSymbol((const void*)shadow, shadow, sizeof(textureReference), 0,
                                     hipMemcpyHostToDevice);
    if (e != hipSuccess) return refuse(api, "the texture's device variable was not found");
    return hipSuccess;
}

hipError_t bind(const char* api, const textureReference* ref, const hipResourceDesc& res) {
    if (!registered(ref))
        return refuse(api, "not a registered texture<> variable (bind the variable itself)");
    hipTextureDesc tex = texture_desc(ref);
    hipTextureObject_t object = nullptr;
    hipError_t e = hipCreateTextureObject(&object, &res, &tex, nullptr);
    if (e != hipSuccess) return e;
    return publish(api, ref, object);
}

}  // namespace

hipError_t hipBindTexture(size_t* offset, const textureReference* tex, const void* devPtr,
                          const hipChannelFormatDesc* desc, size_t size) {
    if (!desc) return refuse("hipBindTexture", "the channel descriptor is null");
    hipResourceDesc res{};
    res.resType = hipResourceTypeLinear;
    res.res.linear.devPtr = const_cast<void*>(devPtr);
    res.res.linear.desc = *desc;
    res.res.linear.sizeInBytes = size;
    if (size == UINT_MAX) {  // the headers' default: the rest of the allocation
        uint64_t base = 0, bytes = 0;
        int kind = 0;
        if (!cass_find_allocation(devPtr, &base, &bytes, &kind))
            return refuse("hipBindTexture", "devPtr is not device memory");
        res.res.linear.sizeInBytes = base + bytes - (uint64_t)(uintptr_t)devPtr;
    }
    if (offset) *offset = 0;  // a buffer descriptor starts at any byte: no alignment offset
    return bind("hipBindTexture", tex, res);
}

hipError_t hipBindTexture2D(size_t* offset, const textureReference* tex, const void* devPtr,
                            const hipChannelFormatDesc* desc, size_t width, size_t height,
                            size_t pitch) {
    if (!desc) return refuse("hipBindTexture2D", "the channel descriptor is null");
    hipResourceDesc res{};
    res.resType = hipResourceTypePitch2D;
    res.res.pitch2D.devPtr = const_cast<void*>(devPtr);
    res.res.pitch2D.desc = *desc;
    res.res.pitch2D.width = width;
    res.res.pitch2D.height = height;
    res.res.pitch2D.pitchInBytes = pitch;
    if (offset) *offset = 0;
    return bind("hipBindTexture2D", tex, res);
}

hipError_t hipBindTextureToArray(const textureReference* tex, hipArray_const_t array,
                                 const hipChannelFormatDesc*) {
    hipResourceDesc res{};
    res.resType = hipResourceTypeArray;
    res.res.array.array = const_cast<hipArray_t>(array);
    return bind("hipBindTextureToArray", tex, res);
}

hipError_t hipUnbindTexture(const textureReference* tex) {
    if (!registered(tex))
        return refuse("hipUnbindTexture", "not a registered texture<> variable");
    return publish("hipUnbindTexture", tex, nullptr);
}

hipError_t hipGetTextureReference(const textureReference** texref, const void* symbol) {
    const textureReference* ref = static_cast<const textureReference*>(symbol);
    if (!texref || !registered(ref))
        return refuse("hipGetTextureReference", "the symbol is not a registered texture<> variable");
    *texref = ref;
    return hipSuccess;
}

hipError_t hipGetTextureAlignmentOffset(size_t* offset, const textureReference* texref) {
    if (!offset || !registered(texref))
        return refuse("hipGetTextureAlignmentOffset", "not a registered texture<> variable");
    *offset = 0;
    return hipSuccess;
}

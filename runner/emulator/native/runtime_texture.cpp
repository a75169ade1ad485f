// Arrays, texture objects and surface objects, built the way AMD's runtime builds them for gfx11:
// a texture object is a device pointer to 20 dwords that HIP 5.2's device headers read,
//   dwords 0-7   the image resource descriptor (V#; a 4-dword buffer descriptor for linear memory),
//   dword  8, 9  the HSA channel type and channel order (read by surf*read/surf*write),
//   dword  10    the width (ockl's point-sampling coordinate snap reads it: floor(x * w) / w),
//   dwords 12-15 the sampler descriptor (S#),
// with fields laid out as in ROCm's gfx11 register definitions (ROCR-Runtime
// src/image/resource_gfx11.h) and formats numbered as gfx11's unified formats (as llvm-mc-16
// names them). Images are linear (SW_MODE 0): rows of `pitch` texels (the width rounded up to 256
// bytes), slices of pitch * height texels. The emulator (runner/emulator/ops_image.py) interprets
// the same descriptors; anything here it cannot interpret is a located fault there.
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>

#include "runtime.h"

namespace {

constexpr int kObjectDwords = 20;  // HIP_TEXTURE_OBJECT_SIZE_DWORD
constexpr int kSamplerDword = 12;  // HIP_SAMPLER_OBJECT_OFFSET_DWORD
constexpr size_t kRowAlign = 256;

// gfx11 unified formats (BUF_FMT_* / IMG_FORMAT_*)
enum Fmt {
    F8_UNORM = 1, F8_SNORM = 2, F8_UINT = 5, F8_SINT = 6, F16_UNORM = 7, F16_SNORM = 8,
    F16_UINT = 11, F16_SINT = 12, F16_FLOAT = 13, F8_8_UNORM = 14, F8_8_SNORM = 15,
    F8_8_UINT = 18, F8_8_SINT = 19, F32_UINT = 20, F32_SINT = 21, F32_FLOAT = 22,
    F16_16_UNORM = 23, F16_16_SNORM = 24, F16_16_UINT = 27, F16_16_SINT = 28, F16_16_FLOAT = 29,
    F8_8_8_8_UNORM = 42, F8_8_8_8_SNORM = 43, F8_8_8_8_UINT = 46, F8_8_8_8_SINT = 47,
    F32_32_UINT = 48, F32_32_SINT = 49, F32_32_FLOAT = 50, F16x4_UNORM = 51, F16x4_SNORM = 52,
    F16x4_UINT = 55, F16x4_SINT = 56, F16x4_FLOAT = 57, F32x4_UINT = 61, F32x4_SINT = 62,
    F32x4_FLOAT = 63,
};

enum ImgType { IMG_1D = 8, IMG_2D = 9, IMG_3D = 10, IMG_1D_ARRAY = 12, IMG_2D_ARRAY = 13 };

struct Format {
    int fmt = 0;           // gfx11 unified format; 0: not representable
    int channels = 0;      // 1, 2 or 4
    int bytes = 0;         // per texel
    int hsa_type = 0;      // HSA_EXT_IMAGE_CHANNEL_TYPE_*
};

struct TextureRecord {
    hipResourceDesc res;
    hipTextureDesc tex;
    bool has_tex;
};

std::mutex g_tex_lock;
std::map<const void*, TextureRecord> g_objects;

// The refusal, explained on stderr (the program sees only the error code), then the error.
hipError_t refuse(const char* api, const char* why, hipError_t err = hipErrorInvalidValue) {
    fprintf(stderr, "cass HIP runtime: %s: %s\n", api, why);
    return cass_set_error(err);
}

const char* kFormatHelp =
    "the channel format has no gfx11 image format (use 1, 2 or 4 channels of one width: "
    "8/16/32-bit signed or unsigned, 16/32-bit float)";

// Format of `desc`; `normalized` picks UNORM/SNORM for 8- and 16-bit integers (cudaReadModeNormalizedFloat).
Format format_of(const hipChannelFormatDesc& d, bool normalized) {
    Format f;
    int bits = d.x;
    f.channels = (d.x > 0) + (d.y > 0) + (d.z > 0) + (d.w > 0);
    if (f.channels == 3 || (d.y && d.y != bits) || (d.z && d.z != bits) || (d.w && d.w != bits))
        return Format{};  // gfx11 has no three-channel or mixed-width image formats
    f.bytes = f.channels * bits / 8;
    static const int table[3][3][4] = {
        // [kind: signed, unsigned, float][bits 8/16/32][channels 1/2/-/4 -> 0,1,-,3]
        {{F8_SINT, F8_8_SINT, 0, F8_8_8_8_SINT}, {F16_SINT, F16_16_SINT, 0, F16x4_SINT},
         {F32_SINT, F32_32_SINT, 0, F32x4_SINT}},
        {{F8_UINT, F8_8_UINT, 0, F8_8_8_8_UINT}, {F16_UINT, F16_16_UINT, 0, F16x4_UINT},
         {F32_UINT, F32_32_UINT, 0, F32x4_UINT}},
        {{0, 0, 0, 0}, {F16_FLOAT, F16_16_FLOAT, 0, F16x4_FLOAT},
         {F32_FLOAT, F32_32_FLOAT, 0, F32x4_FLOAT}},
    };
    int kind = d.f == hipChannelFormatKindSigned ? 0 : d.f == hipChannelFormatKindUnsigned ? 1
             : d.f == hipChannelFormatKindFloat ? 2 : -1;
    int width = bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : -1;
    if (kind < 0 || width < 0 || f.channels == 0) return Format{};
    f.fmt = table[kind][width][f.channels - 1];
    if (normalized && kind < 2 && bits < 32) f.fmt -= 4;  // *_SINT/UINT -> SNORM/UNORM
    // HSA channel types: SNORM_INT8 0, SNORM_INT16 1, UNORM_INT8 2, UNORM_INT16 3, SIGNED_INT8 8,
    // SIGNED_INT16 9, SIGNED_INT32 10, UNSIGNED_INT8 11, ..16 12, ..32 13, HALF_FLOAT 14, FLOAT 15
    static const int hsa[3][3] = {{8, 9, 10}, {11, 12, 13}, {-1, 14, 15}};
    f.hsa_type = hsa[kind][width];
    if (normalized && kind < 2 && bits < 32) f.hsa_type = (kind == 0 ? 0 : 2) + width;
    return f;
}

// HSA channel orders: R 1, RG 3, RGBA 8
int hsa_order(int channels) { return channels == 1 ? 1 : channels == 2 ? 3 : 8; }

size_t texel_bytes(const hipChannelFormatDesc& d) { return (size_t)(d.x + d.y + d.z + d.w) / 8; }

size_t pitch_texels(const hipArray* a) {
    size_t row = (size_t)a->width * texel_bytes(a->desc);
    return ((row + kRowAlign - 1) / kRowAlign * kRowAlign) / texel_bytes(a->desc);
}

size_t pitch_bytes(const hipArray* a) { return pitch_texels(a) * texel_bytes(a->desc); }

// Destination selects: present channels in order, missing colour channels 0, missing alpha 1.
uint32_t dst_sel(int channels) {
    const uint32_t X = 4, Y = 5, Z = 6, W = 7, ZERO = 0, ONE = 1;
    uint32_t s[4] = {X, channels > 1 ? Y : ZERO, channels > 2 ? Z : ZERO, channels > 3 ? W : ONE};
    return s[0] | s[1] << 3 | s[2] << 6 | s[3] << 9;
}

void image_descriptor(uint32_t* w, uint64_t base, const Format& f, int type, size_t width,
                      size_t height, size_t depth_field) {
    w[0] = (uint32_t)(base >> 8);
    w[1] = (uint32_t)((base >> 40) & 0xFF) | (uint32_t)f.fmt << 20 | (uint32_t)((width - 1) & 3) << 30;
    w[2] = (uint32_t)((width - 1) >> 2) | (uint32_t)(height - 1) << 14;
    w[3] = dst_sel(f.channels) | (uint32_t)type << 28;  // levels 0..0, SW_MODE 0 (linear)
    w[4] = (uint32_t)depth_field;  // last slice (arrays), depth - 1 (3D), pitch - 1 (1D/2D)
    w[8] = (uint32_t)f.hsa_type;
    w[9] = (uint32_t)hsa_order(f.channels);
    w[10] = (uint32_t)width;
}

void buffer_descriptor(uint32_t* w, uint64_t base, const Format& f, size_t bytes) {
    w[0] = (uint32_t)base;
    w[1] = (uint32_t)((base >> 32) & 0xFFFF) | (uint32_t)f.bytes << 16;  // STRIDE
    w[2] = (uint32_t)(bytes / f.bytes);  // NUM_RECORDS: whole texels (structured buffer)
    w[3] = dst_sel(f.channels) | (uint32_t)f.fmt << 12;  // OOB_SELECT 0, TYPE 0 (buffer)
    w[8] = (uint32_t)f.hsa_type;
    w[9] = (uint32_t)hsa_order(f.channels);
}

uint32_t clamp_mode(hipTextureAddressMode m) {
    switch (m) {
        case hipAddressModeWrap: return 0;    // SQ_TEX_WRAP
        case hipAddressModeMirror: return 1;  // SQ_TEX_MIRROR
        case hipAddressModeBorder: return 6;  // SQ_TEX_CLAMP_BORDER (transparent black)
        default: return 2;                    // SQ_TEX_CLAMP_LAST_TEXEL
    }
}

void sampler_descriptor(uint32_t* s, const hipTextureDesc& t) {
    uint32_t filter = t.filterMode == hipFilterModeLinear ? 1 : 0;  // SQ_TEX_XY_FILTER_BILINEAR
    s[0] = clamp_mode(t.addressMode[0]) | clamp_mode(t.addressMode[1]) << 3
         | clamp_mode(t.addressMode[2]) << 6 | (uint32_t)(t.normalizedCoords ? 0 : 1) << 15;
    s[1] = 0xFFFu << 12;  // MIN_LOD 0, MAX_LOD 15.99
    s[2] = filter << 20 | filter << 22 | (filter ? 2u : 1u) << 24;  // XY mag/min, Z filter
    s[3] = 0;  // BORDER_COLOR_TYPE 0: transparent black
}

// Fills the 20 dwords for `res` (+ `tex`, for textures); null, or why gfx11 cannot hold it.
const char* fill_object(uint32_t* w, const hipResourceDesc& res, const hipTextureDesc* tex) {
    bool normalized = tex && tex->readMode == hipReadModeNormalizedFloat;
    if (res.resType == hipResourceTypeLinear) {
        Format f = format_of(res.res.linear.desc, normalized);
        if (!f.fmt) return kFormatHelp;
        if (!res.res.linear.devPtr) return "the linear resource's devPtr is null";
        buffer_descriptor(w, (uint64_t)(uintptr_t)res.res.linear.devPtr, f, res.res.linear.sizeInBytes);
    } else if (res.resType == hipResourceTypePitch2D) {
        const auto& p = res.res.pitch2D;
        Format f = format_of(p.desc, normalized);
        uint64_t base = (uint64_t)(uintptr_t)p.devPtr;
        if (!f.fmt) return kFormatHelp;
        if (!base || base % kRowAlign || p.pitchInBytes % f.bytes || !p.width || !p.height)
            return "a pitch2D resource needs a 256-byte aligned devPtr (hipMallocPitch gives one), "
                   "a pitch of whole texels and a non-zero width and height";
        image_descriptor(w, base, f, IMG_2D, p.width, p.height, p.pitchInBytes / f.bytes - 1);
    } else if (res.resType == hipResourceTypeArray) {
        const hipArray* a = res.res.array.array;
        if (!a || !a->data) return "the array resource's array is null";
        Format f = format_of(a->desc, normalized);
        if (!f.fmt) return kFormatHelp;
        bool layered = a->type & hipArrayLayered;
        int type = layered ? (a->height > 0 ? IMG_2D_ARRAY : IMG_1D_ARRAY)
                 : a->depth > 0 ? IMG_3D : a->height > 0 ? IMG_2D : IMG_1D;
        size_t rows = type == IMG_1D_ARRAY || type == IMG_1D || !a->height ? 1 : a->height;
        size_t field = layered ? a->depth - 1 : type == IMG_3D ? a->depth - 1 : pitch_texels(a) - 1;
        image_descriptor(w, (uint64_t)(uintptr_t)a->data, f, type, a->width, rows, field);
    } else {
        return "mipmapped arrays are not supported by the cass runtime";
    }
    if (tex) sampler_descriptor(w + kSamplerDword, *tex);
    return nullptr;
}

hipError_t make_object(const char* api, void** out, const hipResourceDesc* res,
                       const hipTextureDesc* tex) {
    if (!out || !res) return refuse(api, "the object or resource pointer is null");
    uint32_t words[kObjectDwords] = {};
    if (const char* why = fill_object(words, *res, tex)) return refuse(api, why);
    void* object = cass_allocate(sizeof(words), CASS_DEVICE);
    if (!object) return cass_set_error(hipErrorOutOfMemory);
    memcpy(object, words, sizeof(words));
    std::lock_guard<std::mutex> guard(g_tex_lock);
    g_objects[object] = TextureRecord{*res, tex ? *tex : hipTextureDesc{}, tex != nullptr};
    *out = object;
    return hipSuccess;
}

hipError_t destroy_object(const void* object) {
    if (!object) return hipSuccess;
    {
        std::lock_guard<std::mutex> guard(g_tex_lock);
        if (!g_objects.erase(object)) return cass_set_error(hipErrorInvalidValue);
    }
    cass_release(const_cast<void*>(object), CASS_DEVICE);
    return hipSuccess;
}

// Array element (x bytes, y, z) as a host pointer; null when outside.
char* array_at(const hipArray* a, size_t x_bytes, size_t y, size_t z) {
    size_t rows = a->height ? a->height : 1;
    return (char*)a->data + (z * rows + y) * pitch_bytes(a) + x_bytes;
}

bool fits(const hipArray* a, size_t x_bytes, size_t width_bytes, size_t y, size_t h, size_t z,
          size_t d) {
    size_t rows = a->height ? a->height : 1, slices = a->depth ? a->depth : 1;
    return x_bytes + width_bytes <= a->width * texel_bytes(a->desc) && y + h <= rows && z + d <= slices;
}

hipError_t new_array(hipArray** out, const hipChannelFormatDesc* desc, size_t w, size_t h, size_t d,
                     unsigned flags) {
    if (!out || !desc || !w) return refuse("hipMallocArray", "null array or format, or width 0");
    if (!format_of(*desc, false).fmt) return refuse("hipMallocArray", kFormatHelp);
    auto* a = new hipArray{};
    a->desc = *desc;
    a->type = flags;
    a->width = (unsigned)w;
    a->height = (unsigned)h;
    a->depth = (unsigned)d;
    a->NumChannels = (unsigned)format_of(*desc, false).channels;
    size_t rows = h ? h : 1;
    a->data = cass_allocate(pitch_bytes(a) * rows * (d ? d : 1), CASS_DEVICE);
    if (!a->data) {
        delete a;
        return cass_set_error(hipErrorOutOfMemory);
    }
    *out = a;
    return hipSuccess;
}

void copy_rows(char* dst, size_t dpitch, const char* src, size_t spitch, size_t width, size_t rows) {
    for (size_t r = 0; r < rows; r++) memcpy(dst + r * dpitch, src + r * spitch, width);
    cass_account_copy(width * rows);
}

}  // namespace

hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f) {
    return hipChannelFormatDesc{x, y, z, w, f};
}

hipError_t hipMallocArray(hipArray** array, const hipChannelFormatDesc* desc, size_t width,
                          size_t height, unsigned int flags) {
    return new_array(array, desc, width, height, 0, flags);
}

hipError_t hipMalloc3DArray(hipArray** array, const hipChannelFormatDesc* desc, hipExtent extent,
                            unsigned int flags) {
    return new_array(array, desc, extent.width, extent.height, extent.depth, flags);
}

hipError_t hipFreeArray(hipArray* array) {
    if (!array) return cass_set_error(hipErrorInvalidValue);
    cass_release(array->data, CASS_DEVICE);
    delete array;
    return hipSuccess;
}

hipError_t hipGetChannelDesc(hipChannelFormatDesc* desc, hipArray_const_t array) {
    if (!desc || !array) return cass_set_error(hipErrorInvalidValue);
    *desc = array->desc;
    return hipSuccess;
}

hipError_t hipMemcpy2DToArray(hipArray* dst, size_t wOffset, size_t hOffset, const void* src,
                              size_t spitch, size_t width, size_t height, hipMemcpyKind) {
    if (!dst || !src || spitch < width) return cass_set_error(hipErrorInvalidValue);
    if (!fits(dst, wOffset, width, hOffset, height, 0, 1)) return cass_set_error(hipErrorInvalidValue);
    copy_rows(array_at(dst, wOffset, hOffset, 0), pitch_bytes(dst), (const char*)src, spitch, width, height);
    return hipSuccess;
}

hipError_t hipMemcpy2DToArrayAsync(hipArray* dst, size_t wOffset, size_t hOffset, const void* src,
                                   size_t spitch, size_t width, size_t height, hipMemcpyKind kind,
                                   hipStream_t) {
    return hipMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

hipError_t hipMemcpy2DFromArray(void* dst, size_t dpitch, hipArray_const_t src, size_t wOffset,
                                size_t hOffset, size_t width, size_t height, hipMemcpyKind) {
    if (!dst || !src || dpitch < width) return cass_set_error(hipErrorInvalidValue);
    if (!fits(src, wOffset, width, hOffset, height, 0, 1)) return cass_set_error(hipErrorInvalidValue);
    copy_rows((char*)dst, dpitch, array_at(src, wOffset, hOffset, 0), pitch_bytes(src), width, height);
    return hipSuccess;
}

// The deprecated linear forms: `count` bytes from (wOffset, hOffset) on, row after row.
hipError_t hipMemcpyToArray(hipArray* dst, size_t wOffset, size_t hOffset, const void* src,
                            size_t count, hipMemcpyKind kind) {
    if (!dst || !src) return cass_set_error(hipErrorInvalidValue);
    size_t row = dst->width * texel_bytes(dst->desc);
    const char* from = (const char*)src;
    while (count) {
        if (wOffset >= row) return cass_set_error(hipErrorInvalidValue);
        size_t n = count < row - wOffset ? count : row - wOffset;
        hipError_t err = hipMemcpy2DToArray(dst, wOffset, hOffset, from, n, n, 1, kind);
        if (err != hipSuccess) return err;
        from += n, count -= n, wOffset = 0, hOffset++;
    }
    return hipSuccess;
}

hipError_t hipMemcpyFromArray(void* dst, hipArray_const_t src, size_t wOffset, size_t hOffset,
                              size_t count, hipMemcpyKind kind) {
    if (!dst || !src) return cass_set_error(hipErrorInvalidValue);
    size_t row = src->width * texel_bytes(src->desc);
    char* to = (char*)dst;
    while (count) {
        if (wOffset >= row) return cass_set_error(hipErrorInvalidValue);
        size_t n = count < row - wOffset ? count : row - wOffset;
        hipError_t err = hipMemcpy2DFromArray(to, n, src, wOffset, hOffset, n, 1, kind);
        if (err != hipSuccess) return err;
        to += n, count -= n, wOffset = 0, hOffset++;
    }
    return hipSuccess;
}

// Pitched memory <-> array, or array <-> array; the extent is in texels for arrays, bytes otherwise.
hipError_t hipMemcpy3D(const hipMemcpy3DParms* p) {
    if (!p) return cass_set_error(hipErrorInvalidValue);
    const hipArray* arr = p->dstArray ? p->dstArray : p->srcArray;
    size_t tb = arr ? texel_bytes(arr->desc) : 1;
    size_t w = p->extent.width * tb, h = p->extent.height ? p->extent.height : 1;
    size_t d = p->extent.depth ? p->extent.depth : 1;
    for (size_t z = 0; z < d; z++) {
        for (size_t y = 0; y < h; y++) {
            const char* from;
            char* to;
            if (p->srcArray) {
                if (!fits(p->srcArray, p->srcPos.x * tb, w, p->srcPos.y + y, 1, p->srcPos.z + z, 1))
                    return cass_set_error(hipErrorInvalidValue);
                from = array_at(p->srcArray, p->srcPos.x * tb, p->srcPos.y + y, p->srcPos.z + z);
            } else {
                const hipPitchedPtr& s = p->srcPtr;
                if (!s.ptr) return cass_set_error(hipErrorInvalidValue);
                size_t rows = s.ysize ? s.ysize : h;
                from = (const char*)s.ptr + ((p->srcPos.z + z) * rows + p->srcPos.y + y) * s.pitch + p->srcPos.x;
            }
            if (p->dstArray) {
                if (!fits(p->dstArray, p->dstPos.x * tb, w, p->dstPos.y + y, 1, p->dstPos.z + z, 1))
                    return cass_set_error(hipErrorInvalidValue);
                to = array_at(p->dstArray, p->dstPos.x * tb, p->dstPos.y + y, p->dstPos.z + z);
            } else {
                const hipPitchedPtr& t = p->dstPtr;
                if (!t.ptr) return cass_set_error(hipErrorInvalidValue);
                size_t rows = t.ysize ? t.ysize : h;
                to = (char*)t.ptr + ((p->dstPos.z + z) * rows + p->dstPos.y + y) * t.pitch + p->dstPos.x;
            }
            memcpy(to, from, w);
        }
    }
    cass_account_copy(w * h * d);
    return hipSuccess;
}

hipError_t hipMemcpy3DAsync(const hipMemcpy3DParms* p, hipStream_t) { return hipMemcpy3D(p); }

hipError_t hipCreateTextureObject(hipTextureObject_t* object, const hipResourceDesc* res,
                                  const hipTextureDesc* tex, const hipResourceViewDesc*) {
    if (!tex) return refuse("hipCreateTextureObject", "the texture descriptor is null");
    return make_object("hipCreateTextureObject", (void**)object, res, tex);
}

hipError_t hipDestroyTextureObject(hipTextureObject_t object) { return destroy_object(object); }

hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc* res, hipTextureObject_t object) {
    std::lock_guard<std::mutex> guard(g_tex_lock);
    auto it = g_objects.find(object);
    if (!res || it == g_objects.end()) return cass_set_error(hipErrorInvalidValue);
    *res = it->second.res;
    return hipSuccess;
}

hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc* tex, hipTextureObject_t object) {
    std::lock_guard<std::mutex> guard(g_tex_lock);
    auto it = g_objects.find(object);
    if (!tex || it == g_objects.end() || !it->second.has_tex) return cass_set_error(hipErrorInvalidValue);
    *tex = it->second.tex;
    return hipSuccess;
}

hipError_t hipCreateSurfaceObject(hipSurfaceObject_t* object, const hipResourceDesc* res) {
    if (!res || res->resType != hipResourceTypeArray)
        return refuse("hipCreateSurfaceObject", "a surface needs an array resource");
    return make_object("hipCreateSurfaceObject", (void**)object, res, nullptr);
}

hipError_t hipDestroySurfaceObject(hipSurfaceObject_t object) { return destroy_object(object); }

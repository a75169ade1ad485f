"""Device helpers emitted into a port when the target HIP lacks a CUDA warp intrinsic.

Each helper is guarded by its own macro so a `.cu` file and the headers it includes can all carry
it. The helpers use only what HIP 5.2 provides (`__ballot`, `__shfl*`, `__lane_id`, `__ffsll`,
`warpSize`) and 64-bit lane masks, so they are correct on wave32 and wave64 targets.
"""

from __future__ import annotations

MARKER = "cass: HIP equivalents of CUDA intrinsics"

SHIMS: dict[str, str] = {
    "syncwarp": """\
__device__ inline void __cass_syncwarp() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
""",
    "match": """\
template <typename T>
__device__ inline unsigned long long __cass_match_any_sync(unsigned long long mask, T value) {
  unsigned long long todo = __ballot(1) & mask, result = 0;
  while (todo) {
    T leader = __shfl(value, __ffsll(todo) - 1);
    unsigned long long same = __ballot(value == leader) & todo;
    if (value == leader) result = same;
    todo &= ~same;
  }
  return result;
}
template <typename T>
__device__ inline unsigned long long __cass_match_all_sync(unsigned long long mask, T value, int* pred) {
  unsigned long long members = __ballot(1) & mask;
  T leader = __shfl(value, __ffsll(members) - 1);
  bool all = (__ballot(value == leader) & members) == members;
  *pred = all;
  return all ? members : 0ull;
}
""",
    "reduce": """\
template <typename T, typename Op>
__device__ inline T __cass_warp_reduce(unsigned long long mask, T value, T identity, Op op) {
  T v = ((mask >> __lane_id()) & 1ull) ? value : identity;
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v = op(v, __shfl_xor(v, offset));
  return v;
}
struct __cass_add { template <typename T> __device__ T operator()(T a, T b) const { return a + b; } };
struct __cass_min { template <typename T> __device__ T operator()(T a, T b) const { return a < b ? a : b; } };
struct __cass_max { template <typename T> __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
struct __cass_and { template <typename T> __device__ T operator()(T a, T b) const { return a & b; } };
struct __cass_or { template <typename T> __device__ T operator()(T a, T b) const { return a | b; } };
struct __cass_xor { template <typename T> __device__ T operator()(T a, T b) const { return a ^ b; } };
template <typename T> __device__ inline T __cass_reduce_add_sync(unsigned long long m, T v) { return __cass_warp_reduce(m, v, T(0), __cass_add()); }
// min, max, and, or are idempotent: lanes outside the mask contribute a member's value
template <typename T> __device__ inline T __cass_mask_leader(unsigned long long m, T v) { return __shfl(v, __ffsll(m & __ballot(1)) - 1); }
template <typename T> __device__ inline T __cass_reduce_min_sync(unsigned long long m, T v) { return __cass_warp_reduce(m, v, __cass_mask_leader(m, v), __cass_min()); }
template <typename T> __device__ inline T __cass_reduce_max_sync(unsigned long long m, T v) { return __cass_warp_reduce(m, v, __cass_mask_leader(m, v), __cass_max()); }
template <typename T> __device__ inline T __cass_reduce_and_sync(unsigned long long m, T v) { return __cass_warp_reduce(m, v, __cass_mask_leader(m, v), __cass_and()); }
template <typename T> __device__ inline T __cass_reduce_or_sync(unsigned long long m, T v) { return __cass_warp_reduce(m, v, __cass_mask_leader(m, v), __cass_or()); }
template <typename T> __device__ inline T __cass_reduce_xor_sync(unsigned long long m, T v) { return __cass_warp_reduce(m, v, T(0), __cass_xor()); }
""",
    "dp4a": """\
__device__ inline int __cass_dp4a(int a, int b, int c) {
  for (int i = 0; i < 32; i += 8) c += (int)(signed char)(a >> i) * (int)(signed char)(b >> i);
  return c;
}
__device__ inline unsigned int __cass_dp4a(unsigned int a, unsigned int b, unsigned int c) {
  for (int i = 0; i < 32; i += 8) c += ((a >> i) & 0xffu) * ((b >> i) & 0xffu);
  return c;
}
__device__ inline int __cass_dp4a(char4 a, char4 b, int c) {
  return c + a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
__device__ inline unsigned int __cass_dp4a(uchar4 a, uchar4 b, unsigned int c) {
  return c + a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}
""",
    "cg_meta": """\
#include <hip/hip_cooperative_groups.h>
template <class Tile>
__device__ inline unsigned int __cass_meta_group_rank(const Tile& tile) {
  return cooperative_groups::this_thread_block().thread_rank() / tile.size();
}
template <class Tile>
__device__ inline unsigned int __cass_meta_group_size(const Tile& tile) {
  return (cooperative_groups::this_thread_block().size() + tile.size() - 1) / tile.size();
}
""",
    "cg_reduce": """\
#include <hip/hip_cooperative_groups.h>
template <class T> struct __cass_cg_plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct __cass_cg_less { __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct __cass_cg_greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct __cass_cg_bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <class T> struct __cass_cg_bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <class T> struct __cass_cg_bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };
template <class Tile, class T, class Op>
__device__ inline T __cass_cg_reduce(const Tile& tile, T value, Op op) {
  for (unsigned int offset = tile.size() / 2; offset > 0; offset /= 2) value = op(value, tile.shfl_xor(value, offset));
  return value;
}
""",
    "cg_async": """\
#include <hip/hip_cooperative_groups.h>
#include <stdint.h>
// cg::memcpy_async as a synchronous group copy: the data has landed before the matching wait
template <class Group>
__device__ inline void __cass_memcpy_async(Group group, void* dst, const void* src, size_t bytes) {
  if ((((uintptr_t)dst | (uintptr_t)src | bytes) & 3) == 0) {
    unsigned int* d = static_cast<unsigned int*>(dst);
    const unsigned int* s = static_cast<const unsigned int*>(src);
    for (size_t i = group.thread_rank(); i < bytes / 4; i += group.size()) d[i] = s[i];
  } else {
    char* d = static_cast<char*>(dst);
    const char* s = static_cast<const char*>(src);
    for (size_t i = group.thread_rank(); i < bytes; i += group.size()) d[i] = s[i];
  }
}
template <class Group> __device__ inline void __cass_wait(Group group) { group.sync(); }
""",
    "rounding": """\
// CUDA never contracts these into a fused multiply-add; HIP 5.2 defines them as plain operators
#define __CASS_RN(name, T, op) \\
  __device__ inline T name(T a, T b) { _Pragma("clang fp contract(off)") return a op b; }
__CASS_RN(__cass_fadd_rn, float, +) __CASS_RN(__cass_fsub_rn, float, -) __CASS_RN(__cass_fmul_rn, float, *)
__CASS_RN(__cass_dadd_rn, double, +) __CASS_RN(__cass_dsub_rn, double, -) __CASS_RN(__cass_dmul_rn, double, *)
#undef __CASS_RN
""",
    "atomic64": """\
// signed 64-bit atomicMin/atomicMax (CUDA has them; HIP 5.2 only has the unsigned ones)
__device__ inline long long atomicMin(long long* address, long long val) {
  unsigned long long* p = reinterpret_cast<unsigned long long*>(address);
  unsigned long long old = *p, assumed;
  do {
    assumed = old;
    if (static_cast<long long>(assumed) <= val) break;
    old = atomicCAS(p, assumed, static_cast<unsigned long long>(val));
  } while (old != assumed);
  return static_cast<long long>(old);
}
__device__ inline long long atomicMax(long long* address, long long val) {
  unsigned long long* p = reinterpret_cast<unsigned long long*>(address);
  unsigned long long old = *p, assumed;
  do {
    assumed = old;
    if (static_cast<long long>(assumed) >= val) break;
    old = atomicCAS(p, assumed, static_cast<unsigned long long>(val));
  } while (old != assumed);
  return static_cast<long long>(old);
}
""",
    "pipeline_copy": """\
// __pipeline_memcpy_async as a copy made at once: the thread's own bytes have landed before its
// __pipeline_wait_prior, as in CUDA; the last zfill bytes of dst are zeroed
__device__ inline void __cass_pipeline_memcpy(void* dst, const void* src, size_t size,
                                              size_t zfill = 0) {
  char* d = static_cast<char*>(dst);
  const char* s = static_cast<const char*>(src);
  for (size_t i = 0; i < size; ++i) d[i] = i + zfill < size ? s[i] : 0;
}
""",
    "surfaces": """\
// CUDA's surface reads and writes move raw bits; HIP 5.2's convert every component by value
// through float (an int surface reads 0 for 5 and stores the bits of 5.0f), and its layered forms
// pass the layer as a mip level. Integral components travel as bits here, the rest as values.
template <typename T, bool = std::is_scalar<T>::value>
struct __cass_surf_elem { using V = T; static constexpr int n = 1; };
template <typename T>
struct __cass_surf_elem<T, false> {
  using V = typename T::value_type;
  static constexpr int n = sizeof(T) / sizeof(V);
};
template <typename V> __device__ inline V __cass_surf_lane(float f) {
  if constexpr (std::is_integral<V>::value) return static_cast<V>(__builtin_bit_cast(int, f));
  else return static_cast<V>(f);
}
template <typename V> __device__ inline float __cass_surf_bits(V v) {
  if constexpr (std::is_integral<V>::value) return __builtin_bit_cast(float, static_cast<int>(v));
  else return static_cast<float>(v);
}
template <typename T> __device__ inline T __cass_surf_from(const float4::Native_vec_& u) {
  using E = __cass_surf_elem<T>;
  if constexpr (std::is_scalar<T>::value) {
    return __cass_surf_lane<T>(u.x);
  } else {
    T t;
    t.x = __cass_surf_lane<typename E::V>(u.x);
    if constexpr (E::n > 1) t.y = __cass_surf_lane<typename E::V>(u.y);
    if constexpr (E::n > 2) t.z = __cass_surf_lane<typename E::V>(u.z);
    if constexpr (E::n > 3) t.w = __cass_surf_lane<typename E::V>(u.w);
    return t;
  }
}
template <typename T> __device__ inline float4::Native_vec_ __cass_surf_to(const T& t) {
  using E = __cass_surf_elem<T>;
  float4::Native_vec_ u = {0.0f, 0.0f, 0.0f, 0.0f};
  if constexpr (std::is_scalar<T>::value) {
    u.x = __cass_surf_bits(t);
  } else {
    u.x = __cass_surf_bits(t.x);
    if constexpr (E::n > 1) u.y = __cass_surf_bits(t.y);
    if constexpr (E::n > 2) u.z = __cass_surf_bits(t.z);
    if constexpr (E::n > 3) u.w = __cass_surf_bits(t.w);
  }
  return u;
}
#define __CASS_SURF_IMAGE(s) ((unsigned int ADDRESS_SPACE_CONSTANT*)(s))
#define __CASS_SURF_X(i, x, D) __hipGetPixelAddr(x, __ockl_image_channel_data_type_##D(i), __ockl_image_channel_order_##D(i))
template <typename T> __device__ inline void __cass_surf1Dread(T* d, hipSurfaceObject_t s, int x, int = 0) {
  auto i = __CASS_SURF_IMAGE(s); *d = __cass_surf_from<T>(__ockl_image_load_1D(i, __CASS_SURF_X(i, x, 1D)));
}
template <typename T> __device__ inline void __cass_surf2Dread(T* d, hipSurfaceObject_t s, int x, int y, int = 0) {
  auto i = __CASS_SURF_IMAGE(s); *d = __cass_surf_from<T>(__ockl_image_load_2D(i, int2(__CASS_SURF_X(i, x, 2D), y).data));
}
template <typename T> __device__ inline void __cass_surf3Dread(T* d, hipSurfaceObject_t s, int x, int y, int z, int = 0) {
  auto i = __CASS_SURF_IMAGE(s); *d = __cass_surf_from<T>(__ockl_image_load_3D(i, int4(__CASS_SURF_X(i, x, 3D), y, z, 0).data));
}
template <typename T> __device__ inline void __cass_surf1DLayeredread(T* d, hipSurfaceObject_t s, int x, int layer, int = 0) {
  auto i = __CASS_SURF_IMAGE(s); *d = __cass_surf_from<T>(__ockl_image_load_1Da(i, int2(__CASS_SURF_X(i, x, 1Da), layer).data));
}
template <typename T> __device__ inline void __cass_surf2DLayeredread(T* d, hipSurfaceObject_t s, int x, int y, int layer, int = 0) {
  auto i = __CASS_SURF_IMAGE(s); *d = __cass_surf_from<T>(__ockl_image_load_2Da(i, int4(__CASS_SURF_X(i, x, 2Da), y, layer, 0).data));
}
template <typename T> __device__ inline T __cass_surf1Dread(hipSurfaceObject_t s, int x, int m = 0) { T v; __cass_surf1Dread(&v, s, x, m); return v; }
template <typename T> __device__ inline T __cass_surf2Dread(hipSurfaceObject_t s, int x, int y, int m = 0) { T v; __cass_surf2Dread(&v, s, x, y, m); return v; }
template <typename T> __device__ inline T __cass_surf3Dread(hipSurfaceObject_t s, int x, int y, int z, int m = 0) { T v; __cass_surf3Dread(&v, s, x, y, z, m); return v; }
template <typename T> __device__ inline T __cass_surf1DLayeredread(hipSurfaceObject_t s, int x, int l, int m = 0) { T v; __cass_surf1DLayeredread(&v, s, x, l, m); return v; }
template <typename T> __device__ inline T __cass_surf2DLayeredread(hipSurfaceObject_t s, int x, int y, int l, int m = 0) { T v; __cass_surf2DLayeredread(&v, s, x, y, l, m); return v; }
template <typename T> __device__ inline void __cass_surf1Dwrite(T v, hipSurfaceObject_t s, int x, int = 0) {
  auto i = __CASS_SURF_IMAGE(s); __ockl_image_store_1D(i, __CASS_SURF_X(i, x, 1D), __cass_surf_to(v));
}
template <typename T> __device__ inline void __cass_surf2Dwrite(T v, hipSurfaceObject_t s, int x, int y, int = 0) {
  auto i = __CASS_SURF_IMAGE(s); __ockl_image_store_2D(i, int2(__CASS_SURF_X(i, x, 2D), y).data, __cass_surf_to(v));
}
template <typename T> __device__ inline void __cass_surf3Dwrite(T v, hipSurfaceObject_t s, int x, int y, int z, int = 0) {
  auto i = __CASS_SURF_IMAGE(s); __ockl_image_store_3D(i, int4(__CASS_SURF_X(i, x, 3D), y, z, 0).data, __cass_surf_to(v));
}
template <typename T> __device__ inline void __cass_surf1DLayeredwrite(T v, hipSurfaceObject_t s, int x, int layer, int = 0) {
  auto i = __CASS_SURF_IMAGE(s); __ockl_image_store_1Da(i, int2(__CASS_SURF_X(i, x, 1Da), layer).data, __cass_surf_to(v));
}
template <typename T> __device__ inline void __cass_surf2DLayeredwrite(T v, hipSurfaceObject_t s, int x, int y, int layer, int = 0) {
  auto i = __CASS_SURF_IMAGE(s); __ockl_image_store_2Da(i, int4(__CASS_SURF_X(i, x, 2Da), y, layer, 0).data, __cass_surf_to(v));
}
""",
}
ORDER = (
    "syncwarp",
    "match",
    "reduce",
    "dp4a",
    "cg_meta",
    "cg_reduce",
    "cg_async",
    "pipeline_copy",
    "surfaces",
    "rounding",
    "atomic64",
)


def render_shims(names: set[str], newline: str) -> str:
    """The guarded helper block for `names`, using the file's line ending."""
    parts = [f"// {MARKER} (generated by cass port)\n"]
    for name in ORDER:
        if name in names:
            guard = f"CASS_SHIM_{name.upper()}"
            parts.append(f"#ifndef {guard}\n#define {guard}\n{SHIMS[name]}#endif\n")
    return "".join(parts).replace("\n", newline)

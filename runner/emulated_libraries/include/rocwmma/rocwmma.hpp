// cass's reference implementation of rocWMMA for emulated verification (gfx11, wave32).
//
// Not AMD's rocWMMA: cass's own code, put on the include path of HIP programs built for the cass
// RDNA3 emulator only (runner/emulated_libraries), so that a port of a CUDA WMMA (mma.h) program
// can run there; on an AMD GPU the real rocWMMA is used. The API names and their meaning follow
// AMD's rocWMMA documentation and its rocwmma.hpp declarations: fragment<MatrixT, BlockM, BlockN,
// BlockK, DataT, DataLayoutT = void> with matrix_a / matrix_b / accumulator and row_major /
// col_major, layout_t { mem_row_major, mem_col_major }, fill_fragment, load_matrix_sync and
// store_matrix_sync (with a layout_t argument for a fragment without a layout), mma_sync(d, a, b,
// c) with c == d allowed, synchronize_workgroup, fragment::x / num_elements / element_type.
//
// Covered: 16x16x16 blocks; inputs f16 (__half, _Float16), bf16 (hip_bfloat16) and 8-bit
// integers (int8_t, uint8_t); accumulators float with any of them, f16 with f16 inputs, bf16 with
// bf16 inputs, int32_t with 8-bit inputs. Anything else is a compile-time error that says so.
//
// Each fragment holds what one lane feeds gfx11's v_wmma_* instructions (RDNA3 ISA, "Wave Matrix
// Multiply Accumulate"): matrix_a, lane l: row l % 16, its 16 K values; matrix_b, lane l: column
// l % 16, its 16 K values (lanes 16-31 repeat lanes 0-15); accumulator, lane l, element v:
// [2v + l / 16][l % 16]. Element order inside a fragment is not part of the API (as in rocWMMA
// and CUDA): code may only touch x[i] element-wise.
#pragma once

#include <hip/hip_bfloat16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#include <cstdint>
#include <type_traits>

namespace rocwmma {

struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};

enum layout_t : uint32_t { mem_row_major, mem_col_major };

using float16_t = _Float16;
using hfloat16_t = __half;
using bfloat16_t = hip_bfloat16;
using float32_t = float;

namespace detail {

typedef _Float16 v16h __attribute__((ext_vector_type(16)));
typedef short v16s __attribute__((ext_vector_type(16)));
typedef float v8f __attribute__((ext_vector_type(8)));
typedef int v8i __attribute__((ext_vector_type(8)));
typedef int v4i __attribute__((ext_vector_type(4)));

enum class Kind { none, f16, bf16, i8, u8, f32, i32 };

template <typename T> struct kind_of { static constexpr Kind value = Kind::none; };
template <> struct kind_of<__half> { static constexpr Kind value = Kind::f16; };
template <> struct kind_of<_Float16> { static constexpr Kind value = Kind::f16; };
template <> struct kind_of<hip_bfloat16> { static constexpr Kind value = Kind::bf16; };
template <> struct kind_of<int8_t> { static constexpr Kind value = Kind::i8; };
template <> struct kind_of<uint8_t> { static constexpr Kind value = Kind::u8; };
template <> struct kind_of<float> { static constexpr Kind value = Kind::f32; };
template <> struct kind_of<int32_t> { static constexpr Kind value = Kind::i32; };

template <typename To, typename From> __device__ inline To bits_as(const From& from) {
  static_assert(sizeof(To) == sizeof(From), "bit copy between types of different sizes");
  To to;
  __builtin_memcpy(&to, &from, sizeof(To));
  return to;
}

__device__ inline uint32_t lane() { return __lane_id() & 31u; }

// Offset in memory of element (row, col) of a matrix stored with leading dimension ldm.
__device__ inline uint32_t offset(uint32_t row, uint32_t col, uint32_t ldm, bool row_major) {
  return row_major ? row * ldm + col : col * ldm + row;
}

template <typename LayoutT> constexpr bool is_row_major() {
  return std::is_same<LayoutT, row_major>::value;
}

}  // namespace detail

template <typename MatrixT, uint32_t BlockM, uint32_t BlockN, uint32_t BlockK, typename DataT,
          typename DataLayoutT = void>
class fragment {
  static_assert(BlockM == 16 && BlockN == 16 && BlockK == 16,
                "cass's reference rocWMMA (emulator) has 16x16x16 blocks only: tile with them");
  static_assert(std::is_same<MatrixT, matrix_a>::value || std::is_same<MatrixT, matrix_b>::value ||
                    std::is_same<MatrixT, accumulator>::value,
                "fragment's MatrixT is matrix_a, matrix_b or accumulator");
  static_assert(detail::kind_of<DataT>::value != detail::Kind::none,
                "cass's reference rocWMMA (emulator) has f16, bf16, int8, float and int32 "
                "fragments only");
  static_assert(std::is_same<MatrixT, accumulator>::value ||
                    std::is_same<DataLayoutT, row_major>::value ||
                    std::is_same<DataLayoutT, col_major>::value,
                "matrix_a and matrix_b fragments need row_major or col_major");

 public:
  static constexpr bool is_accumulator = std::is_same<MatrixT, accumulator>::value;
  static constexpr uint32_t num_elements = is_accumulator ? 8 : 16;
  using element_type = DataT;

  DataT x[num_elements];

  __device__ DataT& operator[](uint32_t i) { return x[i]; }
  __device__ const DataT& operator[](uint32_t i) const { return x[i]; }
  __device__ static constexpr uint32_t height() {
    return std::is_same<MatrixT, matrix_b>::value ? BlockK : BlockM;
  }
  __device__ static constexpr uint32_t width() {
    return std::is_same<MatrixT, matrix_a>::value ? BlockK : BlockN;
  }
  __device__ static constexpr uint32_t blockDim() {
    return std::is_same<MatrixT, matrix_b>::value ? BlockN : BlockM;
  }
  __device__ static constexpr uint32_t kDim() { return is_accumulator ? BlockN : BlockK; }
  __device__ static constexpr uint32_t size() { return num_elements; }
};

namespace detail {

// Memory offset of the fragment's element i in this lane.
template <typename MatrixT> __device__ inline uint32_t element_offset(uint32_t i, uint32_t ldm,
                                                                      bool row_major) {
  const uint32_t l = lane();
  if (std::is_same<MatrixT, matrix_a>::value) return offset(l & 15u, i, ldm, row_major);
  if (std::is_same<MatrixT, matrix_b>::value) return offset(i, l & 15u, ldm, row_major);
  return offset(2u * i + (l >> 4), l & 15u, ldm, row_major);
}

template <typename MatrixT, uint32_t M, uint32_t N, uint32_t K, typename DataT, typename LayoutT>
__device__ inline void load(fragment<MatrixT, M, N, K, DataT, LayoutT>& frag, const DataT* data,
                            uint32_t ldm, bool row_major) {
  for (uint32_t i = 0; i < frag.num_elements; ++i)
    frag.x[i] = data[element_offset<MatrixT>(i, ldm, row_major)];
}

template <typename MatrixT, uint32_t M, uint32_t N, uint32_t K, typename DataT, typename LayoutT>
__device__ inline void store(DataT* data, const fragment<MatrixT, M, N, K, DataT, LayoutT>& frag,
                             uint32_t ldm, bool row_major) {
  if (!std::is_same<MatrixT, accumulator>::value && lane() >= 16u) return;  // the repeated half
  for (uint32_t i = 0; i < frag.num_elements; ++i)
    data[element_offset<MatrixT>(i, ldm, row_major)] = frag.x[i];
}

template <typename T> __device__ inline v16h pack_f16(const T* x) {
  v16h v;
  for (int i = 0; i < 16; ++i) v[i] = bits_as<_Float16>(x[i]);
  return v;
}

template <typename T> __device__ inline v16s pack_bf16(const T* x) {
  v16s v;
  for (int i = 0; i < 16; ++i) v[i] = bits_as<short>(x[i]);
  return v;
}

template <typename T> __device__ inline v4i pack_8bit(const T* x) {
  v4i v;
  for (int i = 0; i < 4; ++i) {
    uint32_t word = 0;
    for (int j = 0; j < 4; ++j) word |= uint32_t(bits_as<uint8_t>(x[4 * i + j])) << (8 * j);
    v[i] = int(word);
  }
  return v;
}

template <typename InputT, typename ComputeT>
__device__ inline void multiply(ComputeT* d, const InputT* a, const InputT* b, const ComputeT* c) {
  constexpr Kind in = kind_of<InputT>::value, acc = kind_of<ComputeT>::value;
  if constexpr (acc == Kind::f32) {
    static_assert(in == Kind::f16 || in == Kind::bf16,
                  "float accumulators take f16 or bf16 inputs (8-bit inputs: int32_t)");
    v8f vc;
    for (int i = 0; i < 8; ++i) vc[i] = c[i];
    v8f r;
    if constexpr (in == Kind::f16)
      r = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(pack_f16(a), pack_f16(b), vc);
    else
      r = __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(pack_bf16(a), pack_bf16(b), vc);
    for (int i = 0; i < 8; ++i) d[i] = r[i];
  } else if constexpr (acc == Kind::f16) {
    static_assert(in == Kind::f16, "f16 accumulators take f16 inputs");
    v16h vc = {};
    for (int i = 0; i < 8; ++i) vc[2 * i] = bits_as<_Float16>(c[i]);  // low halves (op_sel 0)
    v16h r = __builtin_amdgcn_wmma_f16_16x16x16_f16_w32(pack_f16(a), pack_f16(b), vc, false);
    for (int i = 0; i < 8; ++i) d[i] = bits_as<ComputeT>(r[2 * i]);
  } else if constexpr (acc == Kind::bf16) {
    static_assert(in == Kind::bf16, "bf16 accumulators take bf16 inputs");
    v16s vc = {};
    for (int i = 0; i < 8; ++i) vc[2 * i] = bits_as<short>(c[i]);
    v16s r = __builtin_amdgcn_wmma_bf16_16x16x16_bf16_w32(pack_bf16(a), pack_bf16(b), vc, false);
    for (int i = 0; i < 8; ++i) d[i] = bits_as<ComputeT>(r[2 * i]);
  } else {
    static_assert(acc == Kind::i32 && (in == Kind::i8 || in == Kind::u8),
                  "int32_t accumulators take int8_t or uint8_t inputs");
    v8i vc;
    for (int i = 0; i < 8; ++i) vc[i] = c[i];
    v8i r = __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(in == Kind::i8, pack_8bit(a),
                                                      in == Kind::i8, pack_8bit(b), vc, false);
    for (int i = 0; i < 8; ++i) d[i] = r[i];
  }
}

}  // namespace detail

template <typename MatrixT, uint32_t BlockM, uint32_t BlockN, uint32_t BlockK, typename DataT,
          typename DataLayoutT>
__device__ inline void fill_fragment(
    fragment<MatrixT, BlockM, BlockN, BlockK, DataT, DataLayoutT>& frag, DataT value) {
  for (uint32_t i = 0; i < frag.num_elements; ++i) frag.x[i] = value;
}

template <typename MatrixT, uint32_t BlockM, uint32_t BlockN, uint32_t BlockK, typename DataT,
          typename DataLayoutT>
__device__ inline void load_matrix_sync(
    fragment<MatrixT, BlockM, BlockN, BlockK, DataT, DataLayoutT>& frag, const DataT* data,
    uint32_t ldm) {
  static_assert(!std::is_same<DataLayoutT, void>::value,
                "a fragment without a layout is loaded with a layout_t argument");
  detail::load(frag, data, ldm, detail::is_row_major<DataLayoutT>());
}

template <typename MatrixT, uint32_t BlockM, uint32_t BlockN, uint32_t BlockK, typename DataT>
__device__ inline void load_matrix_sync(fragment<MatrixT, BlockM, BlockN, BlockK, DataT>& frag,
                                        const DataT* data, uint32_t ldm, layout_t layout) {
  detail::load(frag, data, ldm, layout == mem_row_major);
}

template <typename MatrixT, uint32_t BlockM, uint32_t BlockN, uint32_t BlockK, typename DataT,
          typename DataLayoutT>
__device__ inline void store_matrix_sync(
    DataT* data, const fragment<MatrixT, BlockM, BlockN, BlockK, DataT, DataLayoutT>& frag,
    uint32_t ldm) {
  static_assert(!std::is_same<DataLayoutT, void>::value,
                "a fragment without a layout is stored with a layout_t argument");
  detail::store(data, frag, ldm, detail::is_row_major<DataLayoutT>());
}

template <typename MatrixT, uint32_t BlockM, uint32_t BlockN, uint32_t BlockK, typename DataT>
__device__ inline void store_matrix_sync(
    DataT* data, const fragment<MatrixT, BlockM, BlockN, BlockK, DataT>& frag, uint32_t ldm,
    layout_t layout) {
  detail::store(data, frag, ldm, layout == mem_row_major);
}

template <uint32_t BlockM, uint32_t BlockN, uint32_t BlockK, typename InputTA, typename InputTB,
          typename ComputeT, typename LayoutA, typename LayoutB, typename LayoutC,
          typename LayoutD>
__device__ inline void mma_sync(
    fragment<accumulator, BlockM, BlockN, BlockK, ComputeT, LayoutD>& d,
    const fragment<matrix_a, BlockM, BlockN, BlockK, InputTA, LayoutA>& a,
    const fragment<matrix_b, BlockM, BlockN, BlockK, InputTB, LayoutB>& b,
    const fragment<accumulator, BlockM, BlockN, BlockK, ComputeT, LayoutC>& c) {
  static_assert(std::is_same<InputTA, InputTB>::value, "matrix_a and matrix_b of one type");
  ComputeT result[8];
  detail::multiply(result, a.x, b.x, c.x);  // c may be d: read all of c first
  for (int i = 0; i < 8; ++i) d.x[i] = result[i];
}

__device__ inline void synchronize_workgroup() { __syncthreads(); }

}  // namespace rocwmma

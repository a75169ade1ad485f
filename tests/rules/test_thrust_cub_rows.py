"""Every row of the rules engine's CUB table, and every Thrust construct it maps or keeps, is
checked against AMD's own headers: a CUDA snippet using the row is ported by the rules engine and
compiled with clang-16 for gfx1100 against rocPRIM/hipCUB/rocThrust at tag rocm-5.2.3 (installed
from ../shared/deps/rocm-libs-5.2.3.tar.gz, as `cass setup` does). Rows are batched into three
translation units (device-wide CUB, block and warp CUB, Thrust) so the whole table costs three
compiles."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cass.models.engine import Target
from cass.models.rules import port_unit
from cass.models.rules.tables import family_table

pytestmark = pytest.mark.toolchain

PRELUDE = """#include <cub/cub.cuh>
#include <cub/block/block_shuffle.cuh>
#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_spmv.cuh>
#include <cuda_runtime.h>
struct Square { __host__ __device__ int operator()(int x) const { return x * x; } };
struct Less { __host__ __device__ bool operator()(int a, int b) const { return a < b; } };
struct Positive { __host__ __device__ bool operator()(int x) const { return x > 0; } };
"""

# cub.tsv row -> a statement using it, inside `device_rows` (host code: the temp-storage idiom).
DEVICE_ROWS = {
    "cub": "cub::Sum plus; (void)plus;",
    "cub::DeviceReduce": "cub::DeviceReduce::Sum(temp, bytes, in, out, n, s);",
    "cub::DeviceScan": "cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, s);"
    " cub::DeviceScan::InclusiveSum(temp, bytes, in, out, n, s);",
    "cub::DeviceRadixSort": "cub::DeviceRadixSort::SortPairs(temp, bytes, in, out, in, out, n);"
    " cub::DeviceRadixSort::SortKeysDescending(temp, bytes, in, out, n, 0, 32, s);",
    "cub::DeviceSegmentedReduce": "cub::DeviceSegmentedReduce::Sum(temp, bytes, in, out, 4,"
    " offsets, offsets + 1);",
    "cub::DeviceSegmentedRadixSort": "cub::DeviceSegmentedRadixSort::SortKeys(temp, bytes, in,"
    " out, n, 4, offsets, offsets + 1);",
    "cub::DeviceSelect": "cub::DeviceSelect::If(temp, bytes, in, out, count, n, Positive());"
    " cub::DeviceSelect::Unique(temp, bytes, in, out, count, n);",
    "cub::DevicePartition": "cub::DevicePartition::If(temp, bytes, in, out, count, n, Positive());",
    "cub::DeviceHistogram": "cub::DeviceHistogram::HistogramEven(temp, bytes, in, out, 9, 0,"
    " 256, n);",
    "cub::DeviceRunLengthEncode": "cub::DeviceRunLengthEncode::Encode(temp, bytes, in, out,"
    " offsets, count, n);",
    "cub::DeviceSpmv": "cub::DeviceSpmv::CsrMV(temp, bytes, values, offsets, offsets, values, fout,"
    " 4, 4, n);",
    "cub::DeviceMergeSort": "cub::DeviceMergeSort::SortKeys(temp, bytes, out, n, Less());",
    "cub::DeviceSegmentedSort": "cub::DeviceSegmentedSort::SortKeys(temp, bytes, in, out, n, 4,"
    " offsets, offsets + 1);",
    "cub::CachingDeviceAllocator": "cub::CachingDeviceAllocator pool;"
    " pool.DeviceAllocate(&temp, bytes); pool.DeviceFree(temp);",
    "cub::Sum": "cub::DeviceReduce::Reduce(temp, bytes, in, out, n, cub::Sum(), 0);",
    "cub::Max": "cub::DeviceReduce::Reduce(temp, bytes, in, out, n, cub::Max(), 0);",
    "cub::Min": "cub::DeviceReduce::Reduce(temp, bytes, in, out, n, cub::Min(), 0);",
    "cub::ArgMax": "cub::DeviceReduce::ArgMax(temp, bytes, in, pairs, n);"
    " cub::ArgMax argmax; (void)argmax;",
    "cub::ArgMin": "cub::DeviceReduce::ArgMin(temp, bytes, in, pairs, n);"
    " cub::ArgMin argmin; (void)argmin;",
    "cub::KeyValuePair": "cub::KeyValuePair<int, int> pair; pair.key = 0; pair.value = 1;",
    "cub::CountingInputIterator": "cub::CountingInputIterator<int> counting(0);"
    " cub::DeviceReduce::Sum(temp, bytes, counting, out, n);",
    "cub::TransformInputIterator": "cub::TransformInputIterator<int, Square, const int*>"
    " squares(in, Square()); cub::DeviceReduce::Sum(temp, bytes, squares, out, n);",
    "cub::ConstantInputIterator": "cub::ConstantInputIterator<int> ones(1);"
    " cub::DeviceScan::InclusiveSum(temp, bytes, ones, out, n);",
    "cub::DoubleBuffer": "cub::DoubleBuffer<int> keys(out, out + n);"
    " cub::DeviceRadixSort::SortKeys(temp, bytes, keys, n); (void)keys.Current();",
}
DEVICE_FUNCTION = """
void device_rows(const int* in, int* out, int* offsets, int* count, float* values, float* fout,
                 cub::KeyValuePair<int, int>* pairs, int n, cudaStream_t s) {
    void* temp = nullptr;
    size_t bytes = 0;
    cudaMalloc(&temp, 1 << 20);
    bytes = 1 << 20;
    BODY
    cudaFree(temp);
}
"""

# cub.tsv row -> statements inside the kernel `block_rows<128>` (device code).
BLOCK_ROWS = {
    "cub::BlockLoad": "BlockLoad(load_t).Load(in + base, items);",
    "cub::BlockStore": "BlockStore(store_t).Store(out + base, items);",
    "cub::BlockRadixSort": "BlockRadixSort(sort_t).Sort(items); __syncthreads();",
    "cub::BlockExchange": "BlockExchange(exchange_t).BlockedToStriped(items); __syncthreads();",
    "cub::BlockDiscontinuity": "int heads[4]; BlockDiscontinuity(disc_t).FlagHeads(heads, items,"
    " cub::Inequality()); __syncthreads();",
    "cub::BlockShuffle": "int next; BlockShuffle(shuffle_t).Offset(items[0], next, 1);"
    " __syncthreads(); items[0] += next;",
    "cub::BlockScan": "int total; BlockScan(scan_t).ExclusiveSum(items, items, total);"
    " __syncthreads();",
    "cub::BlockReduce": "int sum = BlockReduce(reduce_t).Sum(items); __syncthreads();"
    " if (threadIdx.x == 0) out[blockIdx.x] = sum;",
    "cub::BlockHistogram": "unsigned char bins[4] = {1, 2, 3, 4};"
    " BlockHistogram(hist_t).Histogram(bins, histogram); __syncthreads();",
    "cub::WarpReduce": "items[0] = WarpReduce(warp_reduce_t[warp]).Sum(items[0]);",
    "cub::WarpReduce<T, 32>": "items[1] = WarpReduce(warp_reduce_t[warp]).Reduce(items[1],"
    " cub::Max());",
    "cub::WarpScan": "WarpScan(warp_scan_t[warp]).InclusiveSum(items[2], items[2]);",
    "cub::WarpLoad": "WarpLoad(warp_load_t[warp]).Load(in + base, items);",
    "cub::WarpStore": "WarpStore(warp_store_t[warp]).Store(out + base, items);",
    "cub::WarpExchange": "WarpExchange(warp_exchange_t[warp]).BlockedToStriped(items, items);",
    "cub::WarpMergeSort": "WarpMergeSort(warp_sort_t[warp]).Sort(items, Less());",
}
BLOCK_KERNEL = """
template <int BLOCK>
__global__ void block_rows(const int* in, int* out) {
    using BlockLoad = cub::BlockLoad<int, BLOCK, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using BlockStore = cub::BlockStore<int, BLOCK, 4, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    using BlockRadixSort = cub::BlockRadixSort<int, BLOCK, 4>;
    using BlockExchange = cub::BlockExchange<int, BLOCK, 4>;
    using BlockDiscontinuity = cub::BlockDiscontinuity<int, BLOCK>;
    using BlockShuffle = cub::BlockShuffle<int, BLOCK>;
    using BlockScan = cub::BlockScan<int, BLOCK>;
    using BlockReduce = cub::BlockReduce<int, BLOCK>;
    using BlockHistogram = cub::BlockHistogram<unsigned char, BLOCK, 4, 8,
        cub::BLOCK_HISTO_ATOMIC>;  // the table's note: hipCUB 2.10 fails on BLOCK_HISTO_SORT
    using WarpReduce = cub::WarpReduce<int, 32>;
    using WarpScan = cub::WarpScan<int, 32>;
    using WarpLoad = cub::WarpLoad<int, 4, cub::WARP_LOAD_DIRECT, 32>;
    using WarpStore = cub::WarpStore<int, 4, cub::WARP_STORE_DIRECT, 32>;
    using WarpExchange = cub::WarpExchange<int, 4, 32>;
    using WarpMergeSort = cub::WarpMergeSort<int, 4, 32>;
    __shared__ typename BlockLoad::TempStorage load_t;
    __shared__ typename BlockStore::TempStorage store_t;
    __shared__ typename BlockRadixSort::TempStorage sort_t;
    __shared__ typename BlockExchange::TempStorage exchange_t;
    __shared__ typename BlockDiscontinuity::TempStorage disc_t;
    __shared__ typename BlockShuffle::TempStorage shuffle_t;
    __shared__ typename BlockScan::TempStorage scan_t;
    __shared__ typename BlockReduce::TempStorage reduce_t;
    __shared__ typename BlockHistogram::TempStorage hist_t;
    __shared__ unsigned int histogram[8];
    __shared__ typename WarpReduce::TempStorage warp_reduce_t[BLOCK / 32];
    __shared__ typename WarpScan::TempStorage warp_scan_t[BLOCK / 32];
    __shared__ typename WarpLoad::TempStorage warp_load_t[BLOCK / 32];
    __shared__ typename WarpStore::TempStorage warp_store_t[BLOCK / 32];
    __shared__ typename WarpExchange::TempStorage warp_exchange_t[BLOCK / 32];
    __shared__ typename WarpMergeSort::TempStorage warp_sort_t[BLOCK / 32];
    const int base = blockIdx.x * BLOCK * 4;
    const int warp = threadIdx.x / 32;
    int items[4];
    BODY
}
template __global__ void block_rows<128>(const int*, int*);
"""

# Thrust: the rules engine keeps `thrust::` (rocThrust spells Thrust's API the same) and maps the
# CUDA execution policy; each construct -> a statement inside `thrust_rows`.
THRUST_ROWS = {
    "thrust::cuda::par -> thrust::hip::par": "thrust::sort(thrust::cuda::par, v.begin(), v.end());",
    "thrust::cuda::par.on(stream)": "thrust::sort(thrust::cuda::par.on(s), v.begin(), v.end());",
    "thrust::device": "thrust::sequence(thrust::device, v.begin(), v.end());",
    "thrust::host": "thrust::sequence(thrust::host, h.begin(), h.end());",
    "thrust::device_vector / host_vector": "thrust::host_vector<int> back = v; (void)back;",
    "thrust::raw_pointer_cast": "int* raw = thrust::raw_pointer_cast(v.data());",
    "thrust::device_pointer_cast": "thrust::device_ptr<int> p = thrust::device_pointer_cast(raw);",
    "thrust::sort_by_key": "thrust::sort_by_key(thrust::device, v.begin(), v.end(), w.begin());",
    "thrust::stable_sort": "thrust::stable_sort(v.begin(), v.end(), thrust::greater<int>());",
    "thrust::reduce": "int total = thrust::reduce(thrust::cuda::par.on(s), p, p + n);",
    "thrust::reduce_by_key": "thrust::reduce_by_key(v.begin(), v.end(), w.begin(), v.begin(),"
    " w.begin());",
    "thrust::inclusive_scan / exclusive_scan": "thrust::inclusive_scan(v.begin(), v.end(),"
    " w.begin()); thrust::exclusive_scan(v.begin(), v.end(), w.begin());",
    "thrust::transform": "thrust::transform(v.begin(), v.end(), w.begin(), thrust::negate<int>());",
    "thrust::transform_reduce": "total += thrust::transform_reduce(v.begin(), v.end(), Square(),"
    " 0, thrust::plus<int>());",
    "thrust::counting_iterator / make_transform_iterator": "thrust::counting_iterator<int> c(0);"
    " total += thrust::reduce(thrust::make_transform_iterator(c, Square()),"
    " thrust::make_transform_iterator(c + n, Square()));",
    "thrust::make_zip_iterator / tuple": "auto z = thrust::make_zip_iterator(thrust::make_tuple("
    "v.begin(), w.begin())); thrust::get<0>(*z);",
    "thrust::make_constant_iterator / discard_iterator": "thrust::reduce_by_key(v.begin(), v.end(),"
    " thrust::make_constant_iterator(1), thrust::make_discard_iterator(), w.begin());",
    "thrust::make_permutation_iterator": "thrust::copy(thrust::make_permutation_iterator(v.begin(),"
    " w.begin()), thrust::make_permutation_iterator(v.begin(), w.end()), h.begin());",
    "thrust::lower_bound / upper_bound / binary_search": "thrust::lower_bound(v.begin(), v.end(),"
    " w.begin(), w.end(), w.begin()); thrust::upper_bound(v.begin(), v.end(), 3);"
    " thrust::binary_search(v.begin(), v.end(), 3);",
    "thrust::unique / copy_if / remove_if": "thrust::unique(v.begin(), v.end());"
    " thrust::copy_if(v.begin(), v.end(), w.begin(), Positive());"
    " thrust::remove_if(v.begin(), v.end(), Positive());",
    "thrust::fill / count / count_if": "thrust::fill(v.begin(), v.end(), 1);"
    " total += thrust::count(v.begin(), v.end(), 1) + thrust::count_if(v.begin(), v.end(),"
    " Positive());",
    "thrust::min_element / max_element / minmax_element": "total += *thrust::max_element("
    "v.begin(), v.end()) - *thrust::min_element(v.begin(), v.end());"
    " thrust::minmax_element(v.begin(), v.end());",
    "thrust::gather / scatter": "thrust::gather(w.begin(), w.end(), v.begin(), u.begin());"
    " thrust::scatter(v.begin(), v.end(), w.begin(), u.begin());",
    "thrust::inner_product": "total += thrust::inner_product(v.begin(), v.end(), w.begin(), 0);",
    "thrust::for_each / functional": "thrust::for_each(v.begin(), v.end(), thrust::identity<int>());",
}
THRUST_FUNCTION = """#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/inner_product.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/reduce.h>
#include <thrust/remove.h>
#include <thrust/scan.h>
#include <thrust/scatter.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>
struct Square { __host__ __device__ int operator()(int x) const { return x * x; } };
struct Positive { __host__ __device__ bool operator()(int x) const { return x > 0; } };
int thrust_rows(int n, cudaStream_t s) {
    thrust::device_vector<int> v(n), w(n), u(n);
    thrust::host_vector<int> h(n);
    BODY
    return total;
}
"""

UNITS = {
    "cub_device": (PRELUDE + DEVICE_FUNCTION, DEVICE_ROWS),
    "cub_block_warp": (PRELUDE + BLOCK_KERNEL, BLOCK_ROWS),
    "thrust": (THRUST_FUNCTION, THRUST_ROWS),
}


def _port(name: str, template: str, rows: dict[str, str], tmp_path: Path) -> Path:
    body = "\n    ".join(f"{{ /* {row} */ {code} }}" for row, code in rows.items())
    if name == "thrust":  # `raw`, `p` and `total` are used across rows
        body = "\n    ".join(f"/* {row} */ {code}" for row, code in rows.items())
    source = template.replace("BODY", body)
    unit = port_unit(source, f"{name}.cu", Target())
    errors = [d.render() for d in unit.diagnostics if d.severity.value == "error"]
    assert not errors, errors
    out = tmp_path / f"{name}.hip"
    out.write_text(unit.render(), encoding="utf-8")
    return out


def test_every_cub_table_row_has_a_snippet():
    """A row added to cub.tsv must come with a snippet here, so it gets compiled too."""
    table = family_table("cub")
    supported = {
        cuda for cuda, e in table.items() if e.status == "supported" and e.available_in("5.2")
    }
    assert supported == set(DEVICE_ROWS) | set(BLOCK_ROWS)


def test_cub_rows_unavailable_in_hipcub_52_are_absent_or_explained(rocm_libs_include):
    """Rows the table marks unsupported or newer than HIP 5.2 are absent from hipCUB 2.10, or
    their note says why the one it has cannot be used; either way porting them is an error."""
    headers = "\n".join(p.read_text() for p in (rocm_libs_include / "hipcub").rglob("*.hpp"))
    for cuda, entry in family_table("cub").items():
        if entry.status != "supported" or not entry.available_in("5.2"):
            name = cuda.split("::")[-1]
            declared = f"struct {name}" in headers or f"class {name}" in headers
            assert not declared or "hipCUB 2.10" in entry.note, cuda
            unit = port_unit(
                f"#include <cub/cub.cuh>\nvoid f() {{ {cuda}::X(); }}", "t.cu", Target()
            )
            assert any(d.severity.value == "error" for d in unit.diagnostics), cuda


@pytest.mark.parametrize("name", sorted(UNITS))
def test_rows_port_and_compile_for_gfx1100(name, tmp_path, hip_compile, rocm_libs_include):
    template, rows = UNITS[name]
    port = _port(name, template, rows, tmp_path)
    text = re.sub(r"/\*.*?\*/", "", port.read_text())  # the row names in comments stay CUDA's
    assert "cub::" not in text.replace("hipcub::", "")
    if name == "thrust":
        assert "thrust::hip::par" in text and "thrust::cuda::" not in text
    result = hip_compile(port, "-O1", "-c", "-o", str(tmp_path / f"{name}.o"), timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]

"""Every HIPIFY failure mode from the research note (shared/research/hipify.md) as a case:
handled (the output is right) or reported at its line (a diagnostic code), never silent."""

import pytest

CASES = [
    # (id, CUDA source, text that must be in the output, text that must not, codes that must be reported)
    (
        "comment untouched",
        "// cudaMalloc is called below\nvoid f(){}",
        "// cudaMalloc is called",
        "hipMalloc",
        [],
    ),
    (
        "string untouched",
        'void f(){ printf("cudaMalloc failed"); }',
        '"cudaMalloc failed"',
        "hipMalloc",
        [],
    ),
    (
        "user namespace",
        "namespace mylib { int cudaMalloc(void**, int); }\nvoid f(void**p){ mylib::cudaMalloc(p, 4); }",
        "mylib::cudaMalloc",
        "mylib::hipMalloc",
        [],
    ),
    (
        "member call",
        "struct A { void cudaFree(); }; void f(A a){ a.cudaFree(); }",
        "a.cudaFree()",
        None,
        [],
    ),
    ("token pasting", "#define CU_API(n) cuda##n\n", "cuda##n", None, ["CASS013"]),
    (
        "__CUDA_ARCH__ guard",
        "__device__ int f(){\n#if __CUDA_ARCH__ >= 700\nreturn 1;\n#endif\nreturn 0; }",
        "#if (defined(__HIP_DEVICE_COMPILE__) ? 800 : 0) >= 700",
        "__CUDA_ARCH__",
        ["CASS040"],
    ),
    (
        "__CUDA_ARCH__ above equivalent",
        "#if __CUDA_ARCH__ >= 900\nint x;\n#endif\n",
        None,
        None,
        ["CASS041"],
    ),
    (
        "ifdef __CUDA_ARCH__",
        "#ifdef __CUDA_ARCH__\nint x;\n#endif\n",
        "#ifdef __HIP_DEVICE_COMPILE__",
        None,
        ["CASS040"],
    ),
    (
        "CUDART_VERSION",
        "#if CUDART_VERSION >= 11000\nint x;\n#endif\n",
        "#if 12000 >= 11000",
        None,
        ["CASS042"],
    ),
    (
        "defined CUDA_VERSION",
        "#if defined(CUDA_VERSION)\nint x;\n#endif\n",
        "#if 1",
        None,
        ["CASS042"],
    ),
    ("__CUDACC__", "#ifdef __CUDACC__\nint x;\n#endif\n", "#ifdef __HIP__", None, ["CASS043"]),
    ("__NVCC__", "#if defined(__NVCC__)\nint x;\n#endif\n", "defined(__HIP__)", None, ["CASS043"]),
    (
        "shfl_down_sync on 5.2",
        "__device__ float f(float v){ return __shfl_down_sync(0xffffffff, v, 1); }",
        "__shfl_down(v, 1)",
        "_sync",
        ["CASS020"],
    ),
    (
        "ballot_sync never truncated",
        "__device__ int f(int p){ unsigned m = __ballot_sync(0xffffffff, p); return __popc(m); }",
        "unsigned long long m = __ballot(p); return __popcll(m);",
        None,
        ["CASS020", "CASS022"],
    ),
    (
        "activemask",
        "__device__ void f(){ unsigned m = __activemask(); }",
        "unsigned long long m = __ballot(1)",
        None,
        ["CASS020"],
    ),
    (
        "syncwarp",
        "__device__ void f(){ __syncwarp(); }",
        "__cass_syncwarp();",
        "__syncwarp(",
        ["CASS020"],
    ),
    (
        "match_any",
        "__device__ unsigned f(int v){ return __match_any_sync(0xffffffff, v); }",
        "__cass_match_any_sync(0xffffffffffffffffull, v)",
        None,
        ["CASS020"],
    ),
    (
        "reduce_add",
        "__device__ unsigned f(unsigned v){ return __reduce_add_sync(0xffffffff, v); }",
        "__cass_reduce_add_sync(0xffffffffffffffffull, v)",
        None,
        ["CASS020"],
    ),
    (
        "partial mask",
        "__device__ int f(int p, unsigned m){ return __any_sync(m, p); }",
        "((__ballot(p) & (m)) != 0)",
        None,
        ["CASS021"],
    ),
    (
        "lane & 31 on wave64",
        "__global__ void k(int* o){ int lane = threadIdx.x & 31; o[lane] = 1; }",
        "threadIdx.x & (warpSize - 1)",
        None,
        ["CASS030"],
    ),
    (
        "smem[32] on wave64",
        "__global__ void k(){ __shared__ float s[32]; }",
        "s[32]",
        None,
        ["CASS031"],
    ),
    (
        "inline PTX laneid",
        '__device__ unsigned f(){ unsigned r; asm("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }',
        "r = __lane_id();",
        "asm",
        ["CASS050"],
    ),
    (
        "inline PTX untranslatable",
        '__device__ void f(){ asm volatile("cp.async.commit_group;"); }',
        'asm volatile("cp.async.commit_group;")',
        None,
        ["CASS051"],
    ),
    (
        "dynamic parallelism",
        "__global__ void child(){}\n__global__ void parent(){ child<<<1,1>>>(); }",
        None,
        None,
        ["CASS070"],
    ),
    (
        "symbol named by a string (removed in CUDA 5.0)",
        '__constant__ float c[4];\nvoid f(float* h){ cudaMemcpyToSymbol("c", h, 16); }',
        'hipMemcpyToSymbol(HIP_SYMBOL("c"), h, 16)',
        None,
        ["CASS012"],
    ),
    (
        "texture reference (HIP keeps them, deprecated)",
        "texture<float, 1, cudaReadModeElementType> tex;",
        "texture<float, 1, hipReadModeElementType> tex;",
        "cuda",
        [],
    ),
    (
        "libcu++",
        "#include <cuda/atomic>\n__device__ void f(cuda::atomic_ref<int> r){}",
        None,
        None,
        ["CASS072"],
    ),
    (
        "wmma",
        "#include <mma.h>\nusing namespace nvcuda;\n__device__ void f(){ wmma::fragment<int> a; }",
        None,
        None,
        ["CASS073"],
    ),
    (
        "bf16 on 5.2",
        "#include <cuda_bf16.h>\n__device__ __nv_bfloat16 x;",
        None,
        None,
        ["CASS011", "CASS074"],
    ),
    (
        "bf16 on 6.0",
        "#include <cuda_bf16.h>\n__device__ __nv_bfloat16 x;",
        "__hip_bfloat16",
        None,
        [],
    ),
    (
        "graph instantiate 3 args",
        "void f(cudaGraphExec_t* e, cudaGraph_t g){ cudaGraphInstantiate(e, g, 0); }",
        "hipGraphInstantiateWithFlags(e, g, 0)",
        None,
        ["CASS060"],
    ),
    (
        "graph instantiate 5 args",
        "void f(cudaGraphExec_t* e, cudaGraph_t g){ cudaGraphInstantiate(e, g, 0, 0, 0); }",
        "hipGraphInstantiate(e, g, 0, 0, 0)",
        None,
        [],
    ),
    (
        "gemm tensor op",
        "int a = CUBLAS_GEMM_DEFAULT_TENSOR_OP;",
        "HIPBLAS_GEMM_DEFAULT",
        None,
        ["CASS012"],
    ),
    ("stream attr value", "cudaStreamAttrValue v;", None, None, ["CASS010"]),
    (
        "module load ptx",
        'void f(CUmodule* m){ cuModuleLoad(m, "kernel.ptx"); }',
        None,
        None,
        ["CASS063"],
    ),
    (
        "capability check",
        "void f(){ cudaDeviceProp p; if (p.major >= 8) {} }",
        None,
        None,
        ["CASS062"],
    ),
    (
        "launch bounds",
        "__global__ void __launch_bounds__(256, 2) k(){}",
        "__launch_bounds__(256) __attribute__((amdgpu_waves_per_eu(4)))",
        "__launch_bounds__(256, 2)",
        ["CASS061"],
    ),
    (
        "launch bounds with a cluster",
        "__global__ void __launch_bounds__(1024, 1, 2) k(){}",
        "__launch_bounds__(1024) __attribute__((amdgpu_waves_per_eu(8)))",
        ", 2)",
        ["CASS066", "CASS061"],
    ),
    (
        "launch with sizeof",
        "__global__ void k(float*){}\nvoid f(float* d){ k<<<1, 32, 32*sizeof(float)>>>(d); }",
        "k<<<1, 32, 32*sizeof(float)>>>(d)",
        None,
        [],
    ),
    (
        "cudaLaunchKernel no false warning",
        "void f(void** a){ cudaLaunchKernel((const void*)0, 1, 1, a, 0, 0); }",
        "hipLaunchKernel",
        None,
        [],
    ),
    (
        "include user-cuda.h untouched",
        '#include "user-cuda.h"\n',
        '#include "user-cuda.h"',
        None,
        [],
    ),
    (
        "cub namespace",
        "#include <cub/cub.cuh>\nvoid f(){ cub::DeviceReduce::Sum(0, 0, 0, 0, 0); }",
        "hipcub::DeviceReduce::Sum",
        None,
        [],
    ),
    (
        "cub sub-header",
        "#include <cub/block/block_scan.cuh>\nvoid f(){ cub::BlockScan<int, 128> s; }",
        "#include <hipcub/hipcub.hpp>\nvoid f(){ hipcub::BlockScan<int, 128> s; }",
        "cub/block",
        [],
    ),
    (
        "implicit runtime include",
        "__global__ void k(){}",
        "#include <hip/hip_runtime.h>\n__global__",
        None,
        [],
    ),
    (
        "legacy __ballot truncated",
        "__device__ int f(int p){ unsigned m = __ballot(p); return __popc(m); }",
        "unsigned long long m = __ballot(p); return __popcll(m);",
        None,
        ["CASS022"],
    ),
    (
        "thrust policy",
        "#include <thrust/sort.h>\nvoid f(int* p, cudaStream_t s){ thrust::sort(thrust::cuda::par.on(s), p, p + 4); }",
        "thrust::hip::par.on(s)",
        None,
        [],
    ),
    (
        "signed 64-bit atomicMax on 5.2",
        "__global__ void k(long long* m, long long v){ atomicMax((long long*)m, v); }",
        "__device__ inline long long atomicMax(long long* address, long long val)",
        None,
        ["CASS020"],
    ),
    (
        "warpSize constant on HIP 7",
        "__global__ void k(){ __shared__ float s[warpSize]; }",
        None,
        None,
        ["CASS032"],
    ),
    # section 1's table and section 3, each remaining construct (research note line in the id)
    (
        "3.1 unmapped runtime functions",
        (
            "void f(){ cudaLaunchKernelExC(0, 0, 0); cudaGraphConditionalHandleCreate(0, 0, 0, 0);\n"
            "cudaGetKernel(0, 0); cudaFuncGetName(0, 0); cudaOccupancyMaxActiveClusters(0, 0, 0);\n"
            "cudaMemcpy3DPeer(0); cudaInitDevice(0, 0, 0); }"
        ),
        None,
        None,
        ["CASS010"],
    ),
    (
        "3.1 access policy window",
        "void f(cudaStream_t s){ cudaStreamAttrValue v; cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v); }",
        None,
        None,
        ["CASS010"],
    ),
    (
        "1 cuda.h and cuda_runtime.h: no third include",
        "#include <cuda.h>\n#include <cuda_runtime.h>\n__global__ void k(){}\n",
        "#include <hip/hip_runtime.h>\n#include <hip/hip_runtime.h>\n__global__",
        "#include <hip/hip_runtime.h>\n#include <hip/hip_runtime.h>\n#include",
        [],
    ),
    (
        "1 __CUDACC__ guard",
        "#ifdef __CUDACC__\n#define HD __host__ __device__\n#endif\n",
        "#ifdef __HIP__",
        "__HIPCC__",
        ["CASS043"],
    ),
    (
        "3.2 one shifted by lane on wave64",
        "__global__ void k(unsigned* o){ int lane = threadIdx.x & 31; o[0] = (1u << lane) - 1; }",
        None,
        None,
        ["CASS030"],
    ),
    (
        "3.2 syncwarp rendezvous with a partial mask",
        "__device__ int f(int x){ if (threadIdx.x & 1) { __syncwarp(0x55555555); } return x; }",
        "__cass_syncwarp()",
        None,
        ["CASS021"],
    ),
    (
        "3.3 inline PTX smid",
        'unsigned f(){ unsigned r; asm volatile("mov.u32 %0, %%smid;" : "=r"(r)); return r; }',
        None,
        "asm",
        ["CASS050"],
    ),
    (
        "3.3 inline PTX bar.sync",
        '__device__ void f(){ asm volatile("bar.sync 0;"); }',
        None,
        "bar.sync",
        ["CASS050"],
    ),
    (
        "3.3 inline PTX ld.global.nc",
        '__device__ float f(const float* p){ float v; asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p)); return v; }',
        None,
        "ld.global",
        ["CASS050"],
    ),
    (
        "3.3 inline PTX cp.async",
        '__device__ void f(void* s, const void* g){ asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" :: "r"(s), "l"(g)); }',
        None,
        None,
        ["CASS051"],
    ),
    (
        "3.3 inline PTX mma.sync",
        '__device__ void f(){ asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0}, {%1}, {%2}, {%3};"); }',
        None,
        None,
        ["CASS051"],
    ),
    (
        "3.3 inline PTX ldmatrix",
        '__device__ void f(unsigned a){ unsigned r; asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(a)); }',
        None,
        None,
        ["CASS051"],
    ),
    (
        "3.4 launch inside a macro",
        "#define LAUNCH(k, n) k<<<1, n>>>()\n__global__ void g(){}\nvoid f(){ LAUNCH(g, 32); }",
        "#define LAUNCH(k, n) k<<<1, n>>>()",
        None,
        [],
    ),
    (
        "3.4 nested macro arguments",
        (
            "#define CHECK(x) do { if ((x) != cudaSuccess) abort(); } while (0)\n#define WRAP(x) CHECK(x)\n"
            "void f(void** p){ WRAP(cudaMalloc(p, 4)); }"
        ),
        "WRAP(hipMalloc(p, 4))",
        "cuda",
        [],
    ),
    (
        "3.5 surface reference",
        "surface<void, 2> surf;\n__global__ void k(){ float v; surf2Dread(&v, surf, 0, 0); }",
        None,
        None,
        ["CASS071"],
    ),
    (
        "3.5 surface resource descriptor",
        "void f(cudaSurfaceObject_t s){ cudaResourceDesc d; cudaGetSurfaceObjectResourceDesc(&d, s); }",
        None,
        None,
        ["CASS010"],
    ),
    (
        "3.5 texture objects map 1:1",
        "void f(cudaTextureObject_t* t, cudaResourceDesc* r, cudaTextureDesc* d){ cudaCreateTextureObject(t, r, d, 0); }",
        "hipCreateTextureObject(t, r, d, 0)",
        "cuda",
        [],
    ),
    (
        "3.6 labeled_partition and invoke_one",
        (
            "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(){ auto b = cg::this_thread_block();\n"
            "auto t = cg::labeled_partition(cg::tiled_partition<32>(b), 1); cg::invoke_one(b, []{}); }"
        ),
        None,
        None,
        ["CASS010"],
    ),
    (
        "3.6 cluster group",
        "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(){ cg::cluster_group c = cg::this_cluster(); c.sync(); }",
        None,
        None,
        ["CASS010"],
    ),
    (
        "3.6 grid sync needs a cooperative launch",
        "void f(void** a){ cudaLaunchCooperativeKernel((void*)0, 1, 1, a, 0, 0); }",
        "hipLaunchCooperativeKernel",
        None,
        [],
    ),
    (
        "3.7 graph add node v2",
        "void f(cudaGraph_t g, cudaGraphNode_t* n, cudaGraphNodeParams* p){ cudaGraphAddNode_v2(n, g, 0, 0, 0, p); }",
        None,
        None,
        ["CASS011", "CASS082"],  # hipGraphNodeParams needs HIP 6.1; the _v2 call is unknown
    ),
    (
        "3.7 CUDA 13 ABI change cuCtxCreate",
        "void f(CUcontext* c, CUdevice d){ cuCtxCreate(c, 0, d); }",
        "hipCtxCreate",
        None,
        ["CASS012"],
    ),
    (
        "3.8 thread-block clusters",
        "__global__ void __cluster_dims__(2, 1, 1) k(){}",
        None,
        None,
        ["CASS010"],
    ),
    (
        "3.8 wgmma",
        '__device__ void f(){ asm volatile("wgmma.fence.sync.aligned;"); }',
        None,
        None,
        ["CASS051"],
    ),
    (
        "3.9 using namespace cub",
        "#include <cub/cub.cuh>\nusing namespace cub;\n",
        "using namespace hipcub;",
        None,
        [],
    ),
    (
        "3.10 cuRAND host API",
        "#include <curand.h>\nvoid f(curandGenerator_t* g){ curandCreateGenerator(g, CURAND_RNG_PSEUDO_DEFAULT); }",
        "hiprandCreateGenerator(g, HIPRAND_RNG_PSEUDO_DEFAULT)",
        "curand",
        [],
    ),
    (
        "3.10 cuFFT",
        "#include <cufft.h>\nvoid f(cufftHandle* h){ cufftPlan1d(h, 8, CUFFT_C2C, 1); }",
        "hipfftPlan1d(h, 8, HIPFFT_C2C, 1)",
        None,
        [],
    ),
    (
        "3.10 cuSOLVER through hipSOLVER's compatibility API (hipSOLVER 1.4.0, ROCm 5.2.3)",
        "#include <cusolverDn.h>\nvoid f(cusolverDnHandle_t* h){ cusolverDnCreate(h); }",
        "hipsolverDnCreate(h)",
        "cusolverDn",
        ["CASS012"],
    ),
    (
        "3.10 cuDNN through MIOpen (tables/cudnn.tsv; calls that differ: passes/cudnn_calls.py)",
        "#include <cudnn.h>\nvoid f(cudnnHandle_t* h){ cudnnCreate(h); }",
        "#include <miopen/miopen.h>\nvoid f(miopenHandle_t* h){ miopenCreate(h); }",
        "cudnn",
        ["CASS012"],
    ),
    (
        "3.11 NVRTC",
        '#include <nvrtc.h>\nvoid f(nvrtcProgram* p){ nvrtcCreateProgram(p, "", "k", 0, 0, 0); }',
        "hiprtcCreateProgram(p",
        "nvrtc",
        [],
    ),
    (
        "3.13 managed memory hints differ",
        "void f(void* p, size_t n){ cudaMemAdvise(p, n, cudaMemAdviseSetReadMostly, 0); }",
        "hipMemAdvise",
        None,
        ["CASS012"],
    ),
    (
        "3.13 location-struct memory hints",
        "void f(void* p, size_t n, cudaMemLocation l){ cudaMemAdvise_v2(p, n, cudaMemAdviseSetReadMostly, l); }",
        None,
        None,
        ["CASS010"],
    ),
    (
        "3.14 fp8 on 5.2",
        "#include <cuda_fp8.h>\n__device__ __nv_fp8_e4m3 f(float x){ return __nv_fp8_e4m3(x); }",
        None,
        None,
        ["CASS011"],
    ),
    (
        "3.14 __hmax on 5.2",
        "#include <cuda_fp16.h>\n__device__ __half f(__half a, __half b){ return __hmax(a, b); }",
        None,
        None,
        ["CASS011"],
    ),
    (
        "3.14 directed rounding",
        "__device__ float f(float a, float b){ return __fadd_rd(a, b); }",
        None,
        None,
        ["CASS010"],
    ),
    (
        "3.14 SIMD-in-word intrinsics",
        "__device__ unsigned f(unsigned a, unsigned b){ return __vadd4(a, b); }",
        None,
        None,
        ["CASS010"],
    ),
    (
        "3.15 dynamic shared memory above the LDS",
        "__global__ void k(){}\nvoid f(){ cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024); }",
        "hipFuncAttributeMaxDynamicSharedMemorySize",
        None,
        ["CASS067"],
    ),
]
HIP_VERSIONS = {"bf16 on 6.0": "6.0", "warpSize constant on HIP 7": "7.0"}
WAVE64 = {"lane & 31 on wave64", "smem[32] on wave64", "3.2 one shifted by lane on wave64"}


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_hipify_failure_mode(case, port_snippet):
    name, source, present, absent, codes = case
    out, found = port_snippet(
        source,
        hip_version=HIP_VERSIONS.get(name, "5.2"),
        arch="gfx90a" if name in WAVE64 else "gfx1100",
    )
    if present:
        assert present in out
    if absent:
        assert absent not in out
    for code in codes:
        assert code in found, (code, sorted(found))
    if not codes:
        assert not [d for ds in found.values() for d in ds if d.severity.value == "error"]


def test_diagnostics_are_located_at_the_construct(port_snippet):
    _, found = port_snippet(
        "int a;\n\n__global__ void p(){\n  child<<<1, 1>>>();\n}\n__global__ void child(){}\n"
    )
    d = found["CASS070"][0]
    assert (d.line, d.column) == (4, 3)


def test_wave32_needs_no_rewrite(port_snippet):
    out, found = port_snippet(
        "__global__ void k(int* o){ int lane = threadIdx.x & 31; o[lane] = 1; }"
    )
    assert "threadIdx.x & 31" in out and "CASS030" not in found


def test_hip7_keeps_native_sync_builtins_with_64bit_masks(port_snippet):
    out, _ = port_snippet(
        "__device__ float f(float v){ __syncwarp(); return __shfl_xor_sync(0xffffffff, v, 1); }",
        hip_version="7.0",
    )
    assert "__shfl_xor_sync(0xffffffffffffffffull, v, 1)" in out and "__syncwarp();" in out
    assert "HIP_ENABLE_WARP_SYNC_BUILTINS" not in out


def test_hip62_enables_sync_builtins_and_shims_syncwarp(port_snippet):
    out, _ = port_snippet(
        "#include <cuda_runtime.h>\n__device__ float f(float v, unsigned m){ __syncwarp(); return __shfl_xor_sync(m, v, 1); }",
        hip_version="6.2",
    )
    assert out.index("#define HIP_ENABLE_WARP_SYNC_BUILTINS") < out.index(
        "#include <hip/hip_runtime.h>"
    )
    assert "static_cast<unsigned long long>(m)" in out and "__cass_syncwarp()" in out


def test_dynamic_shared_memory_within_the_lds_is_not_reported(port_snippet):
    _, found = port_snippet(
        "__global__ void k(){}\nvoid f(){ cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024); }"
    )
    assert "CASS067" not in found

// Which wave wins a contended compare-and-swap depends on the order the waves run in: each wave
// spins a different number of turns (wave 0 the longest), then its first lane tries to claim
// the slot. Any wave may win; the program checks only that one did.
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void claim(const int* spins, int* slot, float* sink) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int wave = t / 32;
    float acc = 0.0f;
    for (int i = 0; i < spins[wave]; ++i) acc = acc * 0.5f + (float)i;
    sink[t] = acc;
    if ((threadIdx.x & 31) == 0) atomicCAS(slot, 0, wave + 1);
}

int main() {
    const int waves = 8, threads = waves * 32;
    int host[waves];
    for (int w = 0; w < waves; ++w) host[w] = 40 * (waves - w);
    int *spins, *slot;
    float* sink;
    hipMalloc(&spins, sizeof host);
    hipMalloc(&slot, sizeof(int));
    hipMalloc(&sink, threads * sizeof(float));
    hipMemcpy(spins, host, sizeof host, hipMemcpyHostToDevice);
    hipMemset(slot, 0, sizeof(int));
    claim<<<1, threads>>>(spins, slot, sink);
    int winner = 0;
    float last = 0.0f;
    hipMemcpy(&winner, slot, sizeof winner, hipMemcpyDeviceToHost);
    hipMemcpy(&last, sink + threads - 1, sizeof last, hipMemcpyDeviceToHost);
    bool ok = winner >= 1 && winner <= waves;
    printf("a wave claimed the slot: %s; last sum %.3f\n", ok ? "yes" : "no", last);
    return ok ? 0 : 1;
}

// A bound surface reference (surface<void, dim>, CUDA 11 and older): HIP has none, so its reads
// and writes are located lift errors (tests/lift/test_texture_refs.py).
surface<void, 2> s_grid;

__global__ void bump(int w) {
  int x = threadIdx.x;
  if (x < w) {
    float v;
    surf2Dread(&v, s_grid, x * 4, 0);
    surf2Dwrite(v + 1.0f, s_grid, x * 4, 1);
  }
}

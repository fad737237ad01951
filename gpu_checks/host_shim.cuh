// layoutcheck GPU checks: a host shim that lets kernel sources run on the CPU.
//
// It defines the CUDA built-ins a kernel uses (__global__, __device__, __host__, threadIdx,
// blockIdx, blockDim, gridDim) and lc_host_launch(), which calls a kernel once per
// (block, thread) index of the grid, in order.  The kernels here use no shared memory and no
// barriers, so running threads one after another is a valid schedule of the same program.
// Include this file before the kernel source; compile with g++ -std=c++17.  (Named .cuh
// so that it ships as package data with the kernel sources.)
#pragma once
#if defined(__CUDACC__)
#error "host_shim.cuh is for host compilers only"
#endif

#define __global__
#define __device__
#define __host__

struct lc_uint3 { unsigned x, y, z; };
static thread_local lc_uint3 threadIdx{0, 0, 0}, blockIdx{0, 0, 0};
static thread_local lc_uint3 blockDim{1, 1, 1}, gridDim{1, 1, 1};

template <class Kernel, class... Args>
void lc_host_launch(Kernel kernel, unsigned grid, unsigned block, Args... args) {
  gridDim = {grid, 1, 1};
  blockDim = {block, 1, 1};
  for (unsigned b = 0; b < grid; ++b) {
    for (unsigned t = 0; t < block; ++t) {
      blockIdx = {b, 0, 0};
      threadIdx = {t, 0, 0};
      kernel(args...);
    }
  }
}

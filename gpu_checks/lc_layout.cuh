// layoutcheck GPU checks: the layout function Phi_L on the device (and on the host shim).
//
// A layout is passed flattened: `rank` modes, shape[m] >= 1 and stride[m] >= 0 (int64).
// Phi_L(i) = phi_L(colex_S^{-1}(i)) (paper, Construction 2.1.2.19): the colexicographic
// coordinate x_m = floor(i / (s_1 ... s_{m-1})) mod s_m (Def 2.1.2.18), then
// phi_L(x) = sum_m x_m d_m (Construction 2.1.2.13).  A nested layout evaluates through its
// flattening (paper 2.3), so flattening loses nothing here.
//
// Ranks above LC_MAX_RANK are refused by the Python side before a launch.
#pragma once

#define LC_MAX_RANK 16

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define LC_HD __host__ __device__ __forceinline__
#else
#define LC_HD inline
#endif

// One index per thread, grid-stride: on a device every thread takes i = global thread id,
// then strides by the grid size; the host shim runs the same loop for each thread index.
#define LC_FOR_EACH_INDEX(i, n)                                                        \
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (long long)(n); \
       i += (long long)blockDim.x * gridDim.x)

LC_HD long long lc_phi(long long i, int rank, const long long* shape, const long long* stride) {
  long long offset = 0;
  for (int m = 0; m < rank; ++m) {
    long long s = shape[m];
    long long x = i % s;  // colex coordinate of mode m
#ifdef LC_FAULT_DEMO
    // A deliberate bug, compiled only into the fault-injection build used by the tests of
    // the shrinker: the last coordinate of an extent-5 mode is read as 0.
    if (s == 5 && x == 4) x = 0;
#endif
    offset += x * stride[m];
    i /= s;
  }
  return offset;
}

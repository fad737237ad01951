// layoutcheck GPU checks: kernels that compute addresses through a layout passed at run time.
//
// Every kernel is extern "C" (stable names for NVRTC, nvcc and the host shim) and walks its
// indices with LC_FOR_EACH_INDEX, so it is correct for any grid.  Data-movement kernels move
// 4-byte floats.  Signatures are mirrored in gpu_checks/kernels.py (ADDRESS_KERNELS).
#include "lc_layout.cuh"

// out[i] = Phi_L(i) for i in [0, n), n = size(L).
extern "C" __global__ void lc_address(const long long* shape, const long long* stride, int rank,
                                      long long n, long long* out) {
  long long s[LC_MAX_RANK], d[LC_MAX_RANK];
  for (int m = 0; m < rank; ++m) { s[m] = shape[m]; d[m] = stride[m]; }
  LC_FOR_EACH_INDEX(i, n) { out[i] = lc_phi(i, rank, s, d); }
}

// Many layouts in one launch.  Layout k's descriptor is desc[desc_start[k] ...] =
// (rank, s_1..s_r, d_1..d_r); its offsets go to out[out_start[k] .. out_start[k+1]).
// out_start has count+1 entries, out_start[count] = total.
extern "C" __global__ void lc_sweep(const long long* desc, const long long* desc_start,
                                    const long long* out_start, int count, long long total,
                                    long long* out) {
  LC_FOR_EACH_INDEX(i, total) {
    int lo = 0, hi = count - 1;  // the last k with out_start[k] <= i
    while (lo < hi) {
      int mid = (lo + hi + 1) / 2;
      if (out_start[mid] <= i) lo = mid; else hi = mid - 1;
    }
    const long long* dk = desc + desc_start[lo];
    int rank = (int)dk[0];
    out[i] = lc_phi(i - out_start[lo], rank, dk + 1, dk + 1 + rank);
  }
}

// Gather: out[i] = in[Phi_L(i)].
extern "C" __global__ void lc_gather(const long long* shape, const long long* stride, int rank,
                                     long long n, const float* in, float* out) {
  long long s[LC_MAX_RANK], d[LC_MAX_RANK];
  for (int m = 0; m < rank; ++m) { s[m] = shape[m]; d[m] = stride[m]; }
  LC_FOR_EACH_INDEX(i, n) { out[i] = in[lc_phi(i, rank, s, d)]; }
}

// Scatter: out[Phi_L(i)] = in[i] (L injective, else writes race).
extern "C" __global__ void lc_scatter(const long long* shape, const long long* stride, int rank,
                                      long long n, const float* in, float* out) {
  long long s[LC_MAX_RANK], d[LC_MAX_RANK];
  for (int m = 0; m < rank; ++m) { s[m] = shape[m]; d[m] = stride[m]; }
  LC_FOR_EACH_INDEX(i, n) { out[lc_phi(i, rank, s, d)] = in[i]; }
}

// Copy between two layouts of the same size, as a tiled copy does:
// dst[Phi_D(i)] = src[Phi_S(i)] (D injective).
extern "C" __global__ void lc_copy(const long long* src_shape, const long long* src_stride,
                                   int src_rank, const long long* dst_shape,
                                   const long long* dst_stride, int dst_rank, long long n,
                                   const float* src, float* dst) {
  long long s[LC_MAX_RANK], d[LC_MAX_RANK], t[LC_MAX_RANK], e[LC_MAX_RANK];
  for (int m = 0; m < src_rank; ++m) { s[m] = src_shape[m]; d[m] = src_stride[m]; }
  for (int m = 0; m < dst_rank; ++m) { t[m] = dst_shape[m]; e[m] = dst_stride[m]; }
  LC_FOR_EACH_INDEX(i, n) { dst[lc_phi(i, dst_rank, t, e)] = src[lc_phi(i, src_rank, s, d)]; }
}

/* bench/math/timing.cuh - the time of a kernel launch as the math benchmarks take it: eight
 * launches timed with CUDA events, the first a warm-up, the median of the other seven. */
#ifndef CP_BENCH_TIMING_CUH
#define CP_BENCH_TIMING_CUH

#include <algorithm>
#include <vector>

/* `launch()` launches the kernel once; returns the median time in milliseconds. */
template <class Launch> static float cp_bench_median_ms(Launch launch) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  std::vector<float> ms;
  for (int r = 0; r < 8; r++) {
    cudaEventRecord(a);
    launch();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float t;
    cudaEventElapsedTime(&t, a, b);
    if (r)
      ms.push_back(t); /* the first is the warm-up */
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

#endif

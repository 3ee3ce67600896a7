/*
 * cpconvert's built-in stand-in for <cooperative_groups.h>, used with the built-in CUDA
 * prelude (see cuda_runtime.h beside it): the declarations kernels commonly use, enough
 * for the parse and for types to resolve. Never compiled into anything.
 */
#ifndef CPCONVERT_PRELUDE_COOPERATIVE_GROUPS_H
#define CPCONVERT_PRELUDE_COOPERATIVE_GROUPS_H

namespace cooperative_groups {

class thread_group {
public:
  __device__ unsigned size() const;
  __device__ unsigned num_threads() const;
  __device__ unsigned thread_rank() const;
  __device__ void sync() const;
};

class thread_block : public thread_group {
public:
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
};

class grid_group : public thread_group {};

template <unsigned Size, typename Parent = void>
class thread_block_tile : public thread_group {
public:
  __device__ thread_block_tile();
  template <typename P> __device__ thread_block_tile(const thread_block_tile<Size, P> &other);
  template <typename T> __device__ T shfl(T var, int src) const;
  template <typename T> __device__ T shfl_down(T var, unsigned delta) const;
  template <typename T> __device__ T shfl_up(T var, unsigned delta) const;
  template <typename T> __device__ T shfl_xor(T var, unsigned mask) const;
  __device__ unsigned meta_group_rank() const;
  __device__ unsigned meta_group_size() const;
  __device__ int any(int pred) const;
  __device__ int all(int pred) const;
  __device__ unsigned ballot(int pred) const;
};

__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
template <unsigned Size, typename Parent>
__device__ thread_block_tile<Size, Parent> tiled_partition(const Parent &parent);
__device__ void sync(const thread_group &g);

} // namespace cooperative_groups

#endif

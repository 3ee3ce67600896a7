// Domain-decomposed Lennard-Jones NVE molecular dynamics with CUDA and MPI (reduced units,
// epsilon = sigma = mass = 1).
//
// The periodic box is split into dims[0] x dims[1] x dims[2] subdomains (MPI_Dims_create,
// a periodic Cartesian communicator), one MPI rank per subdomain; all ranks may share one
// GPU. Each rank owns the atoms inside its half-open subdomain [lo, hi) and keeps, after
// them in the same arrays, copies ("ghosts") of the atoms of the other subdomains that
// lie within the cutoff of its faces, edges and corners. Ghost coordinates carry the
// periodic shift, so the force kernel needs no minimum image.
//
// One step (velocity Verlet):
//   kick(dt/2); drift(dt); migrate; halo; forces; kick(dt/2)
// migrate: for d = 0, 1, 2 the owned atoms that left [lo[d], hi[d]) go to the lower or
//   upper neighbour along d (three passes carry an atom across an edge or a corner).
// halo: for d = 0, 1, 2 the atoms (owned, and ghosts received along earlier dimensions)
//   within rc of the lower or upper face along d are copied to that neighbour.
// Both move data GPU -> host -> MPI_Sendrecv -> host -> GPU; the choice of atoms is made
// on the host from a copy of one coordinate, in index order, so that runs are repeatable.
//
// Every rank builds the same N = 4 NC^3 atoms (fcc lattice, velocities from a hash of the
// global atom index) and keeps those in its subdomain, so the physical system does not
// depend on the rank count. Every input the host makes (positions, velocities, box, dt,
// the potential's shift) is rounded to float in every build, so the double build starts
// from the same state as the float one and is its reference. Energies are summed on the GPU by a one-thread loop (a fixed
// order) and over ranks by MPI_Allreduce.
//
//   usage: md_mpi [NC=6] [STEPS=1000] [EVERY=100] [DT=0.005]
//   float build: nvcc ... md_mpi.cu -lmpi; double build: the same with -DDOUBLE_PRECISION

// Only the C interface of MPI: the C++ bindings (Open MPI, MPICH) declare a constant named
// DOUBLE_PRECISION, which the -DDOUBLE_PRECISION switch would turn into a syntax error.
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>
#include <cuda_runtime.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifdef DOUBLE_PRECISION
typedef double real;
#define REAL_MPI_TYPE MPI_DOUBLE
#else
typedef float real;
#define REAL_MPI_TYPE MPI_FLOAT
#endif

#define CHECK(call)                                                              \
  do {                                                                           \
    cudaError_t check_err_ = (call);                                             \
    if (check_err_ != cudaSuccess) {                                             \
      fprintf(stderr, "CUDA error at %s:%d: %s\n", __FILE__, __LINE__,           \
              cudaGetErrorString(check_err_));                                   \
      MPI_Abort(MPI_COMM_WORLD, 1);                                              \
    }                                                                            \
  } while (0)

static const double DENSITY = 0.8442;
static const double TEMPERATURE = 0.72;
static const double CUTOFF = 2.5;
static const int BLOCK = 128;

// MPI tags: one per kind of message, plus 2 * d + dir (dimension, direction).
static const int TAG_MIGRATE_COUNT = 100;
static const int TAG_MIGRATE_DATA = 200;
static const int TAG_HALO_COUNT = 300;
static const int TAG_HALO_DATA = 400;

// ---------------------------------------------------------------------------------------
// Kernels. One thread per atom (or per listed atom); no atomics, no shared memory.
// ---------------------------------------------------------------------------------------

// v += half_dt * f (unit mass)
#pragma cp composite
__global__ void kick(int n, real *vx, real *vy, real *vz, const real *fx, const real *fy,
                     const real *fz, real half_dt)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  vx[i] += half_dt * fx[i];
  vy[i] += half_dt * fy[i];
  vz[i] += half_dt * fz[i];
}

// r += dt * v
#pragma cp composite
__global__ void drift(int n, real *rx, real *ry, real *rz, const real *vx, const real *vy,
                      const real *vz, real dt)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  rx[i] += dt * vx[i];
  ry[i] += dt * vy[i];
  rz[i] += dt * vz[i];
}

// buf[6k .. 6k+5] = position and velocity of atom idx[k]; coordinate d gets the periodic
// shift (+L, -L or 0).
#pragma cp composite
__global__ void pack_atoms(int m, const int *idx, const real *rx, const real *ry,
                           const real *rz, const real *vx, const real *vy, const real *vz,
                           real *buf, int d, real shift)
{
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  int j = idx[k];
  real x = rx[j];
  real y = ry[j];
  real z = rz[j];
  if (d == 0) {
    x = x + shift;
  } else if (d == 1) {
    y = y + shift;
  } else {
    z = z + shift;
  }
  buf[6 * k + 0] = x;
  buf[6 * k + 1] = y;
  buf[6 * k + 2] = z;
  buf[6 * k + 3] = vx[j];
  buf[6 * k + 4] = vy[j];
  buf[6 * k + 5] = vz[j];
}

// buf[3k .. 3k+2] = position of atom idx[k], coordinate d shifted (ghost copies).
#pragma cp composite
__global__ void pack_pos(int m, const int *idx, const real *rx, const real *ry,
                         const real *rz, real *buf, int d, real shift)
{
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  int j = idx[k];
  real x = rx[j];
  real y = ry[j];
  real z = rz[j];
  if (d == 0) {
    x = x + shift;
  } else if (d == 1) {
    y = y + shift;
  } else {
    z = z + shift;
  }
  buf[3 * k + 0] = x;
  buf[3 * k + 1] = y;
  buf[3 * k + 2] = z;
}

// Atom base + k takes position and velocity from buf[6k .. 6k+5].
#pragma cp composite pair(buf)
__global__ void unpack_atoms(int m, int base, const real *buf, real *rx, real *ry, real *rz,
                             real *vx, real *vy, real *vz)
{
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  int j = base + k;
  rx[j] = buf[6 * k + 0];
  ry[j] = buf[6 * k + 1];
  rz[j] = buf[6 * k + 2];
  vx[j] = buf[6 * k + 3];
  vy[j] = buf[6 * k + 4];
  vz[j] = buf[6 * k + 5];
}

// Ghost base + k takes its position from buf[3k .. 3k+2].
#pragma cp composite pair(buf)
__global__ void unpack_pos(int m, int base, const real *buf, real *rx, real *ry, real *rz)
{
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  int j = base + k;
  rx[j] = buf[3 * k + 0];
  ry[j] = buf[3 * k + 1];
  rz[j] = buf[3 * k + 2];
}

// Compaction after atoms left: atom from[k] moves to slot to[k]. The host plan takes every
// from[k] at or above the new count and every to[k] below it, so no slot is both read
// and written.
#pragma cp composite
__global__ void move_atoms(int m, const int *from, const int *to, real *rx, real *ry,
                           real *rz, real *vx, real *vy, real *vz)
{
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  int s = from[k];
  int t = to[k];
  rx[t] = rx[s];
  ry[t] = ry[s];
  rz[t] = rz[s];
  vx[t] = vx[s];
  vy[t] = vy[s];
  vz[t] = vz[s];
}

// Shifted-force Lennard-Jones, all pairs: owned atom i (i < n_own) against every other
// atom j < n_all, owned or ghost. Each owned atom sums its own force, so every pair is
// computed twice and nothing is written by two threads.
//   V(r) = 4 (r^-12 - r^-6) - V(rc) - (r - rc) V'(rc), vrc = V(rc), dvrc = V'(rc)
//   force on i: F(r)/r * (ri - rj), F(r)/r = (48 r^-12 - 24 r^-6) / r^2 + dvrc / r
// Half of each pair energy goes to each atom.
#pragma cp composite
__global__ void forces(int n_own, int n_all, const real *rx, const real *ry, const real *rz,
                       real *fx, real *fy, real *fz, real *epot, real rc, real rc2,
                       real vrc, real dvrc)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_own) return;
  real xi = rx[i];
  real yi = ry[i];
  real zi = rz[i];
  real fxi = 0;
  real fyi = 0;
  real fzi = 0;
  real ei = 0;
  for (int j = 0; j < n_all; j++) {
    if (j == i) continue;
    real dx = xi - rx[j];
    real dy = yi - ry[j];
    real dz = zi - rz[j];
    real r2 = dx * dx + dy * dy + dz * dz;
    if (r2 < rc2) {
      real r = sqrt(r2);
      real ir2 = 1.0f / r2;
      real ir6 = ir2 * ir2 * ir2;
      real ir12 = ir6 * ir6;
      real fr = (48.0f * ir12 - 24.0f * ir6) * ir2 + dvrc / r;
      fxi += fr * dx;
      fyi += fr * dy;
      fzi += fr * dz;
      ei += 4.0f * (ir12 - ir6) - vrc - (r - rc) * dvrc;
    }
  }
  fx[i] = fxi;
  fy[i] = fyi;
  fz[i] = fzi;
  epot[i] = 0.5f * ei;
}

// Kinetic energy of each atom (unit mass).
#pragma cp composite
__global__ void kinetic(int n, const real *vx, const real *vy, const real *vz, real *ekin)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  ekin[i] = 0.5f * (vx[i] * vx[i] + vy[i] * vy[i] + vz[i] * vz[i]);
}

// Sum of a[0 .. n) in index order by a single thread: slow, but the same order on every
// run. Launched <<<1, 1>>>.
#pragma cp composite
__global__ void serial_sum(int n, const real *a, real *out)
{
  real s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  *out = s;
}

// ---------------------------------------------------------------------------------------
// Host helpers
// ---------------------------------------------------------------------------------------

static void die(const char *msg)
{
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  fprintf(stderr, "md_mpi (rank %d): %s\n", rank, msg);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static int grid_for(int n) { return (n + BLOCK - 1) / BLOCK; }

// splitmix64 finaliser: a well-mixed 64-bit hash of a 64-bit key.
static uint64_t hash64(uint64_t key)
{
  uint64_t h = key + 0x9E3779B97F4A7C15ULL;
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ULL;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBULL;
  return h ^ (h >> 31);
}

// Uniform in [-0.5, 0.5) from the top 53 bits of the hash.
static double hash_uniform(uint64_t key)
{
  return (double)(hash64(key) >> 11) * (1.0 / 9007199254740992.0) - 0.5;
}

// Boundary k of dims equal slabs of [0, L): k * L / dims, and exactly L at the top, so
// that neighbouring ranks compute bit-identical shared boundaries.
static real boundary(int k, int dims, double box)
{
  if (k == dims) return (real)box;
  return (real)((double)k * box / (double)dims);
}

// Builds all N atoms identically on every rank and keeps those in [lo, hi) (in real
// precision, the same test as migrate). Velocities: uniform hash values per global index
// and component, zero total momentum, scaled to temperature T with 3(N - 1) degrees of
// freedom. Returns the number of atoms kept.
static int init_atoms(int nc, double a, const real *lo, const real *hi, int cap, real *x,
                      real *y, real *z, real *vx, real *vy, real *vz)
{
  const int n = 4 * nc * nc * nc;
  double *v = (double *)malloc(3 * (size_t)n * sizeof(double));
  if (v == NULL) die("out of host memory");
  double mean[3] = {0.0, 0.0, 0.0};
  for (int g = 0; g < n; g++) {
    for (int c = 0; c < 3; c++) {
      v[3 * g + c] = hash_uniform(3 * (uint64_t)g + (uint64_t)c);
      mean[c] += v[3 * g + c];
    }
  }
  for (int c = 0; c < 3; c++) mean[c] /= n;
  double ekin = 0.0;
  for (int g = 0; g < n; g++) {
    for (int c = 0; c < 3; c++) {
      v[3 * g + c] -= mean[c];
      ekin += 0.5 * v[3 * g + c] * v[3 * g + c];
    }
  }
  double scale = sqrt(1.5 * (n - 1) * TEMPERATURE / ekin);

  // fcc basis in units of the cell edge a; the whole lattice is shifted by a/4.
  static const double basis[4][3] = {
      {0.0, 0.0, 0.0}, {0.5, 0.5, 0.0}, {0.5, 0.0, 0.5}, {0.0, 0.5, 0.5}};
  int kept = 0;
  for (int ix = 0; ix < nc; ix++) {
    for (int iy = 0; iy < nc; iy++) {
      for (int iz = 0; iz < nc; iz++) {
        for (int b = 0; b < 4; b++) {
          int g = 4 * ((ix * nc + iy) * nc + iz) + b;
          real p[3];
          p[0] = (real)(float)((ix + basis[b][0] + 0.25) * a);
          p[1] = (real)(float)((iy + basis[b][1] + 0.25) * a);
          p[2] = (real)(float)((iz + basis[b][2] + 0.25) * a);
          bool inside = true;
          for (int d = 0; d < 3; d++) {
            if (p[d] < lo[d] || p[d] >= hi[d]) inside = false;
          }
          if (!inside) continue;
          if (kept >= cap) die("initial atoms exceed the capacity");
          x[kept] = p[0];
          y[kept] = p[1];
          z[kept] = p[2];
          vx[kept] = (real)(float)(scale * v[3 * g + 0]);
          vy[kept] = (real)(float)(scale * v[3 * g + 1]);
          vz[kept] = (real)(float)(scale * v[3 * g + 2]);
          kept++;
        }
      }
    }
  }
  free(v);
  return kept;
}

// ---------------------------------------------------------------------------------------
// main: setup, the time loop with migration and halo exchange, output
// ---------------------------------------------------------------------------------------

int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  const int nc = argc > 1 ? atoi(argv[1]) : 6;
  const int steps = argc > 2 ? atoi(argv[2]) : 1000;
  const int every = argc > 3 ? atoi(argv[3]) : 100;
  const double dt_d = argc > 4 ? atof(argv[4]) : 0.005;
  if (nc < 1 || steps < 1 || every < 1 || !(dt_d > 0.0)) {
    die("usage: md_mpi [NC>=1] [STEPS>=1] [EVERY>=1] [DT>0]");
  }

  // Cartesian decomposition, periodic in all three dimensions, ranks not reordered.
  int dims[3] = {0, 0, 0};
  int periods[3] = {1, 1, 1};
  MPI_Dims_create(size, 3, dims);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
  int rank = 0;
  MPI_Comm_rank(cart, &rank);
  int coords[3];
  MPI_Cart_coords(cart, rank, 3, coords);
  int lo_nbr[3], hi_nbr[3];
  for (int d = 0; d < 3; d++) MPI_Cart_shift(cart, d, 1, &lo_nbr[d], &hi_nbr[d]);

  // One GPU per rank on a node, round robin; several ranks may share one.
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int local_rank = 0;
  MPI_Comm_rank(node, &local_rank);
  int device_count = 0;
  CHECK(cudaGetDeviceCount(&device_count));
  if (device_count < 1) die("no CUDA device");
  CHECK(cudaSetDevice(local_rank % device_count));

  // How many GPUs the ranks run on: distinct PCI bus ids over all ranks (printed at the end).
  enum { BUS_ID = 32 };
  char bus_id[BUS_ID] = {0};
  CHECK(cudaDeviceGetPCIBusId(bus_id, BUS_ID, local_rank % device_count));
  char *bus_ids = (char *)calloc((size_t)size * BUS_ID, 1);
  MPI_Allgather(bus_id, BUS_ID, MPI_CHAR, bus_ids, BUS_ID, MPI_CHAR, MPI_COMM_WORLD);
  int gpus = 0;
  for (int i = 0; i < size; i++) {
    int seen = 0;
    for (int j = 0; j < i && !seen; j++) {
      seen = strncmp(bus_ids + i * BUS_ID, bus_ids + j * BUS_ID, BUS_ID) == 0;
    }
    gpus += !seen;
  }
  free(bus_ids);

  // Geometry: fcc cell edge a, box edge L, subdomain [lo, hi) along each dimension.
  const int n_atoms = 4 * nc * nc * nc;
  const double a = cbrt(4.0 / DENSITY);
  const double box = (double)(float)(nc * a);
  const real L = (real)box;
  const real rc = (real)CUTOFF;
  real lo[3], hi[3];
  for (int d = 0; d < 3; d++) {
    lo[d] = boundary(coords[d], dims[d], box);
    hi[d] = boundary(coords[d] + 1, dims[d], box);
    if (box / dims[d] < CUTOFF) {
      char msg[200];
      snprintf(msg, sizeof msg,
               "subdomain width L/dims[%d] = %g is below the cutoff %g: use more cells "
               "(NC) or fewer ranks",
               d, box / dims[d], CUTOFF);
      die(msg);
    }
  }
  if (box < 2.0 * CUTOFF) die("box edge L is below twice the cutoff: use more cells (NC)");

  // Capacity per rank (owned + ghosts): 1.5 times the atoms expected in the subdomain
  // grown by rc on every side, plus a margin.
  double grown = 1.0;
  for (int d = 0; d < 3; d++) grown *= box / dims[d] + 2.0 * CUTOFF;
  const int cap = (int)(1.5 * DENSITY * grown) + 1024;

  // Host buffers: one coordinate at a time for the selections, velocities for the initial
  // upload, index lists and the compaction plan, staging for MPI.
  real *h_rx = (real *)malloc((size_t)cap * sizeof(real));
  real *h_ry = (real *)malloc((size_t)cap * sizeof(real));
  real *h_rz = (real *)malloc((size_t)cap * sizeof(real));
  real *h_vx = (real *)malloc((size_t)cap * sizeof(real));
  real *h_vy = (real *)malloc((size_t)cap * sizeof(real));
  real *h_vz = (real *)malloc((size_t)cap * sizeof(real));
  int *h_idx = (int *)malloc(2 * (size_t)cap * sizeof(int));
  int *h_from = (int *)malloc((size_t)cap * sizeof(int));
  int *h_to = (int *)malloc((size_t)cap * sizeof(int));
  char *h_gone = (char *)malloc((size_t)cap);
  real *h_send = (real *)malloc(6 * (size_t)cap * sizeof(real));
  real *h_recv = (real *)malloc(6 * (size_t)cap * sizeof(real));
  if (!h_rx || !h_ry || !h_rz || !h_vx || !h_vy || !h_vz || !h_idx || !h_from || !h_to ||
      !h_gone || !h_send || !h_recv) {
    die("out of host memory");
  }

  // Device arrays: atoms 0 .. n_own-1 are owned, n_own .. n_all-1 ghosts.
  real *d_rx, *d_ry, *d_rz, *d_vx, *d_vy, *d_vz, *d_fx, *d_fy, *d_fz;
  real *d_epot, *d_ekin, *d_sums, *d_send, *d_recv;
  int *d_idx, *d_from, *d_to;
  const size_t bytes = (size_t)cap * sizeof(real);
  CHECK(cudaMalloc(&d_rx, bytes));
  CHECK(cudaMalloc(&d_ry, bytes));
  CHECK(cudaMalloc(&d_rz, bytes));
  CHECK(cudaMalloc(&d_vx, bytes));
  CHECK(cudaMalloc(&d_vy, bytes));
  CHECK(cudaMalloc(&d_vz, bytes));
  CHECK(cudaMalloc(&d_fx, bytes));
  CHECK(cudaMalloc(&d_fy, bytes));
  CHECK(cudaMalloc(&d_fz, bytes));
  CHECK(cudaMalloc(&d_epot, bytes));
  CHECK(cudaMalloc(&d_ekin, bytes));
  CHECK(cudaMalloc(&d_sums, 2 * sizeof(real)));
  CHECK(cudaMalloc(&d_send, 6 * bytes));
  CHECK(cudaMalloc(&d_recv, 6 * bytes));
  CHECK(cudaMalloc(&d_idx, 2 * (size_t)cap * sizeof(int)));
  CHECK(cudaMalloc(&d_from, (size_t)cap * sizeof(int)));
  CHECK(cudaMalloc(&d_to, (size_t)cap * sizeof(int)));

  int n_own = init_atoms(nc, a, lo, hi, cap, h_rx, h_ry, h_rz, h_vx, h_vy, h_vz);
  CHECK(cudaMemcpy(d_rx, h_rx, (size_t)n_own * sizeof(real), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_ry, h_ry, (size_t)n_own * sizeof(real), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_rz, h_rz, (size_t)n_own * sizeof(real), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vx, h_vx, (size_t)n_own * sizeof(real), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vy, h_vy, (size_t)n_own * sizeof(real), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_vz, h_vz, (size_t)n_own * sizeof(real), cudaMemcpyHostToDevice));

  // Shifted-force constants, computed in double: V(rc) and V'(rc).
  const double irc6 = 1.0 / pow(CUTOFF, 6.0);
  const real vrc = (real)(float)(4.0 * (irc6 * irc6 - irc6));
  const real dvrc = (real)(float)((-48.0 * irc6 * irc6 + 24.0 * irc6) / CUTOFF);
  const real rc2 = rc * rc;
  const real dt = (real)(float)dt_d;
  const real half_dt = (real)(0.5f * (float)dt_d);

  real e_first = 0, e_last = 0;
  double t_start = 0.0;
  int n_all = n_own;

  // Step 0 only builds the halo, computes the forces and samples the energies; steps
  // 1 .. steps are full velocity-Verlet steps (timed).
  for (int step = 0; step <= steps; step++) {
    if (step == 1) {
      CHECK(cudaDeviceSynchronize());
      MPI_Barrier(cart);
      t_start = MPI_Wtime();
    }

    if (step > 0) {
      // First half kick with the forces of the previous step, then the drift.
      if (n_own > 0) {
        kick<<<grid_for(n_own), BLOCK>>>(n_own, d_vx, d_vy, d_vz, d_fx, d_fy, d_fz,
                                         half_dt);
        drift<<<grid_for(n_own), BLOCK>>>(n_own, d_rx, d_ry, d_rz, d_vx, d_vy, d_vz, dt);
        CHECK(cudaGetLastError());
      }

      // ---- Migration: along d, atoms with c < lo[d] go to lo_nbr[d] and atoms with
      // c >= hi[d] to hi_nbr[d]; across the global box boundary their coordinate is
      // wrapped by +L or -L.
      for (int d = 0; d < 3; d++) {
        real *h_c = d == 0 ? h_rx : (d == 1 ? h_ry : h_rz);  // coordinate d
        const size_t bytes_c = (size_t)n_own * sizeof(real);
        if (d == 0) CHECK(cudaMemcpy(h_c, d_rx, bytes_c, cudaMemcpyDeviceToHost));
        else if (d == 1) CHECK(cudaMemcpy(h_c, d_ry, bytes_c, cudaMemcpyDeviceToHost));
        else CHECK(cudaMemcpy(h_c, d_rz, bytes_c, cudaMemcpyDeviceToHost));

        // Index lists in index order: the lower leavers in h_idx[0 .. m_lo), the upper
        // ones in h_idx[m_lo .. m_lo + m_hi).
        int m_lo = 0;
        for (int i = 0; i < n_own; i++) {
          h_gone[i] = 0;
          if (h_c[i] < lo[d]) {
            h_idx[m_lo] = i;
            m_lo++;
            h_gone[i] = 1;
          }
        }
        int m_hi = 0;
        for (int i = 0; i < n_own; i++) {
          if (h_c[i] >= hi[d]) {
            h_idx[m_lo + m_hi] = i;
            m_hi++;
            h_gone[i] = 1;
          }
        }

        // Compaction plan: the atoms that stay end up in slots 0 .. n_keep-1. Each hole
        // below n_keep (ascending) takes the last remaining atom at or above n_keep.
        // There are as many such atoms as holes.
        const int n_keep = n_own - m_lo - m_hi;
        int n_move = 0;
        int src = n_own - 1;
        for (int hole = 0; hole < n_keep; hole++) {
          if (!h_gone[hole]) continue;
          while (h_gone[src]) src--;
          h_from[n_move] = src;
          h_to[n_move] = hole;
          n_move++;
          src--;
        }

        // Pack the leavers (before the compaction overwrites them), then compact.
        const real shift_lo = coords[d] == 0 ? L : (real)0;
        const real shift_hi = coords[d] == dims[d] - 1 ? -L : (real)0;
        if (m_lo + m_hi > 0) {
          CHECK(cudaMemcpy(d_idx, h_idx, (size_t)(m_lo + m_hi) * sizeof(int),
                           cudaMemcpyHostToDevice));
        }
        if (m_lo > 0) {
          pack_atoms<<<grid_for(m_lo), BLOCK>>>(m_lo, d_idx, d_rx, d_ry, d_rz, d_vx, d_vy,
                                                d_vz, d_send, d, shift_lo);
        }
        if (m_hi > 0) {
          pack_atoms<<<grid_for(m_hi), BLOCK>>>(m_hi, d_idx + m_lo, d_rx, d_ry, d_rz, d_vx,
                                                d_vy, d_vz, d_send + 6 * (size_t)m_lo, d,
                                                shift_hi);
        }
        if (n_move > 0) {
          CHECK(cudaMemcpy(d_from, h_from, (size_t)n_move * sizeof(int),
                           cudaMemcpyHostToDevice));
          CHECK(cudaMemcpy(d_to, h_to, (size_t)n_move * sizeof(int), cudaMemcpyHostToDevice));
          move_atoms<<<grid_for(n_move), BLOCK>>>(n_move, d_from, d_to, d_rx, d_ry, d_rz,
                                                  d_vx, d_vy, d_vz);
        }
        CHECK(cudaGetLastError());
        n_own = n_keep;

        // dir 0: send the lower leavers down, receive the upper neighbour's lower leavers;
        // dir 1: send the upper leavers up, receive the lower neighbour's upper leavers.
        // The received atoms are appended to the owned ones.
        for (int dir = 0; dir < 2; dir++) {
          const int dest = dir == 0 ? lo_nbr[d] : hi_nbr[d];
          const int source = dir == 0 ? hi_nbr[d] : lo_nbr[d];
          const int m_send = dir == 0 ? m_lo : m_hi;
          const size_t offset = dir == 0 ? 0 : 6 * (size_t)m_lo;
          int m_recv = 0;
          MPI_Sendrecv(&m_send, 1, MPI_INT, dest, TAG_MIGRATE_COUNT + 2 * d + dir, &m_recv,
                       1, MPI_INT, source, TAG_MIGRATE_COUNT + 2 * d + dir, cart,
                       MPI_STATUS_IGNORE);
          const int cap_recv = cap - n_own;
          if (m_recv > cap_recv) die("migration: owned atoms exceed the capacity");
          CHECK(cudaMemcpy(h_send, d_send + offset, 6 * (size_t)m_send * sizeof(real),
                           cudaMemcpyDeviceToHost));
          MPI_Sendrecv(h_send, 6 * m_send, REAL_MPI_TYPE, dest, TAG_MIGRATE_DATA + 2 * d + dir,
                       h_recv, 6 * cap_recv, REAL_MPI_TYPE, source,
                       TAG_MIGRATE_DATA + 2 * d + dir, cart, MPI_STATUS_IGNORE);
          CHECK(cudaMemcpy(d_recv, h_recv, 6 * (size_t)m_recv * sizeof(real),
                           cudaMemcpyHostToDevice));
          if (m_recv > 0) {
            unpack_atoms<<<grid_for(m_recv), BLOCK>>>(m_recv, n_own, d_recv, d_rx, d_ry,
                                                      d_rz, d_vx, d_vy, d_vz);
            CHECK(cudaGetLastError());
          }
          n_own += m_recv;
        }
      }
    }

    // ---- Halo: along d, every atom held so far (owned, or a ghost from an earlier
    // dimension) with c < lo[d] + rc is copied to lo_nbr[d], with c >= hi[d] - rc to
    // hi_nbr[d] (an atom may go both ways). The copies are appended as ghosts, so the
    // later dimensions forward them too and edge and corner regions get filled.
    n_all = n_own;
    for (int d = 0; d < 3; d++) {
      real *h_c = d == 0 ? h_rx : (d == 1 ? h_ry : h_rz);  // coordinate d
      const size_t bytes_c = (size_t)n_all * sizeof(real);
      if (d == 0) CHECK(cudaMemcpy(h_c, d_rx, bytes_c, cudaMemcpyDeviceToHost));
      else if (d == 1) CHECK(cudaMemcpy(h_c, d_ry, bytes_c, cudaMemcpyDeviceToHost));
      else CHECK(cudaMemcpy(h_c, d_rz, bytes_c, cudaMemcpyDeviceToHost));

      const real edge_lo = lo[d] + rc;
      const real edge_hi = hi[d] - rc;
      int m_lo = 0;
      for (int i = 0; i < n_all; i++) {
        if (h_c[i] < edge_lo) {
          h_idx[m_lo] = i;
          m_lo++;
        }
      }
      int m_hi = 0;
      for (int i = 0; i < n_all; i++) {
        if (h_c[i] >= edge_hi) {
          h_idx[m_lo + m_hi] = i;
          m_hi++;
        }
      }

      const real shift_lo = coords[d] == 0 ? L : (real)0;
      const real shift_hi = coords[d] == dims[d] - 1 ? -L : (real)0;
      if (m_lo + m_hi > 0) {
        CHECK(cudaMemcpy(d_idx, h_idx, (size_t)(m_lo + m_hi) * sizeof(int),
                         cudaMemcpyHostToDevice));
      }
      if (m_lo > 0) {
        pack_pos<<<grid_for(m_lo), BLOCK>>>(m_lo, d_idx, d_rx, d_ry, d_rz, d_send, d,
                                            shift_lo);
      }
      if (m_hi > 0) {
        pack_pos<<<grid_for(m_hi), BLOCK>>>(m_hi, d_idx + m_lo, d_rx, d_ry, d_rz,
                                            d_send + 3 * (size_t)m_lo, d, shift_hi);
      }
      CHECK(cudaGetLastError());

      for (int dir = 0; dir < 2; dir++) {
        const int dest = dir == 0 ? lo_nbr[d] : hi_nbr[d];
        const int source = dir == 0 ? hi_nbr[d] : lo_nbr[d];
        const int m_send = dir == 0 ? m_lo : m_hi;
        const size_t offset = dir == 0 ? 0 : 3 * (size_t)m_lo;
        int m_recv = 0;
        MPI_Sendrecv(&m_send, 1, MPI_INT, dest, TAG_HALO_COUNT + 2 * d + dir, &m_recv, 1,
                     MPI_INT, source, TAG_HALO_COUNT + 2 * d + dir, cart, MPI_STATUS_IGNORE);
        const int cap_recv = cap - n_all;
        if (m_recv > cap_recv) die("halo: owned and ghost atoms exceed the capacity");
        CHECK(cudaMemcpy(h_send, d_send + offset, 3 * (size_t)m_send * sizeof(real),
                         cudaMemcpyDeviceToHost));
        MPI_Sendrecv(h_send, 3 * m_send, REAL_MPI_TYPE, dest, TAG_HALO_DATA + 2 * d + dir,
                     h_recv, 3 * cap_recv, REAL_MPI_TYPE, source, TAG_HALO_DATA + 2 * d + dir,
                     cart, MPI_STATUS_IGNORE);
        CHECK(cudaMemcpy(d_recv, h_recv, 3 * (size_t)m_recv * sizeof(real),
                         cudaMemcpyHostToDevice));
        if (m_recv > 0) {
          unpack_pos<<<grid_for(m_recv), BLOCK>>>(m_recv, n_all, d_recv, d_rx, d_ry, d_rz);
          CHECK(cudaGetLastError());
        }
        n_all += m_recv;
      }
    }

    // ---- Forces on the owned atoms, then the second half kick.
    if (n_own > 0) {
      forces<<<grid_for(n_own), BLOCK>>>(n_own, n_all, d_rx, d_ry, d_rz, d_fx, d_fy, d_fz,
                                         d_epot, rc, rc2, vrc, dvrc);
      CHECK(cudaGetLastError());
      if (step > 0) {
        kick<<<grid_for(n_own), BLOCK>>>(n_own, d_vx, d_vy, d_vz, d_fx, d_fy, d_fz,
                                         half_dt);
        CHECK(cudaGetLastError());
      }
    }

    // ---- Energies at step 0, every `every` steps and at the last step.
    if (step % every == 0 || step == steps) {
      if (n_own > 0) {
        kinetic<<<grid_for(n_own), BLOCK>>>(n_own, d_vx, d_vy, d_vz, d_ekin);
      }
      serial_sum<<<1, 1>>>(n_own, d_epot, d_sums);
      serial_sum<<<1, 1>>>(n_own, d_ekin, d_sums + 1);
      CHECK(cudaGetLastError());
      real local[2];
      CHECK(cudaMemcpy(local, d_sums, 2 * sizeof(real), cudaMemcpyDeviceToHost));
      real global[2];
      MPI_Allreduce(local, global, 2, REAL_MPI_TYPE, MPI_SUM, cart);

      int n_total = 0;
      MPI_Allreduce(&n_own, &n_total, 1, MPI_INT, MPI_SUM, cart);
      if (n_total != n_atoms) {
        char msg[200];
        snprintf(msg, sizeof msg, "step %d: %d atoms in total, expected %d", step, n_total,
                 n_atoms);
        die(msg);
      }

      const real etot = global[0] + global[1];
      if (step == 0) e_first = etot;
      e_last = etot;
      if (rank == 0) {
        printf("step %d ekin %.9e epot %.9e etot %.9e\n", step, (double)global[1],
               (double)global[0], (double)etot);
        fflush(stdout);
      }
    }
  }

  CHECK(cudaDeviceSynchronize());
  const double t_end = MPI_Wtime();

  if (rank == 0) {
    printf("atoms %d ranks %d dims %dx%dx%d gpus %d\n", n_atoms, size, dims[0], dims[1], dims[2],
           gpus);
    printf("drift %.6e\n", ((double)e_last - (double)e_first) / fabs((double)e_first));
    printf("time_per_step_ms %.6f\n", 1000.0 * (t_end - t_start) / steps);
  }

  CHECK(cudaFree(d_rx));
  CHECK(cudaFree(d_ry));
  CHECK(cudaFree(d_rz));
  CHECK(cudaFree(d_vx));
  CHECK(cudaFree(d_vy));
  CHECK(cudaFree(d_vz));
  CHECK(cudaFree(d_fx));
  CHECK(cudaFree(d_fy));
  CHECK(cudaFree(d_fz));
  CHECK(cudaFree(d_epot));
  CHECK(cudaFree(d_ekin));
  CHECK(cudaFree(d_sums));
  CHECK(cudaFree(d_send));
  CHECK(cudaFree(d_recv));
  CHECK(cudaFree(d_idx));
  CHECK(cudaFree(d_from));
  CHECK(cudaFree(d_to));
  free(h_rx);
  free(h_ry);
  free(h_rz);
  free(h_vx);
  free(h_vy);
  free(h_vz);
  free(h_idx);
  free(h_from);
  free(h_to);
  free(h_gone);
  free(h_send);
  free(h_recv);
  MPI_Comm_free(&node);
  MPI_Comm_free(&cart);
  MPI_Finalize();
  return 0;
}

/* check_mpi.c - the MPI reductions of cp/mpi.h against MPFR, run under mpirun -np 1, 2, 4.
 *
 * One data set for every rank count: B = 4 blocks of N inputs each (float pairs, double-
 * double pairs and fixed-point values over 80 binades with both signs, so the sums
 * cancel), block b made from seed b. Rank r of P adds the blocks r, r + P, ... locally (the
 * runtime's own additions) and the ranks' partial sums are reduced; every rank checks the
 * result against all B blocks summed in MPFR at 200 bits, so the reference is the same for
 * -np 1, 2 and 4:
 *
 *   pairs   |S - s| <= (B-1) 3u^2 sum|x| + 2^-150 (u = 2^-24; AccurateDWPlusDW per addition)
 *   double  |S - s| <= (B-1) 3u^2 sum|x| + (2P-1) 2^-53 sum|x| + 2^-48 |S|
 *           (local pair sums, then rounded to double, summed, split to 48 bits)
 *   dd      |S - s| <= (B-1) 3u^2 sum|x|                 (u = 2^-53)
 *   fixed   s == S exactly: the same bits for every P
 *
 * and prints the largest error of each relative to sum|x|. Then the pieces converted code
 * calls: cp_mpi_allreduce_sum_fixed and cp_mpi_reduce_sum_fixed of pairs holding
 * fixed-point sums (44-bit values, so the pairs hold them exactly) must give the float
 * nearest the exact integer sum, bit for bit; messages of pairs (cp_mpi_sendrecv_pairs
 * around a ring and to MPI_PROC_NULL, cp_mpi_send_pairs/cp_mpi_recv_pairs between ranks)
 * must arrive with every bit of both halves and a status that counts N floats; plain floats
 * into a receive of pairs must arrive as values with zero errors, and pairs received as
 * plain floats, or more values than a receive allows, must fail with MPI_ERR_TRUNCATE.
 * Exit status 0 if all hold.
 */
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cp/mpi.h>

#include "../runtime/cp_test_gen.h"

#define N 1000
#define B 4
#define PREC 200

/* Block b's inputs: float pairs, double-double pairs and fixed-point values. */
static void inputs(int b, float *v, float *e, double *hi, double *lo, cp_fixed *q) {
  gen_rng g = gen_seed(0x3e1 + 977 * (uint64_t)b);
  for (int i = 0; i < N; i++) {
    cp_float p = gen_pair(&g, -40, 40);
    cp_double d = gen_dd(&g, -40, 40);
    v[i] = p.v;
    e[i] = p.e;
    hi[i] = d.hi;
    lo[i] = d.lo;
    q[i] = (cp_fixed)(gen_u64(&g) >> 8) - (cp_fixed)(1LL << 55); /* sums never wrap */
  }
}

static int failures;

/* |got - ref| against bound, relative to mag (= sum|x|) in the printed figure. */
static double check(const char *what, int i, mpfr_t ref, double got_hi, double got_lo, double mag,
                    double bound) {
  mpfr_t t;
  mpfr_init2(t, PREC);
  mpfr_set_d(t, got_hi, MPFR_RNDN);
  mpfr_add_d(t, t, got_lo, MPFR_RNDN);
  mpfr_sub(t, t, ref, MPFR_RNDN);
  double err = fabs(mpfr_get_d(t, MPFR_RNDN));
  mpfr_clear(t);
  if (!(err <= bound)) {
    if (failures++ < 10)
      fprintf(stderr, "%s[%d]: error %.3e exceeds the bound %.3e\n", what, i, err, bound);
  }
  return mag > 0 ? err / mag : 0;
}

/* The fixed-point sums as converted code meets them: each rank's share summed exactly,
 * stored as a pair (cp_fixed_to_cp, exact for 44-bit values), then summed over ranks. */
static void check_fixed_sums(int rank, int size) {
  static float v[N], e[N], out[N], root_out[N], scratch[N];
  static double d1[N], d2[N];
  static cp_fixed q[N], mine[N], exact[N];
  for (int b = 0; b < B; b++) {
    inputs(b, scratch, scratch, d1, d2, q);
    for (int i = 0; i < N; i++) {
      cp_fixed x = q[i] >> 12; /* < 2^44 in magnitude */
      exact[i] = b ? exact[i] + x : x;
      mine[i] = (b ? mine[i] : 0) + (b % size == rank ? x : 0);
    }
  }
  for (int i = 0; i < N; i++) {
    cp_float p = cp_fixed_to_cp(mine[i]);
    v[i] = p.v;
    e[i] = p.e;
  }
  int rc = cp_mpi_allreduce_sum_fixed(v, e, out, N, MPI_COMM_WORLD) |
           cp_mpi_reduce_sum_fixed(v, e, rank == 0 ? root_out : NULL, N, 0, MPI_COMM_WORLD);
  for (int i = 0; i < N; i++) {
    float want = cp_fixed_to_float(exact[i]);
    if ((rc != MPI_SUCCESS || memcmp(&out[i], &want, sizeof want) != 0 ||
         (rank == 0 && memcmp(&root_out[i], &want, sizeof want) != 0)) && failures++ < 10)
      fprintf(stderr, "rank %d: fixed sum [%d]: %a / %a, exact %a (rc %d)\n", rank, i, out[i],
              rank == 0 ? root_out[i] : 0.0f, want, rc);
  }
}

static int same_bits(const float *a, const float *b, int n) { return memcmp(a, b, n * sizeof *a) == 0; }

/* Messages of pairs: around the ring, to and from MPI_PROC_NULL, rank 0 to the last rank,
 * and a receive of pairs that gets plain floats. */
static void check_messages(int rank, int size) {
  static float v[N], e[N], rv[N], re[N], wv[N], we[N];
  static double d1[N], d2[N];
  static cp_fixed q[N];
  int next = (rank + 1) % size, prev = (rank + size - 1) % size, count = -1;
  MPI_Status st;
  inputs(rank, v, e, d1, d2, q);
  inputs(prev, wv, we, d1, d2, q);
  int rc = cp_mpi_sendrecv_pairs(v, e, N, next, 7, rv, re, N, prev, 7, MPI_COMM_WORLD, &st);
  MPI_Get_count(&st, MPI_FLOAT, &count);
  if ((rc != MPI_SUCCESS || !same_bits(rv, wv, N) || !same_bits(re, we, N) || count != N ||
       st.MPI_SOURCE != prev) && failures++ < 10)
    fprintf(stderr, "rank %d: sendrecv of pairs from %d: rc %d, count %d\n", rank, prev, rc, count);
  rv[0] = 1.0f;
  rc = cp_mpi_sendrecv_pairs(v, e, N, MPI_PROC_NULL, 8, rv, re, N, MPI_PROC_NULL, 8, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
  if ((rc != MPI_SUCCESS || rv[0] != 1.0f) && failures++ < 10)
    fprintf(stderr, "rank %d: sendrecv of pairs with MPI_PROC_NULL: rc %d\n", rank, rc);
  if (size > 1 && rank == 0)
    rc = cp_mpi_send_pairs(v, e, N / 2, size - 1, 9, MPI_COMM_WORLD);
  if (size > 1 && rank == size - 1) {
    inputs(0, wv, we, d1, d2, q);
    rc = cp_mpi_recv_pairs(rv, re, N, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_FLOAT, &count);
    if ((rc != MPI_SUCCESS || !same_bits(rv, wv, N / 2) || !same_bits(re, we, N / 2) ||
         count != N / 2 || st.MPI_TAG != 9) && failures++ < 10)
      fprintf(stderr, "rank %d: recv of pairs: rc %d, count %d\n", rank, rc, count);
  }
  /* plain floats into a receive of pairs: values with zero errors; pairs into a receive of
   * plain floats, or more than the receive allows: MPI_ERR_TRUNCATE, here returned */
  MPI_Comm quiet;
  MPI_Request req;
  MPI_Comm_dup(MPI_COMM_WORLD, &quiet);
  MPI_Comm_set_errhandler(quiet, MPI_ERRORS_RETURN);
  MPI_Isend(v, 4, MPI_FLOAT, rank, 10, quiet, &req);
  re[0] = 1.0f;
  rc = cp_mpi_recv_pairs(rv, re, N, rank, 10, quiet, &st);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Get_count(&st, MPI_FLOAT, &count);
  if ((rc != MPI_SUCCESS || !same_bits(rv, v, 4) || re[0] != 0.0f || re[3] != 0.0f || count != 4) &&
      failures++ < 10)
    fprintf(stderr, "rank %d: plain floats received as pairs: rc %d, count %d\n", rank, rc, count);
  cp_mpi_send_pairs(v, e, 4, rank, 11, quiet); /* 9 floats: eager, so the send returns */
  rc = MPI_Recv(rv, 4, MPI_FLOAT, rank, 11, quiet, MPI_STATUS_IGNORE);
  if (rc == MPI_SUCCESS && failures++ < 10)
    fprintf(stderr, "rank %d: pairs received as 4 plain floats did not fail\n", rank);
  MPI_Isend(v, 8, MPI_FLOAT, rank, 12, quiet, &req);
  rc = cp_mpi_recv_pairs(rv, re, 4, rank, 12, quiet, MPI_STATUS_IGNORE);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  if (rc != MPI_ERR_TRUNCATE && failures++ < 10)
    fprintf(stderr, "rank %d: 8 floats into a receive of 4 pairs: rc %d, not MPI_ERR_TRUNCATE\n", rank, rc);
  MPI_Comm_free(&quiet);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  static float v[N], e[N], v2[N], e2[N], rv[N], re[N];
  static double hi[N], lo[N], rhi[N], rlo[N];
  static cp_fixed q[N], rq[N];
  for (int b = rank; b < B; b += size) { /* this rank's share, summed locally */
    inputs(b, rv, re, rhi, rlo, rq);
    for (int i = 0; i < N; i++) {
      cp_float x = b == rank ? cp_make_float(rv[i], re[i])
                             : cp_accurate_add(cp_make_float(v[i], e[i]), cp_make_float(rv[i], re[i]));
      cp_double d = b == rank ? cp_make_double(rhi[i], rlo[i])
                              : cp_dd_add(cp_make_double(hi[i], lo[i]), cp_make_double(rhi[i], rlo[i]));
      v[i] = x.v;
      e[i] = x.e;
      hi[i] = d.hi;
      lo[i] = d.lo;
      q[i] = b == rank ? rq[i] : cp_fixed_add(q[i], rq[i]);
    }
  }
  for (int i = 0; i < N; i++) {
    v2[i] = v[i];
    e2[i] = e[i];
  }
  int rc = cp_mpi_allreduce_pairs(v, e, N, MPI_COMM_WORLD) | cp_mpi_allreduce_double(v2, e2, N, MPI_COMM_WORLD) |
           cp_mpi_allreduce_dd(hi, lo, N, MPI_COMM_WORLD) | cp_mpi_allreduce_fixed(q, N, MPI_COMM_WORLD);
  if (rc != MPI_SUCCESS) {
    fprintf(stderr, "rank %d: an MPI call failed (%d)\n", rank, rc);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  /* The reference, on every rank: all ranks' inputs summed exactly. */
  mpfr_t sf[N], sd[N], af[N], ad[N];
  long long exact[N] = {0};
  for (int i = 0; i < N; i++) {
    mpfr_inits2(PREC, sf[i], sd[i], af[i], ad[i], (mpfr_ptr)0);
    mpfr_set_zero(sf[i], 1);
    mpfr_set_zero(sd[i], 1);
    mpfr_set_zero(af[i], 1);
    mpfr_set_zero(ad[i], 1);
  }
  for (int b = 0; b < B; b++) {
    inputs(b, rv, re, rhi, rlo, rq);
    for (int i = 0; i < N; i++) {
      mpfr_t t;
      mpfr_init2(t, PREC);
      mpfr_set_flt(t, rv[i], MPFR_RNDN);
      mpfr_add_d(t, t, (double)re[i], MPFR_RNDN);
      mpfr_add(sf[i], sf[i], t, MPFR_RNDN);
      mpfr_abs(t, t, MPFR_RNDN);
      mpfr_add(af[i], af[i], t, MPFR_RNDN);
      mpfr_set_d(t, rhi[i], MPFR_RNDN);
      mpfr_add_d(t, t, rlo[i], MPFR_RNDN);
      mpfr_add(sd[i], sd[i], t, MPFR_RNDN);
      mpfr_abs(t, t, MPFR_RNDN);
      mpfr_add(ad[i], ad[i], t, MPFR_RNDN);
      mpfr_clear(t);
      exact[i] += rq[i];
    }
  }
  double worst[3] = {0, 0, 0};
  const double uf = 0x1p-24, ud = 0x1p-53;
  for (int i = 0; i < N; i++) {
    double magf = mpfr_get_d(af[i], MPFR_RNDU), magd = mpfr_get_d(ad[i], MPFR_RNDU);
    double s = fabs(mpfr_get_d(sf[i], MPFR_RNDU));
    double w;
    w = check("pairs", i, sf[i], v[i], e[i], magf, (B - 1) * 3 * uf * uf * magf + 0x1p-150);
    worst[0] = w > worst[0] ? w : worst[0];
    w = check("double", i, sf[i], v2[i], e2[i], magf,
              (B - 1) * 3 * uf * uf * magf + (2 * size - 1) * ud * magf + 0x1p-48 * s);
    worst[1] = w > worst[1] ? w : worst[1];
    w = check("dd", i, sd[i], hi[i], lo[i], magd, (B - 1) * 3 * ud * ud * magd);
    worst[2] = w > worst[2] ? w : worst[2];
    if (q[i] != exact[i] && failures++ < 10)
      fprintf(stderr, "fixed[%d]: %lld, exact %lld\n", i, (long long)q[i], exact[i]);
    mpfr_clears(sf[i], sd[i], af[i], ad[i], (mpfr_ptr)0);
  }
  check_fixed_sums(rank, size);
  check_messages(rank, size);
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%d ranks, %d blocks of %d sums: largest error / sum|x|: pairs %.3e, double %.3e, "
           "dd %.3e; fixed %s; fixed-point sums of pairs, messages of pairs checked; %d failures\n",
           size, B, N, worst[0], worst[1], worst[2], all ? "checked" : "exact", all);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}

/* cp/mpi.h - composite values across MPI ranks: global sums that keep the error terms.
 *
 * Host-only, plain C or C++; include it (after <mpi.h> or instead of it) only where MPI is
 * used. A converted program holds each paired result on the host as two arrays, the values
 * x and the errors x_err (the companion copied back with cp_read_errors instead of being
 * recombined); these functions sum such arrays element by element over the ranks of a
 * communicator, in place, as MPI_Allreduce(MPI_IN_PLACE, ..., MPI_SUM) does for floats.
 * Which one to use:
 *
 *   cp_mpi_allreduce_pairs     the pairs themselves, through an MPI datatype of two floats
 *                              and a commutative user operation: AccurateDWPlusDW (JMP17
 *                              Alg. 6), relative error <= 3u^2 (u = 2^-24) per addition, so
 *                              <= (P-1) 3u^2 sum|x| over P ranks. The default: the result is
 *                              a normalized pair, as on one GPU.
 *   cp_mpi_allreduce_double    v + e rounded to double, MPI_DOUBLE with the built-in
 *                              MPI_SUM, split back: error <= (2P-1) 2^-53 sum|x| + 2^-48
 *                              |result| (the split keeps 48 bits). For MPI libraries or
 *                              transports that only reduce built-in types (NCCL's
 *                              ncclDouble likewise); 53 bits cover the pairs' ~48.
 *   cp_mpi_allreduce_dd        cp_double pairs (converted double kernels): a datatype of
 *                              two doubles and the double-double addition, <= 3u^2 per
 *                              addition (u = 2^-53); double alone would lose their low half.
 *   cp_mpi_allreduce_fixed     accumulate(fixed) values: MPI_INT64_T with MPI_SUM, exact,
 *                              so the global sum is the same bits for any number of ranks
 *                              and any reduction order (integer addition is associative).
 *
 * Converted code calls two more: cp_mpi_allreduce_sum and cp_mpi_reduce_sum take the place
 * of MPI_Allreduce/MPI_Reduce(send, recv, n, MPI_FLOAT, MPI_SUM, ...) of host floats whose
 * residual errors the copy back kept (cp_recombine_keep): they sum the pairs and write the
 * floats nearest the sums to recv.
 *
 * The pair operations add in whatever order the MPI library chooses; the result is within
 * the bound for every order, and bit-identical across runs only where the library's order
 * is (use the fixed form where bit-identical totals across rank counts are required).
 * Each function returns MPI's error code (MPI_SUCCESS) or MPI_ERR_NO_MEM.
 * Tests: tests/mpi/check_mpi.c under mpirun -np 1, 2, 4, against MPFR.
 */
#ifndef CP_MPI_H
#define CP_MPI_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp.cuh"

/* The float pair's addition of the reduction (on cp_ff, the pair in memory under either
 * backend): the accurate family where it exists (the ff host pass, the default); a host
 * pass forced to dp (and nvcc's device pass, which never runs it) adds in double (<= 2^-53 per addition,
 * still more than the pairs carry). */
static inline cp_ff cp_detail_mpi_add(cp_ff x, cp_ff y) {
#if CP_BACKEND_IS_DP
  double d = ((double)x.v + (double)x.e) + ((double)y.v + (double)y.e);
  cp_ff z;
  z.v = (float)d;
  z.e = (float)(d - (double)z.v);
  return z;
#else
  return cp_accurate_add(x, y);
#endif
}

static void cp_detail_mpi_sum_ff(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)type;
  const cp_ff *a = (const cp_ff *)in;
  cp_ff *b = (cp_ff *)inout;
  for (int i = 0; i < *len; i++)
    b[i] = cp_detail_mpi_add(a[i], b[i]);
}

static void cp_detail_mpi_sum_dd(void *in, void *inout, int *len, MPI_Datatype *type) {
  (void)type;
  const cp_double *a = (const cp_double *)in;
  cp_double *b = (cp_double *)inout;
  for (int i = 0; i < *len; i++)
    b[i] = cp_dd_add(a[i], b[i]);
}

/* The datatype of a pair of `base` values and the commutative sum `fn` over it,
 * created on first use and kept for the program's life (one pair per translation unit). */
static inline int cp_detail_mpi_kit(MPI_Datatype base, MPI_User_function *fn, MPI_Datatype *type,
                                    MPI_Op *op, int *ready) {
  int rc = MPI_SUCCESS;
  if (*ready)
    return rc;
  if ((rc = MPI_Type_contiguous(2, base, type)) != MPI_SUCCESS ||
      (rc = MPI_Type_commit(type)) != MPI_SUCCESS || (rc = MPI_Op_create(fn, 1, op)) != MPI_SUCCESS)
    return rc;
  *ready = 1;
  return rc;
}

/* Sums the float pairs (v[i], e[i]) over the ranks of `comm`, in place (see above). */
static inline int cp_mpi_allreduce_pairs(float *v, float *e, int n, MPI_Comm comm) {
  static MPI_Datatype type;
  static MPI_Op op;
  static int ready;
  int rc = cp_detail_mpi_kit(MPI_FLOAT, cp_detail_mpi_sum_ff, &type, &op, &ready);
  cp_ff *p = (cp_ff *)malloc((n > 0 ? (size_t)n : 1) * sizeof *p);
  if (!p)
    return MPI_ERR_NO_MEM;
  for (int i = 0; i < n; i++) {
    p[i].v = v[i];
    p[i].e = e[i];
  }
  if (rc == MPI_SUCCESS)
    rc = MPI_Allreduce(MPI_IN_PLACE, p, n, type, op, comm);
  for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
    v[i] = p[i].v;
    e[i] = p[i].e;
  }
  free(p);
  return rc;
}

/* The same through double: each pair rounded to double, summed with MPI_DOUBLE, split. */
static inline int cp_mpi_allreduce_double(float *v, float *e, int n, MPI_Comm comm) {
  double *d = (double *)malloc((n > 0 ? (size_t)n : 1) * sizeof *d);
  if (!d)
    return MPI_ERR_NO_MEM;
  for (int i = 0; i < n; i++)
    d[i] = (double)v[i] + (double)e[i];
  int rc = MPI_Allreduce(MPI_IN_PLACE, d, n, MPI_DOUBLE, MPI_SUM, comm);
  for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
    v[i] = (float)d[i];
    e[i] = (float)(d[i] - (double)v[i]); /* d - RN(d) is exact in double */
  }
  free(d);
  return rc;
}

/* Sums the double-double pairs (hi[i], lo[i]) over the ranks of `comm`, in place. */
static inline int cp_mpi_allreduce_dd(double *hi, double *lo, int n, MPI_Comm comm) {
  static MPI_Datatype type;
  static MPI_Op op;
  static int ready;
  int rc = cp_detail_mpi_kit(MPI_DOUBLE, cp_detail_mpi_sum_dd, &type, &op, &ready);
  cp_double *p = (cp_double *)malloc((n > 0 ? (size_t)n : 1) * sizeof *p);
  if (!p)
    return MPI_ERR_NO_MEM;
  for (int i = 0; i < n; i++)
    p[i] = cp_make_double(hi[i], lo[i]);
  if (rc == MPI_SUCCESS)
    rc = MPI_Allreduce(MPI_IN_PLACE, p, n, type, op, comm);
  for (int i = 0; rc == MPI_SUCCESS && i < n; i++) {
    hi[i] = p[i].hi;
    lo[i] = p[i].lo;
  }
  free(p);
  return rc;
}

/* The pairs (v[i], e[i]) summed over the ranks of `comm`; `out` (NULL: nowhere) receives the
 * floats nearest the sums. v and out may be the same array. */
static inline int cp_detail_mpi_sum_recombined(const float *v, const float *e, float *out, int n,
                                               MPI_Comm comm) {
  float *p = (float *)malloc((n > 0 ? 2 * (size_t)n : 1) * sizeof *p);
  if (!p)
    return MPI_ERR_NO_MEM;
  for (int i = 0; i < n; i++) {
    p[i] = v[i];
    p[n + i] = e[i];
  }
  int rc = cp_mpi_allreduce_pairs(p, p + n, n, comm);
  if (rc == MPI_SUCCESS && out) {
    cp_recombine_host(p, p + n, (size_t)(n > 0 ? n : 0));
    for (int i = 0; i < n; i++)
      out[i] = p[i];
  }
  free(p);
  return rc;
}

/* MPI_Allreduce(send, recv, n, MPI_FLOAT, MPI_SUM, comm) of values whose residuals are at
 * send_err (with send = MPI_IN_PLACE: the values at recv): the pairs are summed and recv
 * receives the floats nearest the sums. */
static inline int cp_mpi_allreduce_sum(const void *send, const float *send_err, float *recv, int n,
                                       MPI_Comm comm) {
  const float *v = send == MPI_IN_PLACE ? recv : (const float *)send;
  return cp_detail_mpi_sum_recombined(v, send_err, recv, n, comm);
}

/* The same for MPI_Reduce(send, recv, n, MPI_FLOAT, MPI_SUM, root, comm): recv is written at
 * `root` only (recv may be NULL elsewhere, as MPI allows). Every rank takes part in one
 * allreduce of the pairs; only root keeps the sums. */
static inline int cp_mpi_reduce_sum(const void *send, const float *send_err, float *recv, int n,
                                    int root, MPI_Comm comm) {
  int rank, rc = MPI_Comm_rank(comm, &rank);
  if (rc != MPI_SUCCESS)
    return rc;
  const float *v = send == MPI_IN_PLACE ? recv : (const float *)send;
  return cp_detail_mpi_sum_recombined(v, send_err, rank == root ? recv : NULL, n, comm);
}

/* Sums fixed-point accumulators over the ranks of `comm`, in place: exact (two's
 * complement, wrapping as cp_fixed_add does). */
static inline int cp_mpi_allreduce_fixed(cp_fixed *q, int n, MPI_Comm comm) {
  return MPI_Allreduce(MPI_IN_PLACE, q, n, MPI_INT64_T, MPI_SUM, comm);
}

/* cp_mpi_allreduce_sum and cp_mpi_reduce_sum for values of accumulate(fixed) kernels: each
 * pair (send[i], send_err[i]) is read as a fixed-point value (cp_fixed_from_float of each
 * half: exact when the pair holds a sum of fixed-point terms, a multiple of 2^-F within 48
 * bits, as such kernels store; else rounded to 2^-F), the 64-bit integers are summed with
 * MPI_INT64_T and MPI_SUM, exact in any order, and recv receives the floats nearest the
 * sums (cp_fixed_to_float, correctly rounded). So the totals are the same bits for any
 * number of ranks. */
static inline int cp_detail_mpi_sum_fixed(const float *v, const float *e, float *out, int root,
                                          int n, MPI_Comm comm) {
  cp_fixed *q = (cp_fixed *)malloc((n > 0 ? (size_t)n : 1) * sizeof *q);
  if (!q)
    return MPI_ERR_NO_MEM;
  for (int i = 0; i < n; i++)
    q[i] = cp_fixed_add(cp_fixed_from_float(v[i]), cp_fixed_from_float(e[i]));
  int rank = root, rc = root >= 0 ? MPI_Comm_rank(comm, &rank) : MPI_SUCCESS; /* root -1: all */
  if (rc == MPI_SUCCESS)
    rc = root >= 0 ? MPI_Reduce(rank == root ? MPI_IN_PLACE : q, q, n, MPI_INT64_T, MPI_SUM, root, comm)
                   : cp_mpi_allreduce_fixed(q, n, comm);
  for (int i = 0; rc == MPI_SUCCESS && rank == root && i < n; i++)
    out[i] = cp_fixed_to_float(q[i]);
  free(q);
  return rc;
}

static inline int cp_mpi_allreduce_sum_fixed(const void *send, const float *send_err, float *recv,
                                             int n, MPI_Comm comm) {
  const float *v = send == MPI_IN_PLACE ? recv : (const float *)send;
  return cp_detail_mpi_sum_fixed(v, send_err, recv, -1, n, comm);
}

static inline int cp_mpi_reduce_sum_fixed(const void *send, const float *send_err, float *recv, int n,
                                          int root, MPI_Comm comm) {
  const float *v = send == MPI_IN_PLACE ? recv : (const float *)send;
  return cp_detail_mpi_sum_fixed(v, send_err, recv, root, n, comm);
}

/* ---- point to point: messages of pairs ----
 *
 * cp_mpi_send_pairs, cp_mpi_recv_pairs and cp_mpi_sendrecv_pairs take the place of
 * MPI_Send, MPI_Recv and MPI_Sendrecv of MPI_FLOAT host buffers that hold pairs: values
 * v[0..n) with their errors e[0..n) (a copy back that kept the residuals, a receive of
 * pairs). A message of n pairs is one message of 2n + 1 floats: the n values, the n errors
 * and a tag word (CP_DETAIL_MPI_PAIRS). One message, not a second one for the errors,
 * because a second could be taken by another receive (a wildcard one posted earlier): MPI
 * matches the pairs exactly as it matched the floats. The receive's status reports n floats
 * (MPI_Status_set_elements), as the unconverted program's did, so MPI_Get_count is
 * unchanged. A receive of pairs takes a message of plain floats too (a sender whose values
 * carry no errors: they arrive with zero errors); a message of pairs to a receive of plain
 * floats is longer than it allows: MPI_ERR_TRUNCATE, on the communicator's error handler
 * (fatal by default), never errors read as values. Bits move unchanged, so the pairs
 * arrive exact. Tests: tests/mpi/check_mpi.c. */
#define CP_DETAIL_MPI_PAIRS 0x7fcc0de5u /* a quiet NaN's bits */

static inline float cp_detail_mpi_pairs_word(void) {
  union {
    unsigned u;
    float f;
  } w;
  w.u = CP_DETAIL_MPI_PAIRS;
  return w.f;
}

/* The message of n pairs (v, e), packed into a new buffer; NULL when out of memory. A NULL
 * e sends zero errors (a sender whose residuals were not kept); a NULL e on a receive
 * drops them. */
static inline float *cp_detail_mpi_pack(const float *v, const float *e, int n) {
  n = n > 0 ? n : 0;
  float *m = (float *)malloc((2 * (size_t)n + 1) * sizeof *m);
  for (int i = 0; m && i < n; i++) {
    m[i] = v[i];
    m[n + i] = e ? e[i] : 0.0f;
  }
  if (m)
    m[2 * (size_t)n] = cp_detail_mpi_pairs_word();
  return m;
}

/* Unpacks a received message `m` (status st) into at most `cap` pairs (v, e) and sets the
 * status to count the values. A message of plain floats (no tag word: the sender's values
 * carry no errors) gives its values with zero errors; one from MPI_PROC_NULL is empty. */
static inline int cp_detail_mpi_unpack(const float *m, MPI_Status *st, float *v, float *e, int cap,
                                       MPI_Comm comm) {
  int count, rc;
  if (st->MPI_SOURCE == MPI_PROC_NULL)
    return MPI_SUCCESS;
  if ((rc = MPI_Get_count(st, MPI_FLOAT, &count)) != MPI_SUCCESS)
    return rc;
  float word = count > 0 ? m[count - 1] : 0.0f, expected = cp_detail_mpi_pairs_word();
  int pairs = count % 2 == 1 && memcmp(&word, &expected, sizeof word) == 0;
  int n = pairs ? (count - 1) / 2 : count;
  if (n > cap) {
    fprintf(stderr, "cp/mpi.h: a receive of %d floats got %d from rank %d (tag %d)\n", cap, n,
            st->MPI_SOURCE, st->MPI_TAG);
    MPI_Comm_call_errhandler(comm, MPI_ERR_TRUNCATE);
    return MPI_ERR_TRUNCATE;
  }
  for (int i = 0; i < n; i++) {
    v[i] = m[i];
    if (e)
      e[i] = pairs ? m[n + i] : 0.0f;
  }
  return MPI_Status_set_elements(st, MPI_FLOAT, n);
}

static inline int cp_mpi_send_pairs(const void *v, const float *e, int n, int dest, int tag,
                                    MPI_Comm comm) {
  float *m = cp_detail_mpi_pack((const float *)v, e, n);
  if (!m)
    return MPI_ERR_NO_MEM;
  int rc = MPI_Send(m, 2 * (n > 0 ? n : 0) + 1, MPI_FLOAT, dest, tag, comm);
  free(m);
  return rc;
}

static inline int cp_mpi_recv_pairs(void *v, float *e, int n, int source, int tag, MPI_Comm comm,
                                    MPI_Status *status) {
  n = n > 0 ? n : 0;
  MPI_Status st;
  float *m = (float *)malloc((2 * (size_t)n + 1) * sizeof *m);
  if (!m)
    return MPI_ERR_NO_MEM;
  int rc = MPI_Recv(m, 2 * n + 1, MPI_FLOAT, source, tag, comm, &st);
  if (rc == MPI_SUCCESS)
    rc = cp_detail_mpi_unpack(m, &st, (float *)v, e, n, comm);
  if (rc == MPI_SUCCESS && status != MPI_STATUS_IGNORE)
    *status = st;
  free(m);
  return rc;
}

static inline int cp_mpi_sendrecv_pairs(const void *sv, const float *se, int sn, int dest, int stag,
                                        void *rv, float *re, int rn, int source, int rtag,
                                        MPI_Comm comm, MPI_Status *status) {
  rn = rn > 0 ? rn : 0;
  MPI_Status st;
  float *s = cp_detail_mpi_pack((const float *)sv, se, sn);
  float *m = (float *)malloc((2 * (size_t)rn + 1) * sizeof *m);
  int rc = MPI_ERR_NO_MEM;
  if (s && m)
    rc = MPI_Sendrecv(s, 2 * (sn > 0 ? sn : 0) + 1, MPI_FLOAT, dest, stag, m, 2 * rn + 1, MPI_FLOAT,
                      source, rtag, comm, &st);
  if (rc == MPI_SUCCESS)
    rc = cp_detail_mpi_unpack(m, &st, (float *)rv, re, rn, comm);
  if (rc == MPI_SUCCESS && status != MPI_STATUS_IGNORE)
    *status = st;
  free(s);
  free(m);
  return rc;
}

#endif /* CP_MPI_H */

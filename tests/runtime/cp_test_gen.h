/* cp_test_gen.h - deterministic inputs for the runtime tests (CPU and GPU).
 *
 * A 64-bit xorshift* generator (Marsaglia 2003; Vigna's multiplier), seeded per test so
 * every run draws the same numbers, and generators of floats, doubles and normalized pairs
 * over chosen exponent ranges. Header-only C; also compiled as host code of the CUDA test,
 * which must draw exactly the same inputs.
 */
#ifndef CP_TEST_GEN_H
#define CP_TEST_GEN_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "cp/cp.cuh"

typedef struct {
  uint64_t s;
} gen_rng;

static inline gen_rng gen_seed(uint64_t seed)
{
  gen_rng r;
  r.s = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL; /* never 0 for small seeds */
  if (r.s == 0) r.s = 1;
  return r;
}

static inline uint64_t gen_u64(gen_rng *r)
{
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 0x2545F4914F6CDD1DULL;
}

/* Uniform integer in [lo, hi]. */
static inline int gen_int(gen_rng *r, int lo, int hi)
{
  return lo + (int)(gen_u64(r) % (uint64_t)(hi - lo + 1));
}

/* 1 with probability 1/n. */
static inline int gen_one_in(gen_rng *r, int n) { return gen_u64(r) % (uint64_t)n == 0; }

/* Random sign, exponent in [emin, emax] (value in [2^emin, 2^(emax+1))), random mantissa. */
static inline float gen_float(gen_rng *r, int emin, int emax)
{
  uint64_t b = gen_u64(r);
  float m = (float)(0x800000u | (uint32_t)(b & 0x7fffffu)); /* [2^23, 2^24) exactly */
  float f = ldexpf(m, gen_int(r, emin, emax) - 23);
  return (b >> 63) ? -f : f;
}

static inline double gen_double(gen_rng *r, int emin, int emax)
{
  uint64_t b = gen_u64(r);
  double m = (double)(0x10000000000000ULL | (b & 0xfffffffffffffULL)); /* [2^52, 2^53) */
  double d = ldexp(m, gen_int(r, emin, emax) - 52);
  return (gen_u64(r) >> 63) ? -d : d;
}

/* A normalized pair: v as gen_float, e a random float up to ulp(v)/2 in magnitude, sometimes
 * much smaller (gap of 0..24 more binades), sometimes 0, then TwoSum-normalized so that
 * RN(v + e) == v holds exactly (this also covers v a power of two with e negative). */
static inline cp_float gen_pair(gen_rng *r, int emin, int emax)
{
  float v = gen_float(r, emin, emax);
  if (gen_one_in(r, 16)) return cp_make_float(v, 0.0f);
  int ev;
  frexpf(v, &ev); /* v = m 2^ev, m in [0.5, 1): ulp(v)/2 = 2^(ev - 25) */
  float e = gen_float(r, ev - 26 - gen_int(r, 0, 24), ev - 26);
  if (gen_one_in(r, 32)) e = copysignf(ldexpf(1.0f, ev - 25), e); /* exactly half an ulp */
  return cp_normalize(cp_make_float(v, e));
}

/* A normalized pair with the value v (nonzero) and a random error half of either sign, up to
 * ulp(v)/2 in magnitude. */
static inline cp_float gen_pair_at(gen_rng *r, float v)
{
  int ev;
  frexpf(v, &ev);
  return cp_normalize(cp_make_float(v, gen_float(r, ev - 26 - gen_int(r, 0, 8), ev - 26)));
}

static inline cp_double gen_dd(gen_rng *r, int emin, int emax)
{
  double v = gen_double(r, emin, emax);
  if (gen_one_in(r, 16)) return cp_make_double(v, 0.0);
  int ev;
  frexp(v, &ev); /* ulp(v)/2 = 2^(ev - 54) */
  double e = gen_double(r, ev - 55 - gen_int(r, 0, 53), ev - 55);
  if (gen_one_in(r, 32)) e = copysign(ldexp(1.0, ev - 54), e);
  return cp_dd_normalize(cp_make_double(v, e));
}

/* y close to -x (for add) so that the highs cancel: -x.v moved by 0..3 ulps, fresh e. */
static inline cp_float gen_near_neg(gen_rng *r, cp_float x)
{
  float v = -x.v;
  int k = gen_int(r, -3, 3);
  for (; k > 0; --k) v = nextafterf(v, INFINITY);
  for (; k < 0; ++k) v = nextafterf(v, -INFINITY);
  int ev;
  frexpf(v, &ev);
  float e = gen_one_in(r, 4) ? -x.e : gen_float(r, ev - 26 - gen_int(r, 0, 24), ev - 26);
  return cp_normalize(cp_make_float(v, e));
}

static inline cp_double gen_dd_near_neg(gen_rng *r, cp_double x)
{
  double v = -x.hi;
  int k = gen_int(r, -3, 3);
  for (; k > 0; --k) v = nextafter(v, INFINITY);
  for (; k < 0; ++k) v = nextafter(v, -INFINITY);
  int ev;
  frexp(v, &ev);
  double e = gen_one_in(r, 4) ? -x.lo : gen_double(r, ev - 55 - gen_int(r, 0, 53), ev - 55);
  return cp_dd_normalize(cp_make_double(v, e));
}

static inline uint32_t gen_fbits(float f)
{
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

static inline uint64_t gen_dbits(double d)
{
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

#endif /* CP_TEST_GEN_H */

/* check_convert.c - conversions, comparisons and the rounding functions, all on the
 * represented value v + e, against exact references (MPFR or exact integer arithmetic).
 */
#include "test_util.h"

/* A pair that may be unnormalized (as the paper and fast families leave them): |e| up to
 * 4 ulp(v), sometimes v = 0 with e != 0. */
static cp_float unnormalized(gen_rng *r, int emin, int emax)
{
  cp_float x = gen_pair(r, emin, emax);
  if (gen_one_in(r, 2)) {
    int ev;
    frexpf(x.v, &ev);
    x.e = gen_float(r, ev - 24 - gen_int(r, 0, 4), ev - 22);
  }
  if (gen_one_in(r, 50)) x.v = 0.0f;
  return x;
}

START_TEST(test_from_int)
{
  int special[] = { 0, 1, -1, 16777216, 16777217, -16777217, 2147483647, -2147483647 - 1, 2147483520,
                    2147483583, 2147483584, 2147483646, -2147483647 };
  gen_rng r = gen_seed(501);
  for (int i = 0; i < TU_N + 13; ++i) {
    int n = i < 13 ? special[i] : (int)(uint32_t)gen_u64(&r);
    cp_float x = cp_from_int(n);
    TU_CHECK((long long)x.v + (long long)x.e == (long long)n, "cp_from_int(%d) = {%a, %a}", n, x.v, x.e);
    TU_ASSERT(x.v == (float)n); /* normalized: v is the rounded int */
    ck_assert_int_eq(cp_to_int(x), n);
    unsigned int un = (unsigned int)n;
    cp_float ux = cp_from_uint(un);
    TU_CHECK((long long)ux.v + (long long)ux.e == (long long)un, "cp_from_uint(%u)", un);
  }
}
END_TEST

START_TEST(test_from_double)
{
  gen_rng r = gen_seed(502);
  mpfr_t a, b;
  mpfr_inits2(TU_PREC, a, b, (mpfr_ptr)0);
  for (int i = 0; i < TU_N; ++i) {
    double d = gen_double(&r, -60, 100); /* lo stays a normal float */
    uint64_t bits = gen_dbits(d) & ~0x1fULL; /* clear 5 of 52 stored bits: 48 significant */
    memcpy(&d, &bits, sizeof d);
    cp_float x = cp_from_double(d);
    TU_CHECK((double)x.v + (double)x.e == d, "cp_from_double(%a) = {%a, %a} inexact", d, x.v, x.e);
    TU_ASSERT(cp_normalize(x).v == x.v && cp_normalize(x).e == x.e);
    TU_ASSERT(cp_to_double(x) == d);
    /* 53 significant bits: not exact, relative error <= 2^-48 (lo rounded to 24 bits) */
    double full = gen_double(&r, -60, 100);
    tu_set_pair(a, cp_from_double(full));
    mpfr_set_d(b, full, MPFR_RNDN);
    mpfr_sub(a, a, b, MPFR_RNDN);
    mpfr_div(a, a, b, MPFR_RNDN);
    TU_ASSERT(fabs(mpfr_get_d(a, MPFR_RNDN)) <= 0x1p-48);
  }
  TU_ASSERT(cp_from_double(1e300).v == INFINITY && cp_from_double(1e300).e == 0.0f);
  TU_ASSERT(cp_from_double(-1e300).v == -INFINITY);
  cp_float n = cp_from_double(NAN);
  TU_ASSERT(n.v != n.v && n.e == 0.0f);
  mpfr_clears(a, b, (mpfr_ptr)0);
}
END_TEST

/* Bits of a double and of a float, built from their fields. */
static double bits_d(uint64_t b) { double d; memcpy(&d, &b, sizeof d); return d; }
static float bits_f(uint32_t b) { float f; memcpy(&f, &b, sizeof f); return f; }

/* A double that stresses the conversion: any bit pattern, the float range's edges, hi
 * or lo subnormal or at a rounding tie, overflow. */
static double hard_double(gen_rng *r)
{
  uint64_t sign = gen_u64(r) & 0x8000000000000000ULL, m = gen_u64(r) & 0x000fffffffffffffULL;
  switch (gen_int(r, 0, 7)) {
  case 0: return bits_d(gen_u64(r)); /* anything, NaN payloads included */
  case 1: m = (m & ~0x1fffffffULL) | (gen_one_in(r, 2) ? 0x10000000ULL : 0x0fffffffULL); break; /* near ties */
  case 2: m |= 0x000fffffe0000000ULL; break; /* hi rounds up into the next binade */
  case 3: if (gen_one_in(r, 2)) m &= 0xffffffffe0000000ULL; break; /* lo = 0, or 29 bits of lo */
  default: break;
  }
  int e = gen_one_in(r, 4) ? gen_int(r, 0, 2047) : gen_int(r, 1023 - 160, 1023 + 130);
  return bits_d(sign | (uint64_t)e << 52 | m);
}

/* cp_detail_double_of_pair(v, e) against v + e in double, bit for bit; where both are
 * NaN only NaN-ness (which NaN a double addition returns depends on the operand order
 * the compiler picked, which C leaves open). cp_to_double settles its pair first (a
 * non-finite e reads as 0), so the reference is the plain sum here. */
static void check_double_of_pair(float v, float e)
{
  double want = (double)v + (double)e, got = cp_detail_double_of_pair(v, e);
  int same = v != v && e != e ? got != got : gen_dbits(got) == gen_dbits(want);
  TU_CHECK(same, "double_of_pair(%a, %a) = %a (0x%016llx), want %a (0x%016llx)", v, e, got,
           (unsigned long long)gen_dbits(got), want, (unsigned long long)gen_dbits(want));
  TU_ASSERT(gen_dbits(cp_detail_double_of_float(v)) == gen_dbits((double)v));
}

/* cp_detail_pair_of_double and cp_detail_double_of_pair (bits.cuh: what device code
 * uses under ff, integer operations only) against the plain definitions of
 * cp_from_double and cp_to_double (what the host uses), bit for bit. */
START_TEST(test_integer_conversions)
{
  static const uint64_t edge[] = {
    0x0000000000000000ULL, 0x8000000000000000ULL, 0x7ff0000000000000ULL, 0xfff0000000000000ULL,
    0x7ff8000000000000ULL, 0xfff8000000000001ULL, 0x7ff0000000000001ULL, 0x7ff4000020000000ULL,
    0x0000000000000001ULL, 0x800fffffffffffffULL, 0x0010000000000000ULL, 0x7fefffffffffffffULL,
    0x47efffffe0000000ULL, 0x47efffffefffffffULL, 0x47effffff0000000ULL, 0x47f0000000000000ULL,
    0x36a0000000000000ULL, 0x3698000000000000ULL, 0x36a8000000000000ULL, 0x3690000000000000ULL,
    0x3810000000000000ULL, 0x380fffffffffffffULL, 0x380ffffff0000000ULL, 0x3b40000000000000ULL,
    0x3b3fffffffffffffULL, 0x3b50000000000001ULL, 0x3ff0000010000000ULL, 0x3ff0000030000000ULL,
    0x3ff0000010000001ULL, 0xbff000002fffffffULL, 0x3fefffffffffffffULL, 0x3e70000000000000ULL,
  };
  int n_edge = (int)(sizeof edge / sizeof edge[0]);
  gen_rng r = gen_seed(506);
  for (int i = 0; i < 20 * TU_N; ++i) {
    double d = i < n_edge ? bits_d(edge[i]) : hard_double(&r);
    cp_float want = cp_from_double(d);
    float hi, lo;
    cp_detail_pair_of_double(d, &hi, &lo);
    TU_CHECK(gen_fbits(hi) == gen_fbits(want.v) && gen_fbits(lo) == gen_fbits(want.e),
             "pair_of_double(%a = 0x%016llx) = {%a, %a}, want {%a, %a}", d,
             (unsigned long long)gen_dbits(d), hi, lo, want.v, want.e);
  }
  static const uint32_t fedge[] = {
    0x00000000U, 0x80000000U, 0x7f800000U, 0xff800000U, 0x7fc00000U, 0xffc00001U, 0x7f800001U,
    0x00000001U, 0x80000001U, 0x007fffffU, 0x00800000U, 0x7f7fffffU, 0x3f800000U, 0xbf800000U,
    0x33800000U, 0xb3800000U, 0x33000000U, 0x0d800000U, 0x4b800000U, 0xcb7fffffU,
  };
  int nf = (int)(sizeof fedge / sizeof fedge[0]);
  for (int i = 0; i < nf * nf; ++i) { /* every pair of edge cases */
    float v = bits_f(fedge[i / nf]), e = bits_f(fedge[i % nf]);
    check_double_of_pair(v, e);
  }
  for (int i = 0; i < 20 * TU_N; ++i) {
    float v, e;
    switch (gen_int(&r, 0, 4)) {
    case 0: v = bits_f((uint32_t)gen_u64(&r)); e = bits_f((uint32_t)gen_u64(&r)); break; /* anything */
    case 1: cp_detail_pair_of_double(hard_double(&r), &v, &e); break;                      /* normalized */
    case 2: { /* e near, at or far below ulp(v), and cancelling pairs */
      int ev;
      v = gen_float(&r, -149, 127);
      frexpf(v, &ev);
      e = gen_float(&r, ev - 24 - gen_int(&r, 0, 60), ev - 20);
      if (gen_one_in(&r, 2)) e = -e;
      if (gen_one_in(&r, 8)) e = -v;
      break;
    }
    case 3: v = gen_float(&r, -149, -120); e = gen_float(&r, -149, -120); break; /* subnormals */
    default: v = gen_float(&r, -30, 30); e = gen_float(&r, -80, 30); break;
    }
    check_double_of_pair(v, e);
  }
}
END_TEST

START_TEST(test_to_float)
{
  TU_ASSERT(gen_fbits(cp_to_float(cp_make_float(-0.0f, 0.0f))) == gen_fbits(-0.0f));
  TU_ASSERT(gen_fbits(cp_to_float(cp_make_float(-0.0f, -0.0f))) == gen_fbits(-0.0f));
  TU_ASSERT(cp_to_float(cp_make_float(1.0f, 0x1p-24f)) == 1.0f); /* tie to even */
  TU_ASSERT(cp_to_float(cp_make_float(1.0f, 0x1.8p-24f)) == 1.0f + 0x1p-23f);
  TU_ASSERT(cp_to_double(cp_make_float(1.0f, 0x1p-40f)) == 1.0 + 0x1p-40);
}
END_TEST

START_TEST(test_to_int)
{
  ck_assert_int_eq(cp_to_int(cp_make_float(5.0f, -0x1p-30f)), 4);
  ck_assert_int_eq(cp_to_int(cp_make_float(-5.0f, 0x1p-30f)), -4);
  ck_assert_int_eq(cp_to_int(cp_make_float(5.0f, 0x1p-30f)), 5);
  ck_assert_int_eq(cp_to_int(cp_make_float(0x1p31f, -1.0f)), 2147483647);
  ck_assert_int_eq(cp_to_int(cp_make_float(0x1p31f, -0.5f)), 2147483647);
  ck_assert_int_eq(cp_to_int(cp_make_float(0x1p31f, 0.0f)), 2147483647); /* saturates */
  ck_assert_int_eq(cp_to_int(cp_make_float(-0x1p31f, 0.0f)), -2147483647 - 1);
  ck_assert_int_eq(cp_to_int(cp_make_float(-0x1p31f, -1.0f)), -2147483647 - 1);
  ck_assert_int_eq(cp_to_int(cp_make_float(1e30f, 0.0f)), 2147483647);
  ck_assert_int_eq(cp_to_int(cp_make_float(-INFINITY, 0.0f)), -2147483647 - 1);
  ck_assert_int_eq(cp_to_int(cp_make_float(NAN, 0.0f)), 0);
  ck_assert_int_eq(cp_to_int(cp_make_float(0.0f, -0x1p-30f)), 0);
  gen_rng r = gen_seed(503);
  mpfr_t a;
  mpfr_init2(a, TU_PREC);
  for (int i = 0; i < TU_N; ++i) {
    cp_float x = unnormalized(&r, -3, 30);
    tu_set_pair(a, x);
    mpfr_trunc(a, a);
    long want = mpfr_fits_slong_p(a, MPFR_RNDZ) ? mpfr_get_si(a, MPFR_RNDZ) : (mpfr_sgn(a) > 0 ? LONG_MAX : LONG_MIN);
    if (want > INT_MAX) want = INT_MAX;
    if (want < INT_MIN) want = INT_MIN;
    TU_CHECK(cp_to_int(x) == want, "cp_to_int({%a, %a}) = %d, want %ld", x.v, x.e, cp_to_int(x), want);
  }
  mpfr_clear(a);
}
END_TEST

/* Comparisons and fabs of unnormalized pairs: this file is compiled with CP_ALGO_FAST, whose
 * pairs are unnormalized, so they normalize first (check_boundary.c: normalized pairs under
 * the default family, compared as they are). */
START_TEST(test_comparisons)
{
  cp_float one = cp_from_float(1.0f), below = cp_make_float(1.0f, -0x1p-30f);
  TU_ASSERT(cp_lt(below, one) && cp_le(below, one) && cp_gt(one, below) && cp_ge(one, below));
  TU_ASSERT(!cp_eq(below, one) && cp_ne(below, one) && !cp_lt(one, below));
  TU_ASSERT(cp_eq(cp_make_float(2.0f, -1.0f), one)); /* unnormalized, same value */
  TU_ASSERT(cp_lt(cp_make_float(2.0f, -1.5f), one)); /* v larger, value smaller */
  TU_ASSERT(cp_lt(cp_make_float(0.0f, -0x1p-100f), cp_from_float(-0.0f)));
  TU_ASSERT(cp_eq(cp_from_float(-0.0f), cp_from_float(0.0f)));
  TU_ASSERT(cp_lt_cf(below, 1.0f) && cp_le_cf(below, 1.0f) && cp_gt_fc(1.0f, below) && cp_ne_cf(below, 1.0f));
  TU_ASSERT(cp_eq_cf(cp_make_float(2.0f, -1.0f), 1.0f) && cp_ge_fc(1.0f, cp_make_float(2.0f, -1.0f)));
  /* infinities against themselves, NaN against anything */
  TU_ASSERT(cp_eq_cf(cp_from_float(INFINITY), INFINITY) && cp_le_cf(cp_from_float(-INFINITY), -INFINITY));
  TU_ASSERT(cp_lt_cf(cp_from_float(-INFINITY), 0.0f) && cp_gt_cf(cp_make_float(INFINITY, NAN), 1e38f));
  TU_ASSERT(!cp_lt_cf(cp_from_float(NAN), 1.0f) && !cp_ge_cf(cp_from_float(NAN), 1.0f) &&
            !cp_eq_cf(cp_from_float(1.0f), NAN) && cp_ne_cf(cp_from_float(NAN), NAN));
  gen_rng r = gen_seed(504);
  mpfr_t a, b;
  mpfr_inits2(TU_PREC, a, b, (mpfr_ptr)0);
  for (int i = 0; i < TU_N; ++i) {
    cp_float x = unnormalized(&r, -10, 10), y = unnormalized(&r, -10, 10);
    if (gen_one_in(&r, 4)) y = cp_make_float(x.v, x.e * (float)gen_int(&r, -1, 2)); /* ties of v */
    if (gen_one_in(&r, 8)) y = cp_normalize(x);                                       /* equal values */
    float f = gen_one_in(&r, 2) ? y.v : cp_to_float(x);
    tu_set_pair(a, x);
    tu_set_pair(b, y);
    int c = mpfr_cmp(a, b);
    TU_CHECK(cp_lt(x, y) == (c < 0) && cp_le(x, y) == (c <= 0) && cp_eq(x, y) == (c == 0) &&
                      cp_ne(x, y) == (c != 0) && cp_gt(x, y) == (c > 0) && cp_ge(x, y) == (c >= 0),
                  "compare {%a,%a} {%a,%a}", x.v, x.e, y.v, y.e);
    int cf = mpfr_cmp_d(a, f);
    TU_ASSERT(cp_lt_cf(x, f) == (cf < 0) && cp_le_cf(x, f) == (cf <= 0) && cp_eq_cf(x, f) == (cf == 0));
    TU_ASSERT(cp_gt_cf(x, f) == (cf > 0) && cp_ge_cf(x, f) == (cf >= 0) && cp_ne_cf(x, f) == (cf != 0));
    TU_ASSERT(cp_lt_fc(f, x) == (cf > 0) && cp_ge_fc(f, x) == (cf <= 0) && cp_eq_fc(f, x) == (cf == 0));
    /* fmin/fmax pick the operand with the smaller/larger value */
    TU_ASSERT(cp_eq(cp_fmin(x, y), c <= 0 ? x : y) && cp_eq(cp_fmax(x, y), c >= 0 ? x : y));
  }
  mpfr_clears(a, b, (mpfr_ptr)0);
  cp_float nan = cp_from_float(NAN);
  TU_ASSERT(!cp_lt(nan, one) && !cp_le(nan, one) && !cp_gt(nan, one) && !cp_ge(nan, one));
  TU_ASSERT(!cp_eq(nan, nan) && cp_ne(nan, one) && !cp_lt_cf(nan, 1.0f) && !cp_eq_cf(nan, NAN));
  TU_ASSERT(cp_fmin(nan, one).v == 1.0f && cp_fmax(one, nan).v == 1.0f);
}
END_TEST

/* floor/ceil/trunc/rint/fabs of random and constructed pairs against MPFR on the exact value. */
START_TEST(test_rounding)
{
  static const float cases[][2] = {
    { 5.0f, -0x1p-30f }, { 5.0f, 0x1p-30f }, { -5.0f, 0x1p-30f }, { -5.0f, -0x1p-30f }, { 2.5f, 0x1p-30f },
    { 2.5f, -0x1p-30f }, { 3.5f, 0x1p-30f }, { -2.5f, 0x1p-30f }, { -2.5f, -0x1p-30f }, { 0x1p24f, 1.0f },
    { 0x1p24f, -1.0f }, { 0x1p25f, 2.0f }, { 0x1p25f + 4.0f, 2.0f }, { 0x1.000002p24f, 1.0f },
    { 1.0f, -0.5f }, { -1.0f, 0.25f }, { 0.5f, -0x1p-30f }, { -0.5f, 0x1p-30f }, { -0.0f, 0.0f },
    { 0.0f, -0x1p-100f }, { 0x1p23f + 1.0f, 0.5f }, { 0x1p23f, 0.5f }, { 1e30f, 1e22f }, { -0.3f, 0.0f },
  };
  gen_rng r = gen_seed(505);
  mpfr_t a, want, got;
  mpfr_inits2(TU_PREC, a, want, got, (mpfr_ptr)0);
  for (int i = 0; i < TU_N; ++i) {
    int nc = (int)(sizeof cases / sizeof cases[0]);
    cp_float x = i < nc ? cp_make_float(cases[i][0], cases[i][1]) : unnormalized(&r, -4, 30);
    if (i >= nc && gen_one_in(&r, 3)) x.v = rintf(x.v) + (gen_one_in(&r, 2) ? 0.5f : 0.0f);
    tu_set_pair(a, x);
    struct { const char *n; cp_float got; int (*ref)(mpfr_ptr, mpfr_srcptr); } c[] = {
      { "floor", cp_floor(x), mpfr_floor }, { "ceil", cp_ceil(x), mpfr_ceil },
      { "trunc", cp_trunc(x), mpfr_trunc }, { "rint", cp_rint(x), mpfr_roundeven },
    };
    for (int j = 0; j < 4; ++j) {
      c[j].ref(want, a);
      tu_set_pair(got, c[j].got);
      TU_CHECK(mpfr_equal_p(want, got), "cp_%s({%a, %a}) = {%a, %a}", c[j].n, x.v, x.e, c[j].got.v, c[j].got.e);
      TU_ASSERT(cp_normalize(c[j].got).v == c[j].got.v);
      /* a zero result carries the sign of x, as floorf/ceilf/truncf/rintf do */
      if (c[j].got.v == 0.0f)
        TU_ASSERT(!!signbit(c[j].got.v) == (mpfr_sgn(a) < 0 || (mpfr_sgn(a) == 0 && signbit(x.v))));
    }
    mpfr_abs(want, a, MPFR_RNDN);
    tu_set_pair(got, cp_fabs(x));
    TU_CHECK(mpfr_equal_p(want, got), "cp_fabs({%a, %a})", x.v, x.e);
  }
  mpfr_clears(a, want, got, (mpfr_ptr)0);
  TU_ASSERT(signbit(cp_to_float(cp_fabs(cp_from_float(-0.0f)))) == 0);
  TU_ASSERT(cp_floor(cp_from_float(INFINITY)).v == INFINITY && cp_floor(cp_from_float(INFINITY)).e == 0.0f);
  TU_ASSERT(cp_rint(cp_from_float(NAN)).v != cp_rint(cp_from_float(NAN)).v);
}
END_TEST

START_TEST(test_vectors_layout)
{
  cp_float4 q = cp_make_float4(cp_from_float(1), cp_from_float(2), cp_from_float(3), cp_from_float(4));
  TU_ASSERT(q.z.v == 3.0f && sizeof q == 32 && _Alignof(cp_float4) == 16);
  cp_float3 t = cp_make_float3(cp_from_float(1), cp_from_float(2), cp_from_float(3));
  TU_ASSERT(t.y.v == 2.0f && sizeof t == 24);
  TU_ASSERT(sizeof(cp_float2) == 16 && _Alignof(cp_float2) == 16 && _Alignof(cp_float) == 8);
  TU_ASSERT(sizeof(cp_double2) == 32 && sizeof(cp_double3) == 48 && _Alignof(cp_double) == 16);
}
END_TEST

Suite *make_convert_suite(void)
{
  Suite *s = suite_create("convert");
  TCase *tc = tcase_create("exact");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_from_int);
  tcase_add_test(tc, test_from_double);
  tcase_add_test(tc, test_integer_conversions);
  tcase_add_test(tc, test_to_float);
  tcase_add_test(tc, test_to_int);
  tcase_add_test(tc, test_comparisons);
  tcase_add_test(tc, test_rounding);
  tcase_add_test(tc, test_vectors_layout);
  suite_add_tcase(s, tc);
  return s;
}

/* math_spec_coeffs.c - the erfc coefficient table of runtime/include/cp/math_spec.cuh.
 *
 * erfcx(x) = exp(x^2) erfc(x) on the intervals [a, a + 1/2), a = 1/2, 1, ..., 10: on each,
 * the polynomial in s = x - c (c the interval's midpoint) that interpolates erfcx at the
 * Chebyshev nodes, computed with MPFR at 256 bits, converted to monomials in s, each
 * coefficient rounded to a float pair (hi = RN(c), lo = RN(c - hi)). Prints the C table and,
 * on stderr, each interval's largest relative error of the rounded polynomial (exact
 * arithmetic) over 2000 points against erfcx. Then the other constants of math_spec.cuh as
 * pairs: 1/(2j+1)! (sinh's series), e/2, and erf's Taylor coefficients
 * (2/sqrt(pi)) (-1)^n / (n! (2n + 1)).
 *   cc -O2 scripts/math_spec_coeffs.c -lmpfr -lgmp -o /tmp/coeffs && /tmp/coeffs > table.txt
 */
#include <math.h>
#include <mpfr.h>
#include <stdio.h>

#define PREC 256
#define NI 20   /* intervals */
#define DEG 15  /* degree (16 coefficients) */
#define W 0.5

static void erfcx(mpfr_t y, const mpfr_t x)
{
  mpfr_t t;
  mpfr_init2(t, PREC);
  mpfr_erfc(y, x, MPFR_RNDN);
  mpfr_sqr(t, x, MPFR_RNDN);
  mpfr_exp(t, t, MPFR_RNDN);
  mpfr_mul(y, y, t, MPFR_RNDN);
  mpfr_clear(t);
}

static void print_pair(const char *what, int j, const mpfr_t v)
{
  mpfr_t r;
  mpfr_init2(r, PREC);
  float hi = mpfr_get_flt(v, MPFR_RNDN);
  mpfr_sub_d(r, v, hi, MPFR_RNDN);
  printf("/* %s %d */ %af, %af\n", what, j, hi, mpfr_get_flt(r, MPFR_RNDN));
  mpfr_clear(r);
}

int main(void)
{
  mpfr_t f[DEG + 1], ch[DEG + 1], mono[DEG + 1], T0[DEG + 1], T1[DEG + 1], T2[DEG + 1], x, t, y, s, p;
  for (int i = 0; i <= DEG; i++) mpfr_inits2(PREC, f[i], ch[i], mono[i], T0[i], T1[i], T2[i], (mpfr_ptr)0);
  mpfr_inits2(PREC, x, t, y, s, p, (mpfr_ptr)0);
  const int n = DEG + 1;
  printf("static const float cp_detail_spec_erfcx_tab[%d][%d][2] = {\n", NI, n);
  for (int k = 0; k < NI; k++) {
    double a = 0.5 + W * k, c = a + W / 2, h = W / 2;
    /* values at the Chebyshev nodes u_j = cos(pi (j + 1/2) / n) */
    for (int j = 0; j < n; j++) {
      mpfr_const_pi(t, MPFR_RNDN);
      mpfr_mul_d(t, t, (j + 0.5) / n, MPFR_RNDN);
      mpfr_cos(t, t, MPFR_RNDN);
      mpfr_mul_d(x, t, h, MPFR_RNDN);
      mpfr_add_d(x, x, c, MPFR_RNDN);
      erfcx(f[j], x);
    }
    /* Chebyshev coefficients c_i = (2/n) sum_j f_j T_i(u_j) (c_0 halved) */
    for (int i = 0; i < n; i++) {
      mpfr_set_zero(ch[i], 1);
      for (int j = 0; j < n; j++) {
        mpfr_const_pi(t, MPFR_RNDN);
        mpfr_mul_d(t, t, (double)i * (j + 0.5) / n, MPFR_RNDN);
        mpfr_cos(t, t, MPFR_RNDN);
        mpfr_mul(t, t, f[j], MPFR_RNDN);
        mpfr_add(ch[i], ch[i], t, MPFR_RNDN);
      }
      mpfr_mul_d(ch[i], ch[i], 2.0 / n, MPFR_RNDN);
    }
    mpfr_div_ui(ch[0], ch[0], 2, MPFR_RNDN);
    /* monomials in u: sum c_i T_i(u), T_i by the recurrence on coefficient vectors */
    for (int i = 0; i < n; i++) { mpfr_set_zero(mono[i], 1); mpfr_set_zero(T0[i], 1); mpfr_set_zero(T1[i], 1); }
    mpfr_set_ui(T0[0], 1, MPFR_RNDN);
    mpfr_set_ui(T1[1], 1, MPFR_RNDN);
    for (int i = 0; i < n; i++) {
      mpfr_t *Ti = i == 0 ? T0 : T1;
      if (i >= 2) { /* T2 = 2u T1 - T0; shift */
        for (int q = 0; q < n; q++) {
          mpfr_set_zero(T2[q], 1);
          if (q > 0) mpfr_mul_ui(T2[q], T1[q - 1], 2, MPFR_RNDN);
          mpfr_sub(T2[q], T2[q], T0[q], MPFR_RNDN);
        }
        for (int q = 0; q < n; q++) { mpfr_set(T0[q], T1[q], MPFR_RNDN); mpfr_set(T1[q], T2[q], MPFR_RNDN); }
        Ti = T1;
      }
      for (int q = 0; q < n; q++) {
        mpfr_mul(t, Ti[q], ch[i], MPFR_RNDN);
        mpfr_add(mono[q], mono[q], t, MPFR_RNDN);
      }
    }
    /* u = s / h: coefficient q divided by h^q; then rounded to pairs */
    float hi[DEG + 1], lo[DEG + 1];
    for (int q = 0; q < n; q++) {
      mpfr_div_d(mono[q], mono[q], pow(h, q), MPFR_RNDN);
      hi[q] = mpfr_get_flt(mono[q], MPFR_RNDN);
      mpfr_sub_d(t, mono[q], hi[q], MPFR_RNDN);
      lo[q] = mpfr_get_flt(t, MPFR_RNDN);
    }
    /* error of the rounded polynomial, exact arithmetic */
    double worst = 0;
    for (int j = 0; j <= 2000; j++) {
      double sd = -h + 2 * h * j / 2000.0;
      mpfr_set_d(s, sd, MPFR_RNDN);
      mpfr_set_zero(p, 1);
      for (int q = n - 1; q >= 0; q--) {
        mpfr_mul(p, p, s, MPFR_RNDN);
        mpfr_add_d(p, p, hi[q], MPFR_RNDN);
        mpfr_add_d(p, p, lo[q], MPFR_RNDN);
      }
      mpfr_set_d(x, c + sd, MPFR_RNDN);
      erfcx(y, x);
      mpfr_sub(t, p, y, MPFR_RNDN);
      mpfr_div(t, t, y, MPFR_RNDN);
      double r = fabs(mpfr_get_d(t, MPFR_RNDN));
      if (r > worst) worst = r;
    }
    fprintf(stderr, "[%5.2f, %5.2f) c = %5.2f: max relative error 2^%.1f\n", a, a + W, c, log2(worst));
    printf("  { /* [%g, %g), c = %g */\n", a, a + W, c);
    for (int q = 0; q < n; q++) printf("    { %a, %a },\n", hi[q], lo[q]);
    printf("  },\n");
  }
  printf("};\n");
  mpfr_set_ui(t, 1, MPFR_RNDN);
  for (int j = 2; j <= 19; j++) {
    mpfr_div_ui(t, t, j, MPFR_RNDN);
    if (j % 2) print_pair("1/(2j+1)!", j, t);
  }
  mpfr_set_ui(t, 1, MPFR_RNDN);
  mpfr_exp(t, t, MPFR_RNDN);
  mpfr_div_ui(t, t, 2, MPFR_RNDN);
  print_pair("e/2", 0, t);
  for (int m = 0; m <= 12; m++) { /* (2/sqrt(pi)) (-1)^m / (m! (2m+1)) */
    mpfr_const_pi(t, MPFR_RNDN);
    mpfr_sqrt(t, t, MPFR_RNDN);
    mpfr_ui_div(t, 2, t, MPFR_RNDN);
    for (int j = 2; j <= m; j++) mpfr_div_ui(t, t, j, MPFR_RNDN);
    mpfr_div_ui(t, t, 2 * m + 1, MPFR_RNDN);
    if (m % 2) mpfr_neg(t, t, MPFR_RNDN);
    print_pair("erf a_m", m, t);
  }
  return 0;
}

/* dispatch_impl.h - body of the dispatch checks, compiled three times (dispatch_*.c) with
 * CP_ALGO set differently: the generic names must be the selected family's functions.
 * DISPATCH_FN names the checking function, DISPATCH_FAMILY(op) the expected family. */
#include <string.h>

#include "cp_test_gen.h"

static int dispatch_same(cp_float a, cp_float b)
{
  return gen_fbits(a.v) == gen_fbits(b.v) && gen_fbits(a.e) == gen_fbits(b.e);
}

int DISPATCH_FN(const char **name)
{
  gen_rng r = gen_seed(700 + CP_ALGO);
  *name = CP_ALGO_NAME;
  for (int i = 0; i < 1000; ++i) {
    cp_float x = gen_pair(&r, -20, 20), y = gen_pair(&r, -20, 20), z = gen_pair(&r, -20, 20);
    float f = gen_float(&r, -20, 20);
    cp_float ax = cp_fabs(x);
    int ok = dispatch_same(cp_add(x, y), DISPATCH_FAMILY(add)(x, y)) &&
             dispatch_same(cp_sub(x, y), DISPATCH_FAMILY(sub)(x, y)) &&
             dispatch_same(cp_mul(x, y), DISPATCH_FAMILY(mul)(x, y)) &&
             dispatch_same(cp_div(x, y), DISPATCH_FAMILY(div)(x, y)) &&
             dispatch_same(cp_add_cf(x, f), DISPATCH_FAMILY(add_cf)(x, f)) &&
             dispatch_same(cp_sub_cf(x, f), DISPATCH_FAMILY(sub_cf)(x, f)) &&
             dispatch_same(cp_mul_cf(x, f), DISPATCH_FAMILY(mul_cf)(x, f)) &&
             dispatch_same(cp_div_cf(x, f), DISPATCH_FAMILY(div_cf)(x, f)) &&
             dispatch_same(cp_add_fc(f, y), DISPATCH_FAMILY(add_fc)(f, y)) &&
             dispatch_same(cp_sub_fc(f, y), DISPATCH_FAMILY(sub_fc)(f, y)) &&
             dispatch_same(cp_mul_fc(f, y), DISPATCH_FAMILY(mul_fc)(f, y)) &&
             dispatch_same(cp_div_fc(f, y), DISPATCH_FAMILY(div_fc)(f, y)) &&
             dispatch_same(cp_sqrt(ax), DISPATCH_FAMILY(sqrt)(ax)) &&
             dispatch_same(cp_rsqrt(ax), DISPATCH_FAMILY(rsqrt)(ax)) &&
             dispatch_same(cp_rcp(x), DISPATCH_FAMILY(rcp)(x)) &&
             dispatch_same(cp_fma(x, y, z), DISPATCH_FAMILY(fma)(x, y, z));
    if (!ok) return 0;
  }
  return 1;
}

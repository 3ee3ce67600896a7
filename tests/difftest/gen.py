#!/usr/bin/env python3
"""Random annotated CUDA programs for differential testing of cpconvert.

From one seed, gen.py draws one random program (kernels, device helpers, host driver) as
a small tree of Python objects and renders it twice: once in float (the annotated input
cpconvert converts; plain nvcc compiles it unchanged) and once in double (the reference).
The double program is rendered from the same tree, with double types, unsuffixed
literals and double math, never by editing the float text, so a rendering slip cannot
make both versions wrong the same way.

Numerical sanity is built in, not checked afterwards: every literal is a dyadic number
(exact in float, so float and double start from the same constants), every divisor is
bounded away from zero (`c + fabsf(e)`), square roots take `fabsf(e)` or `e*e + c`,
multiplication is refused when the magnitude bound of the product passes 1e15, and
branch conditions only test values loaded from the inputs (identical in all three
builds), so the three builds never take different branches. Rounding is exposed by the
inputs: mixed magnitudes (1e6, 1e3, 1, 1e-6), cancellation pairs and long sums.

A program that draws multi_tu is written as three files, not one: dt_SEED.h (include
guard, the prototypes of host wrappers launch_K that launch the kernels), dt_SEED_k.cu
(the kernels, with their pragmas, and the wrappers' definitions) and dt_SEED.cu (main(),
calling the wrappers), the reference likewise (dt_SEED.ref.h, dt_SEED_k.ref.cu,
dt_SEED.ref.cu). Its code is the same either way: multi_tu is drawn from a stream of its
own (layout_rng), so --no multi_tu gives the one-file program, and a seed that does not
draw it gives the program it gave before multi_tu existed. typed_template (a template_kernel
written over its number type, `template <typename T, int K>`, launched as NAME<float, 1>;
the reference keeps double and launches NAME<double, 1>) has a stream of its own too.

Usage: gen.py SEED OUTDIR [--no FEATURE ...]   writes OUTDIR/dt_SEED.cu and
OUTDIR/dt_SEED.ref.cu (multi_tu: the six files above) and prints the features the
program uses.
"""
import argparse
import collections
import os
import random
import re
import sys

# Features a program may draw; --no FEATURE removes one (known-unfixed bugs stay out of
# the CI seed set this way). Names are stable: run.py and the docs use them.
FEATURES = [
    "math", "exp_math", "ternary", "branch", "accum_loop", "local_array",
    "vector", "vector_buffer", "shared_reduction", "shuffle", "atomic", "helpers",
    "unannotated_helpers", "compound", "incdec", "conversions", "grid_stride",
    "integrator", "scope_accumulators", "acc_fixed", "acc_kahan", "acc_double",
    "keep", "pair", "nopair",
    # shapes of real MD codes; kept last, and drawn from the generator only when present,
    # so that leaving all of them out (--no) gives exactly the programs of the list above
    "ref_param", "struct_by_value", "mixed_compound", "type_macro", "arch_branch",
    "fixed_shuffle", "template_kernel", "library_reduce",
    # the layout of the program's files, not its code: drawn from a stream of its own
    # (layout_rng), so that adding it changed no draw of the program itself
    "multi_tu",
    # a kernel template of template_kernel written over its number type, launched as
    # NAME<float, 1>: drawn from a stream of its own (typed_rng), as multi_tu
    "typed_template",
]
LAYOUT = {"multi_tu", "typed_template"}


def layout_rng(seed):
    """The random stream of the layout features: independent of the program's."""
    return random.Random("difftest layout %d" % seed)


def typed_rng(seed):
    """The random stream of typed_template: independent of the program's and the layout's."""
    return random.Random("difftest typed %d" % seed)


class Types:
    """What differs between the float and the double rendering."""

    def __init__(self, double):
        self.double = double
        self.f = "double" if double else "float"
        self.v2 = "double2" if double else "float2"
        self.v4 = "ref4" if double else "float4"
        self.make2 = "make_double2" if double else "make_float2"
        self.make4 = "make_ref4" if double else "make_float4"

    def lit(self, x):
        text = repr(float(x))
        return text if self.double else text + "f"

    def fn(self, name):
        if not self.double:
            return name
        return DOUBLE_MATH[name]


DOUBLE_MATH = {
    "sqrtf": "sqrt", "rsqrtf": "rsqrt", "fabsf": "fabs", "fminf": "fmin", "fmaxf": "fmax",
    "expf": "exp", "__frcp_rn": "__drcp_rn", "__fsqrt_rn": "__dsqrt_rn",
    "__fmul_rn": "__dmul_rn", "__fadd_rn": "__dadd_rn", "fmaf": "fma",
    "__fdividef": "__ddiv_rn", "__fsub_rn": "__dsub_rn",
}


# ---- expressions: each node knows its magnitude bound and renders for a Types ----

class Lit:
    def __init__(self, v):
        self.v, self.mag = v, abs(v)

    def r(self, t):
        # parenthesised so that a unary minus in front never makes a -- token
        return "(%s)" % t.lit(self.v) if self.v < 0 else t.lit(self.v)


class DLit(Lit):
    """A double literal (no f suffix) in both renderings: in the float program it makes
    the arithmetic around it double, as C does (x += 0.5 * y)."""

    def r(self, t):
        text = repr(float(self.v))
        return "(%s)" % text if self.v < 0 else text


class Var:
    def __init__(self, name, mag):
        self.name, self.mag = name, mag

    def r(self, t):
        return self.name


class Bin:
    def __init__(self, op, a, b):
        self.op, self.a, self.b = op, a, b
        if op == "*":
            self.mag = a.mag * b.mag
        elif op == "/":
            self.mag = a.mag  # divisors are built as c + |e| with c >= 1
        else:
            self.mag = a.mag + b.mag

    def r(self, t):
        return "(%s %s %s)" % (self.a.r(t), self.op, self.b.r(t))


class Neg:
    def __init__(self, a):
        self.a, self.mag = a, a.mag

    def r(self, t):
        return "(-%s)" % self.a.r(t)


class Call:
    def __init__(self, name, args, mag):
        self.name, self.args, self.mag = name, args, mag

    def r(self, t):
        if t.double and self.name == "__fdividef":
            return "(%s / %s)" % (self.args[0].r(t), self.args[1].r(t))
        return "%s(%s)" % (t.fn(self.name), ", ".join(a.r(t) for a in self.args))


class Tmpl:
    """A fixed shape with holes: {f} is the float type, {0}.. the operands."""

    def __init__(self, text, args, mag):
        self.text, self.args, self.mag = text, args, mag

    def r(self, t):
        return self.text.format(*[a.r(t) for a in self.args], f=t.f, v2=t.v2, v4=t.v4,
                                make2=t.make2, make4=t.make4,
                                fabs=t.fn("fabsf"), R="REAL", R4="REAL4")


class Cond:
    """cond ? a : b where cond tests a loaded input (same in all builds)."""

    def __init__(self, var, cmp, c, a, b):
        self.var, self.cmp, self.c, self.a, self.b = var, cmp, c, a, b
        self.mag = max(a.mag, b.mag)

    def r(self, t):
        return "(%s %s %s ? %s : %s)" % (self.var, self.cmp, t.lit(self.c), self.a.r(t),
                                         self.b.r(t))


def dyadic(rng):
    """A constant exact in float: small integer times a power of two."""
    return rng.choice([1, 3, 5, 7, 9, 11, 13]) * 2.0 ** rng.randint(-6, 3) * rng.choice([1, -1])


class ExprGen:
    def __init__(self, rng, feats):
        self.rng, self.f = rng, feats
        # categories of non-composite arithmetic met since the caller last cleared it
        # (see Program.lax_of): the per-value attribution of run.py's accuracy report
        self.lax = set()
        self.ref_called = set()  # unannotated reference helpers called since cleared
        self.ref_helpers = []

    def ty(self, vec=False):
        """The spelling of a float (vec: float4) declaration: {f}, or with type_macro
        sometimes the macro REAL (REAL4), which each rendering defines to its type."""
        if "type_macro" in self.f and self.rng.random() < 0.5:
            return "{R4}" if vec else "{R}"
        return "{v4}" if vec else "{f}"

    def skew(self, e):
        """e * 129/128, the operand of x += c * e, x -= HALF * e, x += DT * e: these add a
        double product to a composite, which enters it rounded to double (2^-53), so such
        terms must never cancel the target exactly (x = s; x -= HALF * s; x -= HALF * s is
        exactly 0 in float and double but 2^-53 s in composite, and r = 0 leaves the
        accuracy check no slack). With the factor, that needs dyadic coefficients summing
        to 128/129: impossible."""
        return Tmpl("({0} * {1})", [e, Lit(1.0078125)], e.mag * 1.0078125)

    def bounded(self, e, limit=1e7):
        """e itself if its bound is at most limit, else e / (1 + |e|) (bound 1)."""
        if e.mag <= limit:
            return e
        return Tmpl("({0} / ({1} + {fabs}({0})))", [e, Lit(1.0)], 1.0)

    def leaf(self, env):
        if env and self.rng.random() < 0.8:
            name, mag = self.rng.choice(env)
            return Var(name, mag)
        return Lit(dyadic(self.rng))

    def safe_div(self, e):
        return Bin("+", Lit(self.rng.choice([1.0, 1.5, 2.0, 4.0])), Call("fabsf", [e], e.mag))

    def expr(self, env, depth, inputs=()):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.2:
            return self.leaf(env)
        k = rng.random()
        if k < 0.55:
            a, b = self.expr(env, depth - 1, inputs), self.expr(env, depth - 1, inputs)
            op = rng.choice("+-*/")
            if op == "*" and a.mag * b.mag > 1e15:
                op = "+"
            if op == "/":
                return Bin("/", a, self.safe_div(b))
            return Bin(op, a, b)
        if k < 0.62:
            return Neg(self.expr(env, depth - 1, inputs))
        if k < 0.85 and "math" in self.f:
            return self.math(env, depth, inputs)
        if k < 0.93 and "ternary" in self.f and inputs:
            var, mag = rng.choice(inputs)
            return Cond(var, rng.choice(["<", ">", "<=", ">="]), dyadic(rng),
                        self.expr(env, depth - 1, inputs), self.expr(env, depth - 1, inputs))
        if "conversions" in self.f and rng.random() < 0.5:
            a = self.expr(env, depth - 1, inputs)
            return Tmpl("(({f})((double)({0}) * 0.5))", [a], a.mag)
        return self.leaf(env)

    def math(self, env, depth, inputs):
        rng = self.rng
        a = self.expr(env, depth - 1, inputs)
        names = ["sqrtf", "rsqrtf", "fabsf", "fminf", "fmaxf", "__frcp_rn", "__fdividef",
                 "__fsqrt_rn", "__fmul_rn", "__fadd_rn", "fmaf"]
        if "exp_math" in self.f:
            names.append("expf")
        name = rng.choice(names)
        if name in ("sqrtf", "__fsqrt_rn"):
            return Call(name, [Call("fabsf", [a], a.mag)], a.mag ** 0.5 + 1)
        if name == "rsqrtf":
            return Call(name, [self.safe_div(a)], 1.0)
        if name == "__frcp_rn":
            return Call(name, [self.safe_div(a)], 1.0)
        if name == "fabsf":
            return Call(name, [a], a.mag)
        if name == "expf":
            # a composite exp (cp_exp): at the low tier it keeps expf's own rounding, so a
            # value it reaches is checked only at the other tiers (run.py, LOW_TIER_LAX)
            self.lax.add("exp")
            return Call(name, [Neg(Call("fabsf", [Bin("*", Lit(2.0 ** -20), a)], a.mag))], 1.0)
        b = self.expr(env, depth - 1, inputs)
        if name in ("fminf", "fmaxf", "__fadd_rn"):
            return Call(name, [a, b], a.mag + b.mag)
        if name == "__fdividef":
            return Call(name, [a, self.safe_div(b)], a.mag)
        if a.mag * b.mag > 1e15:
            return Call("fmaxf", [a, b], a.mag + b.mag)
        if name == "__fmul_rn":
            return Call(name, [a, b], a.mag * b.mag)
        c = self.leaf(env)
        if a.mag * b.mag + c.mag > 1e15:
            return Call("fminf", [a, b], a.mag + b.mag)
        return Call("fmaf", [a, b, c], a.mag * b.mag + c.mag)


# ---- statements: a statement renders to a list of lines for a Types ----

class Stmt:
    def __init__(self, text, args=(), inner=None, other=None):
        self.text, self.args, self.inner, self.other = text, list(args), inner, other

    def lines(self, t, ind):
        text = Tmpl(self.text, self.args, 0).r(t)
        if self.inner is None:
            return [ind + text]
        out = [ind + text + " {"]
        for s in self.inner:
            out += s.lines(t, ind + "  ")
        if self.other is not None:
            out.append(ind + "} else {")
            for s in self.other:
                out += s.lines(t, ind + "  ")
        out.append(ind + "}")
        return out


class Pre:
    """A preprocessor line (#if, #else, #endif), written at the start of its line."""

    def __init__(self, text):
        self.text = text

    def lines(self, t, ind):
        return [self.text]


# The conditions of arch_branch: (the line that opens the device side, whether the
# first branch is the device side)
ARCH_IFS = [("#ifdef __CUDA_ARCH__", True), ("#if defined(__CUDA_ARCH__)", True),
            ("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 600", True),
            ("#if __CUDA_ARCH__ >= 700", True), ("#ifndef __CUDA_ARCH__", False),
            ("#if !defined(__CUDA_ARCH__)", False)]


def arch_block(rng, device, host, else_branch=True):
    """device and host (statement lists) under one of the __CUDA_ARCH__ conditions. Without
    else_branch only the device side is written (the host side is the code before it)."""
    if not else_branch:
        return [Pre(rng.choice(ARCH_IFS[:4])[0])] + device + [Pre("#endif")]
    cond, device_first = rng.choice(ARCH_IFS)
    first, second = (device, host) if device_first else (host, device)
    return [Pre(cond)] + first + [Pre("#else")] + second + [Pre("#endif")]


class Body:
    """Draws the statements of one thread's work over the variables in env."""

    def __init__(self, gen, env, inputs, helpers):
        self.g, self.rng, self.f = gen, gen.rng, gen.f
        self.env, self.inputs, self.helpers = list(env), list(inputs), helpers
        self.stmts, self.count, self.derived = [], 0, []
        self.loops = True  # accumulation loops read in0, which every kernel but force has
        self.outbuf = None  # the kernel's output buffer, element i (mixed_compound)

    def new(self, prefix="t"):
        self.count += 1
        return "%s%d" % (prefix, self.count)

    def e(self, depth=3):
        return self.g.expr(self.env, depth, self.inputs)

    def decl(self, expr, prefix="t"):
        name = self.new(prefix)
        self.stmts.append(Stmt(self.g.ty() + " %s = {0};" % name, [expr]))
        self.env.append((name, expr.mag))
        self.derived.append(name)
        return name

    def step(self):
        rng, f = self.rng, self.f
        choices = ["decl"]
        for feat in ("compound", "incdec", "branch", "local_array", "vector", "helpers",
                     "conversions", "accum_loop", "ref_param", "mixed_compound",
                     "arch_branch"):
            if feat == "accum_loop" and not self.loops:
                continue
            if feat in f and (self.derived or feat not in ("compound", "incdec")):
                choices.append(feat)
        getattr(self, "s_" + rng.choice(choices))()

    def s_decl(self):
        self.decl(self.e())

    def target(self):
        name = self.rng.choice(self.derived)
        mag = dict(self.env)[name]
        return name, mag

    def s_compound(self):
        name, mag = self.target()
        op = self.rng.choice(["+=", "-=", "*=", "/="])
        e = self.e(2)
        if op == "*=" and mag * e.mag > 1e15:
            op = "+="
        if op == "/=":
            e = self.g.safe_div(e)
        self.stmts.append(Stmt("%s %s {0};" % (name, op), [e]))
        self.bump(name, mag + e.mag if op in ("+=", "-=") else mag * max(e.mag, 1))

    def bump(self, name, mag):
        self.env = [(n, mag if n == name else m) for n, m in self.env]

    def s_incdec(self):
        name, mag = self.target()
        self.stmts.append(Stmt(self.rng.choice(["%s++;", "--%s;", "++%s;", "%s--;"]) % name))
        self.bump(name, mag + 1)

    def s_branch(self):
        if not self.inputs:
            return self.s_decl()
        name = self.decl(Lit(0.0))
        var, _ = self.rng.choice(self.inputs)
        a, b = self.e(2), self.e(2)
        cond = "if (%s %s {0})" % (var, self.rng.choice(["<", ">", "<=", ">="]))
        self.stmts.append(Stmt(cond, [Lit(dyadic(self.rng))],
                               [Stmt("%s = {0};" % name, [a])],
                               [Stmt("%s += {0};" % name, [b])]))
        self.bump(name, a.mag + b.mag)

    def s_local_array(self):
        arr = self.new("arr")
        e = self.e(2)
        self.stmts.append(Stmt(self.g.ty() + " %s[4];" % arr))
        self.stmts.append(Stmt("for (int q = 0; q < 4; q++) %s[q] = {0} * ({f})(q + 1);" % arr,
                               [e]))
        self.decl(Tmpl("(%s[0] - %s[1] + %s[2] - %s[3])" % ((arr,) * 4), [], 10 * e.mag))

    def s_vector(self):
        if self.rng.random() < 0.5:
            v = self.new("v")
            a, b = self.e(2), self.e(2)
            self.stmts.append(Stmt("{v2} %s = {make2}({0}, {1});" % v, [a, b]))
            if "compound" in self.f:
                c = self.e(1)
                self.stmts.append(Stmt("%s.y += {0};" % v, [c]))
                b = Bin("+", b, c)
            self.decl(Tmpl("(%s.x * {0} + %s.y)" % (v, v), [Lit(dyadic(self.rng))],
                           8 * a.mag + b.mag))
        else:
            v = self.new("w")
            es = [self.e(2) for _ in range(4)]
            self.stmts.append(Stmt(self.g.ty(True) + " %s = {make4}({0}, {1}, {2}, {3});" % v,
                                   es))
            self.decl(Tmpl("(%s.x + %s.y - %s.z + %s.w)" % ((v,) * 4), [],
                           sum(x.mag for x in es)))

    def s_helpers(self):
        if not self.helpers:
            return self.s_decl()
        h = self.rng.choice(self.helpers)
        self.g.lax |= h.lax
        a, b = self.e(2), self.e(2)
        if h.kind == "out":
            o1, o2 = self.decl(Lit(0.0)), self.decl(Lit(0.0))
            self.stmts.append(Stmt("%s({0}, {1}, &%s, &%s);" % (h.name, o1, o2), [a, b]))
            self.bump(o1, h.mag(a, b))
            self.bump(o2, h.mag(a, b))
        else:
            self.decl(Tmpl("%s({0}, {1})" % h.name, [a, b], h.mag(a, b)))

    def s_conversions(self):
        if self.rng.random() < 0.5:
            e = self.e(2)
            self.decl(Tmpl("({0} + ({f})(i % 7) * {1})", [e, Lit(0.25)], e.mag + 2))
        else:
            d = self.new("d")
            e = self.e(2)
            self.stmts.append(Stmt("double %s = (double){0} * 0.5;" % d, [e]))
            self.decl(Tmpl("({f})%s" % d, [], e.mag))

    def s_accum_loop(self):
        # the term never reads the accumulator: s += s - u doubles s every iteration
        outer = list(self.env)
        s = self.decl(Lit(0.0), "s")
        m = self.rng.choice([16, 64, 256])
        inner = Body(self.g, outer + [("u", 2e6)], self.inputs + [("u", 2e6)], [])
        term = inner.e(2)
        loop = "for (int j = 0; j < %d; j++)" % m
        # stride 1 sums the cancelling pairs of the inputs in order: large partial sums
        # and a small total, where float loses most digits
        load = Stmt("{f} u = in0[(i + j * %d) %% n];" % self.rng.choice([1, 7]))
        self.stmts.append(Stmt(loop, [], [load, Stmt("%s += {0};" % s, [term])]))
        self.bump(s, m * term.mag)

    # -- ref_param: a helper with float & out-parameters, called with locals --
    def s_ref_param(self):
        rng, g = self.rng, self.g
        h = rng.choice(g.ref_helpers)
        g.lax |= h.lax
        if not h.annotated:
            g.ref_called.add(h.name)
        a = g.bounded(self.e(2), 1e5)
        small = [n for n, m in self.env if m <= 1e5]
        if h.bref and small and rng.random() < 0.7:
            bname = rng.choice(small)
            b = Var(bname, dict(self.env)[bname])
        elif h.bref:  # a local of its own for the const float & argument
            b = g.bounded(self.e(2), 1e5)
            bname = self.decl(b, "b")
            b = Var(bname, b.mag)
        else:
            b, bname = g.bounded(self.e(2), 1e5), None
        init = Lit(0.0)
        if rng.random() < 0.25:  # the members of a float2 local: interp(a, b, f.x, f.y)
            v = self.new("fv")
            o1, o2 = v + ".x", v + ".y"
            if h.inout:
                init = g.bounded(self.e(1), 1e5)
                self.stmts.append(Stmt("{v2} %s = {make2}({0}, {1});" % v, [init, Lit(0.0)]))
            else:
                self.stmts.append(Stmt("{v2} %s;" % v))
            self.stmts.append(Stmt("%s({0}, {1}, %s, %s);" % (h.name, o1, o2), [a, b]))
            m1, m2 = h.mags(a, b, init)
            self.env += [(o1, m1), (o2, m2)]
            return
        o1, o2 = self.new("r"), self.new("r")
        ty = g.ty()
        if h.inout:  # the helper adds into o1: the caller's value goes in
            init = g.bounded(self.e(1), 1e5)
            self.stmts.append(Stmt(ty + " %s = {0}, %s;" % (o1, o2), [init]))
        elif rng.random() < 0.5:
            self.stmts.append(Stmt(ty + " %s, %s;" % (o1, o2)))
        else:
            self.stmts.append(Stmt(ty + " %s = {0};" % o1, [Lit(0.0)]))
            self.stmts.append(Stmt(ty + " %s = {0};" % o2, [Lit(0.0)]))
        if bname is None:
            self.stmts.append(Stmt("%s({0}, {1}, %s, %s);" % (h.name, o1, o2), [a, b]))
        else:
            self.stmts.append(Stmt("%s({0}, %s, %s, %s);" % (h.name, bname, o1, o2), [a]))
        m1, m2 = h.mags(a, b, init)
        self.env += [(o1, m1), (o2, m2)]
        self.derived += [o1, o2]

    # -- mixed_compound: double literals, #define constants and ints in op= --
    def s_mixed_compound(self):
        rng, g = self.rng, self.g
        k = rng.random()
        if k < 0.25:
            return self.int_mix()
        if k < 0.4 or not self.derived:  # a double initializer of a float local
            e = g.bounded(self.e(2), 1e13)
            c = dyadic(rng)
            self.decl(Tmpl("HALF * {0} + {1}", [e, DLit(c)], e.mag / 2 + abs(c)))
            return
        name, mag = self.target()
        e = g.bounded(self.e(2), 1e13)
        c = dyadic(rng)
        form = rng.choice(["+=c", "-=half", "+=dt", "*=dt", "/=dt", "lit", "=", "*=q"])
        if form in ("+=c", "-=half", "+=dt"):
            e = g.skew(e)
        if form == "/=dt" and mag / g.dt > 1e13:
            form = "*=dt"
        if form == "+=c":
            text, args, mag = "%s += {0} * {1};", [DLit(c), e], mag + abs(c) * e.mag
        elif form == "-=half":
            text, args, mag = "%s -= HALF * {0};", [e], mag + e.mag / 2
        elif form == "+=dt":
            text, args, mag = "%s += DT * {0};", [e], mag + e.mag * g.dt
        elif form == "*=dt":
            text, args, mag = "%s *= DT;", [], mag * g.dt
        elif form == "/=dt":
            text, args, mag = "%s /= DT;", [], mag / g.dt
        elif form == "lit":
            op = rng.choice(["+=", "-="])
            text, args, mag = "%s " + op + " {0};", [DLit(c)], mag + abs(c)
        elif form == "=":
            text, args = "%s = HALF * " + name + " + {0} * {1};", [DLit(c), e]
            mag = mag / 2 + abs(c) * e.mag
        else:  # QUARTER is a float literal macro (0.25f; 0.25 in the reference)
            text, args, mag = "%s *= QUARTER;", [], mag / 4
        self.stmts.append(Stmt(text % name, args))
        self.bump(name, mag)

    def int_mix(self):
        """int m op= float: C computes in float and truncates, so m must be the same in
        every build: its float operands are half-integers (exact everywhere)."""
        rng, g = self.rng, self.g
        m, c = self.new("m"), self.new("c")
        self.stmts.append(Stmt("int %s = i %% 5 - 2;" % m))
        self.stmts.append(Stmt(g.ty() + " %s = ({f})(i %% 9 - 4) * {0};" % c, [Lit(0.5)]))
        for _ in range(rng.randint(1, 3)):
            op = rng.choice(["+=", "-=", "*="])
            self.stmts.append(Stmt("%s %s %s;" % (m, op, c)))
        if self.outbuf and rng.random() < 0.6:  # through a paired element, stored first
            self.stmts.append(Stmt("%s[i] = %s * {0};" % (self.outbuf, c), [Lit(2.0)]))
            self.stmts.append(Stmt("%s %s %s[i];" % (m, rng.choice(["+=", "-="]),
                                                    self.outbuf)))
        # |m| <= 20: it starts within 2, three ops with |c| <= 2, then at most 4 more
        if self.derived and rng.random() < 0.6:
            name, mag = self.target()
            self.stmts.append(Stmt("%s %s %s;" % (name, rng.choice(["+=", "-="]), m)))
            self.bump(name, mag + 100)
        else:
            e = self.e(1)
            self.decl(Tmpl("(({f})%s * {0} + {1})" % m, [Lit(0.25), e], 25 + e.mag))

    # -- arch_branch: #if __CUDA_ARCH__ / #else / #endif, the same value on both sides --
    def s_arch_branch(self):
        rng, g = self.rng, self.g
        a, b = self.e(2), self.e(2)
        name = self.new("h")
        kind = rng.choice(["op", "op", "lane", "noelse"])
        if kind == "lane":  # a shuffle from the thread's own lane: its own value
            e = g.bounded(a, 1e15)
            src = rng.choice(["threadIdx.x & 31", "threadIdx.x % 32"])
            dev = Tmpl("__shfl_sync(0xffffffffu, {0}, %s)" % src, [e], e.mag)
            if rng.random() < 0.5:
                dev = Tmpl("__shfl_xor_sync(0xffffffffu, __shfl_xor_sync(0xffffffffu, "
                           "{0}, %d), %d)" % ((rng.choice([1, 4, 16]),) * 2), [e], e.mag)
            host, mag = e, e.mag
        else:
            fn = rng.choice(["__fmul_rn", "__fadd_rn", "__fsub_rn"])
            if fn == "__fmul_rn" and a.mag * b.mag > 1e15:
                fn = "__fadd_rn"
            op = {"__fmul_rn": "*", "__fadd_rn": "+", "__fsub_rn": "-"}[fn]
            host = Bin(op, a, b)
            dev = Call(fn, [a, b], host.mag)
            mag = host.mag
        ty = g.ty()
        if kind == "noelse":  # the host's value first, the device overwrites it
            self.stmts.append(Stmt(ty + " %s = {0};" % name, [host]))
            self.stmts += arch_block(rng, [Stmt("%s = {0};" % name, [dev])], [], False)
        elif rng.random() < 0.5:  # declared on each side
            self.stmts += arch_block(rng, [Stmt(ty + " %s = {0};" % name, [dev])],
                                     [Stmt(ty + " %s = {0};" % name, [host])])
        else:
            self.stmts.append(Stmt(ty + " %s;" % name))
            self.stmts += arch_block(rng, [Stmt("%s = {0};" % name, [dev])],
                                     [Stmt("%s = {0};" % name, [host])])
        self.env.append((name, mag))
        self.derived.append(name)


class RefHelper:
    """__device__ void interpK(float a, [const float &]b, float &o1, float &o2)."""

    def __init__(self, gen, idx, annotated):
        rng = gen.rng
        self.name = "interp%d" % idx
        self.annotated = annotated
        self.bref = rng.random() < 0.5  # b is a const float &
        self.inout = rng.random() < 0.3  # o1 += ...: the caller's value goes in
        self.chain = rng.random() < 0.5  # o2 reads o1 back through its reference
        self.inline = rng.random() < 0.3
        self.ty = [gen.ty() for _ in range(4)]
        env = [("a", 1.0), ("b", 1.0)]
        outer, gen.lax = gen.lax, set()
        self.e1 = gen.expr(env, 1)
        self.e2 = gen.expr(env, 1)
        # called only from converted code: an unannotated one converts whole
        self.lax, gen.lax = gen.lax, outer
        self.c = dyadic(rng)
        self.scale = max(self.e1.mag, self.e2.mag, 1.0)

    def mags(self, a, b, init):
        m = max(a.mag, b.mag, 1.0)
        base = self.scale * m ** 2
        m1 = base + init.mag
        return m1, base + (abs(self.c) * m1 if self.chain else 0)

    def lines(self, t):
        out = ["#pragma cp composite"] if self.annotated and not t.double else []
        ta, tb, t1, t2 = self.ty
        sig = "__device__ %svoid %s(%s a, %s b, %s &o1, %s &o2) {{" % (
            "__forceinline__ " if self.inline else "", self.name, ta,
            ("const %s &" % tb) if self.bref else tb, t1, t2)
        out.append(Tmpl(sig, [], 0).r(t).replace("& b", "&b"))
        out.append("  o1 %s %s;" % ("+=" if self.inout else "=", self.e1.r(t)))
        if self.chain:
            out.append("  o2 = %s + o1 * %s;" % (self.e2.r(t), Lit(self.c).r(t)))
        else:
            out.append("  o2 = %s;" % self.e2.r(t))
        return out + ["}", ""]


class Helper:
    def __init__(self, gen, idx, annotated):
        self.name = "help%d" % idx
        self.annotated = annotated
        self.kind = gen.rng.choice(["out", "ret"])
        env = [("a", 1.0), ("b", 1.0)]
        # magnitude per unit input: helpers are drawn once, used with any operands
        outer, gen.lax = gen.lax, set()
        self.e1 = gen.expr(env, 1)
        self.e2 = gen.expr(env, 1)
        self.lax, gen.lax = gen.lax | ({"unannotated helper"} if not annotated else set()), outer
        self.scale = max(self.e1.mag, self.e2.mag, 1.0)

    def mag(self, a, b):
        m = max(a.mag, b.mag, 1.0)
        return self.scale * m ** 2

    def lines(self, t):
        out = ["#pragma cp composite"] if self.annotated and not t.double else []
        if self.kind == "out":
            out.append("__device__ void %s({f} a, {f} b, {f} *o1, {f} *o2) {{".format(f=t.f)
                       % self.name)
            out.append("  *o1 = %s;" % self.e1.r(t))
            out.append("  *o2 = %s;" % self.e2.r(t))
        else:
            out.append("__device__ {f} %s({f} a, {f} b) {{".format(f=t.f) % self.name)
            out.append("  {f} r = {e};".format(f=t.f, e=self.e1.r(t)))
            out.append("  return r - %s;" % self.e2.r(t))
        return out + ["}", ""]


# ---- kernels: a signature, a pragma, and statements rendered per Types ----

THREADS = 64


class Kernel:
    def __init__(self, name, params, stmts, pragma, real=(), template=False):
        self.name, self.params, self.stmts, self.pragma = name, params, stmts, pragma
        self.real = set(real)  # parameters spelled with REAL/REAL4 (type_macro)
        self.template = template  # template <int K> (template_kernel), launched as NAME<1>
        self.typed = False  # typed_template: template <typename T, int K>, NAME<{f}, 1>

    def lines(self, t):
        out = [] if t.double or self.pragma is None else [self.pragma]
        if self.template:
            out.append("template <typename T, int K>" if self.typed else "template <int K>")
        sig = "__global__ void %s(%s) {{" % (self.name, self.param_list())
        body = [Tmpl(sig, [], 0).r(t)]
        for s in self.stmts:
            body += s.lines(t, "  ")
        if self.typed and not t.double:  # the float program computes in T; the reference
            body = [re.sub(r"\bfloat\b", "T", line) for line in body]  # in double, T unused
        return out + body + ["}", ""]

    def param_list(self, names=None):
        """The parameters as a Tmpl text ({f}, {R}, ...), named as the kernel's or, for a
        prototype, by names (a dict; a name mapped to "" leaves that parameter unnamed)."""
        ps = []
        for kind, p in self.params:
            name = p if names is None else names.get(p, p)
            text = {"in": "const {f} *%s", "in4": "const {v4} *%s", "out": "{f} *%s",
                    "scalar": "{f} %s", "int": "int %s", "State": "State %s",
                    "Sim": "Sim %s"}[kind] % name
            if p in self.real:
                text = text.replace("{f}", "{R}").replace("{v4}", "{R4}")
            ps.append(text.rstrip())
        return ", ".join(ps)


class Program:
    def __init__(self, seed, disabled=()):
        self.rng = random.Random(seed)
        self.seed = seed
        rng = self.rng
        # each feature is present in about 60% of the programs
        self.f = {x for x in FEATURES
                  if x not in LAYOUT and x not in disabled and rng.random() < 0.6}
        self.g = ExprGen(rng, self.f)
        self.g.f = self.f
        self.strict = True  # the accuracy criterion applies (see run.py)
        # per value: the categories of non-composite arithmetic that reach each buffer
        self.pending = set()  # the categories of the kernel being drawn
        self.flow = []  # per kernel: (buffers read, buffers written, categories)
        self.helpers = []
        if "helpers" in self.f:
            for k in range(rng.randint(1, 2)):
                ann = not ("unannotated_helpers" in self.f and rng.random() < 0.5)
                self.helpers.append(Helper(self.g, k, ann))
                self.strict &= ann
        # the new features draw only when present (see FEATURES)
        self.cg = False  # cooperative groups included (fixed_shuffle)
        self.structs = None  # (struct variable, prefix of State) when struct_by_value
        self.host_real = "type_macro" in self.f and rng.random() < 0.5
        if "mixed_compound" in self.f:
            # a double constant: used only in double arithmetic (x *= DT computes in
            # double in the float program too), so every build uses the same value
            self.g.dt = rng.choice([0.001, 0.002, 0.0625, 0.125])
        if "ref_param" in self.f:
            for k in range(rng.randint(1, 2)):
                # unannotated ones as with unannotated_helpers; only converted code calls
                # them, so they convert whole (auto-convert) where every caller is
                # scope(all), and do not make the program lax
                ann = not ("unannotated_helpers" in self.f and rng.random() < 0.5)
                self.g.ref_helpers.append(RefHelper(self.g, k, ann))
        self.kernels, self.outputs, self.launches, self.printed = [], [], [], []
        self.blocks = rng.choice([2, 4])
        self.steps = rng.randint(1, 3)
        self.integrator = "integrator" in self.f
        self.vec = "vector_buffer" in self.f
        kinds = ["map"] * rng.randint(1, 3)
        for feat in ("shared_reduction", "shuffle", "struct_by_value", "fixed_shuffle"):
            if feat in self.f:
                kinds.append(feat)
        rng.shuffle(kinds)
        for idx, kind in enumerate(kinds):
            getattr(self, "k_" + kind)(idx)
        if self.integrator:
            self.k_integrator()
        # library_reduce: the host sums a map output with thrust::reduce over a device_ptr
        # of it (a paired buffer: the library sums the values without their error terms,
        # and cpconvert says so); drawn in a sixth of such programs, since parsing thrust
        # costs seconds per conversion
        self.lib_reduce = None
        if "library_reduce" in self.f and self.outputs and rng.random() < 0.15:
            self.lib_reduce = rng.choice(self.outputs)
            self.strict = False
        # typed_template: some template kernels over their number type (float: T)
        trng = typed_rng(seed)
        for k in self.kernels:
            if k.template and trng.random() < 0.7 and "typed_template" not in disabled:
                k.typed = True
                self.f.add("typed_template")
                self.launches = [(k.name + "<{f}, 1>" if n == k.name + "<1>" else n, b, a)
                                 for n, b, a in self.launches]
        # multi_tu: drawn last and from a stream of its own (layout_rng), so a program is
        # the same code whether or not it is drawn (or left out with --no)
        lrng = layout_rng(seed)
        if lrng.random() < 0.6 and "multi_tu" not in disabled:
            self.f.add("multi_tu")
        self.multi = "multi_tu" in self.f
        self.moved, self.proto_names, self.extern = [], {}, False
        if self.multi:
            self.split(lrng)
        self.used = sorted(self.f)

    # -- clauses --
    def pragma(self, body_locals, pointer_params, written):
        rng, f = self.rng, self.f
        parts = ["#pragma cp composite"]
        if "scope_accumulators" in f and rng.random() < 0.4:
            parts.append("scope(accumulators)")
            self.strict = False
            self.pending.add("scope(accumulators)")
        elif rng.random() < 0.3:
            parts.append("scope(all)")
        acc = ["composite"] + [a for a in ("fixed", "kahan", "double") if "acc_" + a in f]
        a = rng.choice(acc)
        if a != "composite" or rng.random() < 0.3:
            parts.append("accumulate(%s)" % a)
            self.strict &= a in ("composite", "double")
            if a not in ("composite", "double"):
                self.pending.add("accumulate(%s)" % a)
        if "keep" in f and body_locals and rng.random() < 0.3:
            parts.append("keep(%s)" % rng.choice(body_locals))
            self.strict = False
            self.pending.add("keep")
        reads = [p for p in pointer_params if p not in written]
        if "pair" in f and reads and rng.random() < 0.3:
            parts.append("pair(%s)" % rng.choice(reads))
        if "nopair" in f and written and rng.random() < 0.3:
            parts.append("nopair(%s)" % rng.choice(written))
            self.strict = False
            self.pending.add("nopair")
        return " ".join(parts)

    def kernel(self, name, params, stmts, pragma, reads=None, writes=None, template=False):
        """A kernel, and its data flow for the per-value categories: by default it reads
        its "in" parameters and writes its "out" ones, named as the buffers they get."""
        if reads is None:
            reads = [p for k, p in params if k in ("in", "in4")]
        if writes is None:
            writes = [p for k, p in params if k == "out"]
        self.flow.append((reads, writes, self.g.lax | self.pending, self.g.ref_called))
        self.g.lax, self.pending, self.g.ref_called = set(), set(), set()
        real = ()
        if "type_macro" in self.f:
            real = [p for k, p in params
                    if k in ("in", "in4", "out", "scalar") and self.rng.random() < 0.5]
        self.kernels.append(Kernel(name, params, stmts, pragma, real, template))

    def inputs_env(self, body_stmts, index):
        """Loads of the inputs at index: these may steer branches (same in every build)."""
        env = [("a0", 2e6), ("a1", 2e6)]
        body_stmts.append(Stmt("{f} a0 = in0[%s];" % index))
        body_stmts.append(Stmt("{f} a1 = in1[(%s * 5 + 3) %% n];" % index))
        if self.vec:
            body_stmts.append(Stmt(self.g.ty(True) + " p = pos[%s];" % index))
            env += [("p.x", 2e6), ("p.y", 2e6), ("p.w", 2e6)]
        return env

    def in_params(self):
        ps = [("in", "in0"), ("in", "in1")]
        return ps + ([("in4", "pos")] if self.vec else [])

    def k_map(self, idx):
        name, out = "map%d" % idx, "out%d" % idx
        prev = self.outputs[-1] if self.outputs and self.rng.random() < 0.5 else None
        stmts = []
        grid = "grid_stride" in self.f and self.rng.random() < 0.6
        env = self.inputs_env(stmts, "i")
        body = Body(self.g, env, env, self.helpers)
        if "mixed_compound" in self.f:
            body.outbuf = out
        if prev:
            body.decl(Var("%s[i]" % prev, 1e17))
        for _ in range(self.rng.randint(2, 6)):
            body.step()
        body.stmts = stmts + body.stmts
        res = body.e(3)
        # template_kernel: a kernel template whose float arithmetic does not depend on K
        # (K is 1 at every launch: the scale by (float)K is exact in every build)
        tmpl = "template_kernel" in self.f and self.rng.random() < 0.5
        body.stmts.append(Stmt("%s[i] = {0}%s;" % (out, " * ({f})K" if tmpl else ""), [res]))
        if "mixed_compound" in self.f and self.rng.random() < 0.6:
            self.element_compounds(body, "%s[i]" % out, res.mag)
        params = self.in_params() + ([("in", prev)] if prev else []) + [("out", out),
                                                                          ("int", "n")]
        if grid:
            head = "for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; " \
                   "i += blockDim.x * gridDim.x)"
            stmts = [Stmt(head, [], body.stmts)]
        else:
            stmts = [Stmt("int i = blockIdx.x * blockDim.x + threadIdx.x;"),
                     Stmt("if (i < n)", [], body.stmts)]
        ptrs = [p for k, p in params if k in ("in", "out")]
        pragma = self.pragma(body.derived, ptrs, [out])
        self.kernel(name, params, stmts, pragma, template=tmpl)
        self.outputs.append(out)
        self.printed.append((out, "n"))
        blocks = self.blocks // 2 if grid else self.blocks
        self.launches.append((name + ("<1>" if tmpl else ""), blocks, [p for _, p in params]))

    def element_compounds(self, body, elem, mag):
        """mixed_compound on a buffer element: double literals and #define constants."""
        rng, g = self.rng, self.g
        for _ in range(rng.randint(1, 3)):
            e = g.skew(g.bounded(body.e(2), 1e13))
            c = dyadic(rng)
            form = rng.choice(["+=c", "-=half", "*=dt", "/=dt", "+=lit", "*=q"])
            if form == "/=dt" and mag / g.dt > 1e15:
                form = "*=dt"
            if form == "+=c":
                body.stmts.append(Stmt("%s += {0} * {1};" % elem, [DLit(c), e]))
                mag += abs(c) * e.mag
            elif form == "-=half":
                body.stmts.append(Stmt("%s -= HALF * {0};" % elem, [e]))
                mag += e.mag / 2
            elif form == "*=dt":
                body.stmts.append(Stmt("%s *= DT;" % elem))
            elif form == "/=dt":
                body.stmts.append(Stmt("%s /= DT;" % elem))
                mag /= g.dt
            elif form == "+=lit":
                body.stmts.append(Stmt("%s %s {0};" % (elem, rng.choice(["+=", "-="])),
                                       [DLit(c)]))
                mag += abs(c)
            else:
                body.stmts.append(Stmt("%s *= QUARTER;" % elem))
        return mag

    def term(self, stmts):
        """Per-thread term of a reduction: a few statements over the loaded inputs."""
        env = self.inputs_env(stmts, "i")
        body = Body(self.g, env, env, self.helpers)
        for _ in range(self.rng.randint(1, 3)):
            body.step()
        stmts += body.stmts
        return body, body.e(2)

    def k_shared_reduction(self, idx):
        name, out = "reduce%d" % idx, "red%d" % idx
        atomic = "atomic" in self.f and self.rng.random() < 0.5
        inner = []
        body, term = self.term(inner)
        inner.append(Stmt("s += {0};", [term]))
        head = "for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; " \
               "i += blockDim.x * gridDim.x)"
        tree = "for (int k = blockDim.x / 2; k > 0; k >>= 1)"
        store = ("if (threadIdx.x == 0) atomicAdd(&%s[0], tree[0]);" if atomic else
                 "if (threadIdx.x == 0) %s[blockIdx.x] = tree[0];") % out
        stmts = [Stmt("__shared__ %s tree[%d];" % (self.g.ty(), THREADS)),
                 Stmt(self.g.ty() + " s = {0};", [Lit(0.0)]),
                 Stmt(head, [], inner), Stmt("tree[threadIdx.x] = s;"),
                 Stmt("__syncthreads();"),
                 Stmt(tree, [], [Stmt("if (threadIdx.x < k) tree[threadIdx.x] += "
                                      "tree[threadIdx.x + k];"), Stmt("__syncthreads();")]),
                 Stmt(store)]
        params = self.in_params() + [("out", out), ("int", "n")]
        ptrs = [p for k, p in params if k in ("in", "out")]
        pragma = self.pragma(["s"] + body.derived, ptrs, [out])
        self.kernel(name, params, stmts, pragma)
        self.launches.append((name, self.blocks // 2, [p for _, p in params]))
        self.printed.append((out, "1" if atomic else str(self.blocks // 2)))

    def k_shuffle(self, idx):
        name, out = "warp%d" % idx, "wsum%d" % idx
        atomic = "atomic" in self.f and self.rng.random() < 0.5
        stmts = [Stmt("int i = blockIdx.x * blockDim.x + threadIdx.x;")]
        body, term = self.term(stmts)
        stmts.append(Stmt(self.g.ty() + " w = {0};", [term]))
        loop = [Stmt("for (int o = 16; o > 0; o >>= 1)", [],
                     [Stmt("w += __shfl_down_sync(0xffffffffu, w, o);")])]
        if "arch_branch" in self.f and self.rng.random() < 0.5:
            # the host view (never run): the same shuffle tree through shared memory,
            # __shfl_down_sync's own value where the source lane is outside the warp
            host = [Stmt("__shared__ %s lanes[%d];" % (self.g.ty(), THREADS)),
                    Stmt("for (int o = 16; o > 0; o >>= 1)", [],
                         [Stmt("lanes[threadIdx.x] = w;"), Stmt("__syncthreads();"),
                          Stmt("w += (threadIdx.x & 31) + o < 32 ? lanes[threadIdx.x + o] "
                               ": w;"),
                          Stmt("__syncthreads();")])]
            loop = arch_block(self.rng, loop, host)
        stmts += loop
        store = ("if ((threadIdx.x & 31) == 0) atomicAdd(&%s[0], w);" if atomic else
                 "if ((threadIdx.x & 31) == 0) %s[i / 32] = w;") % out
        stmts.append(Stmt(store))
        params = self.in_params() + [("out", out), ("int", "n")]
        ptrs = [p for k, p in params if k in ("in", "out")]
        pragma = self.pragma(["w"] + body.derived, ptrs, [out])
        self.kernel(name, params, stmts, pragma)
        self.launches.append((name, self.blocks, [p for _, p in params]))
        self.printed.append((out, "1" if atomic else "n / 32"))

    def k_struct_by_value(self, idx):
        """Device pointers in a struct passed by value, nested two (State) or three (Sim)
        deep: one kernel writes fields through the struct, another pairs one of the same
        buffers as a plain float * parameter."""
        rng, g = self.rng, self.g
        if self.structs is None:
            deep = rng.random() < 0.4
            self.structs = ("sim", "sim.st") if deep else ("s", "s")
        var, st = self.structs
        # kernel 1: reads r.x, v.x (inputs, never written), writes r.y, adds into v.y
        name = "fields%d" % idx
        inner = [Stmt(g.ty() + " a0 = %s.r.x[i];" % st),
                 Stmt(g.ty() + " a1 = %s.v.x[(i * 5 + 3) %% %s.n];" % (st, st))]
        env = [("a0", 2e6), ("a1", 2e6)]
        body = Body(g, env, env, self.helpers)
        body.loops = False
        for _ in range(rng.randint(1, 4)):
            body.step()
        body.stmts = inner + body.stmts
        res = body.e(3)
        body.stmts.append(Stmt("%s.r.y[i] = {0};" % st, [res]))
        e2 = g.bounded(body.e(2), 1e12)
        if var == "sim":
            body.stmts.append(Stmt("%s.v.y[i] += {0} * sim.dt;" % st, [e2]))
        elif "mixed_compound" in self.f and rng.random() < 0.5:
            body.stmts.append(Stmt("%s.v.y[i] += 0.25 * {0};" % st, [e2]))
        else:
            body.stmts.append(Stmt("%s.v.y[i] += {0};" % st, [e2]))
        stmts = [Stmt("int i = blockIdx.x * blockDim.x + threadIdx.x;"),
                 Stmt("if (i < %s.n)" % st, [], body.stmts)]
        kind = "Sim" if var == "sim" else "State"
        self.kernel(name, [(kind, var)], stmts, self.pragma(body.derived, [], []),
                    ["%s.r.x" % st, "%s.v.x" % st], ["%s.r.y" % st, "%s.v.y" % st])
        self.launches.append((name, self.blocks, [var]))
        # kernel 2: the same r.y buffer as a plain float * (updated in place, or read)
        name2 = "plain%d" % idx
        inplace = rng.random() < 0.6
        inner = [Stmt(g.ty() + " u = ry[i];"), Stmt(g.ty() + " w = vx[i];")]
        env = [("u", res.mag), ("w", 2e6)]
        body = Body(g, env, [("w", 2e6)], self.helpers)
        body.loops = False
        for _ in range(rng.randint(1, 3)):
            body.step()
        body.stmts = inner + body.stmts
        out = None
        if inplace:
            c = dyadic(rng)
            body.stmts.append(Stmt("ry[i] = u * {0} + {1};", [Lit(c), body.e(2)]))
            params = [("out", "ry"), ("in", "vx"), ("int", "n")]
        else:
            out = "sout%d" % idx
            body.stmts.append(Stmt("%s[i] = {0};" % out, [body.e(3)]))
            params = [("in", "ry"), ("in", "vx"), ("out", out), ("int", "n")]
        stmts = [Stmt("int i = blockIdx.x * blockDim.x + threadIdx.x;"),
                 Stmt("if (i < n)", [], body.stmts)]
        ptrs = [p for k, p in params if k in ("in", "out")]
        args = ["%s.r.y" % st, "%s.v.x" % st] + ([out] if out else []) + ["n"]
        self.kernel(name2, params, stmts,
                    self.pragma(body.derived, ptrs, ["ry"] if inplace else [out]),
                    args[:2], [args[2] if out else args[0]])
        self.launches.append((name2, self.blocks, args))
        self.printed += [("%s.r.y" % st, "n"), ("%s.v.y" % st, "n")]
        if out:
            self.printed.append((out, "n"))

    def k_fixed_shuffle(self, idx):
        """accumulate(fixed): the accumulator summed over the warp by __shfl_*_sync and
        cooperative-groups tile shuffles, then lane 0 adds it into a buffer atomically."""
        rng, g = self.rng, self.g
        name, out = "fsum%d" % idx, "fsum%d_out" % idx
        tile = rng.random() < 0.6
        self.cg |= tile
        way = rng.choice(["tile", "mixed", "warp"]) if tile else "warp"
        xor = rng.random() < 0.3
        stmts = []
        if tile:
            stmts.append(Stmt("cg::thread_block_tile<32> g = "
                              "cg::tiled_partition<32>(cg::this_thread_block());"))
        stmts.append(Stmt(g.ty() + " y = {0};", [Lit(0.0)]))
        inner = []
        env = self.inputs_env(inner, "i")
        body = Body(g, env, env, self.helpers)
        body.loops = False  # y stays the only accumulator, its terms bounded
        for _ in range(rng.randint(1, 3)):
            body.step()
        inner += body.stmts
        # |term| <= 1 + 2e6 and at most 2 terms a thread: the warp's sum stays far
        # inside cp_fixed's range (2^31), and 2^-32 absolute is far below float's error
        # on such sums, so the program stays strict
        e = body.e(2)
        inner.append(Stmt("y += {0} / ({1} + {fabs}({0})) + a0;", [e, Lit(1.0)]))
        head = "for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; " \
               "i += blockDim.x * gridDim.x)"
        stmts.append(Stmt(head, [], inner))
        warp = "y += __shfl_%s_sync(0xffffffffu, y, o);" % ("xor" if xor else "down")
        grp = "y += g.shfl_%s(y, o);" % ("xor" if xor else "down")
        if way == "warp":
            stmts.append(Stmt("for (int o = 16; o > 0; o >>= 1)", [], [Stmt(warp)]))
        elif way == "tile":
            head = rng.choice(["for (int o = 16; o > 0; o /= 2)",
                               "for (int o = g.size() / 2; o > 0; o /= 2)"])
            stmts.append(Stmt(head, [], [Stmt(grp)]))
        else:
            stmts.append(Stmt("for (int o = 16; o >= 4; o >>= 1)", [], [Stmt(grp)]))
            stmts.append(Stmt("for (int o = 2; o > 0; o >>= 1)", [], [Stmt(warp)]))
        lane0 = "g.thread_rank() == 0" if tile and rng.random() < 0.5 else \
            "(threadIdx.x & 31) == 0"
        target = rng.choice(["&%s[0]" % out, out])
        stmts.append(Stmt("if (%s) atomicAdd(%s, y);" % (lane0, target)))
        parts = ["#pragma cp composite"]
        if "scope_accumulators" in self.f and rng.random() < 0.4:
            parts.append("scope(accumulators)")
            self.strict = False
            self.pending.add("scope(accumulators)")
        elif rng.random() < 0.3:
            parts.append("scope(all)")
        parts.append("accumulate(fixed)")  # bounded terms: no category (see above)
        params = self.in_params() + [("out", out), ("int", "n")]
        self.kernel(name, params, stmts, " ".join(parts))
        self.launches.append((name, max(self.blocks // 2, 1), [p for _, p in params]))
        self.printed.append((out, "1"))

    def k_integrator(self):
        """force(x) -> f, then v += f*dt, x += v*dt: state shared across steps."""
        rng = self.rng
        stmts = [Stmt("int i = blockIdx.x * blockDim.x + threadIdx.x;")]
        inner = [Stmt("{f} xi = x[i];"), Stmt("{f} xj = x[(i + 1) % n];")]
        body = Body(self.g, [("xi", 2e6), ("xj", 2e6), ("d", 4e6)], [], self.helpers)
        body.stmts = inner + [Stmt("{f} d = xj - xi;")]
        body.loops = False
        for _ in range(rng.randint(1, 3)):
            body.step()
        e = body.e(2)
        # e / (1 + |e|) keeps the force bounded whatever e is, so the state stays sane
        bounded = Tmpl("(-{0} * xi + {1} / ({2} + {fabs}({1})))", [Lit(2.0 ** -6), e, Lit(1.0)],
                       1)
        body.stmts.append(Stmt("f[i] = {0};", [bounded]))
        stmts.append(Stmt("if (i < n)", [], body.stmts))
        params = [("in", "x"), ("out", "f"), ("int", "n")]
        self.kernel("force", params, stmts, self.pragma(body.derived, ["x", "f"], ["f"]))
        upd = [Stmt("int i = blockIdx.x * blockDim.x + threadIdx.x;"),
               Stmt("if (i < n)", [], [Stmt("v[i] += f[i] * dt;"), Stmt("x[i] += v[i] * dt;")])]
        params2 = [("out", "x"), ("out", "v"), ("in", "f"), ("scalar", "dt"), ("int", "n")]
        self.kernel("update", params2, upd, self.pragma([], ["x", "v", "f"], ["x", "v"]))
        for k in range(rng.randint(2, 8)):
            self.launches.append(("force", self.blocks, ["x", "f", "n"]))
            self.launches.append(("update", self.blocks, ["x", "v", "f", "dt", "n"]))
        self.printed += [("x", "n"), ("v", "n")]

    def value_categories(self):
        """Per printed value, in print order, the categories of non-composite arithmetic
        (float-call, keep, nopair, scope(accumulators), accumulate(fixed|kahan),
        unannotated helper) that reach it: a kernel's own, and those of every buffer it
        reads, through any number of launches. Returns [(count, "cat+cat" or "")]."""
        # an unannotated reference helper converts with its callers' scope: one caller in
        # scope(accumulators) keeps its float & parameters float, and so the locals every
        # caller binds to them (cpconvert warns, float-call)
        kept = {h for _, _, own, called in self.flow if "scope(accumulators)" in own
                for h in called}
        flow = [(r, w, own | ({"float-call"} if called & kept else set()))
                for r, w, own, called in self.flow]
        cats = collections.defaultdict(set)
        changed = True
        while changed:
            changed = False
            for reads, writes, own in flow:
                reach = set(own).union(*(cats[b] for b in reads + writes))
                for w in writes:
                    if not reach <= cats[w]:
                        cats[w] |= reach
                        changed = True
        n = self.blocks * THREADS
        values = [(int(eval(count, {"n": n})), "+".join(sorted(cats[b])))
                  for b, count in self.printed]
        if self.lib_reduce:  # printed last (see host)
            values.append((1, "+".join(sorted(cats[self.lib_reduce] | {"library"}))))
        return values

    # -- rendering --
    def buffers(self):
        bufs = ["in0", "in1"] + (["pos"] if self.vec else [])
        bufs += [o for o, _ in self.printed if "." not in o]  # not struct fields
        if self.integrator:
            bufs.append("f")
        return bufs

    def host(self, t, wrapped=()):
        """main(); the kernels in wrapped (multi_tu) are launched by their wrappers."""
        n = self.blocks * THREADS
        L = ["// Inputs that expose float rounding: magnitudes 1e6, 1e3, 1 and 1e-6 mixed,",
             "// and every odd element cancels most of the even one before it.",
             "static float input_value(int i, int salt) {",
             "  unsigned h = (unsigned)(i / 2) * 2654435761u + (unsigned)salt * 40503u;",
             "  h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;",
             "  float frac = 1.0f + (float)(h & 0xffffu) / 65536.0f;",
             "  const float mags[4] = {1e6f, 1e3f, 1.0f, 1e-6f};",
             "  float v = frac * mags[(h >> 16) & 3u];",
             "  if (i & 1) v = -v * (1.0f + (float)((h >> 20) & 15u) / 1048576.0f);",
             "  return v;",
             "}", "",
             "int main() {",
             "  const int n = %d;" % n]
        bufs = self.buffers()
        # type_macro: the host spells the buffers' types with REAL, REAL4 too
        f, v4 = ("REAL", "REAL4") if self.host_real else (t.f, t.v4)
        for b in bufs:
            typ = v4 if b == "pos" else f
            L.append("  static %s h_%s[%d];" % (typ, b, n))
            L.append("  %s *%s = nullptr;" % (typ, b))
            L.append("  cudaMalloc(&%s, n * sizeof(%s));" % (b, typ))
        init = {"in0": 1, "in1": 2, "x": 3, "v": 4}
        fields = []
        if self.structs:  # struct_by_value: allocated through the fields
            var, st = self.structs
            L.append("  %s %s;" % ("Sim" if var == "sim" else "State", var))
            L.append("  %s.n = n;" % st)
            if var == "sim":
                L.append("  sim.dt = %s;" % t.lit(0.0625))
            for fld in ("r.x", "v.x", "r.y", "v.y"):
                dev = "%s.%s" % (st, fld)
                fields.append(dev)
                L.append("  static %s h_%s[%d];" % (f, host_name(dev), n))
                L.append("  cudaMalloc(&%s, n * sizeof(%s));" % (dev, f))
            init.update({fields[0]: 9, fields[1]: 10})
        L.append("  for (int i = 0; i < n; i++) {")
        for b, salt in init.items():
            if b in bufs or b in fields:
                L.append("    h_%s[i] = input_value(i, %d);" % (host_name(b), salt))
        if self.vec:
            L.append("    h_pos[i] = %s(input_value(i, 5), input_value(i, 6), "
                     "input_value(i, 7), input_value(i, 8));" % t.make4)
        L.append("  }")
        for b in bufs + fields:
            typ = v4 if b == "pos" else f
            if b in init or b == "pos":
                L.append("  cudaMemcpy(%s, h_%s, n * sizeof(%s), cudaMemcpyHostToDevice);"
                         % (b, host_name(b), typ))
            else:
                L.append("  cudaMemset(%s, 0, n * sizeof(%s));" % (b, typ))
        if self.integrator:
            L.append("  %s dt = %s;" % (f, t.lit(0.0625)))
        L.append("  for (int step = 0; step < %d; step++) {" % self.steps)
        for name, blocks, args in self.launches:
            if name.split("<")[0] in wrapped:
                L.append("    launch_%s(%s);" % (name.split("<")[0], ", ".join(args)))
            else:
                L.append("    %s<<<%d, %d>>>(%s);" % (name.replace("{f}", t.f), max(blocks, 1),
                                                       THREADS, ", ".join(args)))
        L.append("  }")
        L.append("  cudaError_t err = cudaDeviceSynchronize();")
        L.append("  if (err != cudaSuccess) {")
        L.append('    fprintf(stderr, "CUDA error: %s\\n", cudaGetErrorString(err));')
        L.append("    return 1;")
        L.append("  }")
        for b, count in self.printed:
            L.append("  cudaMemcpy(h_%s, %s, n * sizeof(%s), cudaMemcpyDeviceToHost);"
                     % (host_name(b), b, f))
            L.append("  for (int i = 0; i < %s; i++) printf(\"%%.17g\\n\", (double)h_%s[i]);"
                     % (count, host_name(b)))
        if self.lib_reduce:
            b = self.lib_reduce
            L.append("  %s total = thrust::reduce(thrust::device_ptr<%s>(%s), "
                     "thrust::device_ptr<%s>(%s) + n);" % (f, f, b, f, b))
            L.append("  printf(\"%.17g\\n\", (double)total);")
        for b in bufs + fields:
            L.append("  cudaFree(%s);" % b)
        return L + ["  return 0;", "}"]

    # -- multi_tu: the program in three files, kernels launched through host wrappers --
    def split(self, rng):
        """Which kernels move to dt_S_k.cu behind a host wrapper (launch_NAME, its
        prototype in dt_S.h, its calls in main()), and how the prototypes are spelled.
        A kernel that calls a helper moves (the helpers are defined there, once); the
        others move in three cases out of four; at least one moves."""
        names = [h.name for h in self.helpers + self.g.ref_helpers]
        calls = re.compile(r"\b(%s)\(" % "|".join(names)) if names else None
        t = Types(False)
        for k in self.kernels:
            text = "\n".join(k.lines(t))
            if (calls and calls.search(text)) or rng.random() < 0.75:
                self.moved.append(k.name)
        if not self.moved:
            self.moved.append(rng.choice(self.kernels).name)
        # the prototypes: named as the definition's parameters, other names, or unnamed
        style = rng.choice(["same", "same", "same", "other", "unnamed"])
        for k in self.kernels:
            if k.name in self.moved and style != "same":
                self.proto_names[k.name] = {p: ("" if style == "unnamed" else "d_" + p)
                                            for _, p in k.params}
        self.extern = rng.random() < 0.2  # extern void launch_...(...);
        for name in self.moved:  # a wrapper launches its kernel with one configuration
            assert len({b for n, b, _ in self.launches if n.split("<")[0] == name}) == 1

    def file_names(self, double):
        """(main file, kernel file, header) of a multi_tu program, or (main file,) of a
        single-file one; the reference's are apart (.ref) so that both live in one folder."""
        ref = ".ref" if double else ""
        base = "dt_%d" % self.seed
        if not self.multi:
            return (base + ref + ".cu",)
        return (base + ref + ".cu", base + "_k" + ref + ".cu", base + ref + ".h")

    def inputs(self):
        """What cpconvert converts: the float program's .cu files, main's first."""
        return list(self.file_names(False)[:2])

    def files(self, double):
        """The program as written for its seed: {file name: text}. A single-file program
        is render(double) in dt_S.cu (dt_S.ref.cu); a multi_tu one is three files."""
        names = self.file_names(double)
        if not self.multi:
            return {names[0]: self.render(double)}
        t = Types(double)
        main, kern, header = names
        what = "double reference" if double else "float, annotated"
        feats = " ".join(self.used)
        guard = re.sub(r"\W", "_", header).upper()
        H = ["// difftest program, seed %d (%s): the host wrappers of the kernels in %s; "
             "features: %s" % (self.seed, what, kern, feats),
             "#ifndef " + guard, "#define " + guard, ""]
        H += self.common(t)
        ext = "extern " if self.extern else ""
        for k in self.kernels:
            if k.name in self.moved:
                ps = k.param_list(self.proto_names.get(k.name))
                H.append(Tmpl("%svoid launch_%s(%s);" % (ext, k.name, ps), [], 0).r(t))
        H += ["", "#endif"]
        moved = [k for k in self.kernels if k.name in self.moved]
        kept = [k for k in self.kernels if k.name not in self.moved]
        K = ["// difftest program, seed %d (%s): kernels and their host wrappers; "
             "features: %s" % (self.seed, what, feats)]
        body = []
        for h in self.helpers:
            body += h.lines(t)
        for h in self.g.ref_helpers:
            body += h.lines(t)
        for k in moved:
            body += k.lines(t)
        for k in moved:
            launch = [n for n, _, _ in self.launches if n.split("<")[0] == k.name][0]
            blocks = [b for n, b, _ in self.launches if n == launch][0]
            body.append(Tmpl("void launch_%s(%s) {{" % (k.name, k.param_list()), [], 0).r(t))
            body.append("  %s<<<%d, %d>>>(%s);" % (launch.replace("{f}", t.f), max(blocks, 1),
                                                   THREADS, ", ".join(p for _, p in k.params)))
            body += ["}", ""]
        K += self.cg_include(body) + ['#include "%s"' % header, ""] + body
        M = ["// difftest program, seed %d (%s); features: %s" % (self.seed, what, feats),
             "#include <cstdio>"]
        code = []
        for k in kept:
            code += k.lines(t)
        M += self.cg_include(code)
        if self.lib_reduce:
            M += ["#include <thrust/device_ptr.h>", "#include <thrust/reduce.h>"]
        M += ['#include "%s"' % header, ""] + code + self.host(t, self.moved)
        return {main: "\n".join(M) + "\n", kern: "\n".join(K).rstrip("\n") + "\n",
                header: "\n".join(H) + "\n"}

    def cg_include(self, lines):
        if self.cg and any("cg::" in line for line in lines):
            return ["#include <cooperative_groups.h>", "namespace cg = cooperative_groups;"]
        return []

    def common(self, t):
        """The declarations every part of the program uses: the reference's float4, the
        REAL macros, the mixed_compound constants, the structs of struct_by_value."""
        L = []
        if t.double:
            L += ["struct ref4 { double x, y, z, w; };",
                  "__host__ __device__ inline ref4 make_ref4(double x, double y, double z, "
                  "double w) {",
                  "  ref4 r = {x, y, z, w};", "  return r;", "}", ""]
        if "type_macro" in self.f:
            L.append("#define REAL %s" % t.f)
            if "vector" in self.f or "vector_buffer" in self.f:
                L.append("#define REAL4 %s" % t.v4)
            L.append("")
        if "mixed_compound" in self.f:
            L += ["#define DT %r" % self.g.dt, "#define HALF 0.5",
                  "#define QUARTER %s" % t.lit(0.25), ""]
        if self.structs:
            ty = "REAL" if self.host_real else t.f
            L += ["struct Vec { %s *x; %s *y; };" % (ty, ty),
                  "struct State { Vec r; Vec v; int n; };"]
            if self.structs[0] == "sim":
                L.append("struct Sim { State st; %s dt; };" % ty)
            L.append("")
        return L

    def render(self, double):
        """The program in one file (for a multi_tu program too: files() splits it)."""
        t = Types(double)
        L = ["// difftest program, seed %d (%s); features: %s" % (
                 self.seed, "double reference" if double else "float, annotated",
                 " ".join(self.used)),
             "#include <cstdio>"]
        if self.cg:
            L += ["#include <cooperative_groups.h>", "namespace cg = cooperative_groups;"]
        if self.lib_reduce:
            L += ["#include <thrust/device_ptr.h>", "#include <thrust/reduce.h>"]
        L.append("")
        L += self.common(t)
        for h in self.helpers:
            L += h.lines(t)
        for h in self.g.ref_helpers:
            L += h.lines(t)
        for k in self.kernels:
            L += k.lines(t)
        L += self.host(t)
        return "\n".join(L) + "\n"


def host_name(buf):
    """The host array of a device buffer: h_out0, h_s_r_y for the field s.r.y."""
    return re.sub(r"\W", "_", buf)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("outdir")
    ap.add_argument("--no", action="append", default=[], choices=FEATURES, metavar="FEATURE",
                    help="leave a feature out (repeatable): " + ", ".join(FEATURES))
    args = ap.parse_args()
    prog = Program(args.seed, set(args.no))
    os.makedirs(args.outdir, exist_ok=True)
    for double in (False, True):
        for name, text in prog.files(double).items():
            with open(os.path.join(args.outdir, name), "w") as fh:
                fh.write(text)
    print(("strict " if prog.strict else "lax ") + " ".join(prog.used))


if __name__ == "__main__":
    sys.exit(main())

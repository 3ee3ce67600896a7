#!/usr/bin/env python3
"""The precompiled-header cache, one case per ctest (`cache.CASE`).

The cache may only save time: every case checks that what a run prints, exits with and
writes is byte for byte what a run with --no-cache gives, whatever state the cache is in
(empty, filled, read-only, not creatable, garbage, filled by concurrent runs).

  python3 run_cache.py --tool build/tool/cpconvert --root SOURCE_DIR CASE
"""
import argparse, glob, os, shlex, shutil, subprocess, sys, tempfile

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


class Ctx:
    def __init__(self, tool, root, d):
        self.tool, self.root, self.d = tool, root, d

    def run(self, cache, args, cwd, out=None):
        """Runs the tool with XDG_CACHE_HOME=cache (None: --no-cache); returns what it
        did: exit status, stdout, stderr, and the bytes of `out` (None if not written)."""
        env = dict(os.environ)
        env["HOME"] = self.d  # never the user's cache
        if cache:
            env["XDG_CACHE_HOME"] = cache
        extra = [] if cache else ["--no-cache"]
        if out and os.path.exists(out):
            os.remove(out)
        p = subprocess.run([self.tool] + args + extra, cwd=cwd, env=env, capture_output=True)
        data = open(out, "rb").read() if out and os.path.exists(out) else None
        return p.returncode, p.stdout, p.stderr.replace(b" --no-cache", b""), data

    def pchs(self, cache):
        return sorted(glob.glob(os.path.join(cache, "cpconvert", "*")) +
                      glob.glob(os.path.join(cache, "cpconvert", ".*")))


def same(what, got, want):
    if got != want:
        fail("%s differs from --no-cache:\n got: %r\nwant: %r" % (what, got[:3], want[:3]))


def stamp(path):
    st = os.stat(path)
    return st.st_ino, st.st_mtime_ns, st.st_size


def golden_runs(c, mode, use_pch=True):
    """Every golden input: a cold and a warm run against a fresh cache give what
    --no-cache gives, and the warm runs use the PCH the cold one built, untouched (with
    the built-in prelude, which is not cached: the cache stays empty)."""
    gdir = os.path.join(c.root, "tests", "golden")
    cache = os.path.join(c.d, "cache")
    out = os.path.join(c.d, "out.cu")
    names = sorted(os.path.basename(f)[:-3] for f in glob.glob(os.path.join(gdir, "*.cu"))
                   if not f.endswith(".expected.cu"))
    if len(names) < 20:
        fail("only %d golden inputs found in %s" % (len(names), gdir))
    for name in names:
        flags_file = os.path.join(gdir, name + ".flags")
        flags = shlex.split(open(flags_file).read()) if os.path.exists(flags_file) else []
        args = [name + ".cu", "-o", out] + flags + mode
        plain = c.run(None, args, gdir, out)
        same(name + " (cold)", c.run(cache, args, gdir, out), plain)
        pch = [p for p in c.pchs(cache) if p.endswith(".pch")]
        if use_pch and len(pch) < 1:
            fail(name + ": the cold run left no PCH in the cache")
        if not use_pch and c.pchs(cache):
            fail(name + ": a run with the built-in prelude wrote %s" % c.pchs(cache))
        before = [stamp(p) for p in pch]
        same(name + " (warm)", c.run(cache, args, gdir, out), plain)
        if [stamp(p) for p in pch] != before:
            fail(name + ": the warm run rebuilt or removed the PCH instead of using it")
    print("PASS: %d golden inputs identical cold, warm and with --no-cache%s"
          % (len(names), "" if use_pch else " (prelude: nothing cached)"))


@case
def golden_cuda(c):
    golden_runs(c, [])


@case
def golden_prelude(c):
    golden_runs(c, ["-nocudainc"], use_pch=False)


@case
def multi_file(c):
    """Several inputs in one run share one PCH, and convert as without it."""
    src = os.path.join(c.root, "tests", "multi", "md_code")
    inputs = sorted(os.path.basename(f) for f in glob.glob(os.path.join(src, "*.cu")))
    cache = os.path.join(c.d, "cache")
    results = []
    for cch in (None, cache, cache):
        odir = os.path.join(c.d, "o%d" % len(results))
        r = c.run(cch, inputs + ["--o-dir", odir], src)
        files = {f: open(os.path.join(odir, f), "rb").read() for f in sorted(os.listdir(odir))}
        results.append((r[:3], files))
    same("md_code cold", results[1], results[0])
    same("md_code warm", results[2], results[0])
    pchs = [p for p in c.pchs(cache) if p.endswith(".pch")]
    if len(pchs) != 1:
        fail("expected one PCH for one set of flags, found %s" % pchs)
    print("PASS")


KERNEL = b"""#pragma cp composite
__global__ void scale(float *x, float a) { x[threadIdx.x] *= a; }
"""


def one_kernel(c):
    path = os.path.join(c.d, "k.cu")
    open(path, "wb").write(KERNEL)
    out = os.path.join(c.d, "k_cp.cu")
    return ["k.cu", "-o", out], out, c.run(None, ["k.cu", "-o", out], c.d, out)


@case
def cache_not_creatable(c):
    """A cache directory that cannot be created (under a file, or in /proc, where not
    even root may write) is no error: the run converts as without a cache."""
    args, out, plain = one_kernel(c)
    blocker = os.path.join(c.d, "afile")
    open(blocker, "w").write("x")
    for cache in (os.path.join(blocker, "sub"), "/proc"):
        same("cache " + cache, c.run(cache, args, c.d, out), plain)
    print("PASS")


@case
def cache_read_only(c):
    """A read-only cache directory: an empty one is not written, a filled one is used."""
    args, out, plain = one_kernel(c)
    cache = os.path.join(c.d, "cache")
    same("cold", c.run(cache, args, c.d, out), plain)
    full = os.path.join(cache, "cpconvert")
    empty = os.path.join(c.d, "empty")
    os.makedirs(os.path.join(empty, "cpconvert"))
    for d in (full, os.path.join(empty, "cpconvert")):
        os.chmod(d, 0o555)
    try:
        same("read-only, filled", c.run(cache, args, c.d, out), plain)
        same("read-only, empty", c.run(empty, args, c.d, out), plain)
        if os.geteuid() != 0 and os.listdir(os.path.join(empty, "cpconvert")):
            fail("a run wrote into a read-only cache directory")
    finally:
        for d in (full, os.path.join(empty, "cpconvert")):
            os.chmod(d, 0o755)
    print("PASS")


@case
def cache_corrupted(c):
    """A cached PCH overwritten with garbage, or truncated, is refused by clang: the run
    converts as without it, and the next run builds a good one again."""
    args, out, plain = one_kernel(c)
    cache = os.path.join(c.d, "cache")
    same("cold", c.run(cache, args, c.d, out), plain)
    (pch,) = [p for p in c.pchs(cache) if p.endswith(".pch")]
    good = open(pch, "rb").read()
    for bad in (os.urandom(len(good)), b"CPCH" + os.urandom(4000), good[: len(good) // 2]):
        open(pch, "wb").write(bad)
        same("damaged PCH", c.run(cache, args, c.d, out), plain)
        same("after the damaged PCH", c.run(cache, args, c.d, out), plain)
        if not os.path.exists(pch) or open(pch, "rb").read() == bad:
            fail("the damaged PCH was not rebuilt")
    print("PASS")


@case
def cache_concurrent(c):
    """Runs started together on an empty cache (make -j) all convert correctly, leave
    one whole PCH and no temporary file."""
    args, out, plain = one_kernel(c)
    cache = os.path.join(c.d, "cache")
    env = dict(os.environ, HOME=c.d, XDG_CACHE_HOME=cache)
    procs = [subprocess.Popen([c.tool, "k.cu", "-o", "o%d.cu" % i], cwd=c.d, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i in range(4)]
    for i, p in enumerate(procs):
        so, se = p.communicate()
        data = open(os.path.join(c.d, "o%d.cu" % i), "rb").read()
        same("concurrent run %d" % i, (p.returncode, so, se, data.replace(b"o%d.cu" % i, b"")),
             (plain[0], plain[1], plain[2], plain[3].replace(b"k_cp.cu", b"")))
    left = [p for p in c.pchs(cache) if not p.endswith(".pch.lock")]
    if len(left) != 1 or not left[0].endswith(".pch"):
        fail("expected one PCH and no temporary file in the cache, found %s" % left)
    same("after the concurrent runs", c.run(cache, args, c.d, out), plain)
    print("PASS")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("case", choices=sorted(CASES))
    a = ap.parse_args()
    d = tempfile.mkdtemp(prefix="cpcache-")
    try:
        CASES[a.case](Ctx(os.path.abspath(a.tool), a.root, d))
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()

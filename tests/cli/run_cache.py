#!/usr/bin/env python3
"""The precompiled-header cache, one case per ctest (`cache.CASE`).

The cache may only save time: every case checks that what a run prints, exits with and
writes is byte for byte what a run with --no-cache gives, whatever state the cache is in
(empty, filled, read-only, not creatable, garbage, filled by concurrent runs).

A run that finds no PCH parses plainly and leaves the build to a detached background
process; most cases set CPCONVERT_CACHE_SYNC=1 so that the PCH is there for the next run,
and those named background_* test the background build itself.

  python3 run_cache.py --tool build/tool/cpconvert --root SOURCE_DIR CASE
"""
import argparse, fcntl, glob, json, os, random, shutil, signal, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import golden_flags  # noqa: E402

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


class Ctx:
    def __init__(self, tool, root, d, every=1, first=0):
        self.tool, self.root, self.d, self.every, self.first = tool, root, d, every, first

    def env(self, cache, sync=True):
        env = dict(os.environ)
        env["HOME"] = self.d  # never the user's cache
        env.pop("CPCONVERT_CACHE_SYNC", None)
        if sync:
            env["CPCONVERT_CACHE_SYNC"] = "1"
        if cache:
            env["XDG_CACHE_HOME"] = cache
        return env

    def run(self, cache, args, cwd, out=None, sync=True, timeout=600):
        """Runs the tool with XDG_CACHE_HOME=cache (None: --no-cache), building a
        missing PCH before converting (sync) or in the background; returns what it did:
        exit status, stdout, stderr, and the bytes of `out` (None if not written)."""
        env = self.env(cache, sync)
        if not cache:  # before a `--`, after which everything goes to clang
            k = args.index("--") if "--" in args else len(args)
            args = args[:k] + ["--no-cache"] + args[k:]
        if out and os.path.exists(out):
            os.remove(out)
        try:
            p = subprocess.run([self.tool] + args, cwd=cwd, env=env,
                               capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            fail("%s: no answer after %d s" % (" ".join(args), timeout))
        data = open(out, "rb").read() if out and os.path.exists(out) else None
        return p.returncode, p.stdout, p.stderr.replace(b" --no-cache", b""), data

    def pchs(self, cache, output=False):
        """The cache's files for parsing inputs, or (output) those of the PCH that
        outputs are parsed again with (out-*: the runtime headers included)."""
        return sorted(p for p in glob.glob(os.path.join(cache, "cpconvert", "*")) +
                      glob.glob(os.path.join(cache, "cpconvert", ".*"))
                      if os.path.basename(p).startswith("out-") == output)


def wait_for_pch(c, cache, what, limit=300):
    """The background builder's PCH: waits until one whole PCH is in the cache and no
    temporary file is left (the builder renames its temporary file into place)."""
    t = time.time()
    while time.time() - t < limit:
        left = [p for p in c.pchs(cache) if not p.endswith((".pch.lock", ".pch.info"))]
        if len(left) == 1 and left[0].endswith(".pch"):
            return left[0]
        time.sleep(0.1)
    fail("%s: after %d s the cache holds %s, not one PCH" % (what, limit, c.pchs(cache)))


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
    names = names[c.first :: c.every]  # --every N --first K: the CI builds' shares
    for name in names:
        flags = golden_flags(gdir, name)
        if flags is None:  # an MPI program where no MPI is installed
            continue
        args = [name + ".cu", "-o", out] + mode + flags
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
    """Several inputs in one run share one PCH, and convert as without it. The PCH is
    built before converting (it pays back from the second file on), with or without
    CPCONVERT_CACHE_SYNC."""
    src = os.path.join(c.root, "tests", "multi", "md_code")
    inputs = sorted(os.path.basename(f) for f in glob.glob(os.path.join(src, "*.cu")))
    cache = os.path.join(c.d, "cache")
    results = []
    for cch in (None, cache, cache):
        odir = os.path.join(c.d, "o%d" % len(results))
        r = c.run(cch, inputs + ["--o-dir", odir], src, sync=False)
        if cch and not [p for p in c.pchs(cache) if p.endswith(".pch")]:
            fail("a cold multi-file run converted without building the shared PCH first")
        files = {f: open(os.path.join(odir, f), "rb").read() for f in sorted(os.listdir(odir))}
        results.append((r[:3], files))
    same("md_code cold", results[1], results[0])
    same("md_code warm", results[2], results[0])
    pchs = [p for p in c.pchs(cache) if p.endswith(".pch")]
    if len(pchs) != 1:
        fail("expected one PCH for one set of flags, found %s" % pchs)
    outs = [p for p in c.pchs(cache, output=True) if p.endswith(".pch")]
    if len(outs) != 1:
        fail("expected one PCH for parsing the outputs again, found %s" % outs)
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
        for sync in (True, False):
            same("read-only, filled", c.run(cache, args, c.d, out, sync=sync), plain)
            same("read-only, empty", c.run(empty, args, c.d, out, sync=sync), plain)
            time.sleep(0.5)  # time for a background builder that should not exist
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


def concurrent(c, sync):
    """Runs started together on an empty cache (make -j) all convert correctly, leave
    one whole PCH and no temporary file: built by one of them (sync) or by one
    background builder."""
    args, out, plain = one_kernel(c)
    cache = os.path.join(c.d, "cache-%d" % sync)
    env = c.env(cache, sync)
    procs = [subprocess.Popen([c.tool, "k.cu", "-o", "o%d.cu" % i], cwd=c.d, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i in range(4)]
    for i, p in enumerate(procs):
        so, se = p.communicate(timeout=600)
        data = open(os.path.join(c.d, "o%d.cu" % i), "rb").read()
        same("concurrent run %d" % i, (p.returncode, so, se, data.replace(b"o%d.cu" % i, b"")),
             (plain[0], plain[1], plain[2], plain[3].replace(b"k_cp.cu", b"")))
    if sync:
        left = [p for p in c.pchs(cache) if not p.endswith((".pch.lock", ".pch.info"))]
        if len(left) != 1 or not left[0].endswith(".pch"):
            fail("expected one PCH and no temporary file in the cache, found %s" % left)
    pch = wait_for_pch(c, cache, "concurrent runs")
    before = stamp(pch)
    same("after the concurrent runs", c.run(cache, args, c.d, out, sync=sync), plain)
    if stamp(pch) != before:
        fail("the run after the concurrent ones rebuilt the PCH instead of using it")


@case
def cache_concurrent(c):
    concurrent(c, True)
    print("PASS")


@case
def background_concurrent(c):
    concurrent(c, False)
    print("PASS")


def builders(cache):
    """Background builders still running for `cache`: (pid, session id, stdio targets)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = open("/proc/%s/cmdline" % pid, "rb").read().split(b"\0")
            env = open("/proc/%s/environ" % pid, "rb").read().split(b"\0")
            if b"--internal-pch-builder" not in cmd or \
                    b"XDG_CACHE_HOME=" + cache.encode() not in env:
                continue
            stdio = [os.readlink("/proc/%s/fd/%d" % (pid, fd)) for fd in (0, 1, 2)]
            found.append((int(pid), os.getsid(int(pid)), stdio))
        except OSError:
            pass  # gone meanwhile, or not ours to read
    return found


@case
def background_build(c):
    """Cold, a run converts as --no-cache does; a detached builder (its own session,
    stdio on /dev/null, checked while it is still running) then leaves one whole PCH
    that the next run uses. While another process holds the PCH's lock (building it), a
    cold run neither waits nor builds: it parses plainly."""
    args, out, plain = one_kernel(c)
    cache = os.path.join(c.d, "cache")
    same("cold", c.run(cache, args, c.d, out, sync=False), plain)
    # only while it still runs, so: if found. The builder leads a session of its own; the
    # child it forks to write the PCH (build_apart) stays in that session.
    # During a parse, standard error is a private memory file that holds what libclang
    # prints (parse.c, quiet_parse), then /dev/null again.
    found = builders(cache)
    leaders = {pid for pid, sid, _ in found if sid == pid}
    held = "/memfd:cpconvert-libclang-stderr (deleted)"
    for pid, sid, stdio in found:
        if sid not in leaders or sid == os.getsid(0) or stdio[:2] != ["/dev/null"] * 2 or \
                stdio[2] not in ("/dev/null", held):
            fail("builder %d: session %d, stdio %s" % (pid, sid, stdio))
    pch = wait_for_pch(c, cache, "the background build")
    before = stamp(pch)
    same("warm", c.run(cache, args, c.d, out, sync=False), plain)
    if stamp(pch) != before:
        fail("the warm run rebuilt the PCH instead of using it")
    os.remove(pch)
    with open(pch + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another process building it
        same("cold, lock held", c.run(cache, args, c.d, out, sync=False), plain)
        time.sleep(0.5)  # time for a builder that should not have been started
        if os.path.exists(pch) or builders(cache):
            fail("a run built the PCH while another process held its lock")
    print("PASS")


def cached(c, cache, output=False):
    """The whole PCHs in the cache (each with its record, PCH.info)."""
    return [p for p in c.pchs(cache, output) if p.endswith(".pch")]


@case
def cache_bit_flips(c):
    """A PCH damaged in the cache (one bit flipped anywhere, a few bytes changed,
    truncated, its record damaged or missing) is found before clang reads it (clang
    trusts a PCH: a flipped bit made it crash, or print its crash dump and exit 0): every
    run gives what --no-cache gives, the same messages included, and the damaged PCH is
    replaced by a whole one. Both PCHs, the input's and the outputs' (verify), are hit."""
    args, out, plain = one_kernel(c)
    cache = os.path.join(c.d, "cache")
    same("cold", c.run(cache, args, c.d, out), plain)
    (pch,), (opch,) = cached(c, cache), cached(c, cache, output=True)
    good = {p: open(p, "rb").read() for p in (pch, opch)}
    rng = random.Random(18)
    damage = []
    for k in range(24):  # spread over the whole file, header to end
        damage.append(("bit flip %d" % k, lambda d, k=k: flip(d, (len(d) - 1) * k // 23, rng)))
    damage += [("16 bytes changed", lambda d: d[:4000000] + bytes(16) + d[4000016:]),
               ("truncated", lambda d: d[:len(d) - 4096]), ("empty", lambda d: b"")]
    for i, (what, hurt) in enumerate(damage):
        target = (pch, opch)[i % 2]
        data = good[target]
        open(target, "wb").write(hurt(data))
        same(what + " in " + os.path.basename(target), c.run(cache, args, c.d, out), plain)
        if not os.path.exists(target) or open(target, "rb").read() != data:
            fail(what + ": the damaged PCH was not replaced by a whole one")
    record = open(pch + ".info", "rb").read()
    for what, info in (("record missing", None), ("record damaged", b"cpconvert pch 1\nsize 1\n")):
        if info is None:
            os.remove(pch + ".info")
        else:
            open(pch + ".info", "wb").write(info)
        same(what, c.run(cache, args, c.d, out), plain)
        if open(pch + ".info", "rb").read() != record:
            fail(what + ": the PCH was not built again with its record")
    print("PASS: %d kinds of damage found before clang read the PCH" % (len(damage) + 2))


def flip(data, offset, rng):
    d = bytearray(data)
    d[offset] ^= 1 << rng.randrange(8)
    return bytes(d)


def two_projects(c):
    """Two directories with the same k.cu and a cfg.h of their own: REAL is float in
    one, double in the other."""
    dirs = []
    for name, real in (("p1", "float"), ("p2", "double")):
        d = os.path.join(c.d, name)
        os.makedirs(d)
        open(os.path.join(d, "cfg.h"), "w").write("#define REAL %s\n" % real)
        open(os.path.join(d, "k.cu"), "w").write(
            "#pragma cp composite\n__global__ void scale(REAL *x, REAL a) { x[threadIdx.x] *= a; }\n")
        dirs.append(d)
    return dirs


@case
def cache_working_directory(c):
    """A relative path in the flags names another file from another directory: two
    projects that force-include their own cfg.h (`-- -include cfg.h`, or -I.) use
    PCHs of their own, and convert as with --no-cache (the first project's PCH made the
    second convert the wrong precision)."""
    cache = os.path.join(c.d, "cache")
    for flags in (["--", "-include", "cfg.h"], ["-I.", "--", "-include", "cfg.h"]):
        for d in two_projects(c):
            args = ["k.cu", "-o", "o.cu"] + flags
            out = os.path.join(d, "o.cu")
            plain = c.run(None, args, d, out)
            same(d + " cold", c.run(cache, args, d, out), plain)
            same(d + " warm", c.run(cache, args, d, out), plain)
        if b"cp_dd_" not in plain[3]:
            fail("the double project was not converted to cp_double")
        shutil.rmtree(os.path.join(c.d, "p1"))
        shutil.rmtree(os.path.join(c.d, "p2"))
    print("PASS")


@case
def cache_force_included_code(c):
    """A force-included header with code the conversion must see (a device helper the
    kernel calls, a __constant__ it reads): the PCH then holds a user header, whose
    declarations stay in the rewriter's walks (the index leaves only a PCH of system
    headers out of them), so cold and warm runs convert as --no-cache does."""
    cache = os.path.join(c.d, "cache")
    d = os.path.join(c.d, "forced")
    os.makedirs(d)
    open(os.path.join(d, "md.h"), "w").write(
        "__constant__ float c_shift;\n"
        "__device__ inline float twice(float v) { return 2.0f * v + 0.1f; }\n")
    open(os.path.join(d, "k.cu"), "w").write(
        "#pragma cp composite\n__global__ void scale(float *y, float s) {\n"
        "  int i = threadIdx.x;\n  y[i] += twice(s * y[i]) + c_shift;\n}\n")
    args = ["k.cu", "-o", "o.cu", "--", "-include", "md.h"]
    out = os.path.join(d, "o.cu")
    plain = c.run(None, args, d, out)
    same("cold", c.run(cache, args, d, out), plain)
    same("warm", c.run(cache, args, d, out), plain)
    if plain[0] != 0 or b"twice" not in plain[2]:
        fail("the helper in the force-included header was not seen: %r" % (plain[:3],))
    # a diagnostic located in a header the PCH holds (the kernel's prototype, in a header
    # the force-included one includes) names it as written, as without the cache (the
    # PCH records absolute paths: it said /.../forced/inc/decl.h:1:17)
    os.makedirs(os.path.join(d, "inc"))
    open(os.path.join(d, "proto.h"), "w").write('#include "inc/decl.h"\n')
    open(os.path.join(d, "inc", "decl.h"), "w").write(
        "__global__ void scale(float *y, float s);\n")
    args = ["k.cu", "-o", "o.cu", "--", "-include", "md.h", "-include", "proto.h"]
    plain = c.run(None, args, d, out)
    if plain[0] != 1 or b"\ninc/decl.h:1:17: error: 'scale'" not in plain[2]:
        fail("no error located in the force-included prototype: %r" % (plain[:3],))
    same("cold, a diagnostic in a header", c.run(cache, args, d, out), plain)
    same("warm, a diagnostic in a header", c.run(cache, args, d, out), plain)
    # a template of the force-included header that its own code instantiates, whose call
    # finds a better overload declared only in the file (argument-dependent lookup at the
    # end of the file): the PCH does not instantiate it at its own end (the PCH of system
    # headers alone does, -fpch-instantiate-templates), so cached runs convert as plain ones
    open(os.path.join(d, "adl.h"), "w").write(
        "namespace ns { struct V { float x; }; }\n"
        "template <class U> __host__ __device__ float pick(U u) { return 1.0f; }\n"
        "template <class T> __host__ __device__ float scaled(T t) { return pick(t) * 2.0f; }\n"
        "inline float warm_up() { return scaled(ns::V{3.0f}); }\n")
    open(os.path.join(d, "a.cu"), "w").write(
        "namespace ns { __host__ __device__ inline float pick(V v) { return v.x * 0.5f; } }\n"
        "#pragma cp composite\n__global__ void scale(float *y, float s) {\n"
        "  int i = threadIdx.x;\n  y[i] += s * scaled(ns::V{y[i]});\n}\n")
    args = ["a.cu", "-o", "o.cu", "--", "-include", "adl.h"]
    plain = c.run(None, args, d, out)
    if plain[0] != 0:
        fail("the template case did not convert: %r" % (plain[:3],))
    same("cold, a template", c.run(cache, args, d, out), plain)
    same("warm, a template", c.run(cache, args, d, out), plain)
    print("PASS")


@case
def cache_depfile(c):
    """-MD with a PCH lists what the PCH holds, a force-included header (and what it
    includes) among it, as without the cache: a parse on top of the PCH does not see
    those included."""
    (d, _) = two_projects(c)
    open(os.path.join(d, "cfg.h"), "a").write('#include "more.h"\n')
    open(os.path.join(d, "more.h"), "w").write("#define MORE 1\n")
    cache = os.path.join(c.d, "cache")
    args = ["k.cu", "-o", "o.cu", "-MD", "--", "-include", "cfg.h"]
    dep = os.path.join(d, "o.d")

    def run(cch):
        r = c.run(cch, args, d, os.path.join(d, "o.cu"))
        return r + (open(dep, "rb").read(),)
    plain = run(None)
    if b"cfg.h" not in plain[4] or b"more.h" not in plain[4]:
        fail("the plain run's dependency file lacks the force-included headers: %r" % plain[4])
    same("cold", run(cache), plain)
    same("warm", run(cache), plain)
    print("PASS")


@case
def background_flags(c):
    """The background builder builds the PCH of the run's own flags (-D, -I, flags after
    `--`, -p's), so the run after it is warm: it finds that PCH and builds no other."""
    args, out, plain = one_kernel(c)
    os.makedirs(os.path.join(c.d, "inc"))
    json.dump([{"directory": c.d, "file": "k.cu",
                "command": "nvcc -DFROM_DB=1 -Iinc -c k.cu -o k.o"}],
              open(os.path.join(c.d, "compile_commands.json"), "w"))
    for i, flags in enumerate((["-DMY_N=4", "-Iinc", "-UX"], ["--", "-DAFTER=1"], ["-p", "."])):
        cache = os.path.join(c.d, "cache%d" % i)
        want = c.run(None, args + flags, c.d, out)
        same("cold %s" % flags, c.run(cache, args + flags, c.d, out, sync=False), want)
        pch = wait_for_pch(c, cache, "the background build for %s" % flags)
        before = stamp(pch)
        same("warm %s" % flags, c.run(cache, args + flags, c.d, out), want)  # sync: builds if missing
        if cached(c, cache) != [pch] or stamp(pch) != before:
            fail("%s: the warm run did not use the builder's PCH: %s" % (flags, cached(c, cache)))
    print("PASS")


def stopped_builder(c, env, cache):
    """A background builder for k.cu, stopped while it holds its lock, before its PCH is
    there: (the process, its lock file)."""
    for attempt in range(5):
        builder = subprocess.Popen([c.tool, "--internal-pch-builder", "k.cu", "-o", "x.cu"],
                                   cwd=c.d, env=env)
        t, lock = time.time(), None
        while time.time() - t < 60 and lock is None and builder.poll() is None:
            for p in glob.glob(os.path.join(cache, "cpconvert", "pch-*.pch.lock")):
                with open(p) as f:
                    try:
                        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    except BlockingIOError:
                        lock = p
        if lock:
            builder.send_signal(signal.SIGSTOP)
            if not os.path.exists(lock[:-len(".lock")]):
                return builder, lock
            builder.send_signal(signal.SIGCONT)
        builder.wait()
        shutil.rmtree(cache)
    fail("could not stop a builder while it held its lock")


@case
def lock_stopped_builder(c):
    """A builder stopped (SIGSTOP, Ctrl-Z) while it holds the lock does not make the runs
    that wait for its PCH wait: they parse without it. Nor does a holder that never lets go
    make them wait more than 20 s."""
    args, out, plain = one_kernel(c)
    cache = os.path.join(c.d, "cache")
    env = c.env(cache, sync=False)
    builder, lock = stopped_builder(c, env, cache)
    try:
        t = time.time()
        same("lock held by a stopped builder", c.run(cache, args, c.d, out, timeout=60), plain)
        if time.time() - t > 15:
            fail("the run waited %.0f s for a stopped builder" % (time.time() - t))
    finally:
        builder.send_signal(signal.SIGCONT)
        builder.wait()
    os.remove(lock[:-len(".lock")])
    with open(lock, "w") as held:  # a holder that is not stopped and never lets go
        fcntl.flock(held, fcntl.LOCK_EX)
        t = time.time()
        same("lock never released", c.run(cache, args, c.d, out, timeout=120), plain)
        if not 19 < time.time() - t < 60:
            fail("the run waited %.0f s for the lock, not 20 s" % (time.time() - t))
    print("PASS")


@case
def cache_sweep(c):
    """The temporary files of interrupted builds are swept by the next build: every one of
    that PCH at once (its lock is held: nobody else builds it), another PCH's when an hour
    old (its builder may still be at work)."""
    args, out, plain = one_kernel(c)
    cache = os.path.join(c.d, "cache")
    same("cold", c.run(cache, args, c.d, out), plain)
    (pch,) = cached(c, cache)
    d, base = os.path.split(pch)
    own = [os.path.join(d, "." + base + "-Ab12Cd"), os.path.join(d, "." + base + ".info-x1y2z3")]
    old = os.path.join(d, ".pch-0123456789abcdef.pch-OLD123")
    young = os.path.join(d, ".out-0123456789abcdef.pch-NEW123")
    for p in own + [old, young]:
        open(p, "wb").write(b"partial")
    os.utime(old, (time.time() - 7200, time.time() - 7200))
    os.remove(pch)
    same("rebuild", c.run(cache, args, c.d, out), plain)
    left = [p for p in own + [old] if os.path.exists(p)]
    if left or not os.path.exists(young):
        fail("after the sweep: left %s, young one %s" % (left, os.path.exists(young)))
    print("PASS")


@case
def cache_trim(c):
    """The cache keeps within CPCONVERT_CACHE_MAX: a build removes the least recently used
    PCHs (with their records and locks) until it does, never one used in the last ten
    minutes; a use stamps a PCH's record. Five stale entries of 300 000 bytes each, two
    and more hours old, beside the real PCHs of k.cu."""
    args, out, plain = one_kernel(c)
    cache = os.path.join(c.d, "cache")
    same("cold", c.run(cache, args, c.d, out), plain)
    real = cached(c, cache) + cached(c, cache, True)
    if len(real) != 2:
        fail("expected the input's and the outputs' PCH, got %s" % real)
    size = sum(os.path.getsize(p) + os.path.getsize(p + ".info") for p in real)
    # a warm run stamps the records it uses
    old = time.time() - 3 * 3600
    for p in real:
        os.utime(p + ".info", (old, old))
    same("warm", c.run(cache, args, c.d, out), plain)
    if any(os.path.getmtime(p + ".info") < time.time() - 600 for p in real):
        fail("a warm run did not stamp the records of the PCHs it used")
    d = os.path.dirname(real[0])
    stale = []
    for k in range(5):  # k = 0 the oldest
        p = os.path.join(d, "pch-%016x.pch" % (k + 1))
        open(p, "wb").write(b"x" * 299950)
        open(p + ".info", "w").write("cpconvert pch 1\nsize 299950\nsum 0\n")
        open(p + ".lock", "w").write("1\n")
        t = time.time() - (10 - k) * 3600
        os.utime(p + ".info", (t, t))
        stale.append(p)
    entry = 299950 + os.path.getsize(stale[0] + ".info")
    for p in real:  # the next run builds both again
        os.remove(p)
    env_max = size + 2 * entry + entry // 2
    os.environ.update(CPCONVERT_CACHE_MAX=str(env_max))
    try:
        same("rebuild", c.run(cache, args, c.d, out), plain)
    finally:
        del os.environ["CPCONVERT_CACHE_MAX"]
    kept = [os.path.exists(p) for p in stale]
    if kept != [False, False, False, True, True]:
        fail("with room for two stale entries, kept %s (oldest first)" % kept)
    if any(os.path.exists(p + s) for p in stale[:3] for s in (".info", ".lock")):
        fail("a removed PCH left its record or lock")
    if not all(os.path.exists(p) for p in real):
        fail("a PCH just built or used was removed")
    total = sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
    if total > env_max + 4096:
        fail("the cache holds %d bytes, the bound is %d" % (total, env_max))
    # a bound below what the last ten minutes used: the stale entries go, the recent stay
    os.environ.update(CPCONVERT_CACHE_MAX="1K")
    try:
        for p in real:
            os.remove(p)
        same("rebuild, 1K", c.run(cache, args, c.d, out), plain)
    finally:
        del os.environ["CPCONVERT_CACHE_MAX"]
    if any(os.path.exists(p) for p in stale) or not all(os.path.exists(p) for p in real):
        fail("with a 1K bound: stale %s, recent %s" % (
            [os.path.exists(p) for p in stale], [os.path.exists(p) for p in real]))
    print("PASS")


def damage(rng, data):
    """One random damage to a file's bytes: bit flips, a truncation, or a run of random
    bytes written over it."""
    kind = rng.randrange(3)
    if kind == 0:
        d = bytearray(data)
        for _ in range(rng.randrange(1, 9)):
            d[rng.randrange(len(d))] ^= 1 << rng.randrange(8)
        return bytes(d), "bit flips"
    if kind == 1:
        return data[:rng.randrange(len(data))], "truncation"
    off, k = rng.randrange(len(data)), rng.randrange(1, 4097)
    return data[:off] + bytes(rng.randrange(256) for _ in range(k)) + data[off + k:], "overwrite"


@case
def fuzz_pch(c):
    """Random damage to a real PCH (the input's or the outputs') or to its record, for
    CPCONVERT_FUZZ_SECONDS (20 here; `scripts/fuzz.sh --cache` runs it for 30 minutes):
    every run must give exactly what --no-cache gives, so no crash, no crash dump, no
    other output. A damaged PCH that gets through is kept in CPCONVERT_FUZZ_ARTIFACTS."""
    seconds = float(os.environ.get("CPCONVERT_FUZZ_SECONDS", "20"))
    seed = int(os.environ.get("CPCONVERT_FUZZ_SEED", str(int(time.time()))))
    rng = random.Random(seed)
    args, out, plain = one_kernel(c)
    cache = os.path.join(c.d, "cache")
    same("cold", c.run(cache, args, c.d, out), plain)
    (pch,), (opch,) = cached(c, cache), cached(c, cache, output=True)
    good = {}
    for p in (pch, opch, pch + ".info", opch + ".info"):
        if os.path.exists(p):  # (a cpconvert before the records: the PCHs only)
            good[p] = open(p, "rb").read()
    t0, runs = time.time(), 0
    while time.time() - t0 < seconds:
        target = rng.choice(sorted(good))
        for p, data in good.items():
            open(p, "wb").write(data)
        bad, kind = damage(rng, good[target])
        open(target, "wb").write(bad)
        got = c.run(cache, args, c.d, out)
        runs += 1
        if got != plain:
            keep = os.environ.get("CPCONVERT_FUZZ_ARTIFACTS")
            if keep:
                os.makedirs(keep, exist_ok=True)
                open(os.path.join(keep, "damaged-%d-%s" % (seed, os.path.basename(target))),
                     "wb").write(bad)
            same("%s of %s (seed %d, run %d)" % (kind, os.path.basename(target), seed, runs),
                 got, plain)
    print("PASS: %d runs on a damaged PCH or record in %.0f s (seed %d), all as --no-cache"
          % (runs, time.time() - t0, seed))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--every", type=int, default=1,
                    help="golden cases: every Nth golden input only (sorted by name)")
    ap.add_argument("--first", type=int, default=0,
                    help="golden cases: start at the Kth golden input (0-based; with --every)")
    ap.add_argument("case", choices=sorted(CASES))
    a = ap.parse_args()
    d = tempfile.mkdtemp(prefix="cpcache-")
    try:
        CASES[a.case](Ctx(os.path.abspath(a.tool), a.root, d, max(1, a.every), max(0, a.first)))
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()

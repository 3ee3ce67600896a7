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
import argparse, fcntl, glob, os, shlex, shutil, subprocess, sys, tempfile, time

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

    def env(self, cache, sync=True):
        env = dict(os.environ)
        env["HOME"] = self.d  # never the user's cache
        env.pop("CPCONVERT_CACHE_SYNC", None)
        if sync:
            env["CPCONVERT_CACHE_SYNC"] = "1"
        if cache:
            env["XDG_CACHE_HOME"] = cache
        return env

    def run(self, cache, args, cwd, out=None, sync=True):
        """Runs the tool with XDG_CACHE_HOME=cache (None: --no-cache), building a
        missing PCH before converting (sync) or in the background; returns what it did:
        exit status, stdout, stderr, and the bytes of `out` (None if not written)."""
        env = self.env(cache, sync)
        extra = [] if cache else ["--no-cache"]
        if out and os.path.exists(out):
            os.remove(out)
        p = subprocess.run([self.tool] + extra + args, cwd=cwd, env=env, capture_output=True,
                           timeout=600)  # first: args may end with `-- clang flags`
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
        left = [p for p in c.pchs(cache) if not p.endswith(".pch.lock")]
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
    for name in names:
        flags_file = os.path.join(gdir, name + ".flags")
        flags = shlex.split(open(flags_file).read()) if os.path.exists(flags_file) else []
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
        left = [p for p in c.pchs(cache) if not p.endswith(".pch.lock")]
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
    for pid, sid, stdio in builders(cache):  # only while it still runs, so: if found
        if sid != pid or stdio != ["/dev/null"] * 3:
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

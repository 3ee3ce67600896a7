#!/usr/bin/env python3
"""The cpconvert-tune tests, on the stand-in project in project/ (md.cu, whose annotation the
fake build fakebuild.py turns into a program whose numbers and run time are known: its
docstring has the table). One ctest `tune.CASE` per case:

  run_tune.py --tool tool/cpconvert-tune --docs docs --work DIR CASE
"""
import argparse, hashlib, json, os, shlex, shutil, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
PY = shlex.quote(sys.executable)
BUILD = ["--build", PY + " fakebuild.py", "--float-build", PY + " fakebuild.py --float",
         "--run", "sh prog.sh", "--repeat", "1"]
TIMED = BUILD[:-1] + ["2"]  # where the result depends on the times: the best of two runs
CASES = {}

# What the search finds with the profile (fakebuild.py's table): keep(tmp) costs nothing,
# keep(fy) or keep(fz) alone keeps 90% of the gain but not both, keep(r2) does not build,
# keep(ax), forces' and energy's scope(accumulators) lose accuracy, update's does not.
EXPECTED_DIFF = """--- a/md.cu
+++ b/md.cu
@@ -3,7 +3,7 @@
 // on them as fakebuild.py says.
 #include <cuda_runtime.h>
 
-#pragma cp composite accumulate(composite) // the pair forces
+#pragma cp composite accumulate(composite) keep(tmp, fy) // the pair forces
 __global__ void forces(const float *x, float *f, int n) {
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   float ax = 0, tmp = 0, fy = 0, fz = 0, r2 = 0;
@@ -30,8 +30,8 @@
   }
 }
 
-#pragma cp composite scope(all) \\
-    accumulate(composite)
+#pragma cp composite scope(accumulators) accumulate(composite)
+
 __device__ __forceinline__ void
 update(float *v, const float *f, float dt, int n) {
   for (int i = 0; i < n; i++) v[i] += dt * f[i];
"""
# Without a profile only the scopes are tried: update's is the one that keeps the gain.
EXPECTED_SCOPE_DIFF = "--- a/md.cu\n+++ b/md.cu\n" + EXPECTED_DIFF[EXPECTED_DIFF.index("@@ -30"):]


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def expect(cond, msg):
    if not cond:
        fail(msg)


class Ctx:
    def __init__(self, tool, docs, work):
        self.tool, self.docs, self.work = tool, docs, work

    def project(self, name="proj"):
        """A fresh copy of the stand-in project, with a build folder and a .git the copies skip."""
        root = os.path.join(self.work, name)
        if os.path.exists(root):
            shutil.rmtree(root)
        shutil.copytree(os.path.join(HERE, "project"), root)
        for d in ("build", "build-release", ".git"):
            os.makedirs(os.path.join(root, d))
            with open(os.path.join(root, d, "big.o"), "w") as f:
                f.write("not to be copied\n")
        return root

    def run(self, args, cwd, timeout=120):
        p = subprocess.run([sys.executable, self.tool] + args, cwd=cwd, capture_output=True,
                           text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr


def hashes(root, skip=("cpconvert-tune-work", "cpconvert-tune-out", "split", "out")):
    """sha256 of every file under root but the tuner's folders: the user's files."""
    out = {}
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not (d == root and x in skip)]
        for f in files:
            p = os.path.join(d, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, root)] = hashlib.sha256(fh.read()).hexdigest()
    return out


def expect_exit(r, code, what):
    if r[0] != code:
        print("--- stdout\n" + r[1] + "--- stderr\n" + r[2])
        fail("%s: exit %d, expected %d" % (what, r[0], code))


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def check_result(out, diff, annotation):
    expect(read(os.path.join(out, "result.diff")) == diff,
           "result.diff differs:\n" + read(os.path.join(out, "result.diff")))
    data = json.loads(read(os.path.join(out, "result.json")))
    expect(data["annotation"] == annotation, "result.json annotation %s" % data["annotation"])
    expect(data["diff"] == diff, "result.json's diff is not result.diff")
    md = read(os.path.join(out, "result.md"))
    expect("| variant | annotation | time (s) | time/float | time/composite | distance" in md,
           "result.md has no table:\n" + md)
    return data


@case
def plain(c):
    """The expected annotation and diff, failing builds skipped, the user's files untouched."""
    root = c.project()
    before = hashes(root)
    r = c.run(TIMED + ["--profile", "cp_profile.json", "md.cu"], root)
    expect_exit(r, 0, "plain search")
    out = os.path.join(root, "cpconvert-tune-out")
    data = check_result(out, EXPECTED_DIFF, ["forces: keep(tmp)", "forces: keep(fy)",
                                             "update: scope(accumulators)"])
    expect(hashes(root) == before, "the user's files changed")
    rows = {v["variant"]: v for v in data["variants"]}
    for name in ("all", "keep-forces-r2"):
        expect(rows[name]["failed"] and rows[name]["failed"].startswith("build: "),
               "%s should have failed to build: %s" % (name, rows[name]))
    expect(os.path.exists(os.path.join(out, "logs", "keep-forces-r2.log")) and "keep(r2)" in
           read(os.path.join(out, "logs", "keep-forces-r2.log")), "the failed build's log")
    for name in ("keep-forces-ax", "scope-forces", "scope-energy", "union"):
        expect(rows[name]["pass"] is False and not rows[name]["failed"], "%s should fail" % name)
    expect(rows["float"]["time_float"] == 1 and rows["reference"]["time_composite"] == 1,
           "the ratios' bases")
    work = os.path.join(root, "cpconvert-tune-work", "reference")
    expect(os.path.exists(os.path.join(work, "md.cu")), "no copy of the project")
    for skipped in ("build", "build-release", ".git", "cpconvert-tune-work", "cpconvert-tune-out"):
        expect(not os.path.exists(os.path.join(work, skipped)), "%s was copied" % skipped)
    expect(EXPECTED_DIFF in r[1] and "| **union-2** |" in r[1], "stdout: table and diff")
    for line in ("reference ", "keep-forces-tmp ", "union-2 "):
        expect(line in r[2], "no progress line for %s:\n%s" % (line, r[2]))


@case
def split(c):
    """--prepare / --run-prepared, round by round, reach the plain search's result; --prepare
    builds without running, --run-prepared runs without building."""
    root = c.project()
    before = hashes(root)
    state = os.path.join(root, "split")
    args = TIMED + ["--profile", "cp_profile.json", "--out", "out", "md.cu"]
    r = c.run(args + ["--prepare", "split"], root)
    expect_exit(r, 0, "first --prepare")
    expect(os.path.exists(os.path.join(state, "reference", "prog.sh")), "reference not built")
    expect(read(os.path.join(state, "reference", "cp_profile.json")) ==
           read(os.path.join(root, "cp_profile.json")), "--prepare ran the program")
    expect("--run-prepared" in r[2], "--prepare does not say what comes next")
    rounds = 0
    while not os.path.exists(os.path.join(root, "out", "result.diff")):
        rounds += 1
        expect(rounds < 10, "the split search does not end")
        r = c.run(["--run-prepared", state], os.path.join(root, ".."))  # another folder
        expect_exit(r, 0, "--run-prepared")
        st = json.loads(read(os.path.join(state, "state.json")))
        expect(not [n for n, v in st["variants"].items() if v["status"] == "built"],
               "--run-prepared left built variants")
        if rounds == 1:  # --report mid-search: the best so far, said so, nothing built or run
            r = c.run(["--report", state], root)
            expect_exit(r, 0, "--report")
            res = read(os.path.join(root, "out", "result.md"))
            expect("The search is not over" in res, "--report mid-search does not say so")
            left = json.loads(read(os.path.join(state, "state.json")))
            expect(not [n for n, v in left["variants"].items() if v["status"] == "built"],
                   "--report built a variant")
            os.remove(os.path.join(root, "out", "result.diff"))
        r = c.run(["--prepare", "split"], root)
        expect_exit(r, 0, "--prepare (round %d)" % rounds)
    expect(rounds == 4, "%d rounds, expected 4 (base with singles, union, prefixes, union)" % rounds)
    check_result(os.path.join(root, "out"), EXPECTED_DIFF,
                 ["forces: keep(tmp)", "forces: keep(fy)", "update: scope(accumulators)"])
    expect(hashes(root) == before, "the user's files changed")
    r = c.run(["--run-prepared", state], root)
    expect_exit(r, 0, "--run-prepared after the end")


@case
def no_profile(c):
    """Without --profile only scope(accumulators) is tried; no union when one single passes."""
    root = c.project()
    r = c.run(BUILD + ["--workdir", os.path.join(c.work, "w"), "--out", "o", "md.cu"], root)
    expect_exit(r, 0, "search without a profile")
    data = check_result(os.path.join(root, "o"), EXPECTED_SCOPE_DIFF,
                        ["update: scope(accumulators)"])
    names = [v["variant"] for v in data["variants"]]
    expect(names == ["reference", "float", "all", "scope-forces", "scope-energy", "scope-update"],
           "variants %s" % names)


@case
def metric_and_timeout(c):
    """--metric's numbers are compared; a variant printing another count of numbers, and one
    that runs past --timeout, fail and the search goes on."""
    root = c.project()
    metric = "cat out.txt; [ $CPCONVERT_TUNE_VARIANT != scope-energy ] || echo 7"
    run = "sh prog.sh > out.txt; [ $CPCONVERT_TUNE_VARIANT != scope-forces ] || sleep 30"
    args = ["--build", PY + " fakebuild.py", "--float-build", PY + " fakebuild.py --float",
            "--run", run, "--metric", metric, "--timeout", "3", "--repeat", "2", "md.cu"]
    r = c.run(args, root)
    expect_exit(r, 0, "search with --metric and --timeout")
    data = check_result(os.path.join(root, "cpconvert-tune-out"), EXPECTED_SCOPE_DIFF,
                        ["update: scope(accumulators)"])
    rows = {v["variant"]: v for v in data["variants"]}
    expect(rows["scope-energy"]["failed"] == "prints 6 numbers, the reference 5",
           "count mismatch: %s" % rows["scope-energy"])
    expect("timed out after 3 s" in (rows["scope-forces"]["failed"] or ""),
           "timeout: %s" % rows["scope-forces"])


@case
def profile_values(c):
    """--profile-values compares the recombined values of each run's cp_profile.json (the run
    prints nothing here)."""
    root = c.project()
    args = BUILD[:4] + ["--run", "sh prog.sh > /dev/null", "--repeat", "1",
                        "--profile-values", "md.cu"]
    r = c.run(args, root)
    expect_exit(r, 0, "search on the profiles' values")
    check_result(os.path.join(root, "cpconvert-tune-out"), EXPECTED_SCOPE_DIFF,
                 ["update: scope(accumulators)"])


@case
def base_fails(c):
    """Exit 1, naming the command and showing its log, when the reference or float fails."""
    root = c.project()
    r = c.run(["--build", "echo converting; exit 3", "--float-build", "true", "--run", "true",
               "md.cu"], root)
    expect_exit(r, 1, "failing reference build")
    expect("the all-composite reference failed: build: `echo converting; exit 3` exited with "
           "status 3" in r[2] and "converting" in r[2], "message:\n" + r[2])
    r = c.run(BUILD[:2] + ["--float-build", "true", "--run", "sh prog.sh",
                           "--float-run", "echo no program >&2; false", "md.cu"], root)
    expect_exit(r, 1, "failing float run")
    expect("the float build failed: run: `echo no program >&2; false` exited with status 1"
           in r[2] and "no program" in r[2], "message:\n" + r[2])
    r = c.run(BUILD[:4] + ["--run", "echo no numbers", "md.cu"], root)
    expect_exit(r, 1, "a reference that prints no number")
    expect("prints no numbers" in r[2], "message:\n" + r[2])


@case
def usage(c):
    """Exit 2, nothing created, for bad command lines and inputs."""
    root = c.project()
    with open(os.path.join(root, "plain.cu"), "w") as f:
        f.write("__global__ void k(float *x) {}\n")
    with open(os.path.join(root, "orphan.cu"), "w") as f:
        f.write("#pragma cp composite\nint x;\n")
    with open(os.path.join(root, "bad.json"), "w") as f:
        f.write('{"format": "other"}\n')
    bad = [
        (BUILD[2:] + ["md.cu"], "missing --build"),
        (BUILD, "no SOURCE.cu given"),
        (BUILD + ["--frobnicate", "md.cu"], "unrecognized arguments"),
        (BUILD + ["--keep-gain", "-1", "md.cu"], "--keep-gain"),
        (BUILD + ["--repeat", "0", "md.cu"], "--repeat"),
        (BUILD + ["--timeout", "0", "md.cu"], "--timeout"),
        (BUILD + ["missing.cu"], "missing.cu: no such file"),
        (BUILD + ["plain.cu"], "plain.cu: no #pragma cp composite"),
        (BUILD + ["orphan.cu"], "orphan.cu:1: no function definition follows"),
        (BUILD + ["--profile", "bad.json", "md.cu"], "not a cp_profile file"),
        (BUILD + ["--profile", "none.json", "md.cu"], "--profile none.json"),
        (BUILD + ["--prepare", "d", "--workdir", "w", "md.cu"], "--workdir is not taken"),
        (BUILD + ["--prepare", "d", "--run-prepared", "d", "md.cu"], "not allowed with"),
        (["--run-prepared", "nowhere"], "cannot read"),
        (BUILD + ["--workdir", "..", "md.cu"], "holds the project"),
        (BUILD + [os.path.join(HERE, "run_tune.py")], "not inside the project"),
    ]
    before = sorted(os.listdir(root))
    for args, msg in bad:
        r = c.run(args, root)
        expect_exit(r, 2, " ".join(args))
        expect(msg in r[2] and "usage: cpconvert-tune" in r[2],
               "%s: message should say %r:\n%s" % (" ".join(args), msg, r[2]))
        expect(sorted(os.listdir(root)) == before, "%s created files" % " ".join(args))


@case
def docs(c):
    """Every option of --help is in the man page, docs/profile.md and docs/reference.md."""
    import re
    r = c.run(["--help"], c.work)
    expect_exit(r, 0, "--help")
    options = sorted(set(re.findall(r"(?<![\w-])(--[a-z][-a-z]*)", r[1])) - {"--help"})
    expect(len(options) >= 15, "too few options in --help: %s" % options)
    for name in ("cpconvert-tune.1", "profile.md", "reference.md"):
        text = read(os.path.join(c.docs, name)).replace("\\-", "-")
        for opt in options:
            expect(re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(opt), text),
                   "%s is in --help but not in docs/%s" % (opt, name))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--docs", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("case", choices=sorted(CASES))
    a = ap.parse_args()
    work = os.path.join(os.path.abspath(a.work), a.case)
    if os.path.exists(work):
        shutil.rmtree(work)
    os.makedirs(work)
    CASES[a.case](Ctx(os.path.abspath(a.tool), os.path.abspath(a.docs), work))
    print("PASS")


if __name__ == "__main__":
    main()

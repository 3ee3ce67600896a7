#!/usr/bin/env python3
"""The FP64 audit: no ff build of converted code executes a double-precision instruction.

What is compiled:
  - every example, converted with `--backend ff`: each variant examples/CMakeLists.txt
    builds (example(NAME), example_composite(NAME VARIANT OPTIONS...)), and every other
    annotated file under examples/ (the Make project's kernels);
  - every golden output, tests/golden/NAME.expected.cu, with -DCP_BACKEND=CP_BACKEND_FF
    (they are converted with the default backend, which writes no CP_BACKEND, so the macro
    forces ff); a golden whose output names another backend (backend_dp) is converted
    again from NAME.cu with --backend ff. Inputs that must fail (NAME.err) have no output.
Each file becomes one fatbin with the SASS of sm_75, sm_86, sm_89, sm_103 and sm_120 (see
compile_fatbin for how the PTX is made), which cuobjdump disassembles. An FP64 instruction
(DADD, DMUL, DFMA, DSETP, DSET, DMNMX, DMMA, MUFU.RCP64H/RSQ64H, and every F2F, I2F, F2I,
FRND whose types name F64) in a checked function fails the test, named with its file,
architecture and function.

Checked: every device function in the SASS (kernels, and device functions nvcc did not
inline) whose definition in the converted file uses the cp_ runtime, i.e. that the
conversion made from float code (kernels, helpers, twins NAME_cp, instances NAME_cp_ARGS).
Not checked, each for its reason, and each listed in the test's output:
  - functions converted from code written in double: their definition computes with
    cp_double (cp_dd_ operations) and no cp_float; double-double is FP64 arithmetic by
    definition, and the user asked for double;
  - functions converted with accumulate(double) (the pragma's clause, or --accumulate
    double in the output's first line for a pragma that names none): native double
    accumulators are what the user asked for (the right choice where FP64 is fast);
  - functions the conversion did not touch (no cp_ in their definition: the user's own
    kernels beside the converted ones, a function template kept as written for its
    other instances, library kernels such as CUB's): their code is the user's;
  - host code: it is not in the fatbin.

cuobjdump and nvdisasm come from the PyPI wheels nvidia-cuda-cuobjdump and
nvidia-cuda-nvdisasm, installed with pip into --pytools (a folder of the build tree) on
first use. Where pip cannot install them the test is skipped (exit 77) with the reason,
except under CI=true, where that is a failure.
"""
import argparse, concurrent.futures, glob, os, re, shlex, shutil, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from testlib import golden_flags  # noqa: E402

ARCHS = ["75", "86", "89", "103", "120"]
WHEELS = ["nvidia-cuda-cuobjdump", "nvidia-cuda-nvdisasm"]
SKIP = 77

# An FP64 opcode: the arithmetic, compare and min/max of doubles, the double tensor MMA,
# the 64-bit MUFU approximations, and any conversion or rounding to or from F64.
FP64_OPCODE = re.compile(r"^(DADD|DMUL|DFMA|DSETP|DSET|DMNMX|DMMA)(\.|$)"
                         r"|^MUFU\.\w*64H"
                         r"|^(F2F|I2F|F2I|FRND|F2IP|I2FP)\.(.*\.)?F64(\.|$)")
INSTRUCTION = re.compile(r"/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_.]+)([^;]*);")
# the includes whose headers make a compilation costly: started first
HEAVY = re.compile(r"#\s*include\s*<(thrust|cub|cuda/|cooperative_groups|mpi)")


def note(msg):
    print(msg, flush=True)


def give_up(msg):
    """No tools: a skip with the reason, or under CI=true a failure."""
    if os.environ.get("CI", "").lower() == "true":
        note("FAIL: " + msg + " (CI=true: the audit must run in CI)")
        sys.exit(1)
    note("SKIP: " + msg)
    sys.exit(SKIP)


def find_tools(pytools):
    """cuobjdump and the folder of nvdisasm, pip-installed into pytools on first use."""
    def lookup():
        found = glob.glob(os.path.join(pytools, "nvidia", "*", "bin", "cuobjdump"))
        dis = glob.glob(os.path.join(pytools, "nvidia", "*", "bin", "nvdisasm"))
        return (found[0], os.path.dirname(dis[0])) if found and dis else (None, None)
    cuobjdump, disdir = lookup()
    if cuobjdump:
        return cuobjdump, disdir
    note("installing %s into %s with pip" % (" ".join(WHEELS), pytools))
    p = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "--no-warn-script-location", "--target", pytools] + WHEELS,
                       capture_output=True, text=True)
    cuobjdump, disdir = lookup()
    if p.returncode != 0 or not cuobjdump:
        tail = (p.stderr or p.stdout).strip().splitlines()[-3:]
        give_up("pip could not install %s: %s" % (" ".join(WHEELS), " | ".join(tail)))
    return cuobjdump, disdir


# ---- what to compile ------------------------------------------------------------------

class Job:
    """One file to compile: `out` the converted file (made from `src` with `flags` when
    `convert` is set), compiled with `nvcc_flags`."""
    def __init__(self, name, src, out=None, flags=(), nvcc_flags=()):
        self.name, self.src, self.out = name, src, out
        self.convert, self.flags = out is None, list(flags)
        self.nvcc_flags = list(nvcc_flags)
        self.fatbin = self.error = None
        self.seconds = 0.0


def example_variants(root):
    """(example, variant, cpconvert options) of examples/CMakeLists.txt: example(NAME) is the
    default conversion, example_composite(NAME VARIANT OPTIONS...) one with options."""
    text = re.sub(r"#[^\n]*", "", open(os.path.join(root, "examples", "CMakeLists.txt")).read())
    found = []
    for m in re.finditer(r"^\s*(example|example_composite)\(([^)]*)\)", text, re.M):
        words = m.group(2).split()
        if not words or "${" in m.group(2):
            continue  # inside the functions' own definitions
        found.append((words[0], "cp", []) if m.group(1) == "example" else
                     (words[0], words[1], words[2:]))
    return found


def without_backend(flags):
    """The flags with any --backend option taken out (the audit's own goes in)."""
    out, i = [], 0
    while i < len(flags):
        if flags[i] == "--backend":
            i += 2
            continue
        if not flags[i].startswith("--backend="):
            out.append(flags[i])
        i += 1
    return out


def example_jobs(root):
    jobs, covered, seen = [], set(), set()
    for name, variant, opts in example_variants(root):
        src = os.path.join(root, "examples", name, name + ".cu")
        covered.add(src)
        opts = without_backend(opts)
        if (src, tuple(opts)) in seen:
            continue  # NAME_cpff: NAME_cp's conversion, which the audit makes with ff anyway
        seen.add((src, tuple(opts)))
        defs = [o for o in opts if o.startswith("-D")]
        jobs.append(Job("example %s_%s" % (name, variant), src, flags=opts, nvcc_flags=defs))
    for src in sorted(glob.glob(os.path.join(root, "examples", "**", "*.cu"), recursive=True)):
        if src not in covered and "#pragma cp" in open(src, errors="replace").read():
            jobs.append(Job("example " + os.path.relpath(src, os.path.join(root, "examples")), src))
    return jobs


def golden_jobs(root, notes):
    gdir = os.path.join(root, "tests", "golden")
    jobs = []
    for exp in sorted(glob.glob(os.path.join(gdir, "*.expected.cu"))):
        name = os.path.basename(exp)[:-len(".expected.cu")]
        flags = golden_flags(gdir, name)
        if flags is None:
            notes.append("golden %s: needs MPI, none installed" % name)
            continue
        nv = [f for f in flags if f.startswith("-I")]  # the MPI headers
        extra = os.path.join(gdir, name + ".nvcc-flags")  # --extended-lambda, as golden_nvcc
        if os.path.exists(extra):
            nv += shlex.split(open(extra).read())
        head = "".join(open(exp, errors="replace").readlines()[:3])
        backend = re.search(r"#define CP_BACKEND (\w+)", head)
        src = os.path.join(gdir, name + ".cu")
        if backend and backend.group(1) != "CP_BACKEND_FF":
            jobs.append(Job("golden " + name, src, flags=without_backend(flags), nvcc_flags=nv))
        else:
            ff = [] if backend else ["-DCP_BACKEND=CP_BACKEND_FF"]
            jobs.append(Job("golden " + name, src, out=exp, nvcc_flags=nv + ff))
    return jobs


# ---- convert, compile, disassemble ----------------------------------------------------

def convert(tool, work, job):
    job.out = os.path.join(work, re.sub(r"[^A-Za-z0-9_.-]+", "_", job.name) + ".ff.cu")
    flags = job.flags
    cut = flags.index("--") if "--" in flags else len(flags)
    args = [tool, job.src, "-o", job.out, "-q", "-w", "--backend", "ff"] + flags[:cut] + flags[cut:]
    p = subprocess.run(args, cwd=os.path.dirname(job.src), capture_output=True, text=True)
    if p.returncode != 0:
        job.error = "cpconvert --backend ff failed (exit %d):\n%s" % (p.returncode, p.stderr)


def arch_dependent(job):
    """Whether the converted file, or a header of the user's beside it that it includes,
    tests __CUDA_ARCH__ itself."""
    text = open(job.out, errors="replace").read()
    for inc in re.findall(r'#\s*include\s*"([^"]+)"', text):
        path = os.path.join(os.path.dirname(job.src), inc)
        if os.path.exists(path):
            text += open(path, errors="replace").read()
    return "__CUDA_ARCH__" in text


def compile_fatbin(nvcc, include, work, job, per_arch):
    """One fatbin with the SASS of every architecture of ARCHS. The device code goes
    through the front end once per architecture where the file tests __CUDA_ARCH__ itself
    (or with per_arch); otherwise once, to compute_75 PTX, from which ptxas makes the SASS
    of every architecture: under ff the runtime has no architecture branch at or above
    sm_75, so the others' PTX would be the same, and one front-end pass instead of five
    keeps the audit within its time (--per-arch runs all five)."""
    base = re.sub(r"[^A-Za-z0-9_.-]+", "_", job.name)
    job.fatbin = os.path.join(work, base + ".fatbin")
    args = [nvcc, "-fatbin", "-std=c++17", "-I" + include, "-I" + os.path.dirname(job.src),
            "-o", job.fatbin, job.out] + job.nvcc_flags
    if per_arch or arch_dependent(job):
        for a in ARCHS:
            args += ["-gencode", "arch=compute_%s,code=sm_%s" % (a, a)]
    else:
        args += ["-gencode", "arch=compute_%s,code=[%s]" % (ARCHS[0], ",".join("sm_" + a for a in ARCHS))]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        job.error = "nvcc failed (exit %d):\n%s%s" % (p.returncode, p.stdout, p.stderr)


def sass_functions(cuobjdump, disdir, fatbin):
    """{(arch, mangled function name): [(opcode, operands), ...]} of a fatbin: its cubins
    extracted by cuobjdump, each disassembled by nvdisasm (code only, no dataflow: what
    `cuobjdump -sass` prints, at three quarters of its cost)."""
    nvdisasm = os.path.join(disdir, "nvdisasm")
    cubins = fatbin + ".cubins"
    shutil.rmtree(cubins, ignore_errors=True)
    os.makedirs(cubins)
    p = subprocess.run([cuobjdump, "-xelf", "all", os.path.abspath(fatbin)], cwd=cubins,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("cuobjdump -xelf all %s failed: %s" % (fatbin, p.stderr.strip()))
    funcs = {}
    for cubin in sorted(glob.glob(os.path.join(cubins, "*.cubin"))):
        arch = re.search(r"\.(sm_\w+)\.cubin$", cubin).group(1)
        p = subprocess.run([nvdisasm, "-c", "-ndf", cubin], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError("nvdisasm %s failed: %s" % (cubin, p.stderr.strip()))
        cur = None
        for line in p.stdout.splitlines():
            m = re.match(r"\s*\.section\s+\.text\.([^,\s]+)", line)
            if m:
                cur = funcs.setdefault((arch, m.group(1)), [])
                continue
            m = INSTRUCTION.search(line)
            if m and cur is not None:
                cur.append((m.group(1), m.group(2).strip()))
    shutil.rmtree(cubins, ignore_errors=True)
    return funcs


def demangle(names):
    """{mangled: demangled without parameters}, by c++filt where it exists."""
    out = {n: n for n in names}
    filt = shutil.which("c++filt")
    if filt and names:
        p = subprocess.run([filt, "-p"], input="\n".join(names), capture_output=True, text=True)
        lines = p.stdout.splitlines()
        if p.returncode == 0 and len(lines) == len(names):
            out = dict(zip(names, lines))
    return out


def base_name(demangled):
    """The function's own identifier: ns::k<4, true> -> k."""
    depth, plain = 0, []
    for ch in demangled:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif depth == 0:
            plain.append(ch)
    return "".join(plain).split("::")[-1].strip()


def definition(text, name):
    """The definition of function `name` in a converted file (from the start of the line
    of its name to its closing brace) and its offset, or (None, -1)."""
    for m in re.finditer(r"\b%s\s*\(" % re.escape(name), text):
        depth, i = 0, m.end() - 1
        while i < len(text):
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
            if depth == 0:
                break
        rest = re.match(r"[^;{}]*\{", text[i:])
        if not rest:
            continue  # a call or a prototype
        j, depth = i + rest.end() - 1, 0
        while j < len(text):
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
            if depth == 0:
                start = text.rfind("\n", 0, m.start()) + 1
                return text[start:j], start
    return None, -1


def accumulate_double(text, start):
    """Whether the pragma right above a definition (or, where it names no accumulate(), the
    run's --accumulate in the output's first line) asks for accumulate(double)."""
    before = text[max(0, text.rfind("}", 0, start), text.rfind(";", 0, start)):start]
    pragma = re.search(r"#pragma\s+cp\s+composite([^\n]*)", before)
    if pragma and "accumulate" in pragma.group(1):
        return re.search(r"accumulate\s*\(\s*double\s*\)", pragma.group(1)) is not None
    return "--accumulate double" in text.split("\n", 1)[0]


def excluded(text, base):
    """Why SASS function `base` of a converted file is not checked, or None to check it:
    see the top of this file."""
    d, start = definition(text, base)
    if d is None or "cp_" not in d:
        return "not converted"
    if ("cp_dd_" in d or "cp_double" in d) and "cp_float" not in d:
        return "converted from double"
    if accumulate_double(text, start):
        return "accumulate(double)"
    return None


def audit(job, funcs):
    """The FP64 instructions of the checked functions of one job ('NAME: sm_XX: function:
    instruction' lines), and the functions left out with the reason."""
    text = open(job.out, errors="replace").read()
    names = demangle(sorted({f for _, f in funcs}))
    failures, left = [], set()
    for (arch, mangled), code in sorted(funcs.items()):
        why = excluded(text, base_name(names[mangled]))
        if why:
            left.add("%s (%s)" % (names[mangled], why))
            continue
        bad = {}
        for op, operands in code:
            if FP64_OPCODE.search(op):
                bad.setdefault(op, operands)
        for op, operands in sorted(bad.items()):
            failures.append("%s: %s: %s: %s %s" % (job.name, arch, names[mangled], op, operands))
    return failures, sorted(left)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--root", required=True, help="the source tree")
    ap.add_argument("--work", required=True)
    ap.add_argument("--pytools", required=True, help="where pip installs cuobjdump, nvdisasm")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--only", help="only the jobs whose name contains this")
    ap.add_argument("--per-arch", action="store_true",
                    help="run the front end for every architecture, not only for files that "
                         "test __CUDA_ARCH__ (five times the compile time)")
    a = ap.parse_args()
    a.root, a.work, a.pytools, a.tool = (os.path.abspath(p) for p in (a.root, a.work, a.pytools, a.tool))
    cuobjdump, disdir = find_tools(a.pytools)
    os.makedirs(a.work, exist_ok=True)
    runtime = os.path.join(a.root, "runtime", "include")

    notes = []
    jobs = example_jobs(a.root) + golden_jobs(a.root, notes)
    if a.only:
        jobs = [j for j in jobs if a.only in j.name]
    jobs.sort(key=lambda j: not HEAVY.search(open(j.src, errors="replace").read()))

    def one(job):
        t0 = time.time()
        if job.convert:
            convert(a.tool, a.work, job)
        if not job.error:
            compile_fatbin(a.nvcc, runtime, a.work, job, a.per_arch)
        found = ([], []) if job.error else audit(job, sass_functions(cuobjdump, disdir, job.fatbin))
        job.seconds = time.time() - t0
        return found

    failures, errors, checked = [], [], 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for job, (bad, left) in zip(jobs, pool.map(one, jobs)):
            if job.error:
                errors.append("%s: %s" % (job.name, job.error))
                continue
            checked += 1
            failures += bad
            notes += ["%s: %s" % (job.name, l) for l in left]
    for n in notes:
        note("not checked: " + n)
    slow = sorted(jobs, key=lambda j: -j.seconds)[:4]
    note("slowest: " + ", ".join("%s %.0f s" % (j.name, j.seconds) for j in slow))
    for e in errors:
        note("ERROR: " + e)
    for f in failures:
        note("FP64: " + f)
    note("%d files compiled for sm_%s and disassembled: %d FP64 instructions in converted "
         "code, %d errors" % (checked, ", sm_".join(ARCHS), len(failures), len(errors)))
    if failures or errors:
        note("FAIL")
        sys.exit(1)
    note("PASS")


if __name__ == "__main__":
    main()

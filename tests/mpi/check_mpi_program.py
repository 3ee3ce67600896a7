#!/usr/bin/env python3
"""An MPI golden program on the GPU under mpirun -np 1, 2 and 4: float (as written),
converted (NAME.expected.cu) and double (every float spelled double, MPI_FLOAT too); for
every number rank 0 prints, |converted - double| <= |float - double| + 2 ulp(float), as
tests/semantics does for one process. Exit 77 (skipped) without a CUDA device."""
import argparse, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "semantics"))
sys.path.insert(0, os.path.join(HERE, ".."))
from check_semantics import NUMBER, build, have_device, to_double, worse_than_float  # noqa: E402
from testlib import fail  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--runtime-include", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--mpi-flag", action="append", default=[], help="-I and libraries of MPI")
    ap.add_argument("source", help="NAME.cu, with NAME.expected.cu beside it")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    name = os.path.basename(a.source)[:-3]
    srcdir = os.path.dirname(os.path.abspath(a.source))
    w = lambda suffix: os.path.join(a.work, name + suffix)
    dbl = w(".double.cu")
    open(dbl, "w").write(to_double(open(a.source).read()).replace("MPI_FLOAT", "MPI_DOUBLE"))
    incs = [srcdir, a.runtime_include]
    for src, exe in ((a.source, w(".float")), (os.path.join(srcdir, name + ".expected.cu"), w(".cp")),
                     (dbl, w(".double"))):
        build(a.nvcc, incs, src, exe, a.mpi_flag)
    if not have_device():
        print("SKIP: no CUDA device (the three variants build)")
        sys.exit(77)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    worse = []
    for np_ in (1, 2, 4):
        outs = []
        for v in ("float", "cp", "double"):
            p = subprocess.run([a.mpiexec, "-np", str(np_), "--oversubscribe", w("." + v)],
                               capture_output=True, text=True, timeout=120, env=env)
            if p.returncode != 0:
                fail("%s on %d ranks exits %d: %s" % (v, np_, p.returncode, p.stderr[-400:]))
            outs.append([float(x) for x in NUMBER.findall(p.stdout)])
        print("%d ranks: float %s\n         converted %s\n         double %s" % (np_, *outs))
        worse += worse_than_float(*outs, where="%d ranks, " % np_)
    if worse:
        fail("the converted program is worse than float:\n  " + "\n  ".join(worse))
    print("PASS: no value worse than float on 1, 2 and 4 ranks")


if __name__ == "__main__":
    main()

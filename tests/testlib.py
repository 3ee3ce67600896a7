"""What the test drivers share (golden/run_golden.py, examples/check_example.py,
multi/run_multi.py): failing with a message, showing a diff, building with nvcc."""
import difflib, os, shlex, shutil, subprocess, sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def show_diff(expected, actual, expected_name, actual_name):
    """Prints the unified diff of two byte strings."""
    sys.stdout.writelines(difflib.unified_diff(expected.decode(errors="replace").splitlines(True),
                                               actual.decode(errors="replace").splitlines(True),
                                               expected_name, actual_name))


def nvcc_build(nvcc, runtime_include, sources, exe, cwd=None):
    """Builds a converted program for sm_90 against the runtime, or fails with nvcc's output."""
    p = subprocess.run([nvcc, "-arch=sm_90", "-I" + runtime_include, "-o", exe] + list(sources),
                       cwd=cwd, capture_output=True)
    if p.returncode != 0:
        sys.stdout.write(p.stdout.decode() + p.stderr.decode())
        fail("nvcc could not build the converted program")


def mpi_include():
    """The MPI header directory: $CP_MPI_INCLUDE (CMake's), else the first of
    `mpicc --showme:incdirs` (Open MPI); None without MPI."""
    if os.environ.get("CP_MPI_INCLUDE"):
        return os.environ["CP_MPI_INCLUDE"]
    mpicc = shutil.which("mpicc")
    if not mpicc:
        return None
    p = subprocess.run([mpicc, "--showme:incdirs"], capture_output=True, text=True)
    dirs = p.stdout.split() if p.returncode == 0 else []
    return dirs[0] if dirs else None


def golden_flags(golden_dir, name):
    """The cpconvert arguments of golden test NAME (NAME.flags, split as a shell does, with
    @MPI_INCLUDE@ replaced); None for a NAME.needs-mpi test where no MPI is installed."""
    path = os.path.join(golden_dir, name + ".flags")
    flags = shlex.split(open(path).read()) if os.path.exists(path) else []
    if any("@MPI_INCLUDE@" in f for f in flags) or os.path.exists(
            os.path.join(golden_dir, name + ".needs-mpi")):
        inc = mpi_include()
        if inc is None:
            return None
        flags = [f.replace("@MPI_INCLUDE@", inc) for f in flags]
    return flags

"""What the test drivers share (golden/run_golden.py, examples/check_example.py,
multi/run_multi.py): failing with a message, showing a diff, building with nvcc."""
import difflib, subprocess, sys


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

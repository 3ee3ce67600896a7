#!/usr/bin/env python3
"""The `auto` backend table, checked against itself, the docs and nvcc.

runtime/include/cp/config.cuh holds the table: the #if that sets CP_BACKEND_IS_DP under
CP_BACKEND_AUTO (the __CUDA_ARCH__ values that get dp), and the two lines of its comment
that name both lists ("dp on sm_60/70/...", "ff on sm_75/86/..."). This test fails when

  - the comment's dp list is not the #if's, or an architecture is on both lists;
  - README.md, docs/reference.md or docs/runtime.md names other lists ("`dp` on
    sm_...", "`ff` on sm_...", the table rows of docs/runtime.md, its "__CUDA_ARCH__ is
    600, 700, ..." sentence), or names none;
  - with --nvcc: a device variable holding CP_BACKEND_IS_DP, compiled to PTX with
    -arch=compute_XX for each architecture of both lists, is not what the table says.
    An architecture nvcc no longer compiles for (nvcc 13 dropped sm_60 and sm_70) is
    checked with the host preprocessor (--cc) and __CUDA_ARCH__ defined by hand as nvcc
    defined it, and reported as such.

    check_backend_table.py --root SRC [--nvcc NVCC] [--cc CC]
"""
import argparse, os, re, subprocess, sys, tempfile

DOCS = ["README.md", "docs/reference.md", "docs/runtime.md"]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def arch_list(text):
    """'sm_60/70/80' -> ['60', '70', '80']."""
    return [a for a in re.split(r"/", text.replace("sm_", ""))]


def config_table(root):
    """(dp list of the #if, dp list of the comment, ff list of the comment)."""
    text = open(os.path.join(root, "runtime", "include", "cp", "config.cuh")).read()
    m = re.search(r"#elif CP_BACKEND == CP_BACKEND_AUTO\s*\n#if (.*?[^\\])\n", text, re.S)
    if not m:
        fail("config.cuh: no #if under '#elif CP_BACKEND == CP_BACKEND_AUTO'")
    code = [str(int(v) // 10) for v in re.findall(r"__CUDA_ARCH__\s*==\s*(\d+)", m.group(1))]
    dp = re.search(r"^\s*\*\s+dp on (sm_[\d/]+)", text, re.M)
    ff = re.search(r"^\s*\*\s+ff on (sm_[\d/]+)", text, re.M)
    if not code or not dp or not ff:
        fail("config.cuh: the #if's __CUDA_ARCH__ values or the comment's 'dp on'/'ff on' "
             "lines are missing")
    return code, arch_list(dp.group(1)), arch_list(ff.group(1))


def doc_mentions(path):
    """[(backend, [arch...], where)] of one document."""
    text = open(path).read()
    found = []
    for m in re.finditer(r"`(dp|ff)` on\s+(sm_\d+(?:/\d+)*)", text):
        found.append((m.group(1), arch_list(m.group(2)), "'%s'" % " ".join(m.group(0).split())))
    for m in re.finditer(r"^\| `(dp|ff)` \| (sm_\d+(?:/\d+)*)", text, re.M):
        found.append((m.group(1), arch_list(m.group(2)), "table row '%s'" % m.group(0)))
    for m in re.finditer(r"`auto` picks `dp`\s+in a device pass whose `__CUDA_ARCH__` is\s+([\d,\s or]+)",
                         text):
        archs = [str(int(v) // 10) for v in re.findall(r"\d+", m.group(1))]
        found.append(("dp", archs, "'__CUDA_ARCH__ is %s'" % " ".join(m.group(1).split())))
    return found


def check_docs(root, dp, ff):
    for doc in DOCS:
        mentions = doc_mentions(os.path.join(root, doc))
        for backend in ("dp", "ff"):
            if not any(b == backend for b, _, _ in mentions):
                fail("%s names no `%s` list (write '`%s` on sm_%s')" % (doc, backend, backend,
                                                                      "/".join(dp if backend == "dp" else ff)))
        for backend, archs, where in mentions:
            want = dp if backend == "dp" else ff
            if archs != want:
                fail("%s: %s gives %s sm_%s; config.cuh's table says sm_%s" % (
                    doc, where, backend, "/".join(archs), "/".join(want)))
        print("%s: %d mentions agree with config.cuh" % (doc, len(mentions)))


PROBE = """#include <cp/config.cuh>
#if defined(__CUDACC__)
__device__ int cp_probe_is_dp = CP_BACKEND_IS_DP;
__device__ int cp_probe_arch = __CUDA_ARCH__;
#else
cp_probe_is_dp = CP_BACKEND_IS_DP;
#endif
"""


def nvcc_archs(nvcc):
    p = subprocess.run([nvcc, "--list-gpu-arch"], capture_output=True, text=True)
    return set(re.findall(r"compute_(\d+)", p.stdout)) if p.returncode == 0 else set()


def picked_by_nvcc(nvcc, include, work, arch):
    """(CP_BACKEND_IS_DP, __CUDA_ARCH__) of a device pass for compute_ARCH."""
    src, ptx = os.path.join(work, "probe.cu"), os.path.join(work, "probe_%s.ptx" % arch)
    open(src, "w").write(PROBE)
    p = subprocess.run([nvcc, "-ptx", "-arch=compute_" + arch, "-I" + include, src, "-o", ptx],
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail("nvcc -ptx -arch=compute_%s: %s" % (arch, (p.stdout + p.stderr).strip()))
    text = open(ptx).read()
    # a zero initializer is not written: `.u32 cp_probe_is_dp;`
    is_dp = re.search(r"cp_probe_is_dp(?: = (\d+))?;", text)
    cuda_arch = re.search(r"cp_probe_arch = (\d+)", text)
    if not is_dp or not cuda_arch:
        fail("compute_%s: the probe's values are not in the PTX" % arch)
    return int(is_dp.group(1) or 0), int(cuda_arch.group(1))


def picked_by_cpp(cc, include, work, arch):
    """CP_BACKEND_IS_DP with __CUDA_ARCH__ defined by hand, by the host preprocessor."""
    src = os.path.join(work, "probe.c")
    open(src, "w").write(PROBE)
    p = subprocess.run([cc, "-E", "-P", "-x", "c", "-D__CUDA_ARCH__=%d" % (int(arch) * 10),
                        "-I" + include, src], capture_output=True, text=True)
    m = re.search(r"cp_probe_is_dp = (\d+)", p.stdout)
    if p.returncode != 0 or not m:
        fail("%s -E -D__CUDA_ARCH__=%d: %s" % (cc, int(arch) * 10, p.stderr.strip()))
    return int(m.group(1))


def check_nvcc(root, nvcc, cc, dp, ff):
    include = os.path.join(root, "runtime", "include")
    known = nvcc_archs(nvcc)
    by_hand = []
    with tempfile.TemporaryDirectory() as work:
        for arch in dp + ff:
            want = 1 if arch in dp else 0
            if arch in known:
                got, cuda_arch = picked_by_nvcc(nvcc, include, work, arch)
                if cuda_arch != int(arch) * 10:
                    fail("compute_%s: __CUDA_ARCH__ is %d, not %d" % (arch, cuda_arch, int(arch) * 10))
                how = "nvcc -arch=compute_%s" % arch
            else:
                got, how = picked_by_cpp(cc, include, work, arch), "%s -E -D__CUDA_ARCH__=%d" % (cc, int(arch) * 10)
                by_hand.append("sm_" + arch)
            name = "dp" if got else "ff"
            print("sm_%s: %s (%s)" % (arch, name, how))
            if got != want:
                fail("sm_%s: auto picks %s, the table says %s" % (arch, name, "dp" if want else "ff"))
    if by_hand:
        print("not compiled by this nvcc (it no longer supports them): %s; checked with the "
              "host preprocessor only" % ", ".join(by_hand))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    ap.add_argument("--nvcc")
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    a = ap.parse_args()
    code, dp, ff = config_table(a.root)
    if code != dp:
        fail("config.cuh: the #if gives dp on sm_%s, its comment says sm_%s" % ("/".join(code), "/".join(dp)))
    if set(dp) & set(ff):
        fail("config.cuh: on both lists: sm_%s" % "/".join(sorted(set(dp) & set(ff))))
    print("config.cuh: dp on sm_%s, ff on sm_%s" % ("/".join(dp), "/".join(ff)))
    check_docs(a.root, dp, ff)
    if a.nvcc:
        check_nvcc(a.root, a.nvcc, a.cc, dp, ff)
    else:
        print("no nvcc: what nvcc picks is not checked")
    print("PASS")


if __name__ == "__main__":
    main()

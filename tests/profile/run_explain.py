#!/usr/bin/env python3
"""cpconvert --explain on the profiles of this directory, one ctest each (`profile.NAME`).

NAME.json is a profile written by hand in the shape the runtime writes (docs/profile.md).
    golden NAME   its budget as text and as JSON (--diagnostics-format json) equal, whole
                  files, NAME.expected.txt and NAME.expected.json; the JSON parses; the page
                  (-o NAME.html) is well-formed HTML with one <svg> per output (one for a
                  profile without outputs) and no reference to anything outside it.
    error NAME    (err_*.json) exit 1, nothing on stdout, standard error equal to NAME.err
                  (a located message), and no page written with -o.
    missing       a profile that does not exist: exit 1, a message naming it.
                  The same profile given to --use-profile: the same message, exit 1,
                  nothing converted.
    usage         --explain with a .cu input, -o FILE that is no .html, -o onto the
                  profile, with --o-dir, --diff or --use-profile: exit 2, nothing written.
--update writes the expected files from the tool's output instead (review the diff).
"""
import argparse, html.parser, json, os, re, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from testlib import fail, show_diff  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def run(tool, *args, cwd=HERE):
    p = subprocess.run([tool] + list(args), cwd=cwd, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def compare(path, actual, update):
    if update:
        with open(path, "wb") as f:
            f.write(actual)
        return
    with open(path, "rb") as f:
        expected = f.read()
    if expected != actual:
        show_diff(expected, actual, os.path.basename(path), "actual")
        fail("%s differs from the tool's output" % os.path.basename(path))


VOID = {"meta", "br", "hr", "img", "input", "link", "area", "base", "col", "source", "wbr"}


class Checker(html.parser.HTMLParser):
    """Every element closed in order (SVG's self-closing ones included), and no attribute
    or style that fetches something."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.svgs, self.errors = [], 0, []

    def handle_starttag(self, tag, attrs):
        self.check_attrs(tag, attrs)
        self.svgs += tag == "svg"
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        self.check_attrs(tag, attrs)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append("</%s> at %s closes %s" % (tag, self.getpos(),
                                                          self.stack[-1] if self.stack else "nothing"))
        else:
            self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1][0] == "style" and re.search(r"url\(|@import", data):
            self.errors.append("the style sheet fetches something")

    def check_attrs(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href", "xlink:href", "srcset", "action", "data") or \
                    (value and re.search(r"url\(|https?:|//", value)):
                self.errors.append("<%s %s=%r> refers to something outside the page"
                                   % (tag, name, value))
        if tag in ("script", "link", "iframe", "object", "embed", "img"):
            self.errors.append("<%s> in the page" % tag)


def check_page(page, n_outputs):
    text = page.decode("utf-8")
    if not text.startswith("<!DOCTYPE html>"):
        fail("the page does not start with <!DOCTYPE html>")
    c = Checker()
    c.feed(text)
    c.close()
    if c.stack:
        c.errors.append("unclosed: %s" % c.stack)
    if re.search(r"https?://", text):
        c.errors.append("an address in the page")
    if c.svgs != max(n_outputs, 1):
        c.errors.append("%d <svg> for %d outputs" % (c.svgs, n_outputs))
    if c.errors:
        fail("the page: " + "; ".join(c.errors))


def golden(tool, name, update):
    rc, out, err = run(tool, "--explain", name + ".json")
    if rc != 0 or err:
        fail("exit %d, stderr:\n%s" % (rc, err.decode()))
    compare(os.path.join(HERE, name + ".expected.txt"), out, update)
    rc, out, err = run(tool, "--explain", name + ".json", "--diagnostics-format", "json")
    if rc != 0:
        fail("json: exit %d, stderr:\n%s" % (rc, err.decode()))
    doc = json.loads(out)  # raises on a document that is not JSON
    if doc.get("format") != "cp_budget" or doc.get("version") != 1:
        fail("the JSON budget has no format cp_budget, version 1")
    diags = json.loads(err)
    if diags["diagnostics"] or diags["exit_status"] != 0:
        fail("json: diagnostics %s" % diags)
    compare(os.path.join(HERE, name + ".expected.json"), out, update)
    with tempfile.TemporaryDirectory() as d:
        page = os.path.join(d, name + ".html")
        rc, out, err = run(tool, "--explain", name + ".json", "-o", page)
        if rc != 0 or out or err:
            fail("-o: exit %d, stdout %r, stderr:\n%s" % (rc, out, err.decode()))
        if os.listdir(d) != [name + ".html"]:
            fail("-o left %s" % os.listdir(d))
        with open(page, "rb") as f:
            check_page(f.read(), len(doc["outputs"]))


def error(tool, name, update):
    rc, out, err = run(tool, "--explain", name + ".json")
    if rc != 1 or out:
        fail("exit %d (expected 1), stdout %r" % (rc, out))
    compare(os.path.join(HERE, name + ".err"), err, update)
    # --use-profile reads it the same way: the same located error, nothing converted
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "k.cu")
        open(src, "w").write("#pragma cp composite\n__global__ void k(float *x) { x[0] += 1; }\n")
        rc2, out2, err2 = run(tool, src, "-o", os.path.join(d, "out.cu"), "--use-profile",
                              name + ".json", "-nocudainc", "--no-cache")
        if rc2 != 1 or err2 != err or sorted(os.listdir(d)) != ["k.cu"]:
            fail("--use-profile: exit %d, left %s, stderr %r" % (rc2, os.listdir(d), err2))
    with tempfile.TemporaryDirectory() as d:
        rc, out, err = run(tool, "--explain", name + ".json", "-o", os.path.join(d, "b.html"))
        if rc != 1 or os.listdir(d):
            fail("-o: exit %d, left %s" % (rc, os.listdir(d)))


def missing(tool, _name, _update):
    rc, out, err = run(tool, "--explain", "nowhere.json")
    if rc != 1 or out or not err.startswith(b"nowhere.json: error: "):
        fail("exit %d, stdout %r, stderr %r" % (rc, out, err))


def usage(tool, _name, _update):
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(os.path.join(HERE, "md.json"), d)
        open(os.path.join(d, "k.cu"), "w").write("__global__ void k(float *x) {}\n")
        for args, says in ((["k.cu"], "give it no input ('k.cu')"),
                           (["-o", "budget.json"], "name it FILE.html"),
                           (["-o", "md.json"], "name it FILE.html"),
                           (["-o", "./md.json.html", "--o-dir", "out"], "no --o-dir"),
                           (["--diff"], "no --diff"),
                           (["--use-profile", "md.json"], "no --use-profile"),
                           (["-MD", "-o", "b.html"], "no -MD")):
            rc, out, err = run(tool, "--explain", "md.json", *args, cwd=d)
            if rc != 2 or says.encode() not in err:
                fail("%s: exit %d, stderr %r" % (args, rc, err))
        if sorted(os.listdir(d)) != ["k.cu", "md.json"]:
            fail("a usage error wrote %s" % os.listdir(d))
        os.symlink("md.json", os.path.join(d, "p.html"))
        rc, out, err = run(tool, "--explain", "p.html", "-o", "p.html", cwd=d)
        if rc != 2 or b"is the profile" not in err:
            fail("-o onto the profile: exit %d, stderr %r" % (rc, err))


MODES = {"golden": golden, "error": error, "missing": missing, "usage": usage}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("mode", choices=sorted(MODES))
    ap.add_argument("name", nargs="?", default="")
    a = ap.parse_args()
    MODES[a.mode](os.path.abspath(a.tool), a.name, a.update)
    print("PASS")


if __name__ == "__main__":
    main()

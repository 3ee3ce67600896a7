#!/usr/bin/env python3
"""--diagnostics-format sarif and json, validated.

Runs cpconvert on inputs that give an error with a rule (a misspelt pragma clause, with
its "did you mean"), a warning on a line with non-ASCII text (SARIF counts columns in code
points), an error of the tool itself (no place) and a clean conversion, and checks each
SARIF document two ways:
  - jsonschema against sarif-2.1.0-subset.schema.json (beside this file): the part of the
    SARIF 2.1.0 schema cpconvert writes, transcribed from the standard. No package the
    build can install ships the official schema file (sarif-om, sarif-tools and
    pydantic-sarif were searched), so the schema is written here;
  - pydantic-sarif's model, which datamodel-codegen generated from the official
    sarif-schema-2.1.0.json (closed objects, enumerations, minimums).
A broken document (a level SARIF does not have) must fail both, so that the check can
fail. jsonschema and pydantic-sarif are pip-installed into --pytools (a folder of the
build tree) on first use; where pip cannot reach them the test is skipped (77), and
fails instead under CI=true. The JSON form is checked for its fields."""
import argparse, copy, json, os, shutil, subprocess, sys, tempfile

SKIP = 77
WHEELS = ["jsonschema>=4.18,<5", "pydantic>=2.4,<3", "pydantic-sarif==0.1.1"]
HERE = os.path.dirname(os.path.abspath(__file__))


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def give_up(msg):
    if os.environ.get("CI") == "true":
        fail(msg + " (CI=true: not skipped)")
    print("SKIP: " + msg)
    sys.exit(SKIP)


def load_validators(pytools):
    sys.path.insert(0, pytools)
    try:
        import jsonschema  # noqa: F401
        from pydantic_sarif.model import StaticAnalysisResultsFormatSarifVersion210JsonSchema  # noqa
    except ImportError:
        p = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet",
                            "--disable-pip-version-check", "--no-warn-script-location",
                            "--target", pytools] + WHEELS, capture_output=True, text=True)
        if p.returncode != 0:
            give_up("pip could not install %s: %s" % (" ".join(WHEELS),
                                                      " | ".join(p.stderr.splitlines()[-3:])))
    import importlib
    importlib.invalidate_caches()
    import jsonschema
    from pydantic_sarif.model import StaticAnalysisResultsFormatSarifVersion210JsonSchema as Log
    with open(os.path.join(HERE, "sarif-2.1.0-subset.schema.json")) as f:
        schema = json.load(f)
    checker = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())

    def errors(doc):
        found = ["schema: %s at %s" % (e.message, "/".join(map(str, e.path)))
                 for e in checker.iter_errors(doc)]
        try:
            Log.model_validate(doc)
        except Exception as e:  # pydantic.ValidationError
            found.append("pydantic-sarif: %s" % e)
        return found
    return errors


def run(tool, d, *args):
    p = subprocess.run([tool] + list(args), cwd=d, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def document(tool, d, fmt, *args):
    rc, _, err = run(tool, d, *(list(args) + ["--diagnostics-format", fmt, "-nocudainc"]))
    try:
        return rc, json.loads(err)
    except ValueError:
        fail("--diagnostics-format %s: stderr is not one JSON document:\n%s" % (fmt, err))


def write(d, name, text):
    with open(os.path.join(d, name), "w", encoding="utf-8") as f:
        f.write(text)


CLAUSE = "#pragma cp composite acumulate(fixed)\n__global__ void k(float *x) { x[0] += 1.0f; }\n"
WARN = ("#pragma cp composite\n__global__ void k(float *x) {\n"
        "  x[0] = /* \u00e9t\u00e9 */ fmodf(x[0], 3.0f);\n}\n")
OK = "#pragma cp composite\n__global__ void k(float *x) { x[0] += 1.0f; }\n"


def check_sarif(tool, d, errors):
    rc, doc = document(tool, d, "sarif", "clause.cu", "-o", "o1.cu")
    res = doc["runs"][0]["results"]
    if rc != 1 or len(res) != 1 or res[0]["ruleId"] != "pragma" or res[0]["level"] != "error":
        fail("the misspelt clause is not one error of rule pragma: %s" % json.dumps(doc))
    if "did you mean 'accumulate'?" not in res[0]["message"]["text"]:
        fail("no did-you-mean in %s" % res[0]["message"]["text"])
    region = res[0]["locations"][0]["physicalLocation"]["region"]
    if (region["startLine"], region["startColumn"]) != (1, 22):
        fail("the clause is at 1:22, SARIF says %s" % region)
    docs = [doc]
    rc, doc = document(tool, d, "sarif", "warn.cu", "-o", "o2.cu")
    res = [r for r in doc["runs"][0]["results"] if r["level"] == "warning"]
    if rc != 0 or not res or doc["runs"][0]["invocations"][0]["executionSuccessful"] is not True:
        fail("the float-call warning is missing or the run failed: %s" % json.dumps(doc))
    col = res[0]["locations"][0]["physicalLocation"]["region"]["startColumn"]
    if col != 3 + len("x[0] = /* \u00e9t\u00e9 */ "):
        fail("the column of fmodf is not counted in code points: %d" % col)
    docs.append(doc)
    rc, doc = document(tool, d, "sarif", "missing.cu", "-o", "o3.cu")
    if rc != 1 or "locations" in doc["runs"][0]["results"][0]:
        fail("a missing input is not an error without a place: %s" % json.dumps(doc))
    docs.append(doc)
    rc, doc = document(tool, d, "sarif", "ok.cu", "-o", "o4.cu")
    if rc != 0 or doc["runs"][0]["results"] != []:
        fail("a clean conversion has results: %s" % json.dumps(doc))
    docs.append(doc)
    for doc in docs:
        found = errors(doc)
        if found:
            fail("the SARIF document does not validate:\n%s\n%s" % ("\n".join(found),
                                                                     json.dumps(doc, indent=1)))
    broken = copy.deepcopy(docs[0])
    broken["runs"][0]["results"][0]["level"] = "fatal"
    found = errors(broken)
    if len(found) < 2:
        fail("a level SARIF does not have passed a validator: %s" % found)


def check_json(tool, d):
    rc, doc = document(tool, d, "json", "clause.cu", "-o", "o1.cu")
    diag = doc["diagnostics"]
    if (rc, doc["errors"], doc["exit_status"], len(diag)) != (1, 1, 1, 1):
        fail("the JSON form counts wrong: %s" % json.dumps(doc))
    want = {"severity": "error", "file": "clause.cu", "line": 1, "column": 22, "rule": "pragma"}
    if any(diag[0].get(k) != v for k, v in want.items()) or "acumulate" not in diag[0]["source_line"]:
        fail("the JSON diagnostic is not %s: %s" % (want, diag[0]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", required=True)
    ap.add_argument("--pytools", required=True)
    a = ap.parse_args()
    errors = load_validators(os.path.abspath(a.pytools))
    d = tempfile.mkdtemp(prefix="cp_sarif_")
    try:
        write(d, "clause.cu", CLAUSE)
        write(d, "warn.cu", WARN)
        write(d, "ok.cu", OK)
        check_sarif(os.path.abspath(a.tool), d, errors)
        check_json(os.path.abspath(a.tool), d)
    finally:
        shutil.rmtree(d)
    print("PASS")


if __name__ == "__main__":
    main()

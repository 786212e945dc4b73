#!/usr/bin/env python3
"""Compiles every src/ .cpp on its own (-fsyntax-only), in parallel, with the flags its library
is built with (read from BUILD/compile_commands.json): the unity batches hide a missing include
or a function declared nowhere, this does not. Usage: scripts/solo_check.py BUILD [JOBS].
Prints one line per file that fails, with the compiler's first lines, and exits 1 if any did."""
import json, os, shlex, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

build = sys.argv[1] if len(sys.argv) > 1 else "build"
jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
entries = json.load(open(os.path.join(build, "compile_commands.json")))

def flags_of(entry):  # the command without its output, dependency file and source
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-c"):
            skip = True
            continue
        if a == "-MD" or a == entry["file"] or a.endswith((".cxx", ".cpp")):
            continue
        out.append(a)
    return out, entry["directory"]

# A library's flags: any of its entries (unity batch or single file) under CMakeFiles/<lib>.dir.
by_target = {}
for e in entries:
    cmd = e.get("command", " ".join(e.get("arguments", [])))
    for part in cmd.split():
        if "CMakeFiles/" in part and ".dir/" in part:
            target = part.split("CMakeFiles/")[1].split(".dir/")[0]
            by_target.setdefault(target, flags_of(e))
            break

def target_for(rel):  # src/<module>/... -> its library
    parts = rel.split("/")
    mod = parts[1]
    if mod == "app":
        if len(parts) > 3 and parts[2] in ("web",):
            return None  # the web page's own files: the emscripten build compiles them
        if len(parts) > 3 and parts[2] in ("window", "desktop"):
            return "ts_app" if "ts_app" in by_target else "ts_desktop"
        return "ts_ui"
    return "ts_" + mod

files = []
for d, _, names in os.walk(os.path.join(root, "src")):
    for n in sorted(names):
        if n.endswith(".cpp"):
            rel = os.path.relpath(os.path.join(d, n), root)
            t = target_for(rel)
            if t and t in by_target:
                files.append((rel, t))
            elif t:
                files.append((rel, "ts_ui" if rel.startswith("src/app") else None))

def check(item):
    rel, target = item
    if target is None or target not in by_target:
        return rel, 0, "(no flags for it in %s: skipped)" % build
    flags, cwd = by_target[target]
    r = subprocess.run(flags + ["-fsyntax-only", os.path.join(root, rel)], cwd=cwd,
                       capture_output=True, text=True)
    return rel, r.returncode, r.stderr

failed = 0
with ThreadPoolExecutor(jobs) as pool:
    for rel, rc, err in pool.map(check, files):
        if rc != 0:
            failed += 1
            print("FAIL %s\n%s" % (rel, "\n".join(err.splitlines()[:12])))
        elif err.startswith("(no flags"):
            print("note %s %s" % (rel, err))
print("solo-check: %d files, %d failed" % (len(files), failed))
sys.exit(1 if failed else 0)

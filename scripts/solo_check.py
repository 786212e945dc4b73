#!/usr/bin/env python3
"""Compiles every src/ .cpp on its own (-fsyntax-only), in parallel, with the flags its library
is built with (read from BUILD/compile_commands.json): the unity batches hide a missing include
or a function declared nowhere, this does not. Usage: scripts/solo_check.py BUILD [JOBS].

The compiler is clang (SOLO_CXX, default clang++-14; it parses these files about a quarter
faster than GCC), with GCC's -Wmissing-declarations as clang's -Wmissing-prototypes, and no
optimisation or sanitizer flags (nothing is generated). Three headers are most of the time of a
file that reaches them (Eigen through src/base/tensor.h, the one place it is included, about
1.4 s of 2; nlohmann/json 1.3 s; CLI11 0.8 s; cpp-httplib): a file whose includes reach any of them reads
those precompiled (once per set of flags and headers) in front of its own text. The check is the
same for such a file except that what they include is visible before the file's own include of
them. Prints one line per file that fails, with the compiler's first lines, and exits 1 if any
did (a file without flags fails too)."""
import hashlib, json, os, re, shlex, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

build = sys.argv[1] if len(sys.argv) > 1 else "build"
jobs = int(sys.argv[2]) if len(sys.argv) > 2 else 2
cxx = os.environ.get("SOLO_CXX", "clang++-14")
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
src = os.path.join(root, "src")
entries = json.load(open(os.path.join(build, "compile_commands.json")))
out_dir = os.path.abspath(os.path.join(build, "solo_check"))
os.makedirs(out_dir, exist_ok=True)
TENSOR = os.path.join(src, "base", "tensor.h")
HEAVY = [(TENSOR, '#include "base/tensor.h"'), ("<nlohmann/json.hpp>", "#include <nlohmann/json.hpp>"),
         ("<httplib.h>", "#include <httplib.h>"), ("<CLI/CLI.hpp>", "#include <CLI/CLI.hpp>")]  # in this order in a precompiled header

def flags_of(entry):  # the command's flags that matter to parsing (no compiler, output, source)
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    out, skip = [], False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT", "-c"):
            skip = True
            continue
        if a == "-MD" or a == entry["file"] or a.endswith((".cxx", ".cpp")):
            continue
        if a.startswith(("-O", "-g", "-fsanitize", "-fno-sanitize")) or a == "-fno-omit-frame-pointer":
            continue
        out.append("-Wmissing-prototypes" if a == "-Wmissing-declarations" else a)
    return tuple(out), entry["directory"]

# A target's flags: any of its entries (unity batch or single file) under CMakeFiles/<t>.dir.
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
    if len(parts) == 2:
        return "tokenscope"  # src/main.cpp
    mod = parts[1]
    if mod == "app":
        if len(parts) > 3 and parts[2] in ("web",):
            return None  # the web page's own files: the emscripten build compiles them
        if len(parts) > 3 and parts[2] in ("window", "desktop"):
            return "ts_app" if "ts_app" in by_target else "ts_desktop"
        return "ts_ui"
    return "ts_" + mod

# The project's include graph (quoted includes, from src/ or the including file's folder).
include_re = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|(<(?:nlohmann/json\.hpp|httplib\.h|CLI/CLI\.hpp)>))', re.M)
graph = {}
def includes_of(path):
    if path not in graph:
        found = []
        try:
            text = open(path, encoding="utf-8", errors="replace").read()
        except OSError:
            text = ""
        for name, heavy in include_re.findall(text):
            if heavy:
                found.append(heavy)
                continue
            for base in (src, os.path.dirname(path)):
                p = os.path.normpath(os.path.join(base, name))
                if os.path.isfile(p):
                    found.append(p)
                    break
        graph[path] = found
    return graph[path]

def heavy_reached(path):  # the HEAVY headers the file's includes reach, in HEAVY's order
    seen, todo = set(), [path]
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        if not p.startswith("<"):
            todo.extend(includes_of(p))
    return tuple(h for h, _ in HEAVY if h in seen)

files = []
for d, _, names in os.walk(src):
    for n in sorted(names):
        if n.endswith(".cpp"):
            rel = os.path.relpath(os.path.join(d, n), root)
            t = target_for(rel)
            if t and t not in by_target and rel.startswith("src/app"):
                t = "ts_ui"
            if t:
                files.append((rel, t if t in by_target else None))

# One precompiled header per set of flags and of heavy headers among the files.
def build_pch(key):
    (flags, cwd), heavy = key
    name = hashlib.sha1((" ".join(flags) + "|".join(heavy)).encode()).hexdigest()[:12]
    header = os.path.join(out_dir, "heavy-%s.h" % name)
    with open(header, "w") as f:
        f.write("#pragma once\n" + "".join(line + "\n" for h, line in HEAVY if h in heavy))
    path = header + ".pch"
    r = subprocess.run([cxx, *flags, "-x", "c++-header", header, "-o", path], cwd=cwd,
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("solo-check: could not precompile %s:\n%s" % (", ".join(heavy), r.stderr[:2000]))
    return path

heavy_of = {rel: heavy_reached(os.path.join(root, rel)) for rel, _ in files}
needed = sorted({(by_target[t], heavy_of[rel]) for rel, t in files if t and heavy_of[rel]})
pch_for = {}
with ThreadPoolExecutor(jobs) as pool:
    for key, path in zip(needed, pool.map(build_pch, needed)):
        pch_for[key] = path

def check(item):
    rel, target = item
    if target is None:
        return rel, 0, "(no flags for it in %s: skipped)" % build
    flags, cwd = by_target[target]
    full = os.path.join(root, rel)
    heavy = heavy_of[rel]
    pre = ["-include-pch", pch_for[((flags, cwd), heavy)]] if heavy else []
    r = subprocess.run([cxx, *flags, *pre, "-fsyntax-only", full], cwd=cwd,
                       capture_output=True, text=True)
    return rel, r.returncode, r.stderr

failed = skipped = 0
with ThreadPoolExecutor(jobs) as pool:
    for rel, rc, err in pool.map(check, files):
        if rc != 0:
            failed += 1
            print("FAIL %s\n%s" % (rel, "\n".join(err.splitlines()[:12])))
        elif err.startswith("(no flags"):
            skipped += 1
            print("FAIL %s %s" % (rel, err))
print("solo-check: %d files, %d failed, %d without flags" % (len(files), failed, skipped))
sys.exit(1 if failed or skipped else 0)

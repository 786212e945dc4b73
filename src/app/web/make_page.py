#!/usr/bin/env python3
"""Assembles the one-file web page of tokenscope: the HTML shell, the emscripten JavaScript, the
WebAssembly module and the data package (models, lessons, fonts), the last two gzip'd and
base64-encoded inside the page, and the loader that unpacks them. Prints the page's size and
what it holds.
  usage: make_page.py --js F --wasm F --data F --shell F --loader F --out F"""
import argparse
import base64
import gzip
import os
import sys


def main():
    ap = argparse.ArgumentParser()
    for k in ("js", "wasm", "data", "shell", "loader", "out"):
        ap.add_argument("--" + k, required=True)
    a = ap.parse_args()
    read = lambda p: open(p, "rb").read()
    shell = read(a.shell).decode("utf-8")
    if "<!--TS_PAYLOAD-->" not in shell:
        sys.exit("make_page: the shell has no <!--TS_PAYLOAD--> marker")
    js = read(a.js).decode("utf-8").replace("</script", "<\\/script")
    loader = read(a.loader).decode("utf-8").replace("</script", "<\\/script")
    packed = {}
    for name, path in (("ts-wasm", a.wasm), ("ts-data", a.data)):
        raw = read(path)
        gz = gzip.compress(raw, compresslevel=9, mtime=0)
        packed[name] = (len(raw), len(gz), base64.b64encode(gz).decode("ascii"))
    payload = "".join(
        f'<script type="application/octet-stream" id="{n}">{b64}</script>\n'
        for n, (_, _, b64) in packed.items())
    payload += f'<script type="text/plain" id="ts-js">{js}</script>\n<script>{loader}</script>'
    page = shell.replace("<!--TS_PAYLOAD-->", payload)
    tmp = a.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(page)
    os.replace(tmp, a.out)
    size = os.path.getsize(a.out)
    parts = ", ".join(f"{n[3:]} {raw / 1e6:.1f} MB -> gzip {gz / 1e6:.1f} MB"
                      for n, (raw, gz, _) in packed.items())
    print(f"make_page: {a.out}: {size / 1e6:.1f} MB ({parts}, js {len(js) / 1e3:.0f} kB)")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""How well a chat model follows a request: asks each request of a requests file (REQUEST | NAME
| KIND | PLOT WORD, one per line, '#' comments) through the model's own chat template
(`tokenscope chat --render`), lets the model answer greedily (`tokenscope generate
--temperature 0`), and counts the answers whose opening (first two sentences) names the hero and
says what the hero is, whose text has the plot word, and that end with the model's end-of-turn
token. Prints one row per request and the totals, the figures models/tales-chat-4m.md quotes.
  usage: scripts/chat-follow.py [MODEL] [REQUESTS] [MAX_TOKENS]"""
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

root = Path(__file__).resolve().parent.parent
model = sys.argv[1] if len(sys.argv) > 1 else "models/tales-chat-4m.gguf"
requests = sys.argv[2] if len(sys.argv) > 2 else "models/eval-requests-tales-chat.txt"
max_tokens = sys.argv[3] if len(sys.argv) > 3 else "200"
ts = str(root / "build" / "tokenscope")


def words(text):
    return re.findall(r"[a-z']+", text.lower())


rows = []
for line in (root / requests).read_text().splitlines():
    if not line.strip() or line.startswith("#"):
        continue
    request, name, kind, plot = [f.strip() for f in line.split("|")]
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump([{"role": "user", "content": request}], f)
        f.flush()
        prompt = subprocess.run([ts, "chat", "--model", model, "--messages", f.name, "--render"],
                                cwd=root, check=True, capture_output=True, text=True).stdout
    run = subprocess.run([ts, "generate", "--model", model, "--prompt", prompt, "--temperature", "0",
                          "--max-tokens", max_tokens], cwd=root, check=True, capture_output=True, text=True)
    # stdout is the prompt's text without its special tokens, then the answer
    shown = re.sub(r"<\|[a-z_]+\|>", "", prompt)
    answer = run.stdout[len(shown):] if run.stdout.startswith(shown) else run.stdout
    opening = " ".join(re.split(r"(?<=[.!?])\s+", answer.strip())[:2])
    row = {
        "request": request,
        "name": name in words(opening) or name.lower() in words(opening),
        "kind": kind.lower() in words(opening),
        "plot": any(w.startswith(plot.lower()) for w in words(answer)),
        "ended": "(eos " in run.stderr or "eos after" in run.stderr,
        "opening": opening,
    }
    rows.append(row)
    mark = lambda b: "yes" if b else "no "
    print(f"name {mark(row['name'])} kind {mark(row['kind'])} plot {mark(row['plot'])} "
          f"ended {mark(row['ended'])} | {request}\n    {opening}")
n = len(rows)
print(f"\n{n} requests: hero's name in the opening {sum(r['name'] for r in rows)}/{n}, "
      f"what the hero is in the opening {sum(r['kind'] for r in rows)}/{n}, "
      f"plot word in the answer {sum(r['plot'] for r in rows)}/{n}, "
      f"ended with the end-of-turn token {sum(r['ended'] for r in rows)}/{n}")

#!/usr/bin/env python3
"""Renders chat templates with Python's jinja2 the way Hugging Face's apply_chat_template does,
as the reference tokenscope's own engine (src/chat/) is compared with, byte for byte.

  jinja_reference.py --out REFERENCE.json TEMPLATE.jinja...

For every template, every conversation of conversations.json (beside this file) and
add_generation_prompt true and false, it records the rendered text or the error. The
environment follows transformers' chat template rendering: ImmutableSandboxedEnvironment with
trim_blocks and lstrip_blocks, the loop controls extension, a `generation` block that renders its
body, `tojson` as json.dumps (ensure_ascii off, keys in their order), raise_exception(), and
strftime_now() on a fixed date so the outputs do not depend on the day. The template variables:
messages, add_generation_prompt, tools and documents (None unless the conversation has them),
bos_token and eos_token (chosen per model family below), and the conversation's other keys.
"""
import argparse
import datetime
import json
import os
import sys

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.sandbox import ImmutableSandboxedEnvironment

NOW = datetime.datetime(2024, 7, 26, 9, 30, 0)

# bos / eos per model family, from the file name: what each family's tokenizer sets.
TOKENS = [
    ("qwen", "", "<|im_end|>"),
    ("qwq", "", "<|im_end|>"),
    ("llama-3", "<|begin_of_text|>", "<|eot_id|>"),
    ("gemma", "<bos>", "<eos>"),
    ("phi-3", "<s>", "<|endoftext|>"),
    ("mistral", "<s>", "</s>"),
    ("devstral", "<s>", "</s>"),
    ("deepseek", "<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>"),
    ("smollm", "<|im_start|>", "<|im_end|>"),
    ("granite", "", "<|end_of_text|>"),
]


def tokens_for(name):
    low = name.lower()
    for key, bos, eos in TOKENS:
        if key in low:
            return bos, eos
    return "<s>", "</s>"


class GenerationBlock(Extension):
    """{% generation %}...{% endgeneration %}: Hugging Face marks assistant text with it; the
    text renders as it is."""
    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
        return nodes.Scope(body, lineno=lineno)


def make_env():
    def raise_exception(message):
        raise jinja2.exceptions.TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators,
                          sort_keys=sort_keys)

    def strftime_now(fmt):
        return NOW.strftime(fmt)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True,
                                        extensions=[GenerationBlock, "jinja2.ext.loopcontrols"])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env


def variables(conv, gen_prompt, bos, eos):
    if isinstance(conv, list):
        conv = {"messages": conv}
    v = {"tools": None, "documents": None, "add_generation_prompt": gen_prompt}
    if bos:
        v["bos_token"] = bos
    if eos:
        v["eos_token"] = eos
    for k, x in conv.items():
        if k != "add_generation_prompt":
            v[k] = x
    return v


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("templates", nargs="+")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "conversations.json"), encoding="utf-8") as f:
        conversations = json.load(f)
    env = make_env()
    cases = []
    sources = {}
    for path in sorted(args.templates):
        name = os.path.splitext(os.path.basename(path))[0]
        with open(path, encoding="utf-8", newline="") as f:
            source = f.read()
        sources[os.path.basename(path)] = source
        bos, eos = tokens_for(name)
        try:
            compiled = env.from_string(source)
            compile_error = None
        except Exception as e:  # noqa: BLE001 - any failure is the reference's answer
            compiled, compile_error = None, f"{type(e).__name__}: {e}"
        for ci, conv in enumerate(conversations):
            for gen_prompt in (True, False):
                case = {"template": os.path.basename(path), "conversation": ci,
                        "add_generation_prompt": gen_prompt, "bos": bos, "eos": eos,
                        "date": NOW.strftime("%Y-%m-%d %H:%M:%S")}
                if compiled is None:
                    case["error"] = compile_error
                else:
                    try:
                        case["text"] = compiled.render(**variables(conv, gen_prompt, bos, eos))
                    except Exception as e:  # noqa: BLE001
                        case["error"] = f"{type(e).__name__}: {e}"
                cases.append(case)
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"jinja2": jinja2.__version__, "conversations": conversations,
                   "templates": sources, "cases": cases},
                  f, ensure_ascii=False, indent=1)
    ok = sum(1 for c in cases if "text" in c)
    print(f"jinja_reference: {len(cases)} renders of {len(args.templates)} templates "
          f"({ok} rendered, {len(cases) - ok} raised) with jinja2 {jinja2.__version__}")


if __name__ == "__main__":
    sys.exit(main())

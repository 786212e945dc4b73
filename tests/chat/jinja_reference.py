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
import copy
import datetime
import warnings
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
    conv = copy.deepcopy(conv)  # a render may change what it is given (|indent on a list does)
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


# Random templates: expressions built from the grammar's pieces (literals, the messages, operators,
# filters, tests, methods, slices, conditionals), each printed and used as a condition. Seeded, so
# every run makes the same ones; they exercise corners the real templates do not reach. Slices
# take a value only known when rendering: Jinja2 folds constant expressions when it compiles, and
# a constant slice folded there (through its lenient item lookup) behaves unlike one at run time.
LEAVES = ["1", "0", "-3", "2.5", "0.1", "1e20", "'ab'", "''", "'Hé ☃'", "' x '", "none", "true",
          "false", "[1, 2, 3]", "[]", "['b', 'a', 'B']", "(1, 'a')", "{'k': 1, 'j': [2]}", "{}",
          "messages", "messages[0]", "messages[-1].content", "messages[0]['role']",
          "messages|length", "undefined_name", "bos_token", "add_generation_prompt", "range(4)"]
UNARY = ["-{}", "not {}", "({})", "{}|length", "{}|string", "{}|trim", "{}|upper", "{}|lower",
         "{}|first", "{}|last", "{}|list", "{}|tojson", "{}|tojson(indent=2)", "{}|default('d')",
         "{}|int", "{}|float", "{}|abs", "{}|round", "{}|reverse|list", "{}|sort", "{}|unique|list",
         "{}|join(',')", "{}|capitalize", "{}|title", "{}|items|list", "{}|dictsort",
         "{}|map(attribute='role')|list", "{}|selectattr('role', 'equalto', 'user')|list",
         "{}|select('odd')|list", "{}|reject('none')|list", "{}|sum", "{}|min", "{}|max",
         "({} if messages is defined else none)[1:]",
         "({} if messages is defined else none)[::-1]", "{}[0]", "{}['k']", "{}.k", "{}.role", "{}.strip()",
         "{}.split()", "{}.split('a')", "{}.startswith('a')", "{}.replace('a', 'Z')",
         "{}.items()|list", "{}.keys()|list", "{}.get('k')", "{} is defined", "{} is none",
         "{} is string", "{} is number", "{} is mapping", "{} is iterable", "{} is odd",
         "{} is sequence", "{} is integer", "{} is true", "{}|e", "{}|safe", "{}|count",
         "{}.upper()", "{}.find('b')", "{}.count('a')", "{}|indent(2)", "{}.format(1)"]
BINARY = ["{} + {}", "{} - {}", "{} * {}", "{} / {}", "{} // {}", "{} % {}", "{} ** {}",
          "{} ~ {}", "{} == {}", "{} != {}", "{} < {}", "{} >= {}", "{} in {}", "{} not in {}",
          "{} and {}", "{} or {}", "{} if {} else {}", "{} is equalto {}", "{} is divisibleby {}",
          "{} < {} < {}", "[{}, {}]", "{{'a': {}, 'b': {}}}", "({}, {})", "{}[{}]"]


def random_expr(rng, depth):
    if depth <= 0 or rng.random() < 0.25:
        return rng.choice(LEAVES)
    if rng.random() < 0.55:
        return rng.choice(UNARY).format(random_expr(rng, depth - 1))
    form = rng.choice(BINARY)
    return form.format(*[random_expr(rng, depth - 1) for _ in range(form.count("{}"))])


# Random white space around random tags: the lexer's trim and strip rules.
TEXTS = ["", " ", "  ", "\n", "\n\n", "\t", " \n ", "x", "x\n", "\n  y", "\u3000", "\r\n"]
TAGS = ["{{{{{0} 1 {1}}}}}", "{{%{0} if true {1}%}}a{{%{0} endif {1}%}}",
        "{{%{0} for i in [1, 2] {1}%}}{{{{ i }}}}{{%{0} endfor {1}%}}", "{{#{0} note {1}#}}",
        "{{%{0} set v = 3 {1}%}}", "{{%{0} raw {1}%}} {{{{ r }}}} {{%{0} endraw {1}%}}",
        "{{%{0} if false {1}%}}no{{%{0} else {1}%}}yes{{%{0} endif {1}%}}"]


def random_whitespace(rng):
    out = ""
    for _ in range(rng.randint(1, 6)):
        out += rng.choice(TEXTS)
        out += rng.choice(TAGS).format(rng.choice(["", "-", "+"]), rng.choice(["", "-", "+"]))
    return out + rng.choice(TEXTS)


def random_templates(n):
    import random
    rng = random.Random(20261127)
    out = {}
    forms = ["{{{{ {} }}}}", "{{% if {} %}}T{{% else %}}F{{% endif %}}",
             "{{% for x in {} %}}{{{{ loop.index }}}}{{{{ x }}}},{{% else %}}empty{{% endfor %}}"]
    for k in range(n):
        if k % 4 == 3:
            out[f"random-{k:04d}.jinja"] = random_whitespace(rng)
        else:
            out[f"random-{k:04d}.jinja"] = forms[k % 4].format(random_expr(rng, 3))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--random", type=int, default=0,
                    help="also N generated templates, rendered for two conversations")
    ap.add_argument("templates", nargs="+")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "conversations.json"), encoding="utf-8") as f:
        conversations = json.load(f)
    env = make_env()
    warnings.filterwarnings("ignore")  # Python's remarks on generated code ("not subscriptable")
    cases = []
    sources = {}
    jobs = []  # (file name, source, the conversations to render)
    for path in sorted(args.templates):
        with open(path, encoding="utf-8", newline="") as f:
            jobs.append((os.path.basename(path), f.read(), range(len(conversations))))
    for name, src in random_templates(args.random).items():
        jobs.append((name, src, (1, 4)))
    for file_name, source, conv_indices in jobs:
        name = os.path.splitext(file_name)[0]
        sources[file_name] = source
        bos, eos = tokens_for(name)
        try:
            compiled = env.from_string(source)
            compile_error = None
        except Exception as e:  # noqa: BLE001 - any failure is the reference's answer
            compiled, compile_error = None, f"{type(e).__name__}: {e}"
        for ci in conv_indices:
            conv = conversations[ci]
            for gen_prompt in (True, False):
                case = {"template": file_name, "conversation": ci,
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
    print(f"jinja_reference: {len(cases)} renders of {len(jobs)} templates "
          f"({ok} rendered, {len(cases) - ok} raised) with jinja2 {jinja2.__version__}")


if __name__ == "__main__":
    sys.exit(main())

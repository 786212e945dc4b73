#!/usr/bin/env python3
"""Builds the English training text from three sources (see scripts/english-corpus.sh):
the Brown corpus with its part-of-speech tags removed and its tokens joined back into prose,
WordNet 3.0 glosses (definitions, and the example sentences inside them), and the KJV chapters.
With a fourth argument (a word list, one word per line) only the sentences whose every word
is in it are kept; with a fifth (N), only those whose every word is also among the N most
frequent words of the text (so the model learns a plain, everyday English). Documents are shuffled with a fixed seed so the held-out tail mixes all three;
they are separated by <|endoftext|>. Writes the text to standard output.
  usage: english_corpus.py BROWN_DIR WORDNET_DIR KJV_TEXT [WORD_LIST [N]]"""
import collections
import os
import random
import re
import sys

SEP = "<|endoftext|>"
NO_SPACE_BEFORE = {",", ".", ";", ":", "!", "?", ")", "]", "'s", "n't", "'", "'re", "'ve", "'ll", "'d", "'m", "%"}


def brown_docs(folder):
    docs = []
    for name in sorted(os.listdir(folder)):
        if not re.fullmatch(r"c[a-r]\d\d", name):
            continue
        paras = []
        with open(os.path.join(folder, name), encoding="latin-1") as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                words = [t.rsplit("/", 1)[0] for t in line.split()]
                paras.append(join_tokens(words))
        text = "\n".join(p for p in paras if p)
        if text:
            docs.append(text)
    return docs


def join_tokens(words):
    out, quote_open = "", False
    attach_next = True
    for w in words:
        if w in ("``", "''"):
            if w == "``":
                out += ("" if attach_next else " ") + '"'
                attach_next = True
            else:
                out += '"'
                attach_next = False
            continue
        if w in ("(", "["):
            out += ("" if attach_next else " ") + w
            attach_next = True
            continue
        if w == "--":
            out += " --"
            attach_next = False
            continue
        if w in NO_SPACE_BEFORE or attach_next:
            out += w
        else:
            out += " " + w
        attach_next = False
    out = re.sub(r"\s+", " ", out).strip()
    return out[:1].upper() + out[1:]


def wordnet_docs(folder, per_doc=60):
    defs, examples = [], []
    for pos in ("noun", "verb", "adj", "adv"):
        with open(os.path.join(folder, "data." + pos), encoding="latin-1") as f:
            for line in f:
                if line.startswith("  ") or "|" not in line:
                    continue
                head, gloss = line.split("|", 1)
                fields = head.split()
                lemma = fields[4].replace("_", " ")
                lemma = re.sub(r"\(.*\)$", "", lemma)
                parts = [p.strip() for p in gloss.strip().split(";") if p.strip()]
                quoted = [p.strip('"').strip() for p in parts if p.startswith('"')]
                plain = [p for p in parts if not p.startswith('"')]
                if plain:
                    defs.append(f"{lemma}: {'; '.join(plain)}.")
                for q in quoted:
                    if len(q.split()) >= 4:
                        q = q[:1].upper() + q[1:]
                        examples.append(q if q[-1] in ".!?" else q + ".")
    docs = ["\n".join(defs[i:i + per_doc]) for i in range(0, len(defs), per_doc)]
    docs += [" ".join(examples[i:i + per_doc]) for i in range(0, len(examples), per_doc)]
    return docs


def kjv_docs(path):
    """One document per chapter; the chapter headings and verse numbers are dropped."""
    docs, cur = [], []
    with open(path, encoding="latin-1") as f:
        for line in f:
            if line[:1] not in (" ", "\n", "") and cur:
                docs.append("\n".join(cur))
                cur = []
            s = re.sub(r"^\d+\s+", "", line.strip())
            if s and line[:1] == " ":
                cur.append(s)
    if cur:
        docs.append("\n".join(cur))
    return docs


WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)*")
SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+|\n")
CLITICS = {"s", "t", "d", "m", "ll", "re", "ve"}


def load_dictionary(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return {line.strip() for line in f if line.strip()}


def in_dictionary(word, words):
    """The test `tokenscope eval` applies: the word, or its lower case, or its parts around
    apostrophes (clitics such as 's and n't after the first) are in the word list."""
    if word in words or word.lower() in words:
        return True
    parts = word.split("'")
    if len(parts) == 1:
        return False
    return all(p and (p in words or p.lower() in words or (i > 0 and p.lower() in CLITICS))
               for i, p in enumerate(parts))


def keep_dictionary_sentences(doc, words):
    """Keeps the sentences (and clauses ended by ; or :) of three words or more whose every word
    is a dictionary word, so names, archaic forms (hath, cometh), abbreviations and foreign words do not reach the
    model. Line breaks between kept pieces stay; a run of dropped pieces becomes one break."""
    out, line = [], []
    pieces = re.split(r"(\n)", doc)
    for chunk in pieces:
        if chunk == "\n":
            if line:
                out.append(" ".join(line))
                line = []
            continue
        for piece in re.split(r"(?<=[.!?;:])\s+", chunk):
            piece = piece.strip()
            ws = WORD.findall(piece)
            if len(ws) >= 3 and all(in_dictionary(w, words) for w in ws):
                line.append(piece)
    if line:
        out.append(" ".join(line))
    return "\n".join(out)


def main():
    brown, wordnet, kjv = sys.argv[1], sys.argv[2], sys.argv[3]
    docs = brown_docs(brown) + wordnet_docs(wordnet) + kjv_docs(kjv)
    if len(sys.argv) > 4:
        words = load_dictionary(sys.argv[4])
        if len(sys.argv) > 5:  # only the N most frequent words of the text (any case)
            counts = collections.Counter(w.lower() for d in docs for w in WORD.findall(d)
                                         if in_dictionary(w, words))
            top = {w for w, _ in counts.most_common(int(sys.argv[5]))}
            words = {w for w in words if w.lower() in top}
        docs = [keep_dictionary_sentences(d, words) for d in docs]
        docs = [d for d in docs if len(d) >= 200]
    random.Random(1).shuffle(docs)
    sys.stdout.write(SEP.join(docs))


if __name__ == "__main__":
    main()

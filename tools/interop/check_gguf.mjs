// Reads GGUF files written by tokenscope with Hugging Face's JavaScript GGUF parser
// (@huggingface/gguf) and checks, per file: (1) it sees the same container as tokenscope's own
// reader (`tokenscope info --json`): every key with its type and value, every tensor's name,
// shape, type and offset; (2) the file keeps the rules of the GGUF specification (alignment,
// sizes, padding, names); (3) the llama.cpp conventions a llama-architecture file needs (key and
// tensor names, shapes from the hyper-parameters, tensor types from the requested --type).
// Usage: node check_gguf.mjs TOKENSCOPE FILE[=TYPE]...  (TYPE: the convert --type it was written
// with; omitted: the matrix type is not checked). Exit status 1 when any check fails.
import {readFileSync} from "node:fs";
import {basename} from "node:path";
import {gguf, GGMLQuantizationType, GGUFValueType} from "@huggingface/gguf";
import {BLOCKS, CONVERT_TYPES, Report, fileArgs, matrixType, tensorBytes, tokenscope} from "./lib.mjs";

const [bin, ...items] = process.argv.slice(2);
if (!bin || items.length === 0) {
  console.error("usage: node check_gguf.mjs TOKENSCOPE FILE[=TYPE]...");
  process.exit(2);
}

const HEADER_KEYS = new Set(["version", "tensor_count", "kv_count"]);  // not metadata keys

// A parsed value in plain numbers (u64 values arrive as BigInt).
const plain = (v) => (typeof v === "bigint" ? Number(v) : Array.isArray(v) ? v.map(plain) : v);

// The first difference between two JSON-like values, or "" when equal (numbers compared exactly).
function diff(a, b, path = "") {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return `${path}: array vs not`;
    if (a.length !== b.length) return `${path}: ${a.length} items vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = diff(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
    return "";
  }
  return Object.is(a, b) || a === b ? "" : `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}

// (1) @huggingface/gguf and tokenscope's reader see the same file.
function compareWithTokenscope(r, hf, ts) {
  const g = ts.gguf;
  r.check("header: version 3, little-endian", hf.metadata.version === 3 && hf.littleEndian && g.version === 3);
  const hfKeys = Object.keys(hf.typedMetadata).filter((k) => !HEADER_KEYS.has(k));
  const tsKeys = g.metadata.map((e) => e.key);
  r.check(`metadata: the same ${tsKeys.length} keys in the same order`, diff(hfKeys, tsKeys) === "", diff(hfKeys, tsKeys));
  let typeErrors = [], valueErrors = [];
  for (const e of g.metadata) {
    const h = hf.typedMetadata[e.key];
    if (!h) continue;
    const hType = GGUFValueType[h.type].toLowerCase();
    const hSub = h.subType === undefined ? undefined : GGUFValueType[h.subType].toLowerCase();
    if (hType !== e.type || hSub !== e.array_type) typeErrors.push(`${e.key}: ${hType}/${hSub} vs ${e.type}/${e.array_type}`);
    const d = diff(plain(h.value), e.value, e.key);
    if (d) valueErrors.push(d);
  }
  r.check("metadata: every value type (and array item type) agrees", typeErrors.length === 0, typeErrors.slice(0, 3).join("; "));
  r.check("metadata: every value agrees exactly (arrays item by item)", valueErrors.length === 0, valueErrors.slice(0, 3).join("; "));

  const tensorErrors = [];
  if (hf.tensorInfos.length !== g.tensors.length) tensorErrors.push(`${hf.tensorInfos.length} tensors vs ${g.tensors.length}`);
  hf.tensorInfos.forEach((t, i) => {
    const o = g.tensors[i];
    if (!o) return;
    const got = {name: t.name, shape: plain(t.shape), type: GGMLQuantizationType[t.dtype], offset: Number(t.offset)};
    const want = {name: o.name, shape: o.shape, type: o.type, offset: o.offset};
    const d = diff(Object.values(got), Object.values(want), `tensor ${i}`);
    if (d) tensorErrors.push(`${d} (${JSON.stringify(got)} vs ${JSON.stringify(want)})`);
  });
  r.check(`tensors: the same ${g.tensors.length} names, shapes, types and offsets`, tensorErrors.length === 0, tensorErrors.slice(0, 2).join("; "));
  r.check(`tensor data starts at the same byte (${g.data_offset})`, Number(hf.tensorDataOffset) === g.data_offset, `@huggingface/gguf says ${hf.tensorDataOffset}`);
  r.check(`parameter count ${ts.n_params}`, hf.parameterCount === ts.n_params, `@huggingface/gguf counts ${hf.parameterCount}`);
}

// (2) The rules of the GGUF specification, checked on the bytes as @huggingface/gguf reads them.
function checkSpec(r, hf, bytes) {
  const align = hf.typedMetadata["general.alignment"]?.value ?? 32;
  const dataStart = Number(hf.tensorDataOffset);
  const problems = [];
  if (dataStart % align !== 0) problems.push(`data section at ${dataStart}`);
  const names = new Set();
  const spans = [];
  for (const t of hf.tensorInfos) {
    const type = GGMLQuantizationType[t.dtype];
    const ne = plain(t.shape);
    if (names.has(t.name)) problems.push(`duplicate tensor ${t.name}`);
    names.add(t.name);
    if (Buffer.byteLength(t.name) >= 64) problems.push(`tensor name ${t.name} is 64 bytes or longer`);
    if (!(type in BLOCKS)) {
      problems.push(`${t.name}: type ${type} is not one tokenscope writes`);
      continue;
    }
    if (ne[0] % BLOCKS[type][0] !== 0) problems.push(`${t.name}: rows of ${ne[0]} do not fill ${type} blocks`);
    const off = Number(t.offset);
    if (off % align !== 0) problems.push(`${t.name}: offset ${off} not a multiple of ${align}`);
    spans.push([off, off + tensorBytes(type, ne), t.name]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  let end = 0;
  const padding = [[Number(hf.tensorInfoByteRange[1]), dataStart]];  // header end -> data start
  for (const [lo, hi, name] of spans) {
    if (lo < end) problems.push(`${name} overlaps the tensor before it`);
    padding.push([dataStart + end, dataStart + lo]);
    end = Math.max(end, hi);
  }
  // (A file without tensors may end before the aligned start of its empty data section.)
  if (spans.length && dataStart + end > bytes.length) problems.push(`tensor data runs ${dataStart + end - bytes.length} bytes past the end`);
  r.check(`layout: alignment ${align}, offsets aligned, sizes match the types, no overlap, inside the file`, problems.length === 0, problems.slice(0, 3).join("; "));
  const dirty = padding.filter(([a, b]) => bytes.subarray(a, b).some((x) => x !== 0));
  const trailing = spans.length ? bytes.length - (dataStart + end) : 0;
  r.check("padding bytes are zero and nothing follows the last tensor", dirty.length === 0 && trailing === 0,
          `${dirty.length} padding runs not zero, ${trailing} trailing bytes`);
  const badKeys = Object.keys(hf.typedMetadata).filter((k) => !HEADER_KEYS.has(k) && !/^[a-z0-9_]+(\.[a-z0-9_]+)+$/.test(k));
  r.check("keys are lower_snake_case, dot-separated, ASCII", badKeys.length === 0, badKeys.join(", "));
}

// (3) What llama.cpp needs from a llama-architecture file, and the types --type asked for.
function checkLlamaLayout(r, hf, type) {
  const md = (k) => plain(hf.typedMetadata[k]?.value);
  const arch = md("general.architecture");
  if (arch !== "llama" || hf.tensorInfos.length === 0) {
    r.note(`${arch} file${hf.tensorInfos.length ? "" : " without tensors"}: llama layout checks skipped`);
    return;
  }
  const need = ["context_length", "embedding_length", "block_count", "feed_forward_length", "attention.head_count",
                "attention.head_count_kv", "attention.layer_norm_rms_epsilon", "rope.dimension_count", "rope.freq_base"];
  const missing = need.filter((k) => md(`llama.${k}`) === undefined);
  r.check("llama.* hyper-parameters present", missing.length === 0, `missing ${missing.join(", ")}`);
  const [d, nL, nH, nKv, ff] = ["embedding_length", "block_count", "attention.head_count", "attention.head_count_kv",
                                "feed_forward_length"].map((k) => md(`llama.${k}`));
  const hd = d / nH;
  const vocab = md("tokenizer.ggml.tokens")?.length;
  const want = new Map([["token_embd.weight", [d, vocab]], ["output_norm.weight", [d]]]);
  if (hf.tensorInfos.some((t) => t.name === "output.weight")) want.set("output.weight", [d, vocab]);
  for (let i = 0; i < nL; i++) {
    const b = `blk.${i}.`;
    want.set(b + "attn_norm.weight", [d]);
    want.set(b + "attn_q.weight", [d, nH * hd]);
    want.set(b + "attn_k.weight", [d, nKv * hd]);
    want.set(b + "attn_v.weight", [d, nKv * hd]);
    if (hf.tensorInfos.some((t) => t.name === b + "attn_q.bias")) {  // optional in llama.cpp's llama
      want.set(b + "attn_q.bias", [nH * hd]);
      want.set(b + "attn_k.bias", [nKv * hd]);
      want.set(b + "attn_v.bias", [nKv * hd]);
    }
    want.set(b + "attn_output.weight", [nH * hd, d]);
    want.set(b + "ffn_norm.weight", [d]);
    want.set(b + "ffn_gate.weight", [d, ff]);
    want.set(b + "ffn_up.weight", [d, ff]);
    want.set(b + "ffn_down.weight", [ff, d]);
  }
  const got = new Map(hf.tensorInfos.map((t) => [t.name, t]));
  const problems = [];
  for (const [name, shape] of want) {
    const t = got.get(name);
    if (!t) problems.push(`missing ${name}`);
    else if (diff(plain(t.shape), shape)) problems.push(`${name} is ${JSON.stringify(plain(t.shape))}, expected ${JSON.stringify(shape)}`);
  }
  for (const name of got.keys()) if (!want.has(name)) problems.push(`unexpected tensor ${name}`);
  r.check(`llama.cpp tensor names and shapes (${want.size} tensors, ${nL} blocks, head_dim ${hd})`, problems.length === 0, problems.slice(0, 3).join("; "));
  r.check("rope.dimension_count is head_dim (no partial RoPE)", md("llama.rope.dimension_count") === hd);

  if (!type) return;
  const [wantType, fileType] = CONVERT_TYPES[type];
  const typeErrors = [];
  const counts = {};
  for (const t of hf.tensorInfos) {
    const ne = plain(t.shape);
    const expect = ne.length === 1 ? "F32" : matrixType(wantType, ne[0]);
    const actual = GGMLQuantizationType[t.dtype];
    counts[actual] = (counts[actual] ?? 0) + 1;
    if (actual !== expect) typeErrors.push(`${t.name} is ${actual}, expected ${expect}`);
  }
  const summary = Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(", ");
  r.check(`tensor types for --type ${type}: ${summary}`, typeErrors.length === 0, typeErrors.slice(0, 3).join("; "));
  r.check(`general.file_type ${fileType} (llama_ftype for ${type})`, md("general.file_type") === fileType, `file says ${md("general.file_type")}`);
}

// The tokenizer metadata is consistent: list lengths, token types, special ids, merges.
function checkTokenizer(r, hf) {
  const md = (k) => plain(hf.typedMetadata[k]?.value);
  const tokens = md("tokenizer.ggml.tokens");
  if (!tokens) {
    r.note("no tokenizer in this file");
    return;
  }
  const n = tokens.length;
  const problems = [];
  const model = md("tokenizer.ggml.model");
  if (!["gpt2", "llama"].includes(model)) problems.push(`tokenizer.ggml.model ${model}`);
  for (const k of ["scores", "token_type"]) {
    const a = md(`tokenizer.ggml.${k}`);
    if (a !== undefined && a.length !== n) problems.push(`${k} has ${a.length} items for ${n} tokens`);
  }
  const types = md("tokenizer.ggml.token_type") ?? [];
  if (types.some((t) => t < 1 || t > 6)) problems.push("a token_type outside 1..6");
  for (const k of ["bos_token_id", "eos_token_id", "unknown_token_id", "padding_token_id"]) {
    const id = md(`tokenizer.ggml.${k}`);
    if (id !== undefined && !(id >= 0 && id < n)) problems.push(`${k} ${id} outside the vocabulary`);
  }
  if (model === "gpt2") {
    const known = new Set(tokens);
    const merges = md("tokenizer.ggml.merges") ?? [];
    const bad = merges.filter((m) => {
      const parts = m.split(" ");
      return parts.length !== 2 || !known.has(parts[0]) || !known.has(parts[1]) || !known.has(parts[0] + parts[1]);
    });
    if (bad.length) problems.push(`${bad.length} merges do not join two tokens into a third (${JSON.stringify(bad[0])})`);
    if (md("tokenizer.ggml.add_space_prefix") === true) problems.push("add_space_prefix true on a BPE vocabulary");
    if (md("tokenizer.ggml.pre") === "gpt2") problems.push('pre-tokenizer "gpt2" (llama.cpp knows "gpt-2")');
  }
  const eosType = md("tokenizer.ggml.eos_token_id") !== undefined ? types[md("tokenizer.ggml.eos_token_id")] : undefined;
  if (eosType !== undefined && eosType !== 3) problems.push(`the EOS token has type ${eosType}, not control (3)`);
  r.check(`tokenizer: ${model}, ${n} tokens, lists, ids and merges consistent`, problems.length === 0, problems.join("; "));
}

const report = new Report();
for (const {file, type} of fileArgs(items)) {
  report.section(`${basename(file)}${type ? ` (--type ${type})` : ""}: @huggingface/gguf vs tokenscope`);
  const hf = await report.guard("@huggingface/gguf parses the file", () =>
    gguf(file, {allowLocalFile: true, typedMetadata: true, computeParametersCount: true}));
  const ts = await report.guard("tokenscope info --json", () => JSON.parse(tokenscope(bin, ["info", "--json", "--model", file])));
  if (!hf || !ts) continue;
  report.check(`@huggingface/gguf parses ${hf.tensorInfos.length} tensors, ${Object.keys(hf.typedMetadata).length - 3} keys`, true);
  compareWithTokenscope(report, hf, ts);
  checkSpec(report, hf, readFileSync(file));
  checkLlamaLayout(report, hf, type);
  checkTokenizer(report, hf);
}
process.exit(report.finish("@huggingface/gguf checks"));

// Runs GGUF files written by tokenscope in llama.cpp (node-llama-cpp's prebuilt CPU binary) and
// compares, per file: node-llama-cpp's own GGUF reader against `tokenscope info --json`; that
// llama.cpp loads the file without warnings; the token ids of several texts and their
// detokenized text; the next-token log-probabilities of every step of a greedy run, llama.cpp fed
// tokenscope's tokens (`tokenscope trace --json`), within a tolerance per tensor type; and
// llama.cpp's own greedy continuation against tokenscope's.
// Usage: node check_llama.mjs TOKENSCOPE FILE[=TYPE]...  Exit status 1 when any check fails.
import {mkdtempSync, readFileSync, rmSync} from "node:fs";
import {tmpdir} from "node:os";
import {basename, join} from "node:path";
import {getLlama, LlamaLogLevel, readGgufFileInfo} from "node-llama-cpp";
import {Report, fileArgs, tokenscope} from "./lib.mjs";

const [bin, ...items] = process.argv.slice(2);
if (!bin || items.length === 0) {
  console.error("usage: node check_llama.mjs TOKENSCOPE FILE[=TYPE]...");
  process.exit(2);
}

const STEPS = Number(process.env.TS_INTEROP_STEPS ?? 40);  // greedy tokens per file
const PROMPT = "Once upon a time";
// Texts for the tokenizers: spaces, tabs and new lines, digits, contractions, punctuation,
// non-ASCII (two-, three-byte and unknown characters), special-token text.
const TEXTS = [
  PROMPT,
  "Mia saw a \u2603 in the caf\u00e9.",
  'Tom said, "Let\'s go!"  Two  spaces,\ttabs and\nnew lines.\n\n',
  "It was 2024, and 12345 apples cost $3.50 (not 4).",
  "don't I'll we're THEY'VE can't",
  "   three leading spaces and a trailing one ",
  "<|endoftext|>The end.",
  "\u00bfQu\u00e9? \u65e5\u672c\u8a9e \ud83d\ude00",
];
// Largest log-probability difference allowed, as a fraction of max(1, max |logit|): about 2-3
// times what was measured. llama.cpp multiplies a quantized matrix with activations quantized to
// 8 bits (Q8_0 / Q8_K) and an F16 one with F16 activations, while tokenscope dequantizes the
// weights and computes in fp32; so only F32 files agree to rounding. Measured (stories-1m, the
// 256-wide test model): f32 1.9e-6, f16 3.8e-4, q8_0 1.4e-2, q4_0 9.0e-3, q4_k 1.7e-2, q5_k
// 1.4e-2, q6_k 1.2e-2. llama.cpp on a 4-bit file is 8 to 19 times further from tokenscope on the
// F32 original (1.3e-1 to 1.6e-1) than from tokenscope on the same file; on q5_k, q6_k and q8_0
// only 1.5 to 3 times, so there only gross decoding errors would show.
const TOLERANCE = {f32: 1e-4, f16: 2e-3, q8_0: 3e-2, q4_0: 3e-2, q4_k: 4e-2, q5_k: 4e-2, q6_k: 3e-2, "": 4e-2};

// Text that may not be valid UTF-8 in the trace JSON: a string, or {hex: "e29c"}.
const traceBytes = (b) => (typeof b === "string" ? Buffer.from(b, "utf8") : Buffer.from(b.hex, "hex"));

// node-llama-cpp's nested metadata -> {"a.b.c": value}.
function flatten(obj, prefix = "", out = {}) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === "object" && !Array.isArray(v)) flatten(v, key, out);
    else out[key] = v;
  }
  return out;
}

// node-llama-cpp's GGUF reader (TypeScript, separate from llama.cpp's) vs tokenscope's.
async function compareReader(r, file, ts) {
  const info = await readGgufFileInfo(file, {readTensorInfo: true, sourceType: "filesystem", logWarnings: false});
  const g = ts.gguf;
  const flat = flatten(info.metadata);
  const bad = g.metadata.filter((e) => JSON.stringify(flat[e.key]) !== JSON.stringify(e.value)).map((e) => e.key);
  const extra = Object.keys(flat).filter((k) => !g.metadata.some((e) => e.key === k));
  r.check(`node-llama-cpp's GGUF reader: the same ${g.metadata.length} keys and values`, bad.length === 0 && extra.length === 0,
          `differ: ${bad.slice(0, 4).join(", ")}; only there: ${extra.slice(0, 4).join(", ")}`);
  const tErr = [];
  if (info.tensorInfo.length !== g.tensors.length) tErr.push(`${info.tensorInfo.length} tensors vs ${g.tensors.length}`);
  info.tensorInfo.forEach((t, i) => {
    const o = g.tensors[i];
    if (o && (t.name !== o.name || JSON.stringify(t.dimensions.map(Number)) !== JSON.stringify(o.shape) ||
              t.ggmlType !== o.type_id || Number(t.offset) !== o.offset || Number(t.fileOffset) !== g.data_offset + o.offset)) {
      tErr.push(`${o.name}: ${JSON.stringify(t)}`);
    }
  });
  r.check(`node-llama-cpp's GGUF reader: the same ${g.tensors.length} tensor names, shapes, types and offsets`,
          tErr.length === 0, tErr.slice(0, 2).join("; "));
}

// Tokenization: tokenscope's ids (no BOS) vs llama.cpp's (special-token text parsed, as
// tokenscope does), and llama.cpp's detokenization of tokenscope's ids vs the text.
function compareTokenizer(r, model, file) {
  const idErrors = [], textErrors = [];
  let n = 0;
  for (const text of TEXTS) {
    const out = tokenscope(bin, ["tokenize", "--model", file, "--no-bos", "--ids", "--prompt", text]).trim();
    const ours = out === "" ? [] : out.split(/\s+/).map(Number);
    const theirs = Array.from(model.tokenize(text, true));
    n += ours.length;
    if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
      idErrors.push(`${JSON.stringify(text)}: tokenscope [${ours}] llama.cpp [${theirs}]`);
    }
    const back = model.detokenize(ours, true);
    if (back !== text) textErrors.push(`${JSON.stringify(text)} came back as ${JSON.stringify(back)}`);
  }
  r.check(`tokenizer: the same ids for ${TEXTS.length} texts (${n} tokens)`, idErrors.length === 0, idErrors.slice(0, 2).join("; "));
  r.check("tokenizer: llama.cpp detokenizes tokenscope's ids to the original texts", textErrors.length === 0,
          textErrors.slice(0, 2).join("; "));
}

// One greedy run of tokenscope (trace JSON: prompt ids, each step's token and logits).
function tokenscopeGreedy(file, dir) {
  const json = join(dir, "trace.json");
  tokenscope(bin, ["trace", "--model", file, "--prompt", PROMPT, "--temperature", "0", "--max-tokens", String(STEPS),
                   "--record", "off", "--json", json]);
  const t = JSON.parse(readFileSync(json, "utf8"));
  const steps = t.lanes[0].steps;
  return {
    prompt: t.prompt.tokens,
    tokens: steps.map((s) => s.token),
    logits: steps.map((s) => s.forward.logits.map(Number)),
    text: Buffer.concat(steps.map((s) => traceBytes(s.piece))).toString("utf8"),
  };
}

const argmax = (a) => a.reduce((best, v, i) => (v > a[best] ? i : best), 0);
const logSoftmax = (a) => {
  const m = Math.max(...a);
  const lse = m + Math.log(a.reduce((sum, v) => sum + Math.exp(v - m), 0));
  return a.map((v) => v - lse);
};

// A context of n_ctx positions, fp32 KV cache, one thread; disposed after fn(sequence).
async function withSequence(model, nCtx, fn) {
  const ctx = await model.createContext({
    contextSize: nCtx, batchSize: nCtx, sequences: 1, threads: 1, flashAttention: false,
    experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32",
  });
  try {
    return await fn(ctx.getSequence());
  } finally {
    await ctx.dispose();
  }
}

// llama.cpp fed the prompt and then tokenscope's tokens: its next-token distribution at every
// step vs tokenscope's logits. node-llama-cpp 3.21 gives probabilities (softmax of the raw
// logits at temperature 1, no filters), so log-probabilities are compared: the logits up to the
// constant softmax ignores. Returns the largest difference of each step.
async function compareLogits(r, model, ours, nCtx, tolerance) {
  const vocab = ours.logits[0].length;
  const want = {generateNext: {probabilities: true, options: {temperature: 1, topK: 0, topP: 1, minP: 0}}};
  const inputs = [ours.prompt.map((t, i) => (i === ours.prompt.length - 1 ? [t, want] : t))];
  for (let k = 0; k + 1 < ours.tokens.length; k++) inputs.push([[ours.tokens[k], want]]);
  let worst = 0, worstStep = 0, agree = 0;
  const mismatches = [], diffs = [];
  await withSequence(model, nCtx, async (seq) => {
    for (let k = 0; k < inputs.length; k++) {
      const res = await seq.controlledEvaluate(inputs[k]);
      const theirs = new Array(vocab).fill(-Infinity);
      for (const [id, p] of res[res.length - 1].next.probabilities) theirs[id] = Math.log(p);
      const logits = ours.logits[k];
      const mine = logSoftmax(logits);
      let d = 0;
      for (let i = 0; i < vocab; i++) {
        // A probability below float32's range is 0 there: fine when ours is that small too.
        if (theirs[i] === -Infinity && mine[i] < -100) continue;
        d = Math.max(d, Math.abs(theirs[i] - mine[i]));
      }
      diffs.push(d);
      const rel = d / Math.max(1, ...logits.map(Math.abs));
      if (!(rel <= worst)) [worst, worstStep] = [rel, k];
      const pick = argmax(theirs);
      if (pick === ours.tokens[k]) agree++;
      // A different pick is allowed only on a near tie: within the measured difference.
      else if (logits[ours.tokens[k]] - logits[pick] > 2 * d) {
        mismatches.push(`step ${k}: llama.cpp picks ${pick}, tokenscope ${ours.tokens[k]}`);
      }
    }
  });
  r.check(`log-probabilities over ${inputs.length} steps (llama.cpp fed tokenscope's tokens): max difference ` +
          `${worst.toExponential(2)} x max(1, |logit|) <= ${tolerance} (worst at step ${worstStep})`,
          worst <= tolerance, `above the tolerance ${tolerance}`);
  r.check(`greedy pick at every step: ${agree}/${inputs.length} the same${agree < inputs.length ? ", the others near ties" : ""}`,
          mismatches.length === 0, mismatches.slice(0, 2).join("; "));
  return diffs;
}

// llama.cpp's own greedy decoding from the prompt (its sampler, temperature 0). The two may part
// only where tokenscope's top two logits are closer than the difference measured at that step.
async function compareGreedy(r, model, ours, nCtx, diffs) {
  const got = await withSequence(model, nCtx, async (seq) => {
    const out = [];
    for await (const tok of seq.evaluate(ours.prompt, {temperature: 0, yieldEogToken: true})) {
      out.push(tok);
      if (out.length >= ours.tokens.length || tok === model.tokens.eos) break;
    }
    return out;
  });
  let first = got.findIndex((t, i) => t !== ours.tokens[i]);
  if (first < 0 && got.length !== ours.tokens.length) first = Math.min(got.length, ours.tokens.length);
  const parted = `llama.cpp [${got.slice(first, first + 4)}] tokenscope [${ours.tokens.slice(first, first + 4)}]`;
  if (first < 0) {
    r.check(`greedy continuation: llama.cpp generates tokenscope's ${ours.tokens.length} tokens`, true);
    const text = model.detokenize(got, false, ours.prompt);  // after the prompt: no space dropped
    r.check("greedy continuation: the same text", text === ours.text, `${JSON.stringify(text)} vs ${JSON.stringify(ours.text)}`);
    return;
  }
  const logits = ours.logits[first];
  const d = diffs?.[first] ?? 0;
  const margin = first < got.length ? logits[ours.tokens[first]] - logits[got[first]] : Infinity;
  r.check(`greedy continuation: the same ${first} tokens, then a near tie at step ${first} (tokenscope's margin ` +
          `${margin.toExponential(2)} <= 2 x the measured difference ${d.toExponential(2)})`,
          margin <= 2 * d, `they part at step ${first}: ${parted}`);
}

const logs = [];
const llama = await getLlama({
  gpu: false, build: "never", skipDownload: true, progressLogs: false, logLevel: LlamaLogLevel.warn,
  logger: (level, message) => logs.push(`${level}: ${message.trim()}`),
});
const nlc = JSON.parse(readFileSync(new URL("./node_modules/node-llama-cpp/package.json", import.meta.url), "utf8"));
console.log(`llama.cpp ${llama.llamaCppRelease.release} (${llama.llamaCppRelease.repo}) as built by node-llama-cpp ${nlc.version}: ${llama.buildType} binary, CPU`);
const dir = mkdtempSync(join(tmpdir(), "ts-interop-"));
const report = new Report();
for (const {file, type} of fileArgs(items)) {
  report.section(`${basename(file)}${type ? ` (--type ${type})` : ""}: llama.cpp vs tokenscope`);
  const ts = await report.guard("tokenscope info --json", () => JSON.parse(tokenscope(bin, ["info", "--json", "--model", file])));
  if (!ts) continue;
  await report.guard("node-llama-cpp's GGUF reader", () => compareReader(report, file, ts));
  logs.length = 0;
  const model = await report.guard("llama.cpp loads the file", () => llama.loadModel({modelPath: file, gpuLayers: 0}));
  await new Promise((done) => setTimeout(done, 50));  // llama.cpp's log lines arrive asynchronously
  if (!model) {
    for (const line of logs.filter((l) => /error/i.test(l)).slice(-3)) report.note(line);
    continue;
  }
  report.check("llama.cpp loads the file without warnings", logs.length === 0, logs.slice(0, 3).join(" | "));
  const tok = model.tokens;
  report.check(`llama.cpp reads n_ctx ${ts.n_ctx}, BOS ${tok.bos}, EOS ${tok.eos}, adds BOS ${tok.shouldPrependBosToken}`,
               model.trainContextSize === ts.n_ctx);
  await report.guard("tokenizer", () => compareTokenizer(report, model, file));
  const ours = await report.guard("tokenscope trace --json", () => tokenscopeGreedy(file, dir));
  if (ours) {
    const ids = [...(tok.shouldPrependBosToken ? [tok.bos] : []), ...model.tokenize(PROMPT, true)];
    report.check(`prompt ids with BOS: [${ours.prompt}]`, JSON.stringify(ids) === JSON.stringify(ours.prompt), `llama.cpp [${ids}]`);
    // ggml computes GELU through a 16-bit lookup table (GGML_GELU_FP16), tokenscope in fp32:
    // a GELU block (gpt2) differs by up to ~1e-4 on an F32 file (measured 9.6e-5 on tiny-gpt2),
    // so it is held to the F16 tolerance at least.
    const gelu = ts.mlp === "gelu";
    const tolerance = Math.max(TOLERANCE[type] ?? TOLERANCE[""], gelu ? TOLERANCE.f16 : 0);
    const diffs = await report.guard("logits", () => compareLogits(report, model, ours, ts.n_ctx, tolerance));
    await report.guard("greedy", () => compareGreedy(report, model, ours, ts.n_ctx, diffs));
  }
  await model.dispose();
}
rmSync(dir, {recursive: true, force: true});
await llama.dispose();
process.exit(report.finish("llama.cpp checks"));

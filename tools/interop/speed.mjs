// llama.cpp's speed on one GGUF file (node-llama-cpp's prebuilt CPU binary), measured the way
// `tokenscope bench --roofline` measures its own: prefill tokens/s of a prompt of N token ids, and
// decode tokens/s of greedy steps after a short prompt, at --threads and, for the decode, at one
// thread too. Token ids are fed directly (no tokenizer): pseudo-random ids in [3, vocab) after
// BOS (1), as in tokenscope's bench.
// Usage: node speed.mjs FILE [--threads 2] [--prefill N] [--prompt P] [--decode S] [--reps R]
//   --prefill  length of the prefill (default min(512, n_ctx): tokenscope's longest)
//   --prompt   prompt before the decode (default min(16, n_ctx / 4): tokenscope's)
//   --decode   greedy steps (default min(200, n_ctx - prompt))
//   --reps     timed repetitions of each, after one untimed warm-up (default 3); the BEST is kept,
//              as tokenscope keeps its best prefill
// Prints one JSON object. Each context: one sequence, batch (= llama.cpp's micro-batch here) as
// large as the prefill, F32 KV cache (fp32 arithmetic, as tokenscope's). Every measurement is made
// with llama.cpp's flash attention off and on (fused fp32 attention on the CPU; the default of
// llama.cpp is "auto", which turns it on): here it doubles the prefill and slows the decode, so
// the headline figure of each is the faster of the two, and "flash_attention" says which.
// Its size is the file's n_ctx + 1: node-llama-cpp keeps the last position of a sequence free
// (filling it would shift the context), so a prefill of all n_ctx positions, as tokenscope's on a
// 256-position model, needs one more slot; no position past n_ctx - 1 is used.
//
// Timed region. "tokens_per_s" comes from llama.cpp's own counters (llama_perf_context, read by
// printing and resetting them around each run): the time inside llama_decode and the
// llama_synchronize that node-llama-cpp's worker thread calls right after it, prompt batches and
// single-token batches counted apart. No JavaScript and no sampling is in it, as tokenscope's bench
// times Forward::run alone. "wall_tokens_per_s" is performance.now() around the API calls (one
// awaited evaluateWithoutGeneratingNewTokens; for the decode, sequence.evaluate's generator from
// its first token to its last): it adds node-llama-cpp's queueing, the hand-off to its worker
// thread, greedy sampling over the whole vocabulary and the promise round trips.
//
// Threads: node-llama-cpp does not give llama.cpp a thread pool, so ggml starts and joins its
// worker threads inside every llama_decode call (one new thread per call at 2 threads). That cost
// is llama.cpp's as node-llama-cpp runs it, and it weighs most on single-token decode steps; the
// one-thread decode has no worker thread, which is why it is measured as well.
import {readFileSync} from "node:fs";
import {getLlama, LlamaLogLevel} from "node-llama-cpp";

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith("--") && (i === 0 || !args[i - 1].startsWith("--")));
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? Number(args[i + 1]) : fallback;
};
if (!file) {
  console.error("usage: node speed.mjs FILE [--threads 2] [--prefill N] [--prompt P] [--decode S] [--reps R]");
  process.exit(2);
}
const threads = option("--threads", 2);
const reps = option("--reps", 3);

// llama.cpp's log lines at info level and above: the counters are printed there.
const logs = [];
const llama = await getLlama({
  gpu: false, build: "never", skipDownload: true, progressLogs: false, logLevel: LlamaLogLevel.info,
  logger: (level, message) => logs.push(message),
});
const nlc = JSON.parse(readFileSync(new URL("./node_modules/node-llama-cpp/package.json", import.meta.url), "utf8"));
const model = await llama.loadModel({modelPath: file, gpuLayers: 0});
// ggml picks one of its CPU builds at run time: the one mapped into this process.
const cpuVariant = readFileSync("/proc/self/maps", "utf8").match(/libggml-cpu-([\w-]+)\.so/)?.[1] ?? "unknown";
const nCtx = model.trainContextSize;
const vocab = Number(model.fileInfo.tensorInfo.find((t) => t.name === "token_embd.weight").dimensions[1]);
const prefillN = Math.min(option("--prefill", Math.min(512, nCtx)), nCtx);
const promptN = option("--prompt", Math.min(16, Math.max(1, Math.floor(nCtx / 4))));
const decodeN = Math.max(1, Math.min(option("--decode", 200), nCtx - promptN));

// n ids: BOS, then ids in [3, vocab) from a fixed 32-bit LCG.
function ids(n, seed) {
  let s = seed >>> 0;
  return Array.from({length: n}, (_, i) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return i === 0 ? 1 : 3 + (s % (vocab - 3));
  });
}

async function withContext(nThreads, flashAttention, fn) {
  const ctx = await model.createContext({
    contextSize: nCtx + 1, batchSize: Math.max(prefillN, promptN), sequences: 1, threads: nThreads,
    flashAttention, performanceTracking: true,
    experimentalKvCacheKeyType: "F32", experimentalKvCacheValueType: "F32",
  });
  try {
    return await fn(ctx, ctx.getSequence());
  } finally {
    await ctx.dispose();
  }
}

// Prints and resets llama.cpp's counters: {prompt: [ms, tokens], eval: [ms, runs]}.
async function counters(ctx) {
  logs.length = 0;
  await ctx.printTimings();
  const read = (re) => {
    const m = logs.map((l) => re.exec(l)).find((x) => x);
    return m ? [Number(m[1]), Number(m[2])] : [0, 0];
  };
  return {
    prompt: read(/prompt eval time =\s*([\d.]+) ms \/\s*(\d+)/),
    eval: read(/:\s+eval time =\s*([\d.]+) ms \/\s*(\d+)/),
  };
}

async function prefillRun(ctx, seq, tokens) {
  await seq.clearHistory();
  await counters(ctx);
  const t0 = performance.now();
  await seq.evaluateWithoutGeneratingNewTokens(tokens);
  const wall = (performance.now() - t0) / 1000;
  const [ms, n] = (await counters(ctx)).prompt;
  if (n !== tokens.length) throw new Error(`llama.cpp counted ${n} prompt tokens, not ${tokens.length}`);
  return {tokens_per_s: n / (ms / 1000), wall_tokens_per_s: tokens.length / wall};
}

async function decodeRun(ctx, seq, prompt, steps) {
  await seq.clearHistory();
  let k = -1, t0 = 0, wall = 0, counted = [0, 0];
  // EOS is a token like any other here: the greedy steps go on through it.
  for await (const _ of seq.evaluate(prompt, {temperature: 0, yieldEogToken: true})) {
    if (++k === 0) {  // the prompt's pass and the first pick: not timed
      await counters(ctx);
      t0 = performance.now();
    } else if (k === steps) {
      wall = (performance.now() - t0) / 1000;
      counted = (await counters(ctx)).eval;
      break;
    }
  }
  const [ms, n] = counted;
  if (n !== steps) throw new Error(`llama.cpp counted ${n} decode steps, not ${steps}`);
  return {tokens_per_s: n / (ms / 1000), wall_tokens_per_s: steps / wall};
}

// One untimed warm-up, then `reps` runs; the best of each clock.
async function best(run) {
  await run();
  const runs = [];
  for (let r = 0; r < reps; r++) runs.push(await run());
  return {
    tokens_per_s: Math.max(...runs.map((x) => x.tokens_per_s)),
    wall_tokens_per_s: Math.max(...runs.map((x) => x.wall_tokens_per_s)),
    runs,
  };
}

const byFlash = {};
for (const flash of [false, true]) {
  const [prefill, decode] = await withContext(threads, flash, async (ctx, seq) => [
    await best(() => prefillRun(ctx, seq, ids(prefillN, 5))),
    await best(() => decodeRun(ctx, seq, ids(promptN, 9), decodeN)),
  ]);
  const decode1 = threads === 1 ? decode
    : await withContext(1, flash, (ctx, seq) => best(() => decodeRun(ctx, seq, ids(promptN, 9), decodeN)));
  byFlash[flash ? "on" : "off"] = {prefill, decode, decode_1_thread: decode1};
}
// The faster attention path of each measurement (by llama.cpp's own counters).
const fastest = (what) => {
  const on = byFlash.on[what].tokens_per_s > byFlash.off[what].tokens_per_s;
  const r = byFlash[on ? "on" : "off"][what];
  return {tokens_per_s: r.tokens_per_s, wall_tokens_per_s: r.wall_tokens_per_s, flash_attention: on};
};
console.log(JSON.stringify({
  engine: `llama.cpp ${llama.llamaCppRelease.release} (node-llama-cpp ${nlc.version}, prebuilt CPU binary)`,
  cpu_variant: cpuVariant, file, n_ctx: nCtx, vocab_size: vocab, threads, batch_size: Math.max(prefillN, promptN),
  kv_cache: "F32", statistic: `best of ${reps} runs after one warm-up`,
  prefill: {tokens: prefillN, ...fastest("prefill")},
  decode: {prompt_tokens: promptN, steps: decodeN, ...fastest("decode")},
  decode_1_thread: {prompt_tokens: promptN, steps: decodeN, ...fastest("decode_1_thread")},
  flash_attention_off: byFlash.off,
  flash_attention_on: byFlash.on,
}, null, 2));
await model.dispose();
await llama.dispose();

// Shared by the interop checks: running the tokenscope binary, one PASS/FAIL line per check,
// the GGUF facts the checks need (block sizes of the tensor types tokenscope writes, and the
// fallback rule of its writer). Nothing here reads a GGUF file itself.
import {execFileSync} from "node:child_process";

// Runs `tokenscope args...` and returns its stdout; throws with its stderr when it fails.
export function tokenscope(bin, args) {
  try {
    return execFileSync(bin, args, {encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "pipe"]});
  } catch (e) {
    throw new Error(`${bin} ${args.join(" ")} failed: ${(e.stderr || e.message).trim()}`);
  }
}

// One line per check: "  PASS name" or "  FAIL name: why". fails() counts the failures.
export class Report {
  constructor() {
    this.failures = 0;
    this.passes = 0;
  }
  section(title) {
    console.log(`\n${title}`);
  }
  // `why` is printed only when the check fails.
  check(name, ok, why = "") {
    if (ok) {
      this.passes++;
      console.log(`  PASS ${name}`);
    } else {
      this.failures++;
      console.log(`  FAIL ${name}${why ? `: ${why}` : ""}`);
    }
    return ok;
  }
  note(text) {
    console.log(`       ${text}`);
  }
  // Runs fn(); an exception counts as a failure of `name`.
  async guard(name, fn) {
    try {
      return await fn();
    } catch (e) {
      this.check(name, false, e.message.split("\n")[0]);
      return undefined;
    }
  }
  finish(what) {
    console.log(`\n${what}: ${this.passes} passed, ${this.failures} failed`);
    return this.failures === 0 ? 0 : 1;
  }
}

// ggml tensor types tokenscope writes: values per block and bytes per block (GGUF spec / ggml).
export const BLOCKS = {
  F32: [1, 4],
  F16: [1, 2],
  BF16: [1, 2],
  Q4_0: [32, 18],
  Q4_1: [32, 20],
  Q5_0: [32, 22],
  Q5_1: [32, 24],
  Q8_0: [32, 34],
  Q4_K: [256, 144],
  Q5_K: [256, 176],
  Q6_K: [256, 210],
};

// `tokenscope convert --type` names -> ggml type names, and llama.cpp's general.file_type.
export const CONVERT_TYPES = {
  f32: ["F32", 0],
  f16: ["F16", 1],
  q8_0: ["Q8_0", 7],
  q4_0: ["Q4_0", 2],
  q4_k: ["Q4_K", 14],
  q5_k: ["Q5_K", 16],
  q6_k: ["Q6_K", 18],
};

// The type tokenscope's writer uses for a matrix with rows of `cols` values when asked for
// `want`: `want` when the rows fill whole blocks, else Q8_0 when they fill blocks of 32, else F16.
export function matrixType(want, cols) {
  if (cols % BLOCKS[want][0] === 0) return want;
  if (want !== "Q8_0" && cols % 32 === 0) return "Q8_0";
  return "F16";
}

// Bytes a tensor of shape ne (fastest first) takes in `type`.
export function tensorBytes(type, ne) {
  const [perBlock, blockBytes] = BLOCKS[type];
  const n = ne.reduce((a, b) => a * b, 1);
  return (n / perBlock) * blockBytes;
}

// Splits "file=type" command-line items.
export function fileArgs(items) {
  return items.map((s) => {
    const i = s.lastIndexOf("=");
    return i > 0 ? {file: s.slice(0, i), type: s.slice(i + 1)} : {file: s, type: ""};
  });
}

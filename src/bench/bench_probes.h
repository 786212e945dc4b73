// Machine probes for `tokenscope bench --roofline`: the two ceilings a decoder runs against.
// Sustained memory read bandwidth (one pass over a buffer far larger than the caches, summed in
// SIMD registers) and peak fp32 FMA throughput (independent multiply-add chains kept in
// registers, the widest vectors -march=native allows). Both run on the project's ThreadPool, so
// "2 threads" means what the forward pass itself can get from two threads; best of a few
// repetitions. Sizes are parameters so the tests can run them in milliseconds.
#pragma once
#include <cstddef>
#include <memory>

#include "engine/thread_pool.h"

namespace ts::bench {

struct ProbeOptions {
  size_t read_bytes = size_t{512} << 20;  // buffer streamed by the bandwidth probe
  double fma_flops = 2e10;                // FLOPs per thread per FMA repetition
  int repeats = 5;                        // best of (a shared machine is noisy)
};

struct ProbeResult {
  int threads = 0;
  double read_bytes_per_s = 0;  // best of the repetitions
  double fma_flops_per_s = 0;   // best of the repetitions (2 FLOPs per multiply-add)
  bool checked = false;         // the probes' results were consumed and came out as expected
};

// Runs both probes with a ThreadPool of n_threads.
ProbeResult run_probes(int n_threads, const ProbeOptions& opt);

// The FMA probe alone on an existing pool (best of `repeats` after a warm-up), for a ceiling
// measured right next to the work it is compared with (the roofline's prefill runs).
struct FmaProbe {
  double flops_per_s = 0;
  bool checked = false;
};
FmaProbe run_fma_probe(ThreadPool& pool, double fma_flops, int repeats);

// The bandwidth probe's buffer, kept so that single passes can be timed next to other work (the
// roofline's decode runs). The buffer is first touched by the pool's threads.
class ReadProbe {
 public:
  ReadProbe(ThreadPool& pool, size_t bytes);
  ~ReadProbe();
  ReadProbe(const ReadProbe&) = delete;
  ReadProbe& operator=(const ReadProbe&) = delete;
  double pass();                              // one pass over the buffer: bytes per second
  bool checked() const { return checked_; }  // every pass summed what it must

 private:
  struct Buffer;
  ThreadPool& pool_;
  std::unique_ptr<Buffer> buf_;
  size_t n_vec_ = 0;
  int n_chunks_ = 1;
  bool checked_ = true;
};

// Width of the vectors the FMA probe uses, in floats (16 with AVX-512, 8 with AVX, else 4).
int probe_vector_floats();

}  // namespace ts::bench

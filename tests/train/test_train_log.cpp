// parse_train_log on hand-written logs shaped like `tokenscope train` output: `val -` before the
// first evaluation, a resume that drops the steps logged past the checkpoint, later lines for a
// step winning, tokens seen across runs with different batch x context, other lines ignored.
#include <doctest/doctest.h>

#include <cmath>

#include "train/train_log.h"

using namespace ts;

namespace {

const char* kResumedLog =
    "building corpus: tales\n"
    "tokens: 1000 train, 100 validation (4.01 bytes/token); unigram baseline loss 5.5000\n"
    "training 100 steps x 4 x 8 tokens on 1 threads; Ctrl-C saves a checkpoint\n"
    "step 10/100 | loss 5.0000 | val - | lr 2.00e-04 | gnorm 2.14 | 1912 tok/s | ETA 1h28m\n"
    "step 20/100 | loss 4.0000 | val 4.500000 | lr 4.00e-04 | gnorm 2.00 | 2140 tok/s | ETA 1h19m\n"
    "step 30/100 | loss 3.5000 | val 4.500000 | lr 4.00e-04 | gnorm 2.00 | 2140 tok/s | ETA 1h19m\n"
    "checkpoint checkpoints/x.ckpt: saved\n"
    "  prompt: Once upon a time\n"
    "  greedy: step 99/100 | loss 0.1 | val - | looks like a step line but is sample text\n"
    "step 40/100 | loss 3.2000 | val 4.500000 | lr 4.00e-04 | gnorm 2.00 | 2140 tok/s | ETA 1h19m\n"
    "step 45/100 | loss 3.1500 | val 4.500000 | lr 4.00e-04 | gnorm 2.00 | 2140 tok/s | ETA 1h19m\n"
    "\n"
    "loaded checkpoints/x.ckpt: step 30 / 100\r\n"  // killed at 45: back to the step-30 checkpoint
    "training 100 steps x 4 x 16 tokens on 1 threads; Ctrl-C saves a checkpoint\n"
    "step 40/100 | loss 3.1000 | val 4.500000 | lr 1.50e-03 | gnorm 0.90 | 900 tok/s | ETA 1h\n"
    "step 50/100 | loss 3.0000 | val 4.000000 | lr 1.50e-03 | gnorm 0.90 | 900 tok/s | ETA 1h\n"
    "done: 50 steps\n";

}  // namespace

TEST_CASE("parse_train_log: a resumed run with val - and a later line for a step") {
  const TrainLog log = parse_train_log(kResumedLog);
  REQUIRE(log.points.size() == 5);
  const long steps[] = {10, 20, 30, 40, 50};
  for (size_t i = 0; i < 5; ++i) CHECK(log.points[i].step == steps[i]);
  CHECK(log.points[3].loss == doctest::Approx(3.1));  // the resumed run's line, not the old 3.2
  CHECK(std::isnan(log.points[0].val));               // `val -`
  CHECK_FALSE(log.points[0].evaluated);
  CHECK(log.points[1].evaluated);
  CHECK_FALSE(log.points[2].evaluated);  // same value: carried, not evaluated again
  CHECK_FALSE(log.points[3].evaluated);  // the value restored from the checkpoint
  CHECK(log.points[4].evaluated);
  CHECK(log.val_steps() == std::vector<double>{20, 50});
  CHECK(log.vals() == std::vector<double>{4.5, 4.0});
  CHECK(log.runs == 2);
  CHECK(log.resumed_at == std::vector<long>{30});
  CHECK(log.total_steps == 100);
  CHECK(log.unigram == doctest::Approx(5.5));
  CHECK(log.tokens_per_step == 64);
  CHECK(log.points[0].tokens == doctest::Approx(320));   // 10 x 4 x 8
  CHECK(log.points[2].tokens == doctest::Approx(960));   // 30 x 32
  CHECK(log.points[4].tokens == doctest::Approx(2240));  // 960 + 20 x 4 x 16
  CHECK(log.tokens_at(0) == doctest::Approx(0));
}

TEST_CASE("parse_train_log: a resume drops the old run's later steps before new lines come") {
  std::string text = kResumedLog;
  text.resize(text.find("step 40/100 | loss 3.1000"));  // the resumed run has not logged yet
  const TrainLog log = parse_train_log(text);
  REQUIRE(log.points.size() == 3);
  CHECK(log.points.back().step == 30);
}

TEST_CASE("parse_train_log: a restarted counter without a loaded line replaces the old steps") {
  const TrainLog log = parse_train_log(
      "step 10/20 | loss 5.0 | val - | x\n"
      "step 20/20 | loss 4.0 | val 4.1 | x\n"
      "step 10/30 | loss 6.0 | val - | x\n");
  REQUIRE(log.points.size() == 1);
  CHECK(log.points[0].loss == doctest::Approx(6.0));
  CHECK(log.total_steps == 30);
  CHECK(std::isnan(log.points[0].tokens));  // no `training ... x B x T` line
  CHECK(log.tokens_per_step == 0);
  CHECK(std::isnan(log.unigram));
}

TEST_CASE("parse_train_log: text without step lines gives no points") {
  CHECK(parse_train_log("").points.empty());
  CHECK(
      parse_train_log("hello\nstep x/y | loss z\nstep 5/10 | loss nan | val - |\n").points.empty());
}

# tokenscope: the two commands of the README, and the steps they are made of.
#   make run   installs what is missing, builds, opens the app on the default model
#   make test  installs what is missing, builds with -Werror, runs every test, compiles every
#              source on its own (scripts/solo_check.py), runs the interop
#              check (tools/interop: other GGUF readers, from npm), builds the web page and
#              runs it in headless Chromium (tests/web/smoke.sh), then builds again
#              with clang under AddressSanitizer + UndefinedBehaviorSanitizer, runs the unit tests
#              and lessons there, then each fuzz target for FUZZ_SECONDS (make fuzz:
#              FUZZ_LONG_SECONDS each; tests/README.md)
JOBS  ?= 2
BUILD ?= build
ASAN  ?= build-asan
WEB   ?= build-web
FUZZ_TARGETS      ?= gguf llama2c bpe spm lesson trace chat
FUZZ_SECONDS      ?= 5
FUZZ_LONG_SECONDS ?= 600

.PHONY: all setup configure build run test test-fast asan-test bench clean
.PHONY: solo-check asan-build fuzz-short fuzz fuzz-seeds interop interop-test bench-vs-llama web web-test

all: build

setup:
	@echo "== tokenscope: checking Debian packages (scripts/setup.sh)"
	@bash scripts/setup.sh

configure: setup
	@echo "== tokenscope: configuring $(BUILD)/ (Release, warnings as errors)"
	@bash scripts/configure.sh $(BUILD) -DCMAKE_BUILD_TYPE=Release -DTS_WERROR=ON

build: configure
	@echo "== tokenscope: building with $(JOBS) jobs"
	@cmake --build $(BUILD) -j$(JOBS)

run: build
	@echo "== tokenscope: starting the app (./$(BUILD)/tokenscope)"
	./$(BUILD)/tokenscope

test-fast: build
	@echo "== tokenscope: running the tests"
	@cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

# The sanitizer tree (clang-14): every library, test and fuzz target compiled with ASan + UBSan
# (+ libFuzzer coverage); the unit tests and the lessons run here, the window test, the
# lessons drawn page by page (lessons_render) and the real-size budgets (real_size) only in
# $(BUILD).
asan-build: setup
	@echo "== tokenscope: sanitizer build ($(ASAN)/: clang-14, ASan + UBSan, fuzz targets)"
	@CC=clang-14 CXX=clang++-14 bash scripts/configure.sh $(ASAN) -DCMAKE_BUILD_TYPE=Release \
	  -DTS_FUZZ=ON -DTS_WERROR=ON
	@cmake --build $(ASAN) -j$(JOBS)

asan-test: asan-build
	@echo "== tokenscope: unit tests and lessons under AddressSanitizer + UndefinedBehaviorSanitizer"
	@cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j$(JOBS) -LE 'window|render|real_size'

fuzz-short: asan-build
	@echo "== tokenscope: fuzzing each target for $(FUZZ_SECONDS) s (corpus replayed first)"
	@bash tests/fuzz/run.sh $(ASAN) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz: asan-build
	@echo "== tokenscope: fuzzing each target for $(FUZZ_LONG_SECONDS) s"
	@bash tests/fuzz/run.sh $(ASAN) $(FUZZ_LONG_SECONDS) $(FUZZ_TARGETS)

# Rewrites the seed files of tests/fuzz/corpus/ (crash reproducers there are kept).
fuzz-seeds: asan-build
	./$(ASAN)/make_seeds tests/fuzz/corpus

# Every src/ .cpp compiled on its own (clang -fsyntax-only with the flags of its library in
# $(BUILD), -Wmissing-prototypes and -Werror too; Eigen, JSON, CLI11 and httplib precompiled):
# the unity batches hide a missing include or a function declared nowhere. About 2.5 CPU
# minutes (a separate tree without unity batches would cost more than the build itself).
solo-check: build
	@echo "== tokenscope: every source compiled on its own (scripts/solo_check.py)"
	@python3 scripts/solo_check.py $(BUILD) $(JOBS)

test: test-fast solo-check interop-test web-test asan-test fuzz-short
	@echo "== tokenscope: all tests passed (normal build, each source on its own, interop, web page, sanitizer build, fuzz targets)"

bench: build
	./$(BUILD)/tokenscope bench

# Other GGUF readers on the files tokenscope writes: @huggingface/gguf and llama.cpp (through
# node-llama-cpp), installed from npm into tools/interop/ on first use. Needs node >= 20.
interop: build
	@echo "== tokenscope: interop check (tokenscope's GGUF files in @huggingface/gguf and llama.cpp)"
	@bash scripts/interop.sh $(BUILD)/tokenscope

# Part of make test where node >= 20 is installed (it is on this project's machines); elsewhere
# it says that it skipped.
interop-test: build
	@if command -v node >/dev/null && command -v npm >/dev/null && \
	  [ "$$(node -p 'process.versions.node.split(".")[0]')" -ge 20 ]; then \
	  echo "== tokenscope: interop check (tokenscope's GGUF files in @huggingface/gguf and llama.cpp)"; \
	  bash scripts/interop.sh $(BUILD)/tokenscope; \
	else echo "== tokenscope: interop check skipped: it needs node >= 20 and npm (make interop)"; fi

# tokenscope's prefill and decode speed next to llama.cpp's (node-llama-cpp, as for interop) on
# the same GGUF files: the random-weight roofline shapes and tales-4m. Several minutes; not part
# of make test. Needs node >= 20.
bench-vs-llama: build
	@echo "== tokenscope: speed next to llama.cpp on the same GGUF files (scripts/bench-vs-llama.sh)"
	@bash scripts/bench-vs-llama.sh $(BUILD)/tokenscope

# The browser build: $(WEB)/tokenscope.html, one self-contained page (WebAssembly, models,
# lessons, fonts) that opens from file:// with no server (Debian's emscripten; web-setup.sh).
# emscripten's JavaScript tools need Debian's node modules (acorn) on NODE_PATH.
web:
	@echo "== tokenscope: web page ($(WEB)/tokenscope.html; scripts/web-setup.sh, emscripten)"
	@bash scripts/web-setup.sh $(WEB)/deps
	@NODE_PATH=/usr/share/nodejs emcmake cmake -S . -B $(WEB) -DCMAKE_BUILD_TYPE=Release -DTS_WERROR=ON \
	  -DTS_WEB_DEPS=$(abspath $(WEB))/deps >$(WEB).configure.log 2>&1 || \
	  { cat $(WEB).configure.log; exit 1; }
	@NODE_PATH=/usr/share/nodejs cmake --build $(WEB) -j$(JOBS)

# The page in headless Chromium from file:// (tests/web/smoke.sh): part of make test.
web-test: web build
	@echo "== tokenscope: the web page in headless Chromium (tests/web/smoke.sh)"
	@bash tests/web/smoke.sh $(WEB)/tokenscope.html $(WEB)/smoke $(BUILD)/tokenscope

clean:
	rm -rf $(BUILD) $(ASAN) $(WEB) $(BUILD).configure.log $(ASAN).configure.log $(WEB).configure.log

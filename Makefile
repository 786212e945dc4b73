# tokenscope: the two commands of the README, and the steps they are made of.
#   make run   installs what is missing, builds, opens the app on the default model
#   make test  installs what is missing, builds with -Werror, runs every test, then the unit
#              tests again under AddressSanitizer + UndefinedBehaviorSanitizer, then each fuzz
#              target for FUZZ_SECONDS (make fuzz: FUZZ_LONG_SECONDS each; tests/README.md)
JOBS  ?= 2
BUILD ?= build
ASAN  ?= build-asan
FUZZ  ?= build-fuzz
FUZZ_TARGETS      ?= gguf llama2c bpe spm lesson trace
FUZZ_SECONDS      ?= 10
FUZZ_LONG_SECONDS ?= 600

.PHONY: all setup configure build run test test-fast asan-test bench clean
.PHONY: fuzz-build fuzz-short fuzz fuzz-seeds

all: build

setup:
	@echo "== tokenscope: checking Debian packages (scripts/setup.sh)"
	@bash scripts/setup.sh

configure: setup
	@echo "== tokenscope: configuring $(BUILD)/ (Release, warnings as errors)"
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DTS_WERROR=ON > $(BUILD).configure.log 2>&1 \
	  || (cat $(BUILD).configure.log; exit 1)

build: configure
	@echo "== tokenscope: building with $(JOBS) jobs"
	@cmake --build $(BUILD) -j$(JOBS)

run: build
	@echo "== tokenscope: starting the app (./$(BUILD)/tokenscope)"
	./$(BUILD)/tokenscope

test-fast: build
	@echo "== tokenscope: running the tests"
	@cd $(BUILD) && ctest --output-on-failure -j$(JOBS)

asan-test: setup
	@echo "== tokenscope: unit tests under AddressSanitizer + UndefinedBehaviorSanitizer ($(ASAN)/)"
	@cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTS_SANITIZE=ON -DTS_WERROR=ON \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" > $(ASAN).configure.log 2>&1 \
	  || (cat $(ASAN).configure.log; exit 1)
	@cmake --build $(ASAN) -j$(JOBS)
	@cd $(ASAN) && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j$(JOBS) -L unit

# The fuzz build is its own CMake project (tests/fuzz/CMakeLists.txt): clang-14, libFuzzer,
# ASan + UBSan, only the libraries the targets need.
fuzz-build: setup
	@echo "== tokenscope: fuzz build ($(FUZZ)/: clang-14, libFuzzer + ASan + UBSan)"
	@CC=clang-14 CXX=clang++-14 cmake -S tests/fuzz -B $(FUZZ) > $(FUZZ).configure.log 2>&1 \
	  || (cat $(FUZZ).configure.log; exit 1)
	@nice cmake --build $(FUZZ) -j$(JOBS) --target $(addprefix fuzz_,$(FUZZ_TARGETS))

fuzz-short: fuzz-build
	@echo "== tokenscope: fuzzing each target for $(FUZZ_SECONDS) s (corpus replayed first)"
	@bash tests/fuzz/run.sh $(FUZZ) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz: fuzz-build
	@echo "== tokenscope: fuzzing each target for $(FUZZ_LONG_SECONDS) s"
	@bash tests/fuzz/run.sh $(FUZZ) $(FUZZ_LONG_SECONDS) $(FUZZ_TARGETS)

# Rewrites the seed files of tests/fuzz/corpus/ (crash reproducers there are kept).
fuzz-seeds: fuzz-build
	@nice cmake --build $(FUZZ) -j$(JOBS) --target make_seeds
	./$(FUZZ)/make_seeds tests/fuzz/corpus

test: test-fast asan-test fuzz-short
	@echo "== tokenscope: all tests passed (normal build, sanitizer build, fuzz targets)"

bench: build
	./$(BUILD)/tokenscope bench

clean:
	rm -rf $(BUILD) $(ASAN) $(BUILD).configure.log $(ASAN).configure.log
	rm -rf $(FUZZ) $(FUZZ).configure.log

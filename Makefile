# tokenscope: the two commands of the README, and the steps they are made of.
#   make run   installs what is missing, builds, opens the app on the default model
#   make test  installs what is missing, builds with -Werror, runs every test, then the unit
#              tests again under AddressSanitizer + UndefinedBehaviorSanitizer
JOBS  ?= 2
BUILD ?= build
ASAN  ?= build-asan

.PHONY: all setup configure build run test test-fast asan-test bench clean

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

test: test-fast asan-test
	@echo "== tokenscope: all tests passed (normal build and sanitizer build)"

bench: build
	./$(BUILD)/tokenscope bench

clean:
	rm -rf $(BUILD) $(ASAN) $(BUILD).configure.log $(ASAN).configure.log

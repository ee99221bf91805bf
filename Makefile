# Orrery: the two commands are `make run` and `make test` (see README.md).
# Everything else here is what they are made of.

BUILD_DIR   ?= build
ASAN_DIR    ?= build-asan
BUILD_TYPE  ?= Release
JOBS        ?= $(shell nproc)
PORT        ?= 8081
ARGS        ?=

# Debian 12 packages. `make run` installs only what building and serving the server
# needs (SERVE_PACKAGES); the tests, the benchmarks, the sanitizer build (clang) and
# `make format` need TEST_PACKAGES as well. `make deps` installs only the missing ones.
SERVE_PACKAGES := build-essential cmake ninja-build pkg-config ccache \
  curl patch xz-utils liblz4-dev libzstd-dev libsnappy-dev zlib1g-dev libbz2-dev \
  libboost-dev libssl-dev libsimdjson-dev libcli11-dev libfmt-dev \
  libpcre2-dev libstemmer-dev libhnswlib-dev libmimalloc-dev libmozjs-102-dev
TEST_PACKAGES := libgtest-dev libgmock-dev libbenchmark-dev clang-format \
  clang libclang-rt-14-dev
# Debian's own RocksDB, linked only with `ROCKSDB_DIR=` (below).
DEBIAN_ROCKSDB_PACKAGES = $(if $(ROCKSDB_DIR),,librocksdb-dev)
DEB_PACKAGES = $(SERVE_PACKAGES) $(TEST_PACKAGES) $(DEBIAN_ROCKSDB_PACKAGES)
# The browser tests of the Data Explorer drive Debian's Chromium (playwright-core).
BROWSER_PACKAGES := chromium
# Only the HTTP benchmarks need these (`make bench`, `make bench-throughput`).
BENCH_PACKAGES := wrk nginx-light curl
# Node.js comes from Debian only where no `node`/`npm` is installed already (a newer
# Node from elsewhere must not be replaced by Debian's).
NODE_PACKAGES := $(if $(shell command -v node),,nodejs) $(if $(shell command -v npm),,npm)

GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo Ninja || echo "Unix Makefiles")

# RocksDB 7.8.3, Debian 12's version, built from Debian's source package in release mode
# (third_party/rocksdb/build.sh: Debian's own library runs its assertions and computes
# CRC32C without SSE4.2). Built once into ROCKSDB_PREFIX, outside the build directories,
# so `make clean` and the ASan and fuzz builds reuse it. ROCKSDB_DIR= (empty) builds
# against Debian's librocksdb-dev instead.
ROCKSDB_PREFIX ?= $(CURDIR)/.deps/rocksdb-7.8.3-release
ROCKSDB_DIR    ?= $(ROCKSDB_PREFIX)/lib/cmake/rocksdb
ROCKSDB_ARG     = $(if $(ROCKSDB_DIR),-DRocksDB_DIR=$(ROCKSDB_DIR))

.PHONY: all deps apt-deps npm-deps rocksdb configure build build-server explorer run test unit-test e2e-test \
        test-asan e2e-asan-smoke bench bench-deps bench-query bench-throughput bench-partitions bench-compare format clean

all: build

deps: apt-deps npm-deps

# APT_PACKAGES: what this call installs (all of DEB_PACKAGES unless told otherwise).
APT_PACKAGES ?= $(DEB_PACKAGES)
apt-deps:
	@missing=""; for p in $(APT_PACKAGES) $(NODE_PACKAGES) $(EXTRA_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" -ne 0 ] && SUDO=sudo; \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

npm-deps: package-lock.json
	@if [ ! -d node_modules/@azure/cosmos ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then \
	  npm ci --no-audit --no-fund --engine-strict=false; \
	fi

rocksdb: apt-deps
	@if [ -n "$(ROCKSDB_DIR)" ] && [ ! -f "$(ROCKSDB_DIR)/RocksDBConfig.cmake" ]; then \
	  echo "Building RocksDB 7.8.3 (release) into $(ROCKSDB_PREFIX), once"; \
	  JOBS=$(JOBS) sh third_party/rocksdb/build.sh "$(ROCKSDB_PREFIX)"; \
	fi

# Whether the build directory builds the unit tests and benchmarks: ON for everything
# but `make run`, which configures a new directory without them (it installs no test
# package) and keeps whatever an existing one has; a later `make build` turns them on
# in the same directory (what is built stays built).
WITH_TESTS ?= ON
# Configures once, and again whenever the build directory was configured against
# another RocksDB (a directory from before the release build, or ROCKSDB_DIR changed) or
# without the tests a target needs.
configure: rocksdb
	@cache=$(BUILD_DIR)/CMakeCache.txt; tests=$(WITH_TESTS); \
	if [ "$$tests" = KEEP ]; then \
	  tests=$$(sed -n 's/^ORRERY_BUILD_TESTS:BOOL=//p' $$cache 2>/dev/null); tests=$${tests:-OFF}; \
	fi; \
	if [ ! -f $$cache ] || ! grep -qx 'RocksDB_DIR:[A-Z]*=$(or $(ROCKSDB_DIR),.*)' $$cache || \
	    ! grep -qx "ORRERY_BUILD_TESTS:BOOL=$$tests" $$cache; then \
	  cmake -S . -B $(BUILD_DIR) -G "$(GENERATOR)" -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(ROCKSDB_ARG) \
	    -DORRERY_BUILD_TESTS=$$tests -DORRERY_BUILD_BENCH=$$tests; \
	fi

build: apt-deps configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

# The server alone: `make run` needs none of the test binaries, nor their packages.
run build-server: WITH_TESTS = KEEP
run build-server: APT_PACKAGES = $(SERVE_PACKAGES) $(DEBIAN_ROCKSDB_PACKAGES)
build-server: apt-deps configure
	cmake --build $(BUILD_DIR) -j $(JOBS) --target orrery

# The Data Explorer (web/): bundled with esbuild into $(BUILD_DIR)/explorer, which
# `orrery serve` reads at start (beside its executable) and serves at /_explorer/.
EXPLORER_SOURCES := $(wildcard web/src/*.js) web/index.html web/style.css web/build.mjs
explorer: $(BUILD_DIR)/explorer/app.js
$(BUILD_DIR)/explorer/app.js: $(EXPLORER_SOURCES) package-lock.json
	@$(MAKE) --no-print-directory npm-deps
	node web/build.mjs $(BUILD_DIR)/explorer

# A port given in ARGS wins over PORT (`make run ARGS="--port 9000"` or `make run PORT=9000`).
PORT_ARG = $(if $(filter --port --port=% -p,$(ARGS)),,--port $(PORT))

run: apt-deps build-server explorer
	./$(BUILD_DIR)/orrery serve $(PORT_ARG) $(ARGS)

# Debian's RocksDB 7.8 (linked with `ROCKSDB_DIR=`) is built with assertions and, now and
# then, aborts in its WAL writer when writes resume after a full disk (which the full-disk
# tests cause on purpose): "WritableFileWriter::AssertFalseAndGetStatusForPrevError"; the
# release build returns an error there instead. Only when a run's log holds that abort
# are the failed tests run once more; any other failure fails.
# $(call ctest_in,dir,timeout)
ROCKSDB_ABORT := WritableFileWriter::AssertFalseAndGetStatusForPrevError
ctest_in = cd $(1) && { ctest --output-on-failure -j $(JOBS) --timeout $(2) || \
	  { grep -q '$(ROCKSDB_ABORT)' Testing/Temporary/LastTest.log && \
	    echo "ctest: RocksDB's full-disk abort; running the failed tests again" && \
	    ctest --output-on-failure --rerun-failed --timeout $(2); }; }
unit-test: build
	$(call ctest_in,$(BUILD_DIR),300)

e2e-test: build npm-deps explorer
	@$(MAKE) --no-print-directory apt-deps EXTRA_PACKAGES="$(BROWSER_PACKAGES)"
	ORRERY_BIN=$(CURDIR)/$(BUILD_DIR)/orrery ORRERY_E2E_STORAGE=memory sh tests/e2e/run.sh
	ORRERY_BIN=$(CURDIR)/$(BUILD_DIR)/orrery ORRERY_E2E_STORAGE=disk sh tests/e2e/run.sh

# Each official SDK other than @azure/cosmos 4 has a suite in tests/sdk/<name>/, whose
# sdk.mk adds its target (test-sdk-<name>) to SDK_TESTS; every suite starts its own
# servers (in memory and on disk) from $(BUILD_DIR)/orrery and reads the shared
# scenarios in tests/sdk/scenarios/.
# SDK_BUILD_DEP: what a suite's target depends on to have the server built; while
# developing a suite against another binary, `make test-sdk-x SDK_BUILD_DEP= BUILD_DIR=dir`.
SDK_TESTS :=
SDK_BUILD_DEP ?= build
include $(sort $(wildcard tests/sdk/*/sdk.mk))

.PHONY: test-sdk
test-sdk: $(SDK_TESTS)

# The sanitizer build (about 10 minutes of compiling on 2 cores) runs beside the unit,
# e2e and SDK tests of the release build, which leave much of the CPU idle (servers
# waiting for timers, SDKs starting): it runs under SCHED_IDLE (chrt -i), so it gets only
# the CPU time nothing else wants and the tests run as fast as alone. The load test waits
# for it, so as to measure the server alone; then the checks of the sanitizer build.
SANITIZER_LOG = $(ASAN_DIR)/sanitizer-build.log
test: deps build
	@mkdir -p $(ASAN_DIR); \
	echo "sanitizer build: started in the background at idle priority (log: $(SANITIZER_LOG))"; \
	setsid -w chrt -i 0 $(MAKE) --no-print-directory sanitizer-build >$(SANITIZER_LOG) 2>&1 & sanitizer=$$!; \
	$(MAKE) --no-print-directory unit-test e2e-test test-sdk || { kill -- -$$sanitizer 2>/dev/null; exit 1; }; \
	echo "waiting for the sanitizer build"; \
	if ! wait $$sanitizer; then tail -n 60 $(SANITIZER_LOG); echo "sanitizer build failed"; exit 1; fi; \
	tail -n 1 $(SANITIZER_LOG); \
	$(MAKE) --no-print-directory test-load fuzz test-asan e2e-asan-smoke

# One sanitizer build serves three checks, where there were a gcc and a clang build of
# much of the same code: clang with AddressSanitizer, UndefinedBehaviorSanitizer and
# libFuzzer's coverage instrumentation, at -O1 with assertions on (no NDEBUG), of the
# unit tests, the server and the fuzz targets. Debug information is line tables only:
# all a sanitizer report's stack needs, and much less to compile and link than -g.
ASAN_DIR ?= build-asan
FUZZ_DIR ?= $(ASAN_DIR)
.PHONY: sanitizer-build
sanitizer-build: apt-deps rocksdb
	CC=clang CXX=clang++ cmake -S . -B $(ASAN_DIR) -G "$(GENERATOR)" $(ROCKSDB_ARG) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
	  -DORRERY_FUZZ=ON -DORRERY_SANITIZE=fuzzer-no-link,address,undefined \
	  -DORRERY_BUILD_TESTS=ON -DORRERY_BUILD_BENCH=OFF
	cmake --build $(ASAN_DIR) -j $(JOBS)

# Unit tests under AddressSanitizer and UndefinedBehaviorSanitizer.
test-asan: sanitizer-build
	$(call ctest_in,$(ASAN_DIR),600)

# A short e2e run against the sanitizer build of the server: any ASan or UBSan report
# aborts the server, which fails the tests talking to it. (Leaks are left to the unit
# tests under ASan: the server's exit status is not checked by the e2e harness.)
E2E_SMOKE := items batch patch change_feed query_pipeline bad_input splits deep_input
e2e-asan-smoke: sanitizer-build npm-deps
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	ORRERY_BIN=$(CURDIR)/$(ASAN_DIR)/orrery ORRERY_E2E_STORAGE=memory \
	  sh tests/e2e/run.sh $(foreach t,$(E2E_SMOKE),tests/e2e/$(t).test.mjs)

# The libFuzzer targets in fuzz/ (the sanitizer build above), each for FUZZ_SECONDS from
# a scratch copy of its seed corpus (fuzz/run_one.sh): the query parser/binder/evaluator,
# JSON bodies, partition key headers, whole requests through api::Service (authorization,
# paths, handlers), and raw bytes over loopback TCP into the HTTP server (parser, session
# limits, pipelining). A fuzzer runs on one core: FUZZ_JOBS run at once, each for its full
# time. Any crash, sanitizer report, leak, hang or RSS past 2 GB fails.
FUZZ_SECONDS ?= 30
FUZZ_JOBS ?= $(JOBS)
FUZZ_TARGETS ?= query_parser query_grammar json json_deep partition_key service http

.PHONY: fuzz
fuzz: sanitizer-build
	@mkdir -p $(FUZZ_DIR)/artifacts
	@printf '%s\n' $(FUZZ_TARGETS) | FUZZ_DIR=$(FUZZ_DIR) FUZZ_SECONDS=$(FUZZ_SECONDS) \
	  xargs -P $(FUZZ_JOBS) -I{} sh fuzz/run_one.sh {}

# 256 connections of mixed SDK traffic against a fresh server (issue 6): 150 s of
# warm-up, then 60 s measured: no errors but 429s, p99 and RSS stable.
.PHONY: test-load
test-load: deps build npm-deps
	ORRERY_BIN=$(CURDIR)/$(BUILD_DIR)/orrery node tests/load/mixed_load.mjs

bench-deps:
	@$(MAKE) --no-print-directory apt-deps EXTRA_PACKAGES="$(BENCH_PACKAGES)"

bench: deps bench-deps build
	sh bench/point_ops.sh

# Overhead of charging and enforcing throughput on point operations (a few minutes).
bench-throughput: deps bench-deps build
	sh bench/throughput_overhead.sh

# Issue 5: point operations with 16 partitions against one, and the time to split a
# 256 MB partition while serving reads (in process).
bench-partitions: deps bench-deps build
	sh bench/partitions_point_ops.sh
	./$(BUILD_DIR)/bench/orrery_split_bench

# Issue 6: Orrery against @vercel/cosmosdb-server (npm ci in bench/compare), identical
# wrk workloads over 64 connections, and start-up time and RSS of each (about 7 minutes).
bench-compare: deps bench-deps build
	ORRERY_BIN=$(CURDIR)/$(BUILD_DIR)/orrery node bench/compare/compare.mjs

# Query execution: in-process (Google Benchmark) and over HTTP, each over 1,000,000
# items of ~1 KB (ORRERY_BENCH_ITEMS=N for fewer); a few minutes each.
bench-query: deps build
	./$(BUILD_DIR)/bench/orrery_query_bench
	./$(BUILD_DIR)/bench/orrery_query_stack_bench
	ORRERY_BIN=$(CURDIR)/$(BUILD_DIR)/orrery node bench/query_http.mjs

format:
	clang-format -i $$(git ls-files 'src/*.cc' 'src/*.h' 'bench/*.cc')

clean:
	rm -rf $(BUILD_DIR) $(ASAN_DIR)

# Thin wrapper over CMake (canonical) for the README's commands.
#   make deps     install the Debian packages the build needs (only what is missing)
#   make demo     the main job: build, then run the seed examples into out/
#   make check    build and run every test (optimised build, then ASan+UBSan, then gl-check)
#   make install PREFIX=/usr/local
#   make fuzz     libFuzzer runs (scripts/fuzz.sh; FUZZ_ARGS="--minutes 30" for a long one)
#   make mesa     build Mesa's vc4 driver from Debian's source into ~/.cache/vc4kit, once (scripts/mesa.sh)
#   make gl-check GLES2 programs through vc4 on vc4kit vs llvmpipe (scripts/gl-check.sh; skips without
#                 make mesa, and fails instead when mesa is among the goals: make deps mesa check)

PREFIX ?= /usr/local
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

FUZZ_ARGS ?=

.PHONY: all deps build demo test check check-intro asan install clean fuzz mesa gl-check

all: build

deps:
	@sh scripts/deps.sh

build:
	@echo "== build: the optimised build in $(BUILD)/ (the first time about 3 minutes on 2 cores)"
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	sh examples/run_seeds.sh $(BUILD)/vc4kit out

test: build
	@echo "== test: every test of the optimised build: unit, command-line (tests/cli), golden images, fuzz"
	@echo "   corpora; about 1 minute on 2 idle cores, several on a busy machine"
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

asan:
	@echo "== asan: a Debug build with AddressSanitizer + UndefinedBehaviorSanitizer in $(ASAN_BUILD)/ (about"
	@echo "   5 minutes on 2 cores), then every test under it (about 5 to 10 minutes: sanitizers are slow)"
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DVC4KIT_SANITIZE=ON -DVC4KIT_BENCH=OFF $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

check: check-intro test asan gl-check
	@echo "== check: done: every test passed in the optimised and the ASan+UBSan builds"

check-intro:
	@echo "== check: build and run every test twice, optimised and under ASan+UBSan, then the GLES2 programs"
	@echo "   through Mesa's vc4 (make gl-check; skipped without make mesa): about 10 minutes on an idle"
	@echo "   2-core machine, up to 20 on a busy one (each step says what it runs)"

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

fuzz:
	sh scripts/fuzz.sh $(FUZZ_ARGS)

mesa:
	sh scripts/mesa.sh

# `make mesa gl-check` (and `make deps mesa check`) must not skip the GL programs
GL_CHECK_REQUIRED ?= $(if $(filter mesa,$(MAKECMDGOALS)),1,0)

gl-check:
	BUILD=$(BUILD) JOBS=$(JOBS) GL_CHECK_REQUIRED=$(GL_CHECK_REQUIRED) sh scripts/gl-check.sh

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz out

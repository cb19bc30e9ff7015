# Thin wrapper over CMake (canonical) for the README's commands.
#   make deps     install the Debian packages the build needs (only what is missing)
#   make demo     the main job: build, then run the seed examples into out/
#   make check    build and run every test (optimised build, then ASan+UBSan)
#   make install PREFIX=/usr/local

PREFIX ?= /usr/local
BUILD ?= build
ASAN_BUILD ?= build-asan
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=

.PHONY: all deps build demo test check asan install clean fuzz

all: build

deps:
	@sh scripts/deps.sh

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	sh examples/run_seeds.sh $(BUILD)/vc4kit out

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

asan:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DVC4KIT_SANITIZE=ON -DVC4KIT_BENCH=OFF $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

check: test asan

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

fuzz:
	sh scripts/fuzz.sh

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz out

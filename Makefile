# pcl — Performance Counters for Linux, rebuilt.  GNU make.
PREFIX  ?= /usr/local
CC      ?= cc
PKGS     = libtraceevent libtracefs libelf libdw libzstd liblzma zlib sqlite3 libpq python3-embed ncursesw
# scripts/deps.sh SET checks (as root: installs) the Debian packages of one set; its stamp
# says it passed.  Building needs the build set only; the goals below add the others.
DEPS     = build/.deps-build \
	   $(if $(filter check check-stress e2e unit unit-asan,$(MAKECMDGOALS)),build/.deps-test) \
	   $(if $(filter fuzz,$(MAKECMDGOALS)),build/.deps-fuzz)

WARN     = -Wall -Wextra -Wno-unused-parameter -Wshadow -Wformat=2 -Wno-format-nonliteral
CFLAGS  ?= -O2 -g
BASEFLAGS = -std=gnu11 $(WARN) -Isrc -Ibuild/gen -D_GNU_SOURCE \
	   $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
# libpq is opened when an export to PostgreSQL starts (src/ui/pgsql-export.c): its header only.
# So are libbabeltrace-ctf on a conversion to CTF (src/ui/export-ctf.c), and libopcodes (with
# libbfd) on the first disassembly (src/core/symbols/disasm.c), by the soname the linker would
# have recorded (read when disasm.o is compiled, once deps.sh has installed binutils-dev).
LIBS     = $(shell pkg-config --libs $(filter-out libpq,$(PKGS)) 2>/dev/null) \
	   -liberty -lm -lpthread
OPCODES_SONAME = $(shell objdump -p "$$($(CC) -print-file-name=libopcodes.so)" 2>/dev/null | \
	awk '$$1 == "SONAME" { print $$2 }')
SANFLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

LIB_SRC  = $(sort $(wildcard src/core/*.c src/core/*/*.c src/ui/*.c src/util/*.c) $(filter-out src/pcl.c,$(wildcard src/*.c)))
LIB_OBJ  = $(LIB_SRC:src/%.c=build/obj/%.o)
ASAN_OBJ = $(LIB_SRC:src/%.c=build/asan/%.o)
UNIT_SRC = $(wildcard tests/unit/test-*.c)
UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=build/unit/%)
ASAN_BIN = $(UNIT_SRC:tests/unit/%.c=build/unit-asan/%)
FIX_SRC  = $(wildcard tests/fixtures/*.c)
FIX_BIN  = $(FIX_SRC:tests/fixtures/%.c=build/fixtures/%)
DEPFILES = $(LIB_OBJ:.o=.d) $(ASAN_OBJ:.o=.d) build/obj/pcl.d build/asan/pcl.d
# JS/CSS of the flame graph views, compiled in as C string literals
ASSETS   = $(wildcard src/ui/assets/*)
# the Core and Util modules pcl script -s gives Python scripts, likewise
PY_MODS  = $(wildcard src/core/analysis/py/*.py)
GEN_INC  = $(ASSETS:src/ui/assets/%=build/gen/%.inc) build/gen/syscall-tables.inc \
	   $(PY_MODS:src/core/analysis/py/%=build/gen/%.inc)

.PHONY: all deps install check check-stress unit unit-asan e2e demo clean fixtures
.DELETE_ON_ERROR:

all: pcl

build/.deps-%: scripts/deps.sh
	@mkdir -p build
	scripts/deps.sh $*
	@touch $@

# every set adds to the build set: one apt-get after the other
build/.deps-test build/.deps-fuzz: build/.deps-build

deps: $(DEPS)

# src/core/data/dlfilter.c has --dlfilter only where <perf/perf_dlfilter.h> (linux-perf, a
# test dependency) exists: recompile it when the header comes or goes.
DLFILTER_H = /usr/include/perf/perf_dlfilter.h
build/.dlfilter-header: FORCE | $(DEPS)
	@have=$$(test -e $(DLFILTER_H) && echo yes || echo no); \
	[ "$$(cat $@ 2>/dev/null)" = "$$have" ] || echo "$$have" >$@
build/obj/core/data/dlfilter.o build/asan/core/data/dlfilter.o \
build/fuzz-obj/core/data/dlfilter.o: build/.dlfilter-header
.PHONY: FORCE

# gcc clears a struct of more than 64 bytes (the 352 of struct perf_sample, for every record)
# with rep stosq, whose start-up cost is a tenth of `pcl sched latency`: vector stores instead
# (an option of gcc on x86 only: left out where the compiler refuses it)
VECTOR_CLEAR := $(shell opt=-mmemset-strategy=vector_loop:1024:noalign,libcall:-1:noalign; \
	$(CC) $$opt -E -x c /dev/null >/dev/null 2>&1 && echo $$opt)
build/obj/%.o: BASEFLAGS += $(VECTOR_CLEAR)
build/obj/core/symbols/disasm.o build/asan/core/symbols/disasm.o: \
	BASEFLAGS += $(if $(OPCODES_SONAME),-DOPCODES_SONAME='"$(OPCODES_SONAME)"')

build/obj/%.o: src/%.c | $(DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) -MMD -MP -c $< -o $@

build/asan/%.o: src/%.c | $(DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(SANFLAGS) -MMD -MP -c $< -o $@

build/gen/%.inc: src/ui/assets/% scripts/embed-asset.sh
	@mkdir -p $(dir $@)
	scripts/embed-asset.sh $< > $@

build/gen/%.py.inc: src/core/analysis/py/%.py scripts/embed-asset.sh
	@mkdir -p $(dir $@)
	scripts/embed-asset.sh $< > $@

# syscall and errno names from the kernel headers (pcl trace, pcl script's built-ins)
build/gen/syscall-tables.inc: scripts/gen-syscall-tables.sh
	@mkdir -p $(dir $@)
	scripts/gen-syscall-tables.sh $(CC) > $@

$(LIB_OBJ) $(ASAN_OBJ): | $(GEN_INC)

build/libpcl.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

build/libpcl-asan.a: $(ASAN_OBJ)
	@rm -f $@
	ar rcs $@ $^

pcl: build/obj/pcl.o build/libpcl.a
	$(CC) $(CFLAGS) -o $@ $^ $(LIBS)

# pcl under ASan+UBSan, for the end-to-end suite's second run
build/pcl-asan: build/asan/pcl.o build/libpcl-asan.a
	$(CC) $(SANFLAGS) -o $@ $^ $(LIBS)

build/unit/%: tests/unit/%.c build/libpcl.a | build/.deps-test
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(CFLAGS) -Itests/unit -o $@ $< build/libpcl.a $(LIBS) -lcmocka

build/unit-asan/%: tests/unit/%.c build/libpcl-asan.a | build/.deps-test
	@mkdir -p $(dir $@)
	$(CC) $(BASEFLAGS) $(SANFLAGS) -Itests/unit -o $@ $< build/libpcl-asan.a $(LIBS) -lcmocka

# Fixtures are tiny workloads for the tests: frame pointers kept, debug info on.
build/fixtures/%: tests/fixtures/%.c | $(DEPS)
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -fno-omit-frame-pointer -fno-inline -o $@ $< -lpthread -lm

# pcl probe's fixture at both ends of optimization, as perf probe meets programs
build/fixtures/probe_prog_O%: tests/fixtures/probe_prog.c | $(DEPS)
	@mkdir -p $(dir $@)
	$(CC) -O$* -g -o $@ $<
FIX_BIN += build/fixtures/probe_prog_O0 build/fixtures/probe_prog_O2
# annotate's workload is -O2 code, as people annotate it (inlined helpers, jump tables)
build/fixtures/annotate_work: tests/fixtures/annotate_work.c | $(DEPS)
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -o $@ $< -lm

fixtures: $(FIX_BIN)

unit: $(UNIT_BIN)
unit-asan: $(ASAN_BIN)

SUITE     = build/.deps-test pcl build/pcl-asan $(UNIT_BIN) $(ASAN_BIN) $(FIX_BIN)
RUN_SUITE = scripts/check-layers.sh && scripts/check.sh $(UNIT_BIN) -- $(ASAN_BIN)

check: $(SUITE)
	@$(RUN_SUITE)

# the tests while stress-ng keeps two CPUs busy: they must hold on a loaded machine
check-stress: $(SUITE)
	@stress-ng --cpu 2 --timeout 3h >/dev/null 2>&1 & stress=$$!; \
	$(RUN_SUITE); rc=$$?; \
	kill $$stress; wait $$stress; exit $$rc

e2e: build/.deps-test pcl $(FIX_BIN)
	/usr/bin/python3 -m pytest -q tests/e2e

demo: pcl $(FIX_BIN)
	@scripts/demo.sh

install: pcl
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 pcl $(DESTDIR)$(PREFIX)/bin/pcl
	install -m 0644 docs/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	install -m 0644 scripts/pcl-completion.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/pcl
	install -d $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	install -m 0644 scripts/_pcl $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_pcl

clean:
	rm -rf build pcl

-include $(DEPFILES)

# libFuzzer targets (clang only): `make fuzz`, then for each TARGET
# LSAN_OPTIONS=suppressions=tests/fuzz/lsan.supp \
#   build/fuzz/fuzz-TARGET -max_total_time=1800 build/fuzz/corpus-TARGET tests/fuzz/seeds-TARGET
# perf-data: the perf.data reader (seeds: small perf 6.1 recordings: plain, -g, -z, pipe,
# tracepoint, -k, switch/namespaces); events: -e and --filter strings; trace-data: the
# tracing data blob; collapse: perf script text and folded stacks; notes: build-id notes.
FUZZ_CC   = clang
FUZZFLAGS = -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
	    -fno-omit-frame-pointer
FUZZ_OBJ  = $(LIB_SRC:src/%.c=build/fuzz-obj/%.o)
FUZZ_BIN  = $(patsubst tests/fuzz/%.c,build/fuzz/%,$(wildcard tests/fuzz/fuzz-*.c))

build/fuzz-obj/%.o: src/%.c | $(DEPS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) $(FUZZFLAGS) -c $< -o $@

build/fuzz/fuzz-%: tests/fuzz/fuzz-%.c $(FUZZ_OBJ)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASEFLAGS) -O1 -g -fsanitize=fuzzer,address,undefined \
		-fno-sanitize-recover=undefined -o $@ $^ $(LIBS)

.PHONY: fuzz
fuzz: $(FUZZ_BIN)
$(FUZZ_OBJ): | $(GEN_INC)

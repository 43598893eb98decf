# SPDX-License-Identifier: GPL-2.0
#
# make            module (against KDIR), tools and selftests; the module
#                 as shipped: DXGPMO_TEST=y builds the test build
#                 (module/test.h), which make check builds for itself
# make check      install what is missing, then build and test on every test
#                 kernel in QEMU; last line "N passed, N failed[, N skipped]"
# make demo       boot a VM and run a scripted dxgpmoctl session
# make run PROG=path [ARGS="..."] [KERNEL=kver] [ARCH=amd64|arm64] [PARAMS="..."]
#                 boot a test kernel with the test build loaded and the tree
#                 shared (9p), run PROG there, exit as it did
# make shell      the same boot with a shell on the console (Ctrl-A X quits)
# make deps       install the Debian packages the above need
# make deb        the Debian packages (debian/) in build/deb/, lintian-checked
# make env        the exports that use the tree's build uninstalled:
#                 eval "$(make -s env)" after make tools

KDIR ?= /lib/modules/$(shell uname -r)/build
BUILD ?= $(CURDIR)/build
CC ?= gcc
CFLAGS ?= -O2 -g
# CPPFLAGS and LDFLAGS too, as dpkg-buildflags sets them (debian/rules):
# the programs and libdxgk get Debian's hardening.
# make coverage (DXGPMO_GCOV=y, scripts/coverage.sh) builds the programs
# and libdxgk with gcov's counters too; every program linked with them
# needs libgcov.
ifneq ($(filter-out y n,$(DXGPMO_GCOV)),)
$(error DXGPMO_GCOV=$(DXGPMO_GCOV): y for gcov counters, else unset)
endif
GCOV_FLAGS := $(if $(filter y,$(DXGPMO_GCOV)),--coverage)
# Which of the two builds the tree's programs are: a switch rebuilds them
# all, so that no program with counters outlives make coverage (and none
# without them is measured).
GCOV_STAMP := userspace-tools/.gcov-$(if $(GCOV_FLAGS),on,off)
$(GCOV_STAMP):
	rm -f userspace-tools/.gcov-on userspace-tools/.gcov-off
	touch $@
# The selftests' children end with _exit(): selftests/gcov_exit.c writes
# their counters first.
GCOV_TEST_FLAGS = $(if $(GCOV_FLAGS),$(GCOV_FLAGS) selftests/gcov_exit.c \
	-Wl$(comma)--wrap=_exit)
USER_CFLAGS := $(CPPFLAGS) $(CFLAGS) $(GCOV_FLAGS) -Wall -Wextra -Wno-unused-parameter -Wno-sign-compare \
	-Iuapi -Iuserspace-tools $(shell pkg-config --cflags libdrm 2>/dev/null)
USER_LIBS := $(shell pkg-config --libs libdrm 2>/dev/null || echo -ldrm)
KSELFTEST_DIR := $(BUILD)/kselftest
# The one linux-source tarball the kernel's tools come from (kernels.sh),
# wherever make runs from.
TOP := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
LINUX_SOURCE_TAR := $(shell . '$(TOP)/scripts/kernels.sh' && linux_source_tarball)
NEED_LINUX_SOURCE = @test -f "$(LINUX_SOURCE_TAR)" || \
	{ echo "no $(LINUX_SOURCE_TAR): run 'make deps'" >&2; exit 1; }

TOOLS := userspace-tools/dxgpmoctl userspace-tools/dxgpmo-bench \
	userspace-tools/dxgpmo-demo-screen
SELFTESTS := selftests/dxgpmo_test selftests/dxgpmo_adl_test \
	selftests/dxgpmo_map_test selftests/dxgpmo_dirty_test \
	selftests/dxgpmo_granule_test selftests/dxgpmo_dmabuf_test selftests/dxgpmo_hardening_test \
	selftests/dxgpmo_fuzz selftests/dxgpmo_bug_test \
	selftests/dxgpmo_race_test selftests/dxgpmo_lifetime_test \
	selftests/dxgpmo_security_test selftests/dxgpmo_pci_test \
	selftests/dxgpmo_scanout_test selftests/dxgpmo_capture_test \
	selftests/dxgpmo_pool_test selftests/dxgpmo_trace_test \
	selftests/dxgkrnl_sample_test \
	selftests/dxgkrnl_sample_hold selftests/dxgpmo_leak_test
LIB_SRCS := userspace-tools/libdxgpmo.c userspace-tools/libdxgpmo_pci.c
LIB_HDRS := userspace-tools/libdxgpmo.h uapi/dxgpmo.h \
	userspace-tools/dxgpmo_screen.h $(GCOV_STAMP)
# The debug command (a test build loaded with debug_ioctls=1): selftests
# and dxgpmo-bench only, never installed.
TEST_HDRS := uapi/dxgpmo_test.h

# A test build is for test machines: make install refuses it, and a build
# with the KUnit suites (module/kunit/), which taints the kernel it loads in.
ifeq ($(DXGPMO_TEST),y)
ifneq ($(filter install install-module,$(MAKECMDGOALS)),)
$(error DXGPMO_TEST=y: a test build is never installed)
endif
endif
ifeq ($(DXGPMO_KUNIT),y)
ifneq ($(filter install install-module,$(MAKECMDGOALS)),)
$(error DXGPMO_KUNIT=y: a build with the KUnit suites is never installed)
endif
endif

.PHONY: all module tools selftests deps check demo clean kselftest-headers lint \
	man install uninstall dkms-check fuzz check-debug bench install-module \
	install-tools deb deb-check deb-smoke env run shell coccicheck analyze \
	check-kcsan coverage

PREFIX ?= /usr/local
# Debian's libraries go in /usr/lib/<multiarch> (debian/rules sets it).
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
# bash-completion looks in /usr/share and /usr/local/share alike.
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
DESTDIR ?=
KVER ?= $(shell uname -r)
# The one version (scripts/version.sh): MODULE_VERSION in module/main.c,
# read only when a target uses it (a copy of the tree may lack the module).
VERSION = $(shell '$(TOP)/scripts/version.sh')

all: module tools selftests man

module:
	@test -d $(KDIR) || { echo "no kernel build tree at $(KDIR):" \
		"install linux-headers-$$(uname -r) or pass KDIR=" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

tools: $(TOOLS) man
selftests: $(SELFTESTS)

# The dispatcher, one file a command family, and the layer they share.
DXGPMOCTL_SRCS := userspace-tools/dxgpmoctl.c userspace-tools/json_print.c \
	$(addprefix userspace-tools/dxgpmoctl_,util.c object.c adl.c map.c \
	dirty.c dmabuf.c adapter.c monitor.c completion.c) \
	userspace-tools/trace_line.c
DXGPMOCTL_HDRS := userspace-tools/dxgpmoctl.h userspace-tools/json_print.h \
	userspace-tools/trace_line.h

userspace-tools/dxgpmoctl: $(DXGPMOCTL_SRCS) $(DXGPMOCTL_HDRS) $(LIB_SRCS) \
		$(LIB_HDRS)
	$(CC) $(USER_CFLAGS) $(LDFLAGS) -o $@ $(DXGPMOCTL_SRCS) $(LIB_SRCS) \
		$(USER_LIBS)

userspace-tools/dxgpmo-demo-screen: userspace-tools/dxgpmo-demo-screen.c \
		userspace-tools/dxgpmo_screen.h $(LIB_SRCS) $(LIB_HDRS)
	$(CC) $(USER_CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_SRCS) $(USER_LIBS)

# The driver and one file a scenario family.
BENCH_SRCS := userspace-tools/dxgpmo-bench.c \
	$(addprefix userspace-tools/dxgpmo_bench_,create.c adl.c peers.c map.c \
	dirty.c scale.c trace.c)

userspace-tools/dxgpmo-bench: $(BENCH_SRCS) userspace-tools/dxgpmo_bench.h \
		$(LIB_SRCS) $(LIB_HDRS) $(TEST_HDRS)
	$(CC) $(USER_CFLAGS) $(LDFLAGS) -o $@ $(BENCH_SRCS) $(LIB_SRCS) $(USER_LIBS) \
		-lpthread

# kselftest_harness.h is taken from Debian's linux-source package at build
# time and kept in the build cache, never in the tree.
$(KSELFTEST_DIR)/kselftest_harness.h:
	$(NEED_LINUX_SOURCE)
	mkdir -p $(KSELFTEST_DIR)
	tar -xJf $(LINUX_SOURCE_TAR) -C $(KSELFTEST_DIR) --strip-components=4 \
		--wildcards '*/tools/testing/selftests/kselftest_harness.h' \
		'*/tools/testing/selftests/kselftest.h'

kselftest-headers: $(KSELFTEST_DIR)/kselftest_harness.h

# The JSON validator of dxgpmoctl_test.sh: json-c's parser, not the
# tool's own writer.
selftests: selftests/json_check
selftests/json_check: selftests/json_check.c
	$(CC) -O2 -g -Wall -Wextra $(shell pkg-config --cflags json-c) -o $@ $< \
		$(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)

selftests/%: selftests/%.c selftests/dxgpmo_test_utils.h selftests/machine.h \
		selftests/steady.h $(LIB_SRCS) $(LIB_HDRS) \
		$(TEST_HDRS) $(KSELFTEST_DIR)/kselftest_harness.h
	$(CC) -O2 -g $(GCOV_TEST_FLAGS) -Wall -Iuapi -Iuserspace-tools -I$(KSELFTEST_DIR) \
		$(shell pkg-config --cflags libdrm 2>/dev/null) \
		-o $@ $< $(LIB_SRCS) $(USER_LIBS) -lpthread

# checkpatch.pl comes from the same linux-source package, also cached.
CHECKPATCH := $(BUILD)/checkpatch/checkpatch.pl
$(CHECKPATCH):
	$(NEED_LINUX_SOURCE)
	mkdir -p $(BUILD)/checkpatch
	tar -xJf $(LINUX_SOURCE_TAR) -C $(BUILD)/checkpatch --strip-components=2 \
		--wildcards '*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'

# kernel-doc, from the same package, checks the documentation comments
# that Documentation/userspace-api/dxgpmo.rst pulls from the header.
KERNEL_DOC := $(BUILD)/kernel-doc/kernel-doc
$(KERNEL_DOC):
	$(NEED_LINUX_SOURCE)
	mkdir -p $(BUILD)/kernel-doc
	tar -xJf $(LINUX_SOURCE_TAR) -C $(BUILD)/kernel-doc --strip-components=2 \
		--wildcards '*/scripts/kernel-doc'

# The kernel's semantic patches (scripts/coccinelle), from the same
# package, over the module and the samples (scripts/coccicheck.sh).
COCCINELLE := $(BUILD)/coccinelle/.extracted
$(COCCINELLE):
	$(NEED_LINUX_SOURCE)
	rm -rf $(BUILD)/coccinelle
	mkdir -p $(BUILD)/coccinelle
	tar -xJf $(LINUX_SOURCE_TAR) -C $(BUILD)/coccinelle --strip-components=3 \
		--wildcards '*/scripts/coccinelle/*'
	touch $@
coccicheck: $(COCCINELLE)
	scripts/coccicheck.sh $(BUILD)/coccinelle module samples

# clang's analyzer over the user-space C files, each once
# (scripts/analyze.sh).
ANALYZE_SOURCES = $(wildcard userspace-tools/*.c userspace-tools/examples/*.c \
	selftests/*.c)
analyze: $(KSELFTEST_DIR)/kselftest_harness.h
	scripts/analyze.sh $(KSELFTEST_DIR) $(ANALYZE_SOURCES)

# cppcheck's classes that find defects; not "style", whose most frequent
# finding (variableScope: declare a variable in the innermost block) is
# the opposite of the kernel's style, the rest preferences.  One
# configuration, the one gcc compiles (-D__GNUC__): every combination of
# #if that cppcheck tries by default took it 5 minutes, not 40 s.
CPPCHECK_FLAGS := -q --error-exitcode=1 --inline-suppr --std=c11 -D__GNUC__ \
	--enable=warning,portability,performance \
	-Iuapi -Iinclude -Iuserspace-tools -I$(KSELFTEST_DIR) \
	--suppress='*:$(KSELFTEST_DIR)/*'

# Code in the WDK's names (DXGKRNL_INTERFACE, a KMD's memory code) is the
# kernel's style but for the names: checked with the WDK's typedefs known.
WINDOWS_LINT_SOURCES = include/linux/dxgkrnl.h module/dxgkrnl.c \
	module/kunit/dxgkrnl_kunit.c $(wildcard samples/dxgkrnl-edu/*.[ch])
LINT_SOURCES = $(filter-out %.mod.c module/trace.h $(WINDOWS_LINT_SOURCES), \
	$(wildcard module/*.c) $(wildcard module/*.h) \
	$(wildcard module/kunit/*.c) uapi/dxgpmo.h $(wildcard include/linux/*.h) \
	$(wildcard samples/*/*.c))
USER_LINT_SOURCES = uapi/dxgk_types.h $(wildcard userspace-tools/*.[ch] \
	userspace-tools/examples/*.[ch] selftests/*.[ch])
LINT_SCRIPTS = .ci/run scripts/*.sh scripts/lib/*.sh scripts/guest/*.sh \
	scripts/guest/init scripts/layering-tests/run.sh selftests/*.sh \
	packaging/*.sh

# User space in the same style, less the checks that do not apply there
# (nor to the kernel's own tools/ and selftests), one a line, and why:
# no u8/u32 in user space: <stdint.h> has uint32_t
USER_LINT_IGNORE := PREFER_KERNEL_TYPES
# no READ_ONCE()/WRITE_ONCE(): volatile marks memory a device or thread shares
USER_LINT_IGNORE += VOLATILE
# no BIT(): <linux/bits.h> is not a uapi header
USER_LINT_IGNORE += BIT_MACRO
# no compiler_attributes.h: __printf() is made of __attribute__ here
USER_LINT_IGNORE += PREFER_DEFINED_ATTRIBUTE_MACRO
# dxgk_types.h has the WDK's typedefs (HANDLE, DXGKARGCB_*), as Windows
# does; checkpatch learns the argument blocks' names from it
# (--typedefsfile), but not the enums', which prefix their values' names
USER_LINT_IGNORE += NEW_TYPEDEFS
# names are spelt as the WDK, libdrm and C do (DxgkCbFreeAdl, PRIu64)
USER_LINT_IGNORE += CAMELCASE
# libdxgk's helpers return errno values positive, as pthread_*() do
USER_LINT_IGNORE += USE_NEGATIVE_ERRNO
# a test asks for a syscall the kernel may lack, which answers ENOSYS
USER_LINT_IGNORE += ENOSYS
# strings of printf(), TH_LOG(), SKIP() stay whole for grep, as printk()'s may
USER_LINT_IGNORE += LONG_LINE_STRING
# checks end the test from a macro, as kselftest's ASSERT_*() and SKIP() do
USER_LINT_IGNORE += MACRO_WITH_FLOW_CONTROL
# kselftest's EXPECT_*() is two statements: an if arm of one keeps its braces
USER_LINT_IGNORE += BRACES
# a macro of several kselftest FIXTURE*() declarations is not a statement
USER_LINT_IGNORE += MULTISTATEMENT_MACRO_USE_DO_WHILE
# the ioctl table, an X-macro, expands into such declarations
USER_LINT_IGNORE += COMPLEX_MACRO
# a FIXTURE_VARIANT_ADD() declaration ends in its semicolon, in its macro
USER_LINT_IGNORE += TRAILING_SEMICOLON
# arguments repeated are names (fixtures, members, X) or the fd to reset
USER_LINT_IGNORE += MACRO_ARG_REUSE
comma := ,
empty :=
space := $(empty) $(empty)

# Kernel style for the module and the uapi header.  uapi headers cannot use
# BIT(), and the one BUG() is the contract's bugcheck (adl_leak=bug), so
# those two checks are off; the trace header is laid out as the kernel's
# own (include/trace/events/: "TP_STRUCT__entry(" ending a line, the
# field lists in macros), which three checks refuse; user space is
# checked apart, less the checks
# above.  kernel-doc prints nothing when the comments are well formed; any
# line it prints fails the target.  shellcheck reads the .shellcheckrc of
# each script's directory, or of the nearest one above it (scripts/lib/).
# layering.sh holds module/ to the two tables of
# Documentation/driver-api/dxgpmo.rst, "Layers" (which file uses which, from
# ctags and the #include lines): a layer for every file, no use of a layer
# above but the calls that go back up it lists, none of main.c, client.c
# or a kind's file but from main.c, no #include the file uses nothing of.
# layering-tests/run.sh runs it on small trees, one with each rule broken,
# so that a rule that stops failing fails the lint.
# Each part a target of its own, so that make -j runs them side by side
# (make check does, with -O for whole logs): one after another, the
# longest kept a core idle after the boots for minutes.
LINT_PARTS := lint-kernel lint-user lint-windows lint-shell lint-cppcheck \
	analyze coccicheck lint-layers lint-kernel-doc
.PHONY: $(LINT_PARTS)
lint: $(LINT_PARTS)
lint-kernel: $(CHECKPATCH)
	perl $(CHECKPATCH) --strict --no-tree --ignore BIT_MACRO,AVOID_BUG -q \
		-f $(LINT_SOURCES)
	perl $(CHECKPATCH) --strict --no-tree -q \
		--ignore OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT,COMPLEX_MACRO \
		-f module/trace.h
$(BUILD)/dxgk-typedefs: uapi/dxgk_types.h
	@mkdir -p $(BUILD)
	{ sed -n 's/^} \(DXGKARG[A-Z_]*\);$$/\1/p' uapi/dxgk_types.h | \
		grep -v 'FLAGS$$'; \
	  sed -n 's/^typedef [a-z][a-z0-9_ ]* \**\([A-Z][A-Z0-9_]*\);$$/\1/p' \
		uapi/dxgk_types.h; } | \
		awk '{ print length($$0) "\t" $$0 }' | sort -rn | cut -f2 > $@
lint-user: $(CHECKPATCH) $(BUILD)/dxgk-typedefs
	perl $(CHECKPATCH) --strict --no-tree -q \
		--typedefsfile $(BUILD)/dxgk-typedefs \
		--ignore $(subst $(space),$(comma),$(strip $(USER_LINT_IGNORE))) \
		-f $(USER_LINT_SOURCES)
$(BUILD)/windows-typedefs: $(BUILD)/dxgk-typedefs uapi/dxgk_types.h \
		$(WINDOWS_LINT_SOURCES)
	{ cat $(BUILD)/dxgk-typedefs; \
	  sed -n 's/^} \([A-Z][A-Z0-9_]*\);$$/\1/p' $(WINDOWS_LINT_SOURCES); \
	  sed -n 's/^typedef .* \**\([A-Z][A-Z0-9_]*\);$$/\1/p' \
		uapi/dxgk_types.h $(WINDOWS_LINT_SOURCES); \
	  sed -n 's/^typedef [A-Z_]* (\*\([A-Z][A-Z0-9_]*\))(.*/\1/p' \
		uapi/dxgk_types.h $(WINDOWS_LINT_SOURCES); \
	  echo KMD_BASIS; } | sort -u | \
		awk '{ print length($$0) "\t" $$0 }' | sort -rn | cut -f2 > $@
lint-windows: $(CHECKPATCH) $(BUILD)/windows-typedefs
	perl $(CHECKPATCH) --strict --no-tree -q \
		--typedefsfile $(BUILD)/windows-typedefs \
		--ignore BIT_MACRO,AVOID_BUG,CAMELCASE,NEW_TYPEDEFS \
		-f $(WINDOWS_LINT_SOURCES)
lint-shell:
	shellcheck -x $(LINT_SCRIPTS)
lint-cppcheck: $(KSELFTEST_DIR)/kselftest_harness.h
	cppcheck $(CPPCHECK_FLAGS) userspace-tools selftests
lint-layers:
	scripts/layering-tests/run.sh -q
	scripts/layering.sh -q
	scripts/headers.sh
	scripts/windows-names.sh --self-test
	scripts/version.sh --check
lint-kernel-doc: $(KERNEL_DOC)
	@out=$$(perl $(KERNEL_DOC) -none -Wall $(LINT_SOURCES) \
		$(WINDOWS_LINT_SOURCES) 2>&1); \
		if [ -n "$$out" ]; then echo "$$out"; \
		echo "kernel-doc: warnings (above)" >&2; exit 1; fi

# The man page and the bash completion script are generated from
# dxgpmoctl's own command tables; dxgpmo-bench's man page
# (userspace-tools/dxgpmo-bench.1) is written by hand.
# userspace-tools/man/ links both pages in the section layout man(1)
# searches, for make env's MANPATH.
MAN_PAGES := userspace-tools/dxgpmoctl.1 userspace-tools/dxgpmo-bench.1
MAN_LINKS := $(patsubst userspace-tools/%,userspace-tools/man/man1/%,$(MAN_PAGES))
man: $(MAN_PAGES) $(MAN_LINKS) userspace-tools/dxgpmoctl.bash-completion
userspace-tools/dxgpmoctl.1: userspace-tools/dxgpmoctl
	userspace-tools/dxgpmoctl --man > $@
userspace-tools/dxgpmoctl.bash-completion: userspace-tools/dxgpmoctl
	userspace-tools/dxgpmoctl --bash-completion > $@
$(MAN_LINKS): userspace-tools/man/man1/%: userspace-tools/%
	@mkdir -p $(@D)
	ln -sf ../../$* $@

# The tree's build used as if installed, for a port built against it
# before any install: the tools on PATH, their pages on MANPATH (the empty
# entry keeps man's default path after it), and libdxgk through
# userspace-tools/libdxgk-uninstalled.pc, which pkg-config prefers to an
# installed libdxgk.pc in the same search, with libdxgk.so.0 found at run
# time as the installed one is.  Only the exports go to standard output.
env:
	@{ test -e userspace-tools/libdxgk.so.0 && \
	   test -e userspace-tools/man/man1/dxgpmoctl.1; } || \
		echo "make env: the tree is not built: run make tools" >&2
	@echo 'export PATH="$(TOP)/userspace-tools:$$PATH"'
	@echo 'export MANPATH="$(TOP)/userspace-tools/man:$${MANPATH:-}"'
	@echo 'export PKG_CONFIG_PATH="$(TOP)/userspace-tools$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH}"'
	@echo 'export LD_LIBRARY_PATH="$(TOP)/userspace-tools$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}"'

# make install: the module (install-module), the tools with their man
# pages (install-tools) and libdxgk with the headers and its pkg-config
# file (install-libdxgk, below).  debian/rules installs the last two; the
# module's source goes to DKMS instead.
install: install-module install-tools
install-module: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=updates \
		INSTALL_MOD_PATH=$(DESTDIR) modules_install
install-tools: userspace-tools/dxgpmoctl userspace-tools/dxgpmo-bench man
	install -D -m 0755 userspace-tools/dxgpmoctl $(DESTDIR)$(PREFIX)/bin/dxgpmoctl
	install -D -m 0755 userspace-tools/dxgpmo-bench \
		$(DESTDIR)$(PREFIX)/bin/dxgpmo-bench
	install -D -m 0644 userspace-tools/dxgpmoctl.1 \
		$(DESTDIR)$(MANDIR)/man1/dxgpmoctl.1
	install -D -m 0644 userspace-tools/dxgpmo-bench.1 \
		$(DESTDIR)$(MANDIR)/man1/dxgpmo-bench.1
	install -D -m 0644 userspace-tools/dxgpmoctl.bash-completion \
		$(DESTDIR)$(BASHCOMPDIR)/dxgpmoctl

uninstall:
	rm -f $(DESTDIR)/lib/modules/$(KVER)/updates/module/dxgpmo.ko*
	-[ -n "$(DESTDIR)" ] || depmod -a $(KVER)
	rm -f $(DESTDIR)$(PREFIX)/bin/dxgpmoctl \
		$(DESTDIR)$(PREFIX)/bin/dxgpmo-bench \
		$(DESTDIR)$(MANDIR)/man1/dxgpmoctl.1 \
		$(DESTDIR)$(MANDIR)/man1/dxgpmo-bench.1 \
		$(DESTDIR)$(BASHCOMPDIR)/dxgpmoctl
	rm -rf $(DESTDIR)$(INCLUDEDIR)/dxgpmo

# dkms build of a copy of the tree against every test kernel, in a private
# dkms tree (nothing is registered with the system's dkms).
dkms-check:
	scripts/dkms-check.sh

# The four Debian packages (debian/control), built from a copy of the tree
# with dpkg-buildpackage -us -uc -b into build/deb/, then lintian on them.
deb:
	scripts/deb-build.sh

# make deb, then the packages installed, used and purged in the trixie and
# bookworm build roots (part of make check, which also boots the module
# DKMS built there).
deb-check:
	scripts/deb-check.sh

# make check's boot of the newest kernel with the module as the package's
# DKMS built it, alone (after deb-check; DXGPMO_DEB_REUSE=1 reuses its
# output).
deb-smoke:
	scripts/deb-smoke.sh

deps:
	scripts/deps.sh

check:
	scripts/check.sh

# Benchmarks in the VM, ratios against same-boot baselines; JSON in build/.
bench:
	scripts/bench.sh

# The suite and the fuzzer on a KASAN/lockdep/kmemleak kernel (built once).
check-debug:
	scripts/check-debug.sh

# The same on a KCSAN kernel: no data race in the tree's modules.
check-kcsan:
	scripts/check-debug.sh kcsan

# check-debug's boots with gcov's counters in the module and the samples:
# an HTML report in build/coverage/html and one line of figures a directory.
coverage:
	scripts/coverage.sh

# The whole suite with a longer fuzzer run: make fuzz SECONDS=600 fuzzes for
# that long (a duration, not an assertion); make fuzz OPS=n runs exactly n
# operations (its safety net, DXGPMO_FUZZ_SECONDS, scales with n).
SECONDS ?= 600
fuzz:
ifdef OPS
	DXGPMO_FUZZ_OPS=$(OPS) scripts/check.sh
else
	DXGPMO_FUZZ_DURATION=$(SECONDS) scripts/check.sh
endif

demo:
	scripts/demo.sh

# scripts/run.sh --help says what the guest has where.  ARGS is split as
# the shell splits it, quotes and all.  ARCH is read from the command line
# only: a kernel developer's environment may have ARCH=x86_64 for
# Kbuild.
RUN_ARCH = $(if $(filter command line,$(origin ARCH)),$(ARCH))
RUN_OPTS = $(if $(KERNEL),-k '$(KERNEL)') $(if $(RUN_ARCH),-a '$(RUN_ARCH)') \
	$(if $(PARAMS),-m '$(PARAMS)')
run:
	@scripts/run.sh $(RUN_OPTS) -- '$(PROG)' $(ARGS)
shell:
	@scripts/run.sh --shell $(RUN_OPTS)

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	rm -f $(TOOLS) $(SELFTESTS) selftests/json_check userspace-tools/dxgpmoctl.1 \
		userspace-tools/dxgpmoctl.bash-completion
	rm -rf userspace-tools/man
	rm -rf $(BUILD)
	find userspace-tools selftests -name '*.gcno' -delete -o -name '*.gcda' -delete
	rm -f userspace-tools/.gcov-on userspace-tools/.gcov-off

# libdxgk: the Windows-named calls (userspace-tools/libdxgk.h), as a static
# and a shared library that need nothing but libc, and the two example
# programs written against it, linked statically so the VM needs no copy of
# the shared one.
LIBDXGK_CFLAGS := $(CPPFLAGS) $(CFLAGS) $(GCOV_FLAGS) -Wall -Wextra -Werror -fPIC \
	-Iuapi -Iuserspace-tools
# The shared library is libdxgk.so.0, its soname, with libdxgk.so linked
# to it, as installed: a program linked with -Luserspace-tools -ldxgk
# then finds it at run time through LD_LIBRARY_PATH (make env).
LIBDXGK := userspace-tools/libdxgk.a userspace-tools/libdxgk.so.0 \
	userspace-tools/libdxgk.so userspace-tools/libdxgk-uninstalled.pc
DXGK_EXAMPLES := userspace-tools/examples/dxgk-mobile-gpu \
	userspace-tools/examples/dxgk-live-migration

.PHONY: libdxgk libdxgk-check install-libdxgk uninstall-libdxgk clean-libdxgk
libdxgk: $(LIBDXGK)
tools: $(LIBDXGK) $(DXGK_EXAMPLES)

# Sessions and handles, the DxgkCb* callbacks, the dirty-bit calls, the
# live-migration harness, the adapter calls and the status table;
# libdxgk_internal.h gives what they share hidden visibility.  The .so
# exports libdxgk.h's calls only (and libdxgk 0.1's names of the dirty-bit
# calls, below), by that and by its version script (libdxgk.map, the ABI:
# each name at the version of its node); the .a is the six objects linked
# into one whose hidden names are made local, so that a program linked
# with it keeps every dxgk_* name for itself.
LIBDXGK_OBJS := $(addprefix userspace-tools/libdxgk_,session.o callbacks.o \
	dirty.o migration.o adapter.o status.o)
# The .so's alone: the DDIs' names of libdxgk 0.1, as non-default symbol
# versions for the programs linked with it (libdxgk_compat.c); never in the
# .a, where a driver's own DDIs of those names would collide with them.
LIBDXGK_SO_OBJS := $(LIBDXGK_OBJS) userspace-tools/libdxgk_compat.o
# The objcopy of the compiler's binutils (a cross compiler's for arm64).
OBJCOPY ?= $(shell $(firstword $(CC)) -print-prog-name=objcopy)

$(LIBDXGK_SO_OBJS): userspace-tools/libdxgk_%.o: userspace-tools/libdxgk_%.c \
		userspace-tools/libdxgk_internal.h userspace-tools/libdxgk.h \
		uapi/dxgk_types.h uapi/dxgpmo.h $(GCOV_STAMP)
	$(CC) $(LIBDXGK_CFLAGS) -c -o $@ $<
userspace-tools/libdxgk.a: $(LIBDXGK_OBJS)
	$(CC) -nostdlib -r -o userspace-tools/libdxgk_all.o $^
	$(OBJCOPY) --localize-hidden userspace-tools/libdxgk_all.o
	rm -f $@ && ar rcs $@ userspace-tools/libdxgk_all.o
userspace-tools/libdxgk.so.0: $(LIBDXGK_SO_OBJS) userspace-tools/libdxgk.map
	$(CC) $(CFLAGS) $(GCOV_FLAGS) $(LDFLAGS) -shared -Wl,-soname,libdxgk.so.0 \
		-Wl,--version-script=userspace-tools/libdxgk.map \
		-Wl,--no-undefined -o $@ $(LIBDXGK_SO_OBJS)
userspace-tools/libdxgk.so: userspace-tools/libdxgk.so.0
	ln -sf libdxgk.so.0 $@
# It points at the headers where the tree has them (libdxgk.h beside it,
# the uapi headers in uapi/) and at the libraries beside it, by
# ${pcfiledir}: the paths stay true wherever the tree is moved.
userspace-tools/libdxgk-uninstalled.pc: userspace-tools/libdxgk-uninstalled.pc.in \
		module/main.c
	sed -e 's|@VERSION@|$(VERSION)|' $< > $@
userspace-tools/examples/%: userspace-tools/examples/%.c \
		userspace-tools/examples/example_checks.h \
		userspace-tools/libdxgk.h userspace-tools/libdxgk.a
	$(CC) $(CFLAGS) $(GCOV_FLAGS) -Wall -Wextra -Werror -Iuapi \
		-Iuserspace-tools -o $@ $< userspace-tools/libdxgk.a

# kselftests of the library on the module, linked with libdxgk.a only:
# its calls, and its live-migration harness against toy drivers' DDIs.
LIBDXGK_SELFTESTS := selftests/libdxgk_test selftests/libdxgk_migration_test \
	selftests/libdxgk_driver_basis_test
selftests: $(LIBDXGK_SELFTESTS)
$(LIBDXGK_SELFTESTS): selftests/libdxgk_%: selftests/libdxgk_%.c \
		selftests/machine.h selftests/steady.h \
		userspace-tools/libdxgk.h userspace-tools/libdxgk.a \
		$(KSELFTEST_DIR)/kselftest_harness.h
	$(CC) -O2 -g $(GCOV_TEST_FLAGS) -Wall -Iuapi -Iuserspace-tools \
		-I$(KSELFTEST_DIR) -o $@ $< userspace-tools/libdxgk.a -lpthread

# The header alone as C11 and C++17, the libraries' dependencies, the
# status table, and the tree used uninstalled through make env (host only;
# make check counts its "libdxgk:" lines).
libdxgk-check: $(LIBDXGK)
	scripts/libdxgk-check.sh

# The headers go in INCLUDEDIR/dxgpmo, which libdxgk.pc (made from
# libdxgk.pc.in with these directories and VERSION) puts on the include
# path: pkg-config --cflags --libs libdxgk.
install: install-libdxgk
install-libdxgk: $(LIBDXGK) userspace-tools/libdxgk.pc.in
	install -D -m 0644 userspace-tools/libdxgk.h \
		$(DESTDIR)$(INCLUDEDIR)/dxgpmo/libdxgk.h
	install -D -m 0644 uapi/dxgpmo.h $(DESTDIR)$(INCLUDEDIR)/dxgpmo/dxgpmo.h
	install -D -m 0644 uapi/dxgk_types.h \
		$(DESTDIR)$(INCLUDEDIR)/dxgpmo/dxgk_types.h
	install -D -m 0644 userspace-tools/libdxgk.a $(DESTDIR)$(LIBDIR)/libdxgk.a
	install -D -m 0644 userspace-tools/libdxgk.so.0 \
		$(DESTDIR)$(LIBDIR)/libdxgk.so.0
	ln -sf libdxgk.so.0 $(DESTDIR)$(LIBDIR)/libdxgk.so
	mkdir -p $(DESTDIR)$(LIBDIR)/pkgconfig
	sed -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' userspace-tools/libdxgk.pc.in \
		> $(DESTDIR)$(LIBDIR)/pkgconfig/libdxgk.pc

uninstall: uninstall-libdxgk
uninstall-libdxgk:
	rm -f $(DESTDIR)$(LIBDIR)/libdxgk.a $(DESTDIR)$(LIBDIR)/libdxgk.so \
		$(DESTDIR)$(LIBDIR)/libdxgk.so.0 \
		$(DESTDIR)$(LIBDIR)/pkgconfig/libdxgk.pc \
		$(DESTDIR)$(INCLUDEDIR)/dxgpmo/libdxgk.h \
		$(DESTDIR)$(INCLUDEDIR)/dxgpmo/dxgpmo.h \
		$(DESTDIR)$(INCLUDEDIR)/dxgpmo/dxgk_types.h

clean: clean-libdxgk
clean-libdxgk:
	rm -f $(LIBDXGK_SO_OBJS) $(LIBDXGK) $(DXGK_EXAMPLES) \
		userspace-tools/libdxgk_all.o \
		$(LIBDXGK_SELFTESTS)

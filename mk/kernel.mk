# Kernel side of the build: QEMU boot tests of the patched Linux 6.1.
# Included by the top-level Makefile (`include mk/kernel.mk`).
#
#   make qemu-skeleton      build the kernel from $(KERNEL_SERIES), boot it in
#                           QEMU TCG, check KUnit suite lbs_core and that a
#                           64 KiB-block XFS image mounts with the EXPERIMENTAL
#                           warning (and a 4 KiB one mounts).
#                           Needs $(KERNEL_SERIES), made by the `kernel-patch`
#                           target (top-level Makefile); this fragment does not
#                           depend on it, so run `make kernel-patch` first.
#                           Report: $(BUILD)/qemu/skeleton/report.txt
#   make qemu-pristine-ktap same pipeline on the pristine tree (empty series)
#                           with test-only KUnit suites: proves build, boot
#                           and KTAP parsing without the series (full build
#                           of its own, in $(BUILD)/qemu/pristine-ktap).
#   make ktap-selftest      ktap-check.py against the fixtures (seconds).
#   make qemu-verify KERNEL=ref-6.12|stock-6.1|patched-6.1 [BLOCK_SIZES="..."]
#                           the bs > PAGE_SIZE verification suite
#                           (tests/qemu/verify.sh): kernel build (or reuse),
#                           static guest tests (tests/guest), XFS images per
#                           block size, one QEMU TCG boot. patched-6.1 uses
#                           $(KERNEL_SERIES). Report:
#                           $(BUILD)/qemu/$(KERNEL)/report.txt
#   make qemu-verify-selftest
#                           the reference's negative control: ref-6.12 plus
#                           kernel-glue/selftest/KNOB.patch (a broken
#                           iomap_dio_zero), judged by
#                           tests/qemu/controls-ref-6.12.txt
#                           (tests/qemu/controls.sh).  The patched kernel's
#                           negative controls (kernel-glue/selftest-6.1) are
#                           make check-controls[-all] (top-level Makefile).
#   make qemu-verify-stress the positive controls: the series plus each
#                           kernel-glue/stress-6.1/PATCH.patch (a widened
#                           window the series closes, e.g. every large
#                           block split between two ioends, the second
#                           held back a second); the suite must pass.
#   make qemu-powercut KERNEL=... [BLOCK_SIZES=...] [POWERCUT_ROUNDS=3]
#                           power cuts (tests/qemu/powercut.sh): QEMU killed
#                           once an lbs-fsx campaign reports op N done (N
#                           from the seed), while later ops run; a mismatch
#                           in that boot fails the round; then a second
#                           boot's log recovery, xfs_repair -n and every
#                           byte checked against the campaign's journal.
#                           Report: $(BUILD)/qemu/powercut-KERNEL/
#   make qemu-verify-ci     CI subset (part of `make check`): patched-6.1 at
#                           4096, 16384 and 65536, $(CI_OPS) fsx ops, the
#                           same kernel at 65536 with memory fragmented
#                           (qemu-verify-frag), then one power cut at 4096
#                           and one at 65536 (seed 1; the report names the
#                           op each cut follows).
#   make qemu-verify-frag   the suite on the kernel qemu-verify built for
#                           KERNEL, free memory fragmented (--fragment 90).
#   make qemu-verify-ref    the same suite on ref-6.12 at 65536 (`make
#                           check-ref`, run by CI after `make check`): the
#                           suite's expectations hold upstream, and the
#                           differential trace ends with lbs-sim's bytes
#                           there too.
#   make qemu-verify-matrix the full matrix: patched-6.1, ref-6.12 and
#                           stock-6.1 at $(BLOCK_SIZES), $(LBS_OPS) ops.
#   make guest-tests        only the static guest binaries, in
#                           $(BUILD)/guest (tests/guest/build.sh).
#
# Variables: BUILD (default build), KERNEL_SERIES, SKELETON_ARGS (extra
# tests/qemu/skeleton.sh options, e.g. --suite NAME --extra-config FRAG),
# LBS_QEMU_TIMEOUT (seconds per boot, default 300; qemu-verify scales it
# with the block sizes and ops), LBS_JOBS (make -j), KERNEL, BLOCK_SIZES
# (default 4096 8192 16384 32768 65536), LBS_OPS (ops per lbs-fsx campaign,
# default 10000), VERIFY_ARGS (extra tests/qemu/verify.sh options).

BUILD ?= build
KERNEL_MK_TOP := $(patsubst %/,%,$(dir $(abspath $(dir $(lastword $(MAKEFILE_LIST))))))
KERNEL_BUILD = $(abspath $(BUILD))
KERNEL_SERIES ?= $(KERNEL_BUILD)/kernel-patch
SKELETON_ARGS ?=
KERNEL ?= ref-6.12
BLOCK_SIZES ?= 4096 8192 16384 32768 65536
LBS_OPS ?= 10000
VERIFY_ARGS ?=
SELFTEST_BLOCK_SIZES ?= 4096 16384 65536
CI_OPS ?= 2000
POWERCUT_ROUNDS ?= 3

# make qemu-record NAME=ref-6.12   copy build/qemu/NAME/report.txt into
#                           tests/qemu/records/ (tests/qemu/record.sh), then
#                           regenerate the two tables made from the records
#                           (crash-table, status), which meson checks
# make crash-table          doc/crash.md's crash-rule table from
#                           tests/qemu/records (builds and boots nothing)
# make status               the README's "what works" table from
#                           tests/qemu/records and tests/fstests/records
#                           (scripts/status.py; builds and boots nothing)
.PHONY: qemu-record crash-table status
qemu-record:
	@LBS_BUILD=$(KERNEL_BUILD) sh $(KERNEL_MK_TOP)/tests/qemu/record.sh "$(NAME)"
	@$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) crash-table status
crash-table:
	@python3 $(KERNEL_MK_TOP)/tests/qemu/crash-table.py
status:
	@python3 $(KERNEL_MK_TOP)/scripts/status.py

.PHONY: qemu-powercut qemu-skeleton qemu-pristine-ktap ktap-selftest qemu-verify qemu-verify-frag qemu-verify-selftest qemu-verify-stress qemu-verify-ci qemu-verify-ref qemu-verify-matrix guest-tests

qemu-skeleton:
	LBS_BUILD=$(KERNEL_BUILD) $(KERNEL_MK_TOP)/tests/qemu/skeleton.sh \
		--series $(KERNEL_SERIES) $(BENCH_ARGS) $(SKELETON_ARGS)

qemu-pristine-ktap:
	mkdir -p $(KERNEL_BUILD)/qemu/empty-series
	LBS_BUILD=$(KERNEL_BUILD) $(KERNEL_MK_TOP)/tests/qemu/skeleton.sh \
		--series $(KERNEL_BUILD)/qemu/empty-series --name pristine-ktap \
		--expect-64k refused \
		--suite list-kunit-test --suite hlist --suite example --suite rational \
		--extra-config $(KERNEL_MK_TOP)/tests/qemu/config/list-kunit.config

ktap-selftest:
	$(KERNEL_MK_TOP)/tests/qemu/selftest-ktap.sh

guest-tests:
	LBS_BUILD=$(KERNEL_BUILD) $(KERNEL_MK_TOP)/tests/guest/build.sh $(KERNEL_BUILD)/guest

qemu-verify:
	LBS_BUILD=$(KERNEL_BUILD) $(KERNEL_MK_TOP)/tests/qemu/verify.sh --kernel $(KERNEL) \
		--block-sizes "$(BLOCK_SIZES)" --ops $(LBS_OPS) \
		$(if $(filter patched-6.1,$(KERNEL)),--series $(KERNEL_SERIES)) $(VERIFY_ARGS)

qemu-verify-selftest:
	LBS_BUILD=$(KERNEL_BUILD) sh $(KERNEL_MK_TOP)/tests/qemu/controls.sh --kernel ref-6.12 --tier all

qemu-verify-stress:
	LBS_BUILD=$(KERNEL_BUILD) $(KERNEL_MK_TOP)/tests/qemu/verify-selftest.sh \
		--kernel patched-6.1 --stress \
		--block-sizes "$(SELFTEST_BLOCK_SIZES)" --ops $(LBS_OPS)

qemu-verify-ci:
	$(MAKE) -f $(firstword $(MAKEFILE_LIST)) qemu-verify KERNEL=patched-6.1 BLOCK_SIZES="4096 16384 65536" LBS_OPS=$(CI_OPS)
	$(MAKE) -f $(firstword $(MAKEFILE_LIST)) qemu-verify-frag KERNEL=patched-6.1 BLOCK_SIZES=65536 LBS_OPS=$(CI_OPS)
	$(MAKE) -f $(firstword $(MAKEFILE_LIST)) qemu-powercut KERNEL=patched-6.1 BLOCK_SIZES="4096 65536" POWERCUT_ROUNDS=1

# the suite again on the kernel qemu-verify built, with 90% of the guest's
# free memory fragmented (tests/guest/frag.c): large folio allocations
# fail and fall back, and folio-orders requires that they did
qemu-verify-frag:
	LBS_BUILD=$(KERNEL_BUILD) LBS_KERNEL_IMAGE=$(KERNEL_BUILD)/kernel/$(KERNEL)/arch/x86/boot/bzImage \
		$(KERNEL_MK_TOP)/tests/qemu/verify.sh --kernel $(KERNEL) --name $(KERNEL)-frag \
		--block-sizes "$(BLOCK_SIZES)" --ops $(LBS_OPS) --fragment 90 \
		$(if $(filter patched-6.1,$(KERNEL)),--series $(KERNEL_SERIES)) $(VERIFY_ARGS)

qemu-powercut:
	LBS_BUILD=$(KERNEL_BUILD) $(KERNEL_MK_TOP)/tests/qemu/powercut.sh --kernel $(KERNEL) \
		--block-sizes "$(BLOCK_SIZES)" --rounds $(POWERCUT_ROUNDS) \
		$(if $(filter patched-6.1,$(KERNEL)),--series $(KERNEL_SERIES))

qemu-verify-ref:
	$(MAKE) -f $(firstword $(MAKEFILE_LIST)) qemu-verify KERNEL=ref-6.12 BLOCK_SIZES=65536 LBS_OPS=$(CI_OPS)

qemu-verify-matrix:
	$(MAKE) -f $(firstword $(MAKEFILE_LIST)) qemu-verify KERNEL=patched-6.1 BLOCK_SIZES="$(BLOCK_SIZES)"
	$(MAKE) -f $(firstword $(MAKEFILE_LIST)) qemu-verify KERNEL=ref-6.12 BLOCK_SIZES="$(BLOCK_SIZES)"
	$(MAKE) -f $(firstword $(MAKEFILE_LIST)) qemu-verify KERNEL=stock-6.1 BLOCK_SIZES="$(BLOCK_SIZES)"

# make bench-kernel         on-demand benchmark, not a test (bench/kernel-fio.sh,
#                           bench/README.md): fio in QEMU TCG on XFS, one run over
#                           the pairs of BENCH_PAIRS (default: patched-6.1 and
#                           ref-6.12 at 64k, 16k and 4k, stock-6.1 at 4k), on the
#                           benchmark kernels (test fragment + bench.config: no
#                           XFS_DEBUG, lockdep or KUnit), rounds interleaved;
#                           medians, spreads and the LBS-efficiency ratios.
#                           patched-6.1 needs $(KERNEL_SERIES) (make kernel-patch).
#                           Tables: $(BUILD)/bench/kernel-fio.txt. Variables:
#                           BENCH_PAIRS, ROUNDS (3), SIZE_MB (128),
#                           LBS_QEMU_MEM (2G), LBS_QEMU_TIMEOUT (1200 per boot),
#                           BENCH_ARGS (e.g. --insns: kernel instruction counts
#                           per job, or --profile); from the environment also
#                           DIRTY_MB, MOUNT_OPTS, INSN_PROFILE. Each run writes
#                           its record to bench/records/RUN.tsv
#                           (LBS_BENCH_RECORDS: another directory).
# make bench-summary        the kernel summary in README.md and bench/README.md,
#                           and bench/README.md's sim-bench and fuse-bench
#                           figures, regenerated from bench/records alone
#                           (bench/kernel-summary.py, bench/user-summary.py);
#                           builds and boots nothing.
BENCH_PAIRS ?= patched-6.1:65536 ref-6.12:65536 patched-6.1:16384 ref-6.12:16384 \
	patched-6.1:4096 ref-6.12:4096 stock-6.1:4096
.PHONY: bench-kernel
bench-kernel:
	LBS_BUILD=$(KERNEL_BUILD) $(KERNEL_MK_TOP)/bench/kernel-fio.sh --pairs "$(BENCH_PAIRS)" \
		--series $(KERNEL_SERIES) $(BENCH_ARGS)

.PHONY: bench-summary
bench-summary:
	python3 $(KERNEL_MK_TOP)/bench/kernel-summary.py
	python3 $(KERNEL_MK_TOP)/bench/user-summary.py

# Real fstests in a QEMU TCG guest (tests/fstests/). Included by the
# top-level Makefile (`include mk/fstests.mk`); `make check-fstests` (CI,
# after `make check`) runs fstests-ci, the rest is on demand.
#
#   make fstests KERNEL=patched-6.1|stock-6.1|ref-6.12 BLOCK_SIZE=N
#                [TESTS="generic/091 ..." | GROUP=lbs|quick|...] [TWIN=KNOB] [LOCKDEP=0]
#                [FRAG=PCT]
#                           fstests build, kernel (+ kernel-glue/config/fstests.config),
#                           one guest boot; results in $(BUILD)/fstests/KERNEL-N/
#                           (check.log, result.xml, *.out.bad, *.full, *.dmesg)
#                           and a table on stdout, judged against
#                           tests/fstests/expunges/KERNEL-N.txt; one record per
#                           test appended to tests/fstests/records/KERNEL-N.tsv
#                           (commit it; LBS_FSTESTS_RECORDS=DIR writes elsewhere).
#                           A notrun fails when TESTS named it or the records
#                           show it ran on KERNEL-N before. Default: GROUP=lbs
#                           (tests/fstests/lbs.group). patched-6.1 needs
#                           `make kernel-patch` first. stock-6.1: 4096 only.
#                           TWIN=KNOB (patched-6.1): the negative control, the
#                           series plus kernel-glue/selftest-6.1/KNOB.patch,
#                           results in patched-6.1.KNOB-N/.
#                           LOCKDEP=0: the same kernel without lockdep
#                           (PROVE_LOCKING off; XFS_DEBUG stays), results in
#                           KERNEL.nolockdep-N/: run it beside a LOCKDEP=1 run
#                           to see what lockdep costs per test.
#                           FRAG=PCT: the guest holds PCT% of its free memory
#                           fragmented (tests/guest/frag.c) while the tests
#                           run, so large folio allocations fall back;
#                           results and records as KERNEL.frag-N. Every run
#                           prints its folio census (folios by order, failed
#                           large allocations) and fails when a regime it
#                           must have run did not (run-fstests.sh --help).
#   make fstests-fsx KERNEL=... BLOCK_SIZE=N [FSX_OPS=100000] [FSX_SEED=1]
#                [FSX_CAMPAIGNS="buffered-mmap dio eof-pollute wide"] [TWIN=KNOB] [FRAG=PCT]
#                           fstests' own fsx, not check: each campaign on a
#                           fresh mkfs.xfs -b size=N (reflink on, so clone,
#                           dedupe and copy_range on), then xfs_repair -n;
#                           results in $(BUILD)/fstests/fsx-KERNEL-N/.
#   make fstests-ci         CI's part (`make check-fstests`): patched-6.1 at
#                           65536, the tests of $(FSTESTS_CI_TESTS)
#                           (sub-block reflink COW through write, O_DIRECT
#                           and mmap; fsx with O_DIRECT and mmap).
#   make fstests-compare [LABELS="patched-6.1-65536 ..."]
#                           one table over the records, the latest result of
#                           each KERNEL-N and test, with the regressions
#                           (patched-6.1 fails where ref-6.12 passes at that
#                           block size, or at 4096 where stock-6.1 passes);
#                           writes it to tests/fstests/results.md (not when
#                           LBS_FSTESTS_RECORDS is set: that file is the
#                           committed records' only). Fails with no records,
#                           or when a label in LABELS or with records has a
#                           latest run that ran nothing.
#
# KERNEL must be given on the command line (kernel.mk's default is not used).

FSTESTS_KERNEL = $(if $(filter file,$(origin KERNEL)),,$(KERNEL))
BLOCK_SIZE ?=
TESTS ?=
GROUP ?=
LOCKDEP ?= 1

FSX_OPS ?= 100000
FSX_SEED ?= 1
FSX_CAMPAIGNS ?=

FSTESTS_CI_TESTS = generic/138 generic/139 generic/140 generic/263
LABELS ?=

.PHONY: fstests fstests-ci fstests-fsx fstests-compare

fstests: deps
	@LBS_BUILD=$(abspath $(BUILD)) sh tests/fstests/run-fstests.sh \
		--kernel "$(FSTESTS_KERNEL)" --block-size "$(BLOCK_SIZE)" \
		$(if $(TESTS),--tests "$(TESTS)") $(if $(GROUP),--group "$(GROUP)") \
		$(if $(TWIN),--twin "$(TWIN)") $(if $(filter 0,$(LOCKDEP)),--no-lockdep) \
		$(if $(FRAG),--fragment "$(FRAG)")

fstests-ci:
	$(MAKE) -f $(firstword $(MAKEFILE_LIST)) fstests KERNEL=patched-6.1 \
		BLOCK_SIZE=65536 TESTS="$(FSTESTS_CI_TESTS)"

fstests-fsx: deps
	@LBS_BUILD=$(abspath $(BUILD)) sh tests/fstests/run-fstests.sh \
		--kernel "$(FSTESTS_KERNEL)" --block-size "$(BLOCK_SIZE)" \
		--fsx-ops "$(FSX_OPS)" --fsx-seed "$(FSX_SEED)" \
		$(if $(FSX_CAMPAIGNS),--fsx-campaigns "$(FSX_CAMPAIGNS)") \
		$(if $(TWIN),--twin "$(TWIN)") $(if $(FRAG),--fragment "$(FRAG)")

fstests-compare:
	@python3 tests/fstests/compare.py \
		$(if $(LBS_FSTESTS_RECORDS),,--markdown tests/fstests/results.md) $(LABELS)

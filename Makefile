# lbs: large block sizes (bs > PAGE_SIZE) for XFS on Linux 6.1.
#
#   make kernel-patch   generate the patch series for linux-source-6.1
#                       into build/kernel-patch/ (checkpatch- and git-am-checked)
#   make check          everything: userspace suites (plain and ASan/UBSan),
#                       then the kernel build and QEMU boot tests (the
#                       verification suite, crash campaigns, power cuts)
#   make check-ref      the QEMU suite on upstream 6.12 (CI runs it too)
#   make check-fstests  a CI-sized part of fstests on patched-6.1 (CI runs
#                       it too: its kernel and fstests' build alone take
#                       longer than make check's budget leaves)
#   make check-controls the kernel negative controls CI runs (each knob of
#                       tests/qemu/controls.txt's ci tier: the series with
#                       one bug put back must fail the named tests with the
#                       named symptoms, and pass every other test)
#   make check-controls-all  every knob, the ones too long for CI too
#   make check-time     make check on a fresh clone of HEAD, timed; the
#                       record goes to tests/records/make-check.tsv and the
#                       README's figure is regenerated from it (commit both)
#
# Both install what they need first (scripts/install-deps.sh, idempotent).

BUILD ?= build
MESON_DIR := $(BUILD)/meson
MESON_SAN_DIR := $(BUILD)/meson-san

.PHONY: all deps kernel-patch check check-ref check-fstests check-controls check-controls-all check-user check-busy check-time check-time-summary check-kernel vectors clean

all: check-user

deps:
	@sh scripts/install-deps.sh

kernel-patch: deps
	@LBS_BUILD=$(abspath $(BUILD)) $(STAGE) kernel-patch sh kpatch-gen/mkseries.sh $(abspath $(BUILD))/kernel-patch
	@echo "kernel patch series: $(abspath $(BUILD))/kernel-patch/"

$(MESON_DIR)/build.ninja: | deps
	meson setup $(MESON_DIR)

$(MESON_SAN_DIR)/build.ninja: | deps
	meson setup $(MESON_SAN_DIR) -Dsanitize_all=true

STAGE = sh scripts/stage.sh

check-user: deps $(MESON_DIR)/build.ninja $(MESON_SAN_DIR)/build.ninja
	$(STAGE) meson-plain meson test -C $(MESON_DIR) --print-errorlogs -v
	$(STAGE) meson-asan-ubsan meson test -C $(MESON_SAN_DIR) --print-errorlogs
	$(STAGE) fuzz sh tests/sim/run-fuzz.sh 300000 $(BUILD)/fuzz
	$(STAGE) fuzz-control sh tests/sim/run-fuzz.sh --plant-bug 300000 $(BUILD)/fuzz

# the userspace suites RUNS times under stress-ng on every core (on demand)
RUNS ?= 3
check-busy: deps
	sh scripts/check-busy.sh $(RUNS)

# make check timed on a fresh clone (scripts/check_time.py; on demand)
check-time: deps
	BUILD=$(BUILD) python3 scripts/check_time.py run

check-time-summary:
	python3 scripts/check_time.py summary

check-kernel: kernel-patch
	$(STAGE) qemu-verify-ci $(MAKE) qemu-verify-ci BUILD=$(BUILD)

check: check-user check-kernel
	$(STAGE) ktap-selftest $(MAKE) ktap-selftest
	$(STAGE) repair-check-selftest sh tests/qemu/repair-check-selftest.sh $(BUILD)/repair-check

check-fstests: kernel-patch
	$(STAGE) fstests-ci $(MAKE) fstests-ci BUILD=$(BUILD)

# the kernel negative controls (tests/qemu/controls.sh); CI runs the ci
# tier after `make check-fstests`
check-controls: kernel-patch
	LBS_BUILD=$(abspath $(BUILD)) $(STAGE) check-controls sh tests/qemu/controls.sh --tier ci

check-controls-all: kernel-patch
	LBS_BUILD=$(abspath $(BUILD)) $(STAGE) check-controls-all sh tests/qemu/controls.sh --tier all

# the verification suite on upstream 6.12 (the reference); CI runs it
# after `make check`
check-ref: kernel-patch
	$(STAGE) qemu-verify-ref $(MAKE) qemu-verify-ref BUILD=$(BUILD)

vectors: deps $(MESON_DIR)/build.ninja
	ninja -C $(MESON_DIR) vectors

clean:
	rm -rf $(BUILD)

include mk/kernel.mk
include mk/fstests.mk

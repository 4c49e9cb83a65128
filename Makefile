# lbs: large block sizes (bs > PAGE_SIZE) for XFS on Linux 6.1.
#
#   make kernel-patch   generate the patch series for linux-source-6.1
#                       into build/kernel-patch/ (checkpatch- and git-am-checked)
#   make check          everything: userspace suites (plain and ASan/UBSan),
#                       then the kernel build and QEMU boot tests
#
# Both install what they need first (scripts/install-deps.sh, idempotent).

BUILD ?= build
MESON_DIR := $(BUILD)/meson
MESON_SAN_DIR := $(BUILD)/meson-san

.PHONY: all deps kernel-patch check check-user check-kernel vectors clean

all: check-user

deps:
	@sh scripts/install-deps.sh

kernel-patch: deps
	@LBS_BUILD=$(abspath $(BUILD)) sh kpatch-gen/mkseries.sh $(abspath $(BUILD))/kernel-patch
	@echo "kernel patch series: $(abspath $(BUILD))/kernel-patch/"

$(MESON_DIR)/build.ninja: | deps
	meson setup $(MESON_DIR)

$(MESON_SAN_DIR)/build.ninja: | deps
	meson setup $(MESON_SAN_DIR) -Dsanitize_all=true

check-user: deps $(MESON_DIR)/build.ninja $(MESON_SAN_DIR)/build.ninja
	meson test -C $(MESON_DIR) --print-errorlogs -v
	meson test -C $(MESON_SAN_DIR) --print-errorlogs
	sh tests/sim/run-fuzz.sh 20 $(BUILD)/fuzz

check-kernel: kernel-patch
	$(MAKE) qemu-verify-ci BUILD=$(BUILD)

check: check-user check-kernel ktap-selftest

vectors: deps $(MESON_DIR)/build.ninja
	ninja -C $(MESON_DIR) vectors

clean:
	rm -rf $(BUILD)

include mk/kernel.mk
include mk/fstests.mk

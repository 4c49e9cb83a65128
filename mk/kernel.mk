# Kernel side of the build: QEMU boot tests of the patched Linux 6.1.
# Included by the top-level Makefile (`include mk/kernel.mk`).
#
#   make qemu-skeleton      build the kernel from $(KERNEL_SERIES), boot it in
#                           QEMU TCG, check KUnit suite lbs_core and that a
#                           64 KiB-block XFS image is refused (4 KiB mounts).
#                           Needs $(KERNEL_SERIES), made by the `kernel-patch`
#                           target (top-level Makefile); this fragment does not
#                           depend on it, so run `make kernel-patch` first.
#                           Report: $(BUILD)/qemu/skeleton/report.txt
#   make qemu-pristine-ktap same pipeline on the pristine tree (empty series)
#                           with test-only KUnit suites: proves build, boot
#                           and KTAP parsing without the series (full build
#                           of its own, in $(BUILD)/qemu/pristine-ktap).
#   make ktap-selftest      ktap-check.py against the fixtures (seconds).
#
# Variables: BUILD (default build), KERNEL_SERIES, SKELETON_ARGS (extra
# tests/qemu/skeleton.sh options, e.g. --suite NAME --extra-config FRAG),
# LBS_QEMU_TIMEOUT (seconds per boot, default 300), LBS_JOBS (make -j).

BUILD ?= build
KERNEL_MK_TOP := $(patsubst %/,%,$(dir $(abspath $(dir $(lastword $(MAKEFILE_LIST))))))
KERNEL_BUILD = $(abspath $(BUILD))
KERNEL_SERIES ?= $(KERNEL_BUILD)/kernel-patch
SKELETON_ARGS ?=

.PHONY: qemu-skeleton qemu-pristine-ktap ktap-selftest

qemu-skeleton:
	LBS_BUILD=$(KERNEL_BUILD) $(KERNEL_MK_TOP)/tests/qemu/skeleton.sh \
		--series $(KERNEL_SERIES) $(SKELETON_ARGS)

qemu-pristine-ktap:
	mkdir -p $(KERNEL_BUILD)/qemu/empty-series
	LBS_BUILD=$(KERNEL_BUILD) $(KERNEL_MK_TOP)/tests/qemu/skeleton.sh \
		--series $(KERNEL_BUILD)/qemu/empty-series --name pristine-ktap \
		--suite list-kunit-test --suite hlist --suite example --suite rational \
		--extra-config $(KERNEL_MK_TOP)/tests/qemu/config/list-kunit.config

ktap-selftest:
	$(KERNEL_MK_TOP)/tests/qemu/selftest-ktap.sh

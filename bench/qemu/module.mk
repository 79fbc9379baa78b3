# bench/qemu: the project's QEMU, built by build.sh into the cache outside
# the repository; $(QEMU_DIR) (build/qemu) links to the entry that matches
# the inputs.

.PHONY: qemu
qemu:
	@bench/qemu/build.sh --link $(QEMU_DIR)

# The plugin compiles against this build's API header: a fresh tree builds
# QEMU first.  `make qemu` (which make test and run.sh call) follows input
# changes.
$(QEMU_PLUGIN_H):
	@bench/qemu/build.sh --link $(QEMU_DIR)

# checkpatch every patch, build after each one in turn
.PHONY: qemu-check
qemu-check:
	@bench/qemu/check.sh

# bench/plugin: the TCG plugin, its map-check guest program, a host checker.

PLUGIN_SO := $(HOST_BIN)/bnb-plugin.so
PLUGIN72_SO := $(HOST_BIN)/bnb-plugin-qemu72.so
PLUGIN_CHECK := $(HOST_BIN)/bnb-plugin-check
PLUGIN_CALIB := $(GUEST_BIN)/bnb-plugin-calib
PLUGIN_SPIN := $(GUEST_BIN)/bnb-spin
PLUGIN_PINGPONG := $(GUEST_BIN)/bnb-pingpong
HOST_PROGS += $(PLUGIN_SO) $(PLUGIN72_SO) $(PLUGIN_CHECK)
GUEST_PROGS += $(PLUGIN_CALIB) $(PLUGIN_SPIN) $(PLUGIN_PINGPONG)

# Code without QEMU calls, shared by the plugin and the unit tests.  The
# machine model, the time keeper and the model cache are bench/model's
# library, linked as an archive.
PLUGIN_CORE := args addrmap divlog mapcheck ksym
# Code that calls QEMU: compiled against the plugin API header of the
# project's QEMU (bench/qemu), which a fresh tree builds first.
PLUGIN_QEMU := plugin timing ksym_qemu
PLUGIN_SRCS := $(PLUGIN_CORE) clock $(PLUGIN_QEMU)

# The plugin's objects are the Makefile's pobj flavour: position
# independent, exporting nothing but qemu_plugin_version and
# qemu_plugin_install (QEMU_PLUGIN_EXPORT), link-time optimised.

# The header declares a few calls with glib types: its headers, no library.
$(patsubst %,$(BUILD)/pobj/bench/plugin/%.o,$(PLUGIN_QEMU)): $(QEMU_PLUGIN_H)
$(patsubst %,$(BUILD)/pobj/bench/plugin/%.o,$(PLUGIN_QEMU)): CFLAGS += $(shell pkg-config --cflags glib-2.0)

$(PLUGIN_SO): $(patsubst %,$(BUILD)/pobj/bench/plugin/%.o,$(PLUGIN_SRCS)) $(LIBMODEL_PIC) $(LIBBNB_PIC)
	@mkdir -p $(@D)
	$(CC) $(OPT) $(PLUGIN_LTO) -shared -fPIC -fvisibility=hidden -o $@ $^ -pthread

# The same plugin for Debian's QEMU 7.2 (plugin API 1, qemu_api.h), for
# wall-clock runs there; no time keeper (qemu.h).  Not link-time
# optimised: its wall-clock delays are calibrated on its host timing, left
# as they were (the model library's objects carry plain code for it).
$(BUILD)/p72obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DBNB_QEMU72 -fPIC -fvisibility=hidden -MMD -MP -c -o $@ $<

$(PLUGIN72_SO): $(patsubst %,$(BUILD)/p72obj/bench/plugin/%.o,$(PLUGIN_CORE) clock plugin ksym_qemu) \
		$(LIBMODEL_PIC) $(LIBBNB_PIC)
	@mkdir -p $(@D)
	$(CC) -shared -fPIC -fvisibility=hidden -o $@ $^ -pthread

# The plugin's argument table and parser, for the programs that hand the
# plugin its arguments (bnb-vm, bnb-run) or print its table (bnb-plugin-check):
# who owns each key, and the same checks before anything boots.
LIBPLUGIN_ARGS := $(BUILD)/lib/libbnb-plugin-args.a
$(LIBPLUGIN_ARGS): $(BUILD)/obj/bench/plugin/args.o
	@mkdir -p $(@D)
	@rm -f $@
	$(AR) rcs $@ $^

$(PLUGIN_CHECK): $(BUILD)/obj/bench/plugin/check.o $(LIBPLUGIN_ARGS) $(LIBMODEL) $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^

$(GPROG)/bnb-plugin-calib.o: $(BUILD)/gobj/bench/plugin/calib.o
$(GPROG)/bnb-spin.o: $(BUILD)/gobj/bench/plugin/spin.o
$(GPROG)/bnb-pingpong.o: $(BUILD)/gobj/bench/plugin/pingpong.o

PLUGIN_TEST := $(TEST_BIN)/test_plugin
UNIT_TESTS += $(PLUGIN_TEST)
$(PLUGIN_TEST): $(patsubst %,$(BUILD)/obj/tests/unit/test_plugin_%.o,args addrmap delay divlog mapcheck ksym xlate) \
		$(BUILD)/obj/tests/unit/docblock.o \
		$(patsubst %,$(BUILD)/obj/bench/plugin/%.o,$(PLUGIN_CORE)) $(LIBMODEL) $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(CRITERION_LIBS)

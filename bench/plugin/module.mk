# bench/plugin: the TCG plugin, its map-check guest program, a host checker.

PLUGIN_SO := $(HOST_BIN)/bnb-plugin.so
PLUGIN_CHECK := $(HOST_BIN)/bnb-plugin-check
PLUGIN_CALIB := $(GUEST_BIN)/bnb-plugin-calib
HOST_PROGS += $(PLUGIN_SO) $(PLUGIN_CHECK)
GUEST_PROGS += $(PLUGIN_CALIB)

# Code without QEMU calls, shared by the plugin and the unit tests.
PLUGIN_CORE := args addrmap cache mapcheck timekeeper
PLUGIN_SRCS := $(PLUGIN_CORE) clock plugin

# The plugin's objects are position independent and export nothing but
# qemu_plugin_version and qemu_plugin_install (marked BNB_EXPORT).
$(BUILD)/pobj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c -o $@ $<

$(PLUGIN_SO): $(patsubst %,$(BUILD)/pobj/bench/plugin/%.o,$(PLUGIN_SRCS))
	@mkdir -p $(@D)
	$(CC) -shared -fPIC -fvisibility=hidden -o $@ $^ -pthread

$(PLUGIN_CHECK): $(BUILD)/obj/bench/plugin/check.o $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^

$(PLUGIN_CALIB): $(BUILD)/gobj/bench/plugin/calib.o $(LIBBNB_GUEST)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(GUEST_LDFLAGS) -lnuma

PLUGIN_TEST := $(TEST_BIN)/test_plugin
UNIT_TESTS += $(PLUGIN_TEST)
$(PLUGIN_TEST): $(patsubst %,$(BUILD)/obj/tests/unit/test_plugin_%.o,args addrmap cache delay mapcheck timekeeper) \
		$(patsubst %,$(BUILD)/obj/bench/plugin/%.o,$(PLUGIN_CORE))
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(CRITERION_LIBS)

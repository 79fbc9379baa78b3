# The VM launcher.
VM_OBJS := $(addprefix $(BUILD)/obj/bench/vm/,options.o qemu_args.o qmp.o pin.o hold.o console.o vm_run.o tools.o bootargs.o emulator.o layout.o plugin_verdict.o) \
	$(BUILD)/obj/bench/plugin/addrmap.o
BNB_VM := $(HOST_BIN)/bnb-vm
HOST_PROGS += $(BNB_VM)

$(BNB_VM): $(VM_OBJS) $(BUILD)/obj/bench/vm/main.o $(LIBPLUGIN_ARGS) $(LIBMODEL) $(LIBPKG) $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ -ljson-c -lnuma

UNIT_TESTS += $(TEST_BIN)/test_vm
$(TEST_BIN)/test_vm: $(BUILD)/obj/tests/unit/test_vm.o $(BUILD)/obj/tests/unit/test_vm_layout.o \
		$(BUILD)/obj/tests/unit/test_vm_plugin.o \
		$(BUILD)/obj/tests/unit/docblock.o $(VM_OBJS) $(LIBPLUGIN_ARGS) $(LIBMODEL) $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(CRITERION_LIBS) -ljson-c -lnuma

UNIT_TESTS += $(TEST_BIN)/test_vm_boot
$(TEST_BIN)/test_vm_boot: $(BUILD)/obj/tests/unit/test_vm_boot.o $(VM_OBJS) $(LIBPLUGIN_ARGS) $(LIBMODEL) $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(CRITERION_LIBS) -ljson-c -lnuma

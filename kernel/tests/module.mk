# In-guest kernel tests of the balancenuma patch series: static TAP
# programs in their own archive, build/guest/kt.cpio (/opt/bnb/bin/kt-*),
# which only the kernel tests boot (build/guest/initramfs-kt.cpio).
KT_NAMES := sysctl migrate ratelimit ratewindow scanadapt firstnode placement disabled stress \
	hugefault
KT_PROGS := $(addprefix $(GUEST_BIN)/kt-,$(KT_NAMES))
KT_COMMON := $(addprefix $(BUILD)/gobj/kernel/tests/,kt.o kt_numa.o)

$(GUEST_BIN)/kt-%: $(BUILD)/gobj/kernel/tests/kt_%.o $(KT_COMMON)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(GUEST_LDFLAGS) -lnuma

# bench/agent: the guest agent answering the collector (bench/include/bnb_wire.h).
# Built for the guest (static) and, for host-side tests of the collector
# against the real agent, for the host too.
AGENT_SRCS := main.c reply.c vmstat.c meminfo.c maps.c stream.c
BNB_AGENT := $(GUEST_BIN)/bnb-agent
BNB_AGENT_HOST := $(BUILD)/host-agent/bnb-agent
GUEST_PROGS += $(BNB_AGENT)

$(GPROG)/bnb-agent.o: $(addprefix $(BUILD)/gobj/bench/agent/,$(AGENT_SRCS:.c=.o))

$(BNB_AGENT_HOST): $(addprefix $(BUILD)/obj/bench/agent/,$(AGENT_SRCS:.c=.o)) $(LIBBNB)
	@mkdir -p $(@D)
	$(CC) -o $@ $^

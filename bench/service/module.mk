# bench/service: bnb-service, a server in the guest for the length of its
# load generator (setup, ready, load, move, the measured phase, stop).
SVC_SRCS := main.c proc.c user.c
GUEST_PROGS += $(GUEST_BIN)/bnb-service
$(GPROG)/bnb-service.o: $(addprefix $(BUILD)/gobj/bench/service/,$(SVC_SRCS:.c=.o))

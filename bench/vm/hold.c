// SPDX-License-Identifier: GPL-2.0
/*
 * Deterministic timing with a streaming agent: the collector's connection
 * reaches the guest as a virtio-serial port-open event, at whatever guest
 * instruction the host's clock says. So QEMU starts paused (-S) and the
 * guest runs once the agent's chardev has its client (QMP query-chardev),
 * or after HOLD_MS without one (bnb-vm run by hand, nobody collecting).
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/err.h"
#include "qmp.h"
#include "vm.h"

#define HOLD_MS		30000
#define HOLD_POLL_MS	20

bool vm_holds_for_collector(const struct vm_config *c)
{
	return c->timing == TIMING_DETERMINISTIC && c->agent_socket && c->agent_stream_ms;
}

int agent_client_connected(const char *reply)
{
	struct json_object *root = json_tokener_parse(reply), *list, *dev, *label, *file;
	int connected = -1;
	size_t i, n;

	if (!root || !json_object_object_get_ex(root, "return", &list) ||
	    !json_object_is_type(list, json_type_array)) {
		json_object_put(root);
		return -1;
	}
	n = json_object_array_length(list);
	for (i = 0; i < n; i++) {
		dev = json_object_array_get_idx(list, i);
		if (!json_object_object_get_ex(dev, "label", &label) ||
		    strcmp(json_object_get_string(label), "agent") ||
		    !json_object_object_get_ex(dev, "filename", &file))
			continue;
		/* a listening socket without its client reads "disconnected:unix:..." */
		connected = strncmp(json_object_get_string(file), "disconnected:", 13) != 0;
	}
	json_object_put(root);
	return connected;
}

/* Wait on one QMP connection for the client, then cont; -1 when QMP fails. */
static int hold_then_cont(int fd, const struct vm_config *c, int *waited)
{
	char reply[16384];

	for (; *waited < HOLD_MS; *waited += HOLD_POLL_MS) {
		if (qmp_exec(fd, "{\"execute\":\"query-chardev\"}", reply, sizeof(reply)))
			return -1;
		if (agent_client_connected(reply) != 0)
			break;
		usleep(HOLD_POLL_MS * 1000);
	}
	if (*waited >= HOLD_MS)
		fprintf(stderr, "bnb-vm: no collector on %s after %d s: starting anyway\n",
			c->agent_socket, HOLD_MS / 1000);
	return qmp_exec(fd, "{\"execute\":\"cont\"}", reply, sizeof(reply));
}

/*
 * A loaded host can take well over 10 s to start QEMU and over QMP's 2 s
 * to answer: a failed connection or reply is tried again, on a new
 * connection, until the run's own time limit.
 */
static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000;
}

bool qemu_gone(pid_t pid)
{
	siginfo_t info = { 0 };

	return !waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) && info.si_pid == pid;
}

int vm_start_when_collected(const struct vm_config *c, pid_t qemu, char *err, size_t errlen)
{
	long deadline = now_ms() + c->timeout_s * 1000L, left;
	int waited = 0, fd;

	while ((left = deadline - now_ms()) > 0) {
		/* a QEMU that could not start must not cost the time limit */
		if (qemu_gone(qemu))
			return errf(err, errlen, "QEMU exited before the guest started");
		fd = qmp_open(c->run_dir, (int)(left < QMP_TRY_MS ? left : QMP_TRY_MS));
		if (fd >= 0 && !hold_then_cont(fd, c, &waited)) {
			close(fd);
			return 0;
		}
		if (fd >= 0)
			close(fd);
		usleep(200 * 1000);
	}
	return errf(err, errlen, "no QMP connection to start the guest");
}

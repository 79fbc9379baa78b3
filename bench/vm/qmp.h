/* SPDX-License-Identifier: GPL-2.0 */
/* A minimal QMP client: QEMU's monitor socket at RUN_DIR/qmp.sock. */
#ifndef BNB_VM_QMP_H
#define BNB_VM_QMP_H

#include <stddef.h>

/* Connect (retrying up to WAIT_MS while QEMU starts) and leave capabilities
 * negotiation done; the fd, or -1. */
int qmp_open(const char *run_dir, int wait_ms);

/*
 * Send CMD (one JSON object) and read up to its reply, skipping events:
 * the reply line into buf. 0 when it is a "return", -1 otherwise.
 */
int qmp_exec(int fd, const char *cmd, char *buf, size_t len);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* Stopping cleanly on Ctrl-C and kill: one way for every program. */
#ifndef BNB_LIB_SIGNALS_H
#define BNB_LIB_SIGNALS_H

#include <signal.h>

/*
 * SIGINT and SIGTERM store their number in *FLAG. Without SA_RESTART, so
 * a blocking read(), poll() or sleep returns at once (EINTR) and the
 * program can finish its files and stop.
 */
void catch_stop_signals(volatile sig_atomic_t *flag);

#endif

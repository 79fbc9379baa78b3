/* SPDX-License-Identifier: GPL-2.0 */
/* One-line error messages into a caller's buffer. */
#ifndef BNB_COLLECTOR_ERRMSG_H
#define BNB_COLLECTOR_ERRMSG_H

#include <stddef.h>

/* Format the reason into err and return -1, for `return errmsg(...)`. */
int errmsg(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* BNB_COLLECTOR_ERRMSG_H */

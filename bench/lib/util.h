/* SPDX-License-Identifier: GPL-2.0 */
/* Small macros every part of the tree uses. */
#ifndef BNB_LIB_UTIL_H
#define BNB_LIB_UTIL_H

/* Elements of an array (not of a pointer: that would not compile). */
#define ARRAY_SIZE(a) \
	(sizeof(a) / sizeof((a)[0]) + \
	 0 * sizeof(char[1 - 2 * __builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0]))]))

#define __printf(a, b) __attribute__((format(printf, a, b)))

#endif

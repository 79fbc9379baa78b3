/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Numbers, sizes and words from user text: one grammar for every tool,
 * option, experiment key and guest program.
 *
 *   integer  [-]DIGITS             decimal only: no '+', no spaces, no 0x,
 *                                  no exponent ("1e3" is refused)
 *   real     a C floating-point number, finite, no trailing text
 *   size     DIGITS[UNIT]          UNIT is K, M, G or T (binary: 2^10,
 *                                  2^20, 2^30, 2^40), any case, optionally
 *                                  followed by "iB" or "B": 64M = 64MiB =
 *                                  64mb. A bare number is BYTES.
 *   bool     on|off, yes|no, true|false, 1|0
 *   choice   one word of a '|' separated list, exactly
 *
 * A bare size below the smallest size a caller allows is almost surely a
 * missing unit, and the message says so: "'512': a size needs a unit, did
 * you mean 512M?".
 *
 * Every parser returns 0, or -1 with one line in err (see err.h).
 */
#ifndef BNB_LIB_PARSE_H
#define BNB_LIB_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int parse_ll(const char *s, long long min, long long max, long long *out,
	     char *err, size_t errlen);
int parse_int(const char *s, int min, int max, int *out, char *err, size_t errlen);
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
	      char *err, size_t errlen);
int parse_double(const char *s, double min, double max, double *out,
		 char *err, size_t errlen);
int parse_size(const char *s, uint64_t min, uint64_t max, uint64_t *bytes,
	       char *err, size_t errlen);
int parse_bool(const char *s, bool *out, char *err, size_t errlen);

/* Index of s in CHOICES ("tcg|kvm"); -1 with err listing them. */
/* A user name useradd takes: a-z or _ first, then a-z 0-9 _ -, at most 32. */
bool user_name_ok(const char *s);
int parse_choice(const char *s, const char *choices, char *err, size_t errlen);

/* Bytes as the largest exact binary unit: "64M", "1536K", "7". */
void format_size(uint64_t bytes, char *buf, size_t len);

/*
 * Split S at SEP into at most MAX items, in place; returns the count or -1
 * (too many, or an empty item: "1,,2", "1,", ",1" and "" are refused).
 */
int split_list(char *s, char sep, char **items, int max);

#endif

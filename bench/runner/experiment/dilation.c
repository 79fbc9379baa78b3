// SPDX-License-Identifier: GPL-2.0
/*
 * Time dilation arithmetic and the native host command it is measured
 * with. Under TCG the guest's timers run at host speed while its work runs
 * D times slower, so a scan period of P ms covers D times less work than
 * on hardware; multiplying the periods by D restores scans per unit of work.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dilation.h"
#include "lib/parse.h"

const char *const scaled_tunables[3] = {
	"scan_delay_ms", "scan_period_max_ms", "scan_period_min_ms",
};

static bool plain_token(const char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.,:=/+%", *s))
			return false;
	return true;
}

/* A to argv, and SHOWN (the guest's spelling) to the line. */
static int add_arg(struct host_cmd *c, const char *a, const char *shown)
{
	size_t used = strlen(c->line);

	if (c->argc >= HOST_ARGS_MAX || used + strlen(shown) + 2 > sizeof(c->line))
		return -1;
	c->argv[c->argc++] = strdup(a);
	c->argv[c->argc] = NULL;
	snprintf(c->line + used, sizeof(c->line) - used, "%s%s", used ? " " : "", shown);
	return 0;
}

void host_cmd_free(struct host_cmd *c)
{
	while (c->argc)
		free(c->argv[--c->argc]);
	c->line[0] = 0;
}

static int fail(struct host_cmd *c, char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail(struct host_cmd *c, char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	host_cmd_free(c);
	return -1;
}

/* --node, --mem-node, --producer-node...: nodes the host may not have. */
static bool node_option(const char *tok)
{
	size_t len = strcspn(tok, "=");

	return !strncmp(tok, "--", 2) && len >= 6 && !strncmp(tok + len - 4, "node", 4);
}

int host_cmd_build(const char *workload, const char *bindir, struct host_cmd *c,
		   char *why, size_t whylen)
{
	char buf[1024], path[PATH_MAX], *tok, *save = NULL;
	bool placed = false, skip_value = false;

	memset(c, 0, sizeof(*c));
	if (strlen(workload) >= sizeof(buf))
		return fail(c, why, whylen, "the workload command is too long");
	strcpy(buf, workload);
	tok = strtok_r(buf, " \t", &save);
	if (!tok || strchr(tok, '/') || !plain_token(tok))
		return fail(c, why, whylen, "the workload '%s' is not a single project binary",
			    workload);
	snprintf(path, sizeof(path), "%s/%s", bindir, tok);
	if (access(path, X_OK))
		return fail(c, why, whylen, "the workload '%s' is not a binary of build/guest/bin",
			    tok);
	add_arg(c, path, tok);
	while ((tok = strtok_r(NULL, " \t", &save))) {
		if (!plain_token(tok))
			return fail(c, why, whylen, "the workload argument '%s' needs a shell", tok);
		if (skip_value) {	/* the value of an option we replaced or dropped */
			skip_value = false;
			continue;
		}
		if (node_option(tok)) {
			skip_value = !strchr(tok, '=');
			continue;
		}
		if (!strcmp(tok, "--placement") || !strncmp(tok, "--placement=", 12)) {
			skip_value = !tok[11];
			placed = true;
			tok = "--placement=free";
		}
		if (add_arg(c, tok, tok))
			return fail(c, why, whylen, "the workload command is too long");
	}
	if (!placed && add_arg(c, "--placement=free", "--placement=free"))
		return fail(c, why, whylen, "the workload command is too long");
	return 0;
}

double dilation_ratio(double host_rate, double guest_rate)
{
	if (!isfinite(host_rate) || !isfinite(guest_rate) || host_rate <= 0 || guest_rate <= 0)
		return NAN;
	return host_rate / guest_rate;
}

double icount_dilation(const struct bnb_machine_spec *m, int shift, bool keeper,
		       unsigned long hw_insn_ps)
{
	double insn_ps = keeper ? (double)bnb_machine_insn_ps(m) : (double)(1000ULL << shift);

	return insn_ps / hw_insn_ps;
}

int scan_scale_parse(const char *value, struct scan_scale *s)
{
	double f;

	s->factor = 1;
	if (!strcmp(value, "off")) {
		s->mode = SCALE_OFF;
		return 0;
	}
	if (!strcmp(value, "auto")) {
		s->mode = SCALE_AUTO;
		return 0;
	}
	if (!strcmp(value, "hardware")) {
		s->mode = SCALE_HARDWARE;
		return 0;
	}
	/* the real-number grammar of lib/parse.h, without a sign */
	if (!isdigit((unsigned char)value[0]) && value[0] != '.')
		return -1;
	if (parse_double(value, 0, SCALE_FACTOR_MAX, &f, NULL, 0) || scale_milli(f) < 1)
		return -1;
	s->mode = SCALE_FIXED;
	s->factor = f;
	return 0;
}

long scale_milli(double factor)
{
	return lround(factor * 1000);
}

long scale_ms(long ms, long milli)
{
	long long v;

	if (ms < 0 || milli < 0 || ms > INT_MAX || milli > INT_MAX)
		return -1;
	v = (long long)ms * milli / 1000;
	return v > SCAN_PERIOD_LIMIT_MS ? SCAN_PERIOD_LIMIT_MS : (long)v;
}

// SPDX-License-Identifier: GPL-2.0
/* Numbers as the reports print them (fmt.h). */
#include <math.h>
#include <stdio.h>

#include "fmt.h"

const char *fmt_num(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (fabs(v) >= 1e4 && fabs(v) < 1e12)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
	return buf;
}

const char *fmt_p(double p, char *buf, size_t len)
{
	if (isfinite(p) && p < 0.001)
		return "< 0.001";
	return fmt_num(p, buf, len);
}

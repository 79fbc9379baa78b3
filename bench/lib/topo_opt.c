// SPDX-License-Identifier: GPL-2.0
#include "topo_opt.h"

/* FIELD, or SCRATCH sized to the value's own list length. */
static struct bnb_topology *topo_or_scratch(void *field, struct bnb_topology *scratch,
					    const char *value, char sep)
{
	int n = 1;

	if (field)
		return field;
	for (; *value; value++)
		n += *value == sep || (sep == ';' && *value == '/');
	topo_init(scratch, n > BNB_MAX_NODES ? BNB_MAX_NODES : n);
	return scratch;
}

int topo_opt_nodes(const struct opt_def *o, const char *value, void *field,
		   char *err, size_t errlen)
{
	struct bnb_topology scratch;

	return topo_parse_nodes(field ? field : &scratch, value, err, errlen);
}

int topo_opt_cpus(const struct opt_def *o, const char *value, void *field,
		  char *err, size_t errlen)
{
	struct bnb_topology scratch;

	return topo_parse_cpus(topo_or_scratch(field, &scratch, value, ','), value, err, errlen);
}

int topo_opt_mem(const struct opt_def *o, const char *value, void *field,
		 char *err, size_t errlen)
{
	struct bnb_topology scratch;

	return topo_parse_mem(topo_or_scratch(field, &scratch, value, ','), value, err, errlen);
}

/* On its own a matrix is whole, so its self-distances are checked too. */
int topo_opt_distance(const struct opt_def *o, const char *value, void *field,
		      char *err, size_t errlen)
{
	struct bnb_topology scratch, *t = topo_or_scratch(field, &scratch, value, ';');

	if (topo_parse_distance(t, value, err, errlen))
		return -1;
	return field ? 0 : topo_validate(t, err, errlen);
}

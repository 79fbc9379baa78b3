/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The topology parsers as option-table parsers (lib/opt.h), for rows whose
 * field is a struct bnb_topology. Rows must come in this order, nodes
 * first: topo_opt_nodes() resets the topology to that many nodes and the
 * others are read against the count. With FIELD NULL (checking a value on
 * its own) a list is read against its own length.
 */
#ifndef BNB_LIB_TOPO_OPT_H
#define BNB_LIB_TOPO_OPT_H

#include "bnb_topology.h"
#include "opt.h"

int topo_opt_nodes(const struct opt_def *o, const char *value, void *field,
		   char *err, size_t errlen);
int topo_opt_cpus(const struct opt_def *o, const char *value, void *field,
		  char *err, size_t errlen);
int topo_opt_mem(const struct opt_def *o, const char *value, void *field,
		 char *err, size_t errlen);
int topo_opt_distance(const struct opt_def *o, const char *value, void *field,
		      char *err, size_t errlen);

#endif

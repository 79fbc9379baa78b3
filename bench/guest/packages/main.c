// SPDX-License-Identifier: GPL-2.0
/*
 * bnb-pkg - the guest archive of some installed Debian packages, from
 * the cache or made now (pkg.h). bnb-vm --packages and bnb-run's
 * `packages =` call the same code; this is it by hand.
 */
#include <stdio.h>

#include "lib/err.h"
#include "lib/path.h"
#include "lib/opt.h"
#include "lib/util.h"
#include "pkg.h"

struct pkg_cli {
	char *cache;
	char *admin;
};

#define C(f) OPT_FIELD(struct pkg_cli, f)

static const struct opt_def options[] = {
	{ "cache", OPT_STR, C(cache), .metavar = "DIR",
	  .help = "the cache folder (default $BNB_CACHE, else ~/.cache/balancenuma-bench)" },
	{ "admin", OPT_STR, C(admin), .def = PKG_DPKG_ADMIN, .metavar = "DIR",
	  .help = "dpkg's database" },
};

static const struct opt_tool tool = {
	.synopsis = "bnb-pkg [options] PACKAGE...",
	.about = "Pack installed Debian packages for the guest: their files but documentation,\n"
		 "the shared libraries their programs load, links for programs off the PATH.\n"
		 "Prints archive=, list=, key=, bytes= and built= (1: made now).\n",
	.opts = options,
	.n = ARRAY_SIZE(options),
	.epilog = "Exit status: 0 done, 1 a package could not be packed, 2 bad usage.\n",
};

int main(int argc, char **argv)
{
	struct pkg_cli c = { 0 };
	struct pkg_archive a;
	char err[ERRLEN], cache[4096], *names = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	i = opt_tool_main(&tool, argc, argv, &c, true);
	if (i < 0)
		return 2;
	if (i >= argc) {
		prog_error("name at least one package");
		return 2;
	}
	f = open_memstream(&names, &len);
	for (; i < argc; i++)
		fprintf(f, "%s ", argv[i]);
	fclose(f);
	if (pkg_archive_get(c.cache ? c.cache : cache_root(cache, sizeof(cache)), c.admin,
			    names, &a, err, sizeof(err))) {
		prog_error("%s", err);
		return 1;
	}
	printf("archive=%s\nlist=%s\nkey=%s\nbytes=%lld\nbuilt=%d\n", a.cpio, a.list, a.key,
	       a.bytes, a.built);
	opt_free(options, ARRAY_SIZE(options), &c);
	return 0;
}

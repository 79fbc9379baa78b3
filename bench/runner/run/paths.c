// SPDX-License-Identifier: GPL-2.0
/* Files of the run path; where the tree is, is lib/path.h's bnb_root(). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsio.h"
#include "lib/err.h"
#include "lib/util.h"
#include "runner.h"

int copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "r"), *out;
	size_t n;
	int rc = 0;

	if (!in)
		return -1;
	out = fopen(to, "w");
	if (!out) {
		fclose(in);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)))
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	fclose(in);
	return fclose_checked(out) || rc ? -1 : 0;
}

/* Whether FOLDER is a results folder: a runner wrote its jobs.conf there. */
static bool results_folder(const char *folder)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/jobs.conf", folder);
	return !access(path, F_OK);
}

/* The first entry of the folder DIR into NAME; NULL when it has none or is none. */
static const char *first_entry(const char *dir, char *name, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return NULL;
	*name = 0;
	while ((e = readdir(d)) && !*name)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			snprintf(name, len, "%s", e->d_name);
	closedir(d);
	return *name ? name : NULL;
}

bool out_dir_usable(const char *dir)
{
	char abs[PATH_MAX], up[PATH_MAX], name[256], *slash;

	if (path_resolve(dir, abs, sizeof(abs))) {
		prog_error("--out %s: cannot resolve the path", dir);
		return false;
	}
	/* jobs.txt is a shell line per run, a Slurm task list a tab-separated one */
	for (const char *c = abs; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			prog_error("--out %s: the path has a control character (a line break, a "
				   "tab), which would cut the folder's job lists: choose another",
				   dir);
			return false;
		}
	snprintf(up, sizeof(up), "%s", abs);
	while ((slash = strrchr(up, '/')) && slash != up) {
		*slash = 0;
		if (results_folder(up)) {
			prog_error("--out %s lies inside the results folder %s, whose runner and "
				   "reports write there: choose a folder outside it", dir, up);
			return false;
		}
	}
	/* a results folder's own runner checks it under its lock (runs/ in it, a live runner) */
	if (!results_folder(abs) && first_entry(abs, name, sizeof(name))) {
		prog_error("--out %s already holds files ('%s' among them) that a run would "
			   "overwrite (experiment.ini, summary.md, plots/ ...): choose a new or empty "
			   "folder", dir, name);
		return false;
	}
	return true;
}

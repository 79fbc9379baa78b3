// SPDX-License-Identifier: GPL-2.0
/*
 * dpkg's database, read as files: the status file for what is installed
 * and at which version, info/NAME[:ARCH].list for a package's paths. No
 * dpkg process: the runner asks for every experiment.
 */
#include <ctype.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/err.h"
#include "pkg.h"

#define NATIVE_ARCH "amd64"

extern char **environ;

/* Debian policy: lower-case letters, digits, + - . ; two or more, a letter or digit first. */
static bool name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n < 2 || n >= PKG_NAME_MAX || !(islower((unsigned char)*s) || isdigit((unsigned char)*s)))
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && !strchr("+-.", *s))
			return false;
	return true;
}

/* "Field: value" of LINE into VAL when LINE is FIELD's. */
static bool field(const char *line, const char *name, char *val, size_t len)
{
	size_t n = strlen(name);

	if (strncmp(line, name, n) || line[n] != ':')
		return false;
	line += n + 1;
	line += strspn(line, " \t");
	snprintf(val, len, "%.*s", (int)strcspn(line, "\n"), line);
	return true;
}

/* Does apt know NAME (a package it could install)? */
static bool apt_knows(const char *name)
{
	char *argv[] = { "apt-cache", "show", "--no-all-versions", (char *)name, NULL };
	posix_spawn_file_actions_t fa;
	int status;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "apt-cache", &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		return false;
	}
	posix_spawn_file_actions_destroy(&fa);
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status);
}

static int not_installed(const char *name, char *err, size_t errlen)
{
	if (!apt_knows(name))
		return errf(err, errlen, "package '%s' is not installed, and apt knows no package "
			    "of that name (apt-cache show %s)", name, name);
	return errf(err, errlen, "package '%s' is not installed; install it with: "
		    "apt-get install -y --no-install-recommends %s", name, name);
}

/* One stanza of the status file is done: is it NAME's, installed, and better than R's? */
static bool take_stanza(const char *name, const struct pkg_ref *s, bool installed,
			struct pkg_ref *r, bool *found)
{
	if (!installed || strcmp(s->name, name))
		return false;
	if (*found && strcmp(s->arch, NATIVE_ARCH) && strcmp(s->arch, "all"))
		return false;
	*r = *s;
	*found = true;
	return true;
}

int pkg_lookup(const char *admin, const char *name, struct pkg_ref *r, char *err,
	       size_t errlen)
{
	char path[PATH_MAX], line[4096], status[128] = "";
	struct pkg_ref s = { 0 };
	bool found = false;
	FILE *f;

	memset(r, 0, sizeof(*r));
	if (!name_ok(name)) {
		char q[64];

		return errf(err, errlen, "'%s' is not a Debian package name (lower-case "
			    "letters, digits, + - .)", printable(name, q, sizeof(q)));
	}
	snprintf(path, sizeof(path), "%s/status", admin);
	f = fopen(path, "r");
	if (!f)
		return errf(err, errlen, "cannot read dpkg's status file %s: %m", path);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '\n') {
			take_stanza(name, &s, !strcmp(status, "install ok installed"), r, &found);
			memset(&s, 0, sizeof(s));
			status[0] = 0;
			continue;
		}
		if (!field(line, "Package", s.name, sizeof(s.name)) &&
		    !field(line, "Version", s.version, sizeof(s.version)) &&
		    !field(line, "Architecture", s.arch, sizeof(s.arch)))
			field(line, "Status", status, sizeof(status));
	}
	take_stanza(name, &s, !strcmp(status, "install ok installed"), r, &found);
	fclose(f);
	if (!found)
		return not_installed(name, err, errlen);
	return 0;
}

int pkg_files(const char *admin, const struct pkg_ref *r, struct argv *paths, char *err,
	      size_t errlen)
{
	char path[PATH_MAX], line[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/info/%s:%s.list", admin, r->name, r->arch);
	f = fopen(path, "r");
	if (!f) {
		snprintf(path, sizeof(path), "%s/info/%s.list", admin, r->name);
		f = fopen(path, "r");
	}
	if (!f)
		return errf(err, errlen, "%s: cannot read its file list %s: %m", r->name, path);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] == '/' && line[1])
			argv_add(paths, "%s", line);
	}
	fclose(f);
	return 0;
}

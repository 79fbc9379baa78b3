// SPDX-License-Identifier: GPL-2.0
/*
 * The server's user. Some servers refuse to run as root (PostgreSQL;
 * memcached without -u root), and the guest's /etc/passwd knows root
 * alone: a user named here is added, home /tmp, with a group of its own.
 * busybox has no adduser in the archive, and one line in each file is
 * all a server's getpwnam() needs.
 */
#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>

#include "lib/err.h"
#include "lib/parse.h"
#include "service.h"

#define FIRST_UID 100

static int append(const char *path, const char *line, char *err, size_t errlen)
{
	FILE *f = fopen(path, "a");

	if (!f || fputs(line, f) < 0 || fclose(f))
		return errf(err, errlen, "cannot add to %s: %s", path, strerror(errno));
	return 0;
}

/*
 * Does /etc/passwd have user NAME (or, NAME NULL, uid ID), or /etc/group
 * group ID? Read as files: the guest programs are static, and glibc's
 * getpwnam() there would want its NSS modules.
 */
static bool in_passwd(const char *name, unsigned id, uid_t *uid, gid_t *gid)
{
	FILE *f = fopen("/etc/passwd", "r");
	struct passwd *pw;
	bool found = false;

	while (f && !found && (pw = fgetpwent(f)))
		if (name ? !strcmp(pw->pw_name, name) : pw->pw_uid == id) {
			found = true;
			if (uid) {
				*uid = pw->pw_uid;
				*gid = pw->pw_gid;
			}
		}
	if (f)
		fclose(f);
	return found;
}

static bool in_group(unsigned id)
{
	FILE *f = fopen("/etc/group", "r");
	struct group *gr;
	bool found = false;

	while (f && !found && (gr = fgetgrent(f)))
		found = gr->gr_gid == id;
	if (f)
		fclose(f);
	return found;
}

/* The first id from FIRST_UID that neither a user nor a group has. */
static unsigned free_id(void)
{
	unsigned id = FIRST_UID;

	while (in_passwd(NULL, id, NULL, NULL) || in_group(id))
		id++;
	return id;
}

int svc_user(const char *name, uid_t *uid, gid_t *gid, char *err, size_t errlen)
{
	char line[128];
	unsigned id;

	if (!user_name_ok(name))
		return errf(err, errlen, "--user '%s' is not a user name (a-z 0-9 _ -)", name);
	if (in_passwd(name, 0, uid, gid))
		return 0;
	id = free_id();
	snprintf(line, sizeof(line), "%s:x:%u:\n", name, id);
	if (append("/etc/group", line, err, errlen))
		return -1;
	snprintf(line, sizeof(line), "%s:x:%u:%u::/tmp:/bin/sh\n", name, id, id);
	if (append("/etc/passwd", line, err, errlen))
		return -1;
	*uid = id;
	*gid = id;
	return 0;
}

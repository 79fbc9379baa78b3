// SPDX-License-Identifier: GPL-2.0
/*
 * Which QEMU runs the guest, and whether it can serve the run.
 *
 * The default is the project's own build (bench/qemu, linked at
 * build/qemu): QEMU 10 with the time-control patches and the plugin API
 * the plugin is built against.  Its cache entry's info file (key=value,
 * written by bench/qemu/build.sh) says what it is; an entry whose info
 * does not match itself is refused.  Any other binary (Debian's 7.2 with
 * --qemu system, or a path) is "foreign": fine for wall-clock runs
 * without the plugin, refused for what needs the patches.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm.h"

#define INFO_FORMAT	"bnb-qemu 1"
#define SYSTEM_QEMU	"/usr/bin/qemu-system-x86_64"
#define PROJECT_QEMU	"build/qemu/bin/qemu-system-x86_64"
#define PLUGIN_QEMU10	"bnb-plugin.so"
#define PLUGIN_QEMU72	"bnb-plugin-qemu72.so"

/* One value from an info file; "" when the key is absent. */
static void info_get(const char *info, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);
	const char *p = info;

	out[0] = '\0';
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);

		if (n > klen && !strncmp(p, key, klen) && p[klen] == '=') {
			n -= klen + 1;
			if (n >= len)
				n = len - 1;
			memcpy(out, p + klen + 1, n);
			out[n] = '\0';
			return;
		}
		p = eol ? eol + 1 : NULL;
	}
}

static int read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

/*
 * e->path lies in DIR/bin/: when DIR/info exists, DIR is a cache entry and
 * must be a sound one.
 */
static int read_entry(struct vm_emulator *e, char *err, size_t errlen)
{
	char real[PATH_MAX], dir[PATH_MAX], info_path[PATH_MAX + 8], info[4096], v[256];
	struct stat st;

	/* build/qemu is a link: the entry is where the binary really is */
	if (!realpath(e->path, real))
		return snprintf(err, errlen, "qemu: %s: %s", e->path, strerror(errno)), -1;
	snprintf(dir, sizeof(dir), "%s", dirname(dirname(real)));
	snprintf(info_path, sizeof(info_path), "%s/info", dir);
	if (read_small(info_path, info, sizeof(info)))
		return 0;	/* not an entry: a foreign QEMU */
	info_get(info, "format", v, sizeof(v));
	if (strcmp(v, INFO_FORMAT))
		return snprintf(err, errlen, "qemu: %s is not a '%s' file (foreign or corrupt cache entry)",
				info_path, INFO_FORMAT), -1;
	info_get(info, "key", v, sizeof(v));
	if (strcmp(v, basename(dir)))
		return snprintf(err, errlen, "qemu: %s names key '%s' but sits in %s (corrupt cache entry: make qemu)",
				info_path, v, dir), -1;
	info_get(info, "binary_size", v, sizeof(v));
	if (stat(e->path, &st) || strtoull(v, NULL, 10) != (unsigned long long)st.st_size)
		return snprintf(err, errlen, "qemu: %s is not the binary %s records (size %s; corrupt cache entry: make qemu)",
				e->path, info_path, v), -1;
	e->project = true;
	info_get(info, "time_control", v, sizeof(v));
	e->time_control = !strcmp(v, "1");
	info_get(info, "plugin_api", v, sizeof(v));
	e->plugin_api = atoi(v);
	info_get(info, "upstream", e->version, sizeof(e->version));
	info_get(info, "patch_hash", e->patch_hash, sizeof(e->patch_hash));
	info_get(info, "key", e->key, sizeof(e->key));
	return 0;
}

int emulator_resolve(struct vm_emulator *e, const char *choice, const char *root,
		     char *err, size_t errlen)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->version, sizeof(e->version), "unknown");
	snprintf(e->patch_hash, sizeof(e->patch_hash), "none");
	snprintf(e->key, sizeof(e->key), "none");
	if (!choice || !strcmp(choice, "project"))
		snprintf(e->path, sizeof(e->path), "%s/%s", root, PROJECT_QEMU);
	else if (!strcmp(choice, "system"))
		snprintf(e->path, sizeof(e->path), "%s", SYSTEM_QEMU);
	else
		snprintf(e->path, sizeof(e->path), "%s", choice);
	if (access(e->path, X_OK))
		return snprintf(err, errlen, "qemu: %s: %s%s", e->path, strerror(errno),
				!choice || !strcmp(choice, "project") ? " (run make qemu)" : ""), -1;
	return read_entry(e, err, errlen);
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/*
 * The plugin build for e's API: bnb-plugin.so for the project's QEMU,
 * its sibling bnb-plugin-qemu72.so for Debian's 7.2.  Returns the
 * sibling's path (malloc'd), or NULL to keep plugin.
 */
char *emulator_plugin(const struct vm_emulator *e, const char *plugin)
{
	char *alt;

	if (e->project || !ends_with(plugin, "/" PLUGIN_QEMU10) ||
	    asprintf(&alt, "%.*s%s", (int)(strlen(plugin) - strlen(PLUGIN_QEMU10)),
		     plugin, PLUGIN_QEMU72) < 0)
		return NULL;
	if (access(alt, R_OK)) {
		free(alt);
		return NULL;
	}
	return alt;
}

int emulator_check(const struct vm_emulator *e, const struct vm_config *c,
		   char *err, size_t errlen)
{
	if (c->plugin && e->project && e->plugin_api < BNB_PLUGIN_API)
		return snprintf(err, errlen,
			"--plugin needs plugin API %d, and %s is an older build: run make qemu",
			BNB_PLUGIN_API, e->path), -1;
	if (c->plugin && e->project && ends_with(c->plugin, PLUGIN_QEMU72))
		return snprintf(err, errlen, "%s is the plugin for Debian's QEMU 7.2, not for %s",
				c->plugin, e->path), -1;
	if (c->plugin && !e->project && !ends_with(c->plugin, PLUGIN_QEMU72))
		return snprintf(err, errlen,
			"--plugin %s needs the project's QEMU (plugin API %d), and %s is not one; its 7.2 build is build/bin/%s",
			c->plugin, BNB_PLUGIN_API, e->path, PLUGIN_QEMU72), -1;
	if (c->timing == TIMING_DETERMINISTIC && !e->time_control)
		return snprintf(err, errlen,
			"--timing deterministic needs a QEMU with the time-control patches (bench/qemu), and %s has none: %s",
			e->path, e->project ? "run make qemu" : "leave --qemu out"), -1;
	return 0;
}

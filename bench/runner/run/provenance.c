// SPDX-License-Identifier: GPL-2.0
/*
 * Provenance of a run (provenance.h). Everything is a string: a value that
 * cannot be found is recorded as "unknown" with no guessing, and guest
 * values are reduced to printable text.
 */
#include <ctype.h>
#include <libgen.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bnb_monitor.h"
#include "bootcheck.h"
#include "lib/argv.h"
#include "lib/util.h"
#include "provenance.h"
#include "report/results.h"
#include "runner.h"

#define UNKNOWN "unknown"
#define GUEST_PREFIX "guest."
#define PROV_MAX_GUEST 256

static void put(struct json_object *o, const char *key, const char *value)
{
	json_object_object_add(o, key, json_object_new_string(value && *value ? value : UNKNOWN));
}

/* The first line of COMMAND's output, or "". */
static void first_line(const char *command, char *out, size_t len)
{
	FILE *p = popen(command, "r");

	out[0] = 0;
	if (!p)
		return;
	if (!fgets(out, (int)len, p))
		out[0] = 0;
	pclose(p);
	out[strcspn(out, "\r\n")] = 0;
}

static int hash_file(EVP_MD_CTX *ctx, const char *path)
{
	char buf[65536], *copy = strdup(path);
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f || !copy) {
		free(copy);
		if (f)
			fclose(f);
		return -1;
	}
	EVP_DigestUpdate(ctx, basename(copy), strlen(basename(copy)));
	EVP_DigestUpdate(ctx, "\n", 1);
	free(copy);
	while ((n = fread(buf, 1, sizeof(buf), f)))
		EVP_DigestUpdate(ctx, buf, n);
	fclose(f);
	return 0;
}

const char *prov_hash_files(const char *const *files, char *out, size_t len)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0, i;
	int bad = !ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);

	for (; !bad && *files; files++)
		bad = hash_file(ctx, *files);
	if (!bad)
		bad = !EVP_DigestFinal_ex(ctx, md, &mdlen);
	EVP_MD_CTX_free(ctx);
	if (bad || len < 17)
		return NULL;
	for (i = 0; i < 8 && i < mdlen; i++)
		snprintf(out + 2 * i, len - 2 * i, "%02x", md[i]);
	return out;
}

/* VALUE of KEY= in the kernel's build info file, or "". */
static void info_get(const char *info, const char *key, char *out, size_t len)
{
	if (results_kv_get(info, key, out, len))
		out[0] = 0;
}

/* ROOT/DIR/NAME for every blank-separated NAME of LIST (basenames), into FILES. */
static int tree_files(const char *list, const char *dir, char paths[][PATH_MAX],
		      const char **files, int max)
{
	char buf[4096], *tok, *save = NULL, rel[PATH_MAX], *copy;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, " ", &save); tok && n < max; tok = strtok_r(NULL, " ", &save)) {
		copy = strdup(tok);
		snprintf(rel, sizeof(rel), "%s/%s", dir, basename(copy));
		free(copy);
		root_path(paths[n], PATH_MAX, rel);
		files[n] = paths[n];
		n++;
	}
	files[n] = NULL;
	return n;
}

/*
 * The image: the release and version its guest must report (bootcheck.c)
 * and a hash of the file, which tells apart builds a version cannot.
 */
static void image_items(struct json_object *o, const char *image)
{
	const char *files[2] = { image, NULL };
	struct kernel_ident id = { "", "" };
	char hash[32], why[256];

	bzimage_ident(image, &id, why, sizeof(why));
	put(o, "kernel_release", id.release);
	put(o, "kernel_version", id.version);
	put(o, "kernel_image_hash", prov_hash_files(files, hash, sizeof(hash)));
}

/*
 * The kernel: the cache key it was built under (its directory's name), its
 * source and compiler, and hashes of the series and config fragments it
 * names, as they are in this tree now, and of the .config it was built with.
 */
static void kernel_items(struct json_object *o, const char *kernel)
{
	static char paths[64][PATH_MAX];
	char real[PATH_MAX], dir[PATH_MAX], file[PATH_MAX + 16], value[4096], hash[32];
	const char *files[65];
	const char *cfg[2] = { file, NULL };

	if (!realpath(kernel, real)) {
		put(o, "kernel_key", NULL);
		return;
	}
	put(o, "kernel", real);
	image_items(o, real);
	snprintf(dir, sizeof(dir), "%s", real);
	*strrchr(dir, '/') = 0;
	put(o, "kernel_key", strstr(dir, "/kernels/") ? strrchr(dir, '/') + 1 : NULL);
	snprintf(file, sizeof(file), "%s/info", dir);
	info_get(file, "source", value, sizeof(value));
	put(o, "kernel_source", value);
	info_get(file, "compiler", value, sizeof(value));
	put(o, "kernel_compiler", value);
	info_get(file, "patches", value, sizeof(value));
	put(o, "kernel_patches", value);
	tree_files(value, "kernel/patches", paths, files, 64);
	put(o, "series_hash", value[0] ? prov_hash_files(files, hash, sizeof(hash)) : "none");
	info_get(file, "fragments", value, sizeof(value));
	tree_files(value, "kernel/config", paths, files, 64);
	put(o, "config_fragments_hash", prov_hash_files(files, hash, sizeof(hash)));
	snprintf(file, sizeof(file), "%s/.config", dir);
	put(o, "kernel_config_hash", prov_hash_files(cfg, hash, sizeof(hash)));
}

/*
 * What bnb-vm ran, from its result file (bench/vm, docs/HACKING.md): the
 * emulator (path, upstream version, cache key, patch series hash), the
 * accelerator, the timing mode and, deterministic, its clock, and the
 * plugin build QEMU loaded with its options. The runner's own guesses
 * would miss bnb-vm's choices (which QEMU, which plugin build).
 */
static const char *value_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return json_object_get_string(v);
}

static const char *const vm_keys[] = {
	"accel", "timing", "icount_shift", "insn_ps", "qemu", "qemu_version", "qemu_key",
	"qemu_patches", "plugin", "plugin_api", "plugin_opts",
};

/* Keys every run has; the others only where they apply (deterministic, plugin). */
static bool vm_key_always(const char *key)
{
	return !strncmp(key, "qemu", 4) || !strcmp(key, "accel") || !strcmp(key, "timing") ||
	       !strcmp(key, "plugin");
}

/*
 * Plugin options whose value is a path of the run's own (its counters
 * file, the balancer's work counts): a different one in every run, they
 * say nothing about what produced the numbers.
 */
static const char *const run_path_opts[] = { "shm=", "ksym_out=", NULL };
/*
 * Compared without also: ksym= names the kernel's System.map, in its
 * build's cache folder, which the kernel's own keys (kernel_key,
 * kernel_image_hash) compare; a different kernel explains it.
 */
static const char *const compared_apart[] = { "shm=", "ksym_out=", "ksym=", NULL };

static bool opt_in(const char *opt, const char *const *list)
{
	for (; *list; list++)
		if (!strncmp(opt, *list, strlen(*list)))
			return true;
	return false;
}

/* OPTS (space-separated, as the result file has them) without the options of LIST. */
static void drop_opts(char *opts, const char *const *list)
{
	char out[4096] = "", *tok, *save = NULL;
	size_t used = 0;

	for (tok = strtok_r(opts, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (!opt_in(tok, list) && used < sizeof(out))
			used += (size_t)snprintf(out + used, sizeof(out) - used, "%s%s",
						 used ? " " : "", tok);
	strcpy(opts, used ? out : "none");
}

/* OPTS without the run's own paths. */
static void drop_run_paths(char *opts)
{
	drop_opts(opts, run_path_opts);
}

/*
 * bnb-vm knows the version of the QEMU builds it made; for another QEMU
 * (Debian's, for the 7.2 plugin build) ask the binary it ran.
 */
static void qemu_version(struct json_object *prov)
{
	static char cached[64], cached_for[PATH_MAX];
	char cmd[PATH_MAX + 64], q[PATH_MAX + 16], line[256];
	const char *qemu = value_of(prov, "qemu"), *version = value_of(prov, "qemu_version");

	if (!qemu || !version || strcmp(version, UNKNOWN) || access(qemu, X_OK))
		return;
	if (strcmp(cached_for, qemu)) {	/* once per binary per process */
		snprintf(cmd, sizeof(cmd), "%s --version 2>/dev/null", shell_quote(qemu, q, sizeof(q)));
		first_line(cmd, line, sizeof(line));
		/* "QEMU emulator version 7.2.22 (Debian ...)": the number, as bnb-vm has it */
		if (sscanf(line, "QEMU emulator version %63s", cached) != 1)
			cached[0] = 0;
		snprintf(cached_for, sizeof(cached_for), "%s", qemu);
	}
	put(prov, "qemu_version", cached);
}

void prov_add_vm(struct json_object *prov, const char *result)
{
	const char *files[2] = { NULL, NULL };
	char value[4096], hash[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vm_keys); i++) {
		if (results_kv_get(result, vm_keys[i], value, sizeof(value)))
			value[0] = 0;
		if (value[0] && !strcmp(vm_keys[i], "plugin_opts"))
			drop_run_paths(value);
		if (value[0] || vm_key_always(vm_keys[i]))
			put(prov, vm_keys[i], value);
	}
	qemu_version(prov);
	if (results_kv_get(result, "plugin", value, sizeof(value)) || !strcmp(value, "none"))
		return;
	files[0] = value;
	put(prov, "plugin_hash", prov_hash_files(files, hash, sizeof(hash)));
}

static void harness_items(struct json_object *o)
{
	static char describe[128];
	char cmd[PATH_MAX + 64], q[PATH_MAX + 16];

	if (!describe[0]) {
		snprintf(cmd, sizeof(cmd), "git -C %s describe --always --dirty 2>/dev/null",
			 shell_quote(bnb_root(), q, sizeof(q)));
		first_line(cmd, describe, sizeof(describe));
	}
	put(o, "harness", describe);
}

static void host_items(struct json_object *o)
{
	char line[512], *colon;
	FILE *f = fopen("/proc/cpuinfo", "r");
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) || !(colon = strchr(line, ':')))
			continue;
		colon[strcspn(colon, "\n")] = 0;
		put(o, "host_cpu", colon + 1 + strspn(colon + 1, " \t"));
		found = true;
	}
	if (f)
		fclose(f);
	if (!found)
		put(o, "host_cpu", NULL);
}

/* The 1, 5 and 15 minute load averages, not the task counts. */
static void loadavg(struct json_object *o, const char *key)
{
	char out[64] = "";
	double l[3];
	FILE *f = fopen("/proc/loadavg", "r");

	if (f && fscanf(f, "%lf %lf %lf", &l[0], &l[1], &l[2]) == 3)
		snprintf(out, sizeof(out), "%.2f %.2f %.2f", l[0], l[1], l[2]);
	if (f)
		fclose(f);
	put(o, key, out);
}

struct json_object *prov_start(const char *kernel)
{
	struct json_object *o = json_object_new_object();

	kernel_items(o, kernel);
	harness_items(o);
	host_items(o);
	loadavg(o, "host_loadavg_start");
	return o;
}

void prov_end(struct json_object *prov)
{
	loadavg(prov, "host_loadavg_end");
}

static bool key_ok(const char *k, size_t n)
{
	size_t i;

	if (!n || n > 96)
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)k[i]) && !strchr("_.-", k[i]))
			return false;
	return true;
}

int prov_add_guest(struct json_object *prov, const char *outlog)
{
	const size_t plen = strlen(BNB_MON_PROV);
	char line[1024], key[128], value[512];
	int n = 0;
	size_t i;
	FILE *f = fopen(outlog, "r");

	if (!f)
		return -1;
	while (n < PROV_MAX_GUEST && fgets(line, sizeof(line), f)) {
		char *eq;

		if (strncmp(line, BNB_MON_PROV, plen) || !(eq = strchr(line + plen, '=')) ||
		    !key_ok(line + plen, (size_t)(eq - line - plen)))
			continue;
		snprintf(key, sizeof(key), GUEST_PREFIX "%.*s", (int)(eq - line - plen), line + plen);
		for (i = 0; eq[1 + i] && eq[1 + i] != '\n' && i + 1 < sizeof(value); i++)
			value[i] = isprint((unsigned char)eq[1 + i]) ? eq[1 + i] : '?';
		value[i] = 0;
		json_object_object_add(prov, key, json_object_new_string(value));
		n++;
	}
	fclose(f);
	return 0;
}

static bool ignored_key(const char *key, const char *const *ignored)
{
	size_t n;

	for (; ignored && *ignored; ignored++) {
		n = strlen(*ignored);
		if (n && (*ignored)[n - 1] == '*' ? !strncmp(key, *ignored, n - 1) :
		    !strcmp(key, *ignored))
			return true;
	}
	return false;
}

static int add_diff(struct prov_diff *out, int n, int max, const char *key, const char *a,
		    const char *b)
{
	if (n < max) {
		snprintf(out[n].key, sizeof(out[n].key), "%s", key);
		snprintf(out[n].a, sizeof(out[n].a), "%s", a ? a : "(absent)");
		snprintf(out[n].b, sizeof(out[n].b), "%s", b ? b : "(absent)");
	}
	return n + 1;
}

/*
 * Whether A and B, values of KEY, say the same. Folders written before
 * the runner dropped every run path from plugin_opts still have them:
 * they are dropped here too, with the kernel's System.map (ksym=).
 */
static bool same_value(const char *key, const char *a, const char *b)
{
	char ca[4096], cb[4096];

	if (!a || !b)
		return false;
	if (strcmp(key, "plugin_opts"))
		return !strcmp(a, b);
	snprintf(ca, sizeof(ca), "%s", a);
	snprintf(cb, sizeof(cb), "%s", b);
	drop_opts(ca, compared_apart);
	drop_opts(cb, compared_apart);
	return !strcmp(ca, cb);
}

int prov_compare(struct json_object *a, struct json_object *b, const char *const *ignored,
		 struct prov_diff *out, int max)
{
	int n = 0;

	if (a) {
		json_object_object_foreach(a, key, va) {
			const char *vb = value_of(b, key);

			if (ignored_key(key, ignored) ||
			    same_value(key, json_object_get_string(va), vb))
				continue;
			n = add_diff(out, n, max, key, json_object_get_string(va), vb);
		}
	}
	if (b) {
		json_object_object_foreach(b, key, vb) {
			if (!ignored_key(key, ignored) && !value_of(a, key))
				n = add_diff(out, n, max, key, NULL, json_object_get_string(vb));
		}
	}
	return n;
}

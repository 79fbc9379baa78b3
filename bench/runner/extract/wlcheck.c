// SPDX-License-Identifier: GPL-2.0
/*
 * The workload line is shell, run by the guest's busybox sh. Only what
 * can be read for sure is judged: the line is split at the operators
 * that stand alone (; && || | &), each command's first word must be a
 * program the guest has, and a project workload whose command is plain
 * words (no quotes, expansions, redirections) is asked about its options.
 * From the first quote, expansion or subshell on, the split itself is in
 * doubt and nothing after that command is judged: a refusal here is
 * always a real one.
 */
#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "extract.h"
#include "guest/packages/pkg.h"
#include "lib/err.h"
#include "lib/path.h"
#include "lib/util.h"
#include "wlcheck.h"

#define MAX_WORDS	128
#define MAX_NAMES	1024
#define CHECK_TIMEOUT_MS 10000
#define GUEST_BIN_DIR	"/opt/bnb/bin/"

/* The archives' command lists (bench/guest/mkinitramfs.sh); the base's first. */
static const char *const lists[] = {
	"build/guest/initramfs.list", "build/guest/tools.list", "build/guest/kt.list",
};

/* Words that start shell syntax: what follows is not one command. */
static const char *const keywords[] = {
	"for", "while", "until", "if", "case", "select", "function", "{", "}", "!", "[[",
	"then", "do", "done", "fi", "esac", "elif", "else", "time",
};

/* Builtins of busybox sh that are not also programs in the archive. */
static const char *const builtins[] = {
	".", ":", "alias", "bg", "break", "cd", "command", "continue", "eval", "exec", "exit",
	"export", "fg", "getopts", "hash", "jobs", "let", "local", "read", "readonly",
	"return", "set", "shift", "source", "times", "trap", "type", "ulimit", "umask",
	"unalias", "unset", "wait",
};

static const char *const operators[] = { ";", "&&", "||", "|", "&" };

struct names {
	char *name[MAX_NAMES];
	int n;
	bool known;		/* the base archive's list was read */
};

/* One command of the line: its words, and whether they are all plain. */
struct command {
	char *word[MAX_WORDS];
	int n;
	bool plain;
};

static bool in(const char *word, const char *const *set, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(word, set[i]))
			return true;
	return false;
}

/* Words the shell passes on as they are. */
static bool plain_word(const char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.,:=/+%@", *s))
			return false;
	return true;
}

/* Quotes, escapes, expansions, subshells, comments: the split is in doubt. */
static bool doubtful(const char *s)
{
	return strpbrk(s, "'\"`\\$(){}") || *s == '#';
}

static bool assignment(const char *s)
{
	const char *eq = strchr(s, '=');
	const char *p;

	if (!eq || eq == s || isdigit((unsigned char)*s))
		return false;
	for (p = s; p < eq; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return false;
	return true;
}

static void read_list(struct names *nm, const char *rel, bool base)
{
	char path[4096], line[256];
	FILE *f = fopen(root_path(path, sizeof(path), rel), "r");

	if (!f)
		return;
	nm->known |= base;
	while (fgets(line, sizeof(line), f) && nm->n < MAX_NAMES) {
		line[strcspn(line, "\r\n")] = '\0';
		if (*line)
			nm->name[nm->n++] = strdup(line);
	}
	fclose(f);
}

/* The commands of the variant's packages' archive (made now if need be). */
static int read_packages(struct names *nm, const char *packages, char *why, size_t whylen)
{
	struct pkg_archive a;
	char cache[4096], line[256];
	FILE *f;

	if (!*packages)
		return 0;
	if (pkg_archive_get(cache_root(cache, sizeof(cache)), PKG_DPKG_ADMIN, packages, &a,
			    why, whylen))
		return -1;
	f = fopen(a.list, "r");
	while (f && fgets(line, sizeof(line), f) && nm->n < MAX_NAMES) {
		line[strcspn(line, "\r\n")] = '\0';
		if (*line)
			nm->name[nm->n++] = strdup(line);
	}
	if (f)
		fclose(f);
	return 0;
}

static void free_names(struct names *nm)
{
	while (nm->n)
		free(nm->name[--nm->n]);
}

static bool has_program(const struct names *nm, const char *name)
{
	int i;

	for (i = 0; i < nm->n; i++)
		if (nm->name[i] && !strcmp(nm->name[i], name))
			return true;
	return false;
}

/* The program's stderr, up to BUF's size; false when it did not end in time. */
static bool read_all(int fd, char *buf, size_t len, pid_t pid)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t used = 0;
	ssize_t got;

	for (;;) {
		int rc = poll(&p, 1, CHECK_TIMEOUT_MS);

		if (rc < 0 && errno == EINTR)
			continue;
		if (rc <= 0) {
			kill(pid, SIGKILL);
			buf[used] = '\0';
			return false;
		}
		got = read(fd, buf + used, len - 1 - used);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0 || (used += (size_t)got) == len - 1)
			break;
	}
	buf[used] = '\0';
	return true;
}

/* The first line of TEXT, printable, into OUT. */
static void first_line(const char *text, char *out, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len && text[i] && text[i] != '\n'; i++)
		out[i] = isprint((unsigned char)text[i]) ? text[i] : '?';
	out[i] = '\0';
}

/* Run ARGV with stdout to /dev/null; its stderr into MSG; its wait status. */
static int spawn_check(char **argv, char *msg, size_t len, bool *late)
{
	posix_spawn_file_actions_t fa;
	int fds[2], status = -1;
	pid_t pid;

	*msg = '\0';
	*late = false;
	if (pipe2(fds, O_CLOEXEC))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	if (posix_spawn(&pid, argv[0], &fa, NULL, argv, NULL)) {
		posix_spawn_file_actions_destroy(&fa);
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	*late = !read_all(fds[0], msg, len, pid);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/* "NODES:CPUS:MEM" of the variant, as the workloads' --check reads it. */
static void topology_arg(const struct variant *v, char *buf, size_t len)
{
	char cpus[512], mem[1024];

	topo_format_cpus(&v->topo, cpus, sizeof(cpus));
	topo_format_mem(&v->topo, mem, sizeof(mem));
	snprintf(buf, len, "%d:%s:%s", v->topo.nodes, cpus, mem);
}

/* Ask build/guest/bin/NAME about its options; 0, 1 when it cannot be asked, -1 with why. */
static int ask_program(const struct variant *v, const char *name, char **args, int n,
		       char *why, size_t whylen)
{
	char path[4096], topo[1600], out[2048], line[512];
	char *argv[MAX_WORDS + 4];
	bool late;
	int i, st;

	root_path(path, sizeof(path), "build/guest/bin/");
	if (strlen(path) + strlen(name) >= sizeof(path))
		return 1;
	strcat(path, name);
	if (access(path, X_OK))
		return 1;	/* the guest programs are not built: make says so */
	topology_arg(v, topo, sizeof(topo));
	argv[0] = path;
	for (i = 0; i < n; i++)
		argv[i + 1] = args[i];
	argv[n + 1] = "--check";
	argv[n + 2] = topo;
	argv[n + 3] = NULL;
	st = spawn_check(argv, out, sizeof(out), &late);
	first_line(out, line, sizeof(line));
	if (late)
		return errf(why, whylen, "%s --check did not answer within %d s", name,
			    CHECK_TIMEOUT_MS / 1000);
	if (st == 0)
		return 0;
	if (strstr(line, "'--check'"))
		return errf(why, whylen, "build/guest/bin/%s predates --check: run make guest", name);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 2)
		return errf(why, whylen, "%s (build/guest/bin/%s --check %s)", line, name, topo);
	return errf(why, whylen, "%s --check %s failed (status %d): %s", name, topo, st, line);
}

enum verdict { GOOD, STOP, BAD };

/* One command: its program, and a project workload's options. */
static enum verdict judge(const struct variant *v, const struct names *nm, struct command *c,
			  char *why, size_t whylen)
{
	int first = 0;
	const char *name;

	while (first < c->n && assignment(c->word[first]))
		first++;
	if (first == c->n)
		return GOOD;
	name = c->word[first];
	if (!plain_word(name) || in(name, keywords, ARRAY_SIZE(keywords)))
		return STOP;
	if (in(name, builtins, ARRAY_SIZE(builtins)))
		return GOOD;
	if (strchr(name, '/')) {
		if (strncmp(name, GUEST_BIN_DIR, strlen(GUEST_BIN_DIR)) ||
		    strchr(name + strlen(GUEST_BIN_DIR), '/'))
			return GOOD;	/* a path in the guest: not ours to know */
		name += strlen(GUEST_BIN_DIR);
	}
	if (is_project_workload(name)) {
		if (!c->plain)
			return GOOD;
		return ask_program(v, name, c->word + first + 1, c->n - first - 1, why,
				   whylen) < 0 ? BAD : GOOD;
	}
	if (!nm->known || has_program(nm, name))
		return GOOD;
	errf(why, whylen, "'%s': the guest has no such program (not a project workload, "
	     "not in build/guest/ARCHIVE.list%s, not a path)", name,
	     *v->packages ? " nor in the packages' archive" : "");
	return BAD;
}

/* Split LINE into commands and judge each until one is bad or in doubt. */
static int judge_line(const struct variant *v, const struct names *nm, char *line,
		      char *why, size_t whylen)
{
	struct command c = { .plain = true };
	bool doubt = false, end;
	enum verdict verdict;
	char *save = NULL, *tok = strtok_r(line, " \t\n", &save);

	for (;; tok = strtok_r(NULL, " \t\n", &save)) {
		end = !tok || in(tok, operators, ARRAY_SIZE(operators));
		if (!end) {
			if (c.n < MAX_WORDS)
				c.word[c.n++] = tok;
			else
				c.plain = false;	/* not all of it: not asked */
			c.plain &= plain_word(tok);
			doubt |= doubtful(tok);
			continue;
		}
		verdict = judge(v, nm, &c, why, whylen);
		if (verdict == BAD)
			return -1;
		if (verdict == STOP || doubt || !tok)
			return 0;
		c.n = 0;
		c.plain = true;
	}
}

static int key_line(const struct variant *v, const char *key)
{
	int i;

	for (i = 0; i < v->n_settings; i++)
		if (!strcmp(v->settings[i].key, key))
			return v->settings[i].line;
	return 0;
}

/* The shell lines a variant runs in the guest, each with its key. */
static const struct { const char *key; size_t off; } lines[] = {
	{ "workload", offsetof(struct variant, workload) },
	{ "server", offsetof(struct variant, server) },
	{ "server_ready", offsetof(struct variant, server_ready) },
	{ "server_setup", offsetof(struct variant, server_setup) },
	{ "server_load", offsetof(struct variant, server_load) },
};

int workload_check(const struct experiment *exp, const struct variant *v, char *err,
		   size_t errlen)
{
	struct names nm = { .n = 0 };
	char why[ERRLEN], *line;
	const char *text;
	size_t i, k;
	int rc = 0;

	for (i = 0; i < ARRAY_SIZE(lists); i++)
		read_list(&nm, lists[i], i == 0);
	if (read_packages(&nm, v->packages, why, sizeof(why))) {
		free_names(&nm);
		return errf(err, errlen, "%s:%d: key 'packages': variant '%s': %s", exp->path,
			    key_line(v, "packages"), v->name, why);
	}
	for (k = 0; k < ARRAY_SIZE(lines) && !rc; k++) {
		text = *(char **)((const char *)v + lines[k].off);
		line = strdup(text ? text : "");
		if (!line) {
			free_names(&nm);
			return errf(err, errlen, "out of memory");
		}
		rc = judge_line(v, &nm, line, why, sizeof(why));
		free(line);
	}
	free_names(&nm);
	if (!rc)
		return 0;
	return errf(err, errlen, "%s:%d: key '%s': variant '%s': %s", exp->path,
		    key_line(v, lines[k - 1].key), lines[k - 1].key, v->name, why);
}

int workload_preflight(const struct experiment *exp, const struct variant *v)
{
	char err[ERRLEN + 512];

	if (!workload_check(exp, v, err, sizeof(err)))
		return 0;
	fprintf(stderr, "bnb-run: %s\n", err);
	return -1;
}

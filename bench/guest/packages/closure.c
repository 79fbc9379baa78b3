// SPDX-License-Identifier: GPL-2.0
/*
 * What a package's ELF files need: whether a file is a program or a
 * shared object (its ELF header and program headers), and the shared
 * libraries it loads, as the host's ldd resolves them. The libraries go
 * to the guest at the paths ldd names, as the tools archive has them, so
 * the guest's loader finds them in its default folders without a cache.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/err.h"
#include "pkg.h"

#define LDD_OUT_MAX (256 * 1024)

extern char **environ;

/* A 64-bit ELF program (it names an interpreter, or is ET_EXEC) or shared object. */
enum pkg_elf pkg_elf_kind(const char *path)
{
	enum pkg_elf kind = PKG_NOT_ELF;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd, i;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return PKG_NOT_ELF;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64)
		goto out;
	if (eh.e_type == ET_EXEC) {
		kind = PKG_ELF_EXEC;
		goto out;
	}
	if (eh.e_type != ET_DYN || eh.e_phentsize != sizeof(ph))
		goto out;
	kind = PKG_ELF_SHARED;
	for (i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + (off_t)i * sizeof(ph)) != sizeof(ph))
			break;
		/* libc.so.6 names one too, but is no program: a .so is a library */
		if (ph.p_type == PT_INTERP && !strstr(path, ".so")) {
			kind = PKG_ELF_EXEC;
			break;
		}
	}
out:
	close(fd);
	return kind;
}

/* ldd PATH's output into BUF (LEN bytes, NUL-terminated); its exit status, or -1. */
static int run_ldd(const char *path, char *buf, size_t len)
{
	char *argv[] = { "ldd", (char *)path, NULL };
	char *envp[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", NULL };
	posix_spawn_file_actions_t fa;
	size_t used = 0;
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	/* a clean environment: no LD_LIBRARY_PATH of the caller's */
	if (posix_spawnp(&pid, "ldd", &fa, NULL, argv, envp)) {
		posix_spawn_file_actions_destroy(&fa);
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	while ((n = read(fds[0], buf + used, len - 1 - used)) > 0 || (n < 0 && errno == EINTR))
		used += n > 0 ? (size_t)n : 0;
	buf[used] = 0;
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * PATH without its "." and ".." parts, in place: a RUNPATH of $ORIGIN/../lib
 * makes ldd say /usr/bin/../lib/x86_64-linux-gnu/libc.so.6, which is no
 * name for an archive's entry. Lexical, as the loader joins them.
 */
static void lexical(char *path)
{
	char *out = path, *p = path, *seg;
	size_t n;

	while (*p) {
		p += strspn(p, "/");
		seg = p;
		n = strcspn(p, "/");
		p += n;
		if (!n || (n == 1 && seg[0] == '.'))
			continue;
		if (n == 2 && seg[0] == '.' && seg[1] == '.') {
			while (out > path && *--out != '/')
				;
			continue;
		}
		*out++ = '/';
		memmove(out, seg, n);
		out += n;
	}
	if (out == path)
		*out++ = '/';
	*out = 0;
}

/*
 * One line of ldd's output:
 *	libz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x...)
 *	/lib64/ld-linux-x86-64.so.2 (0x...)
 *	linux-vdso.so.1 (0x...)			(the kernel's: nothing to pack)
 *	libfoo.so.1 => not found
 */
static int ldd_line(const char *exe, char *line, struct argv *libs, char *err, size_t errlen)
{
	char *arrow = strstr(line, " => "), *p;

	line += strspn(line, " \t");
	if (arrow) {
		*arrow = 0;
		p = arrow + 4;
		if (!strncmp(p, "not found", 9))
			return errf(err, errlen, "%s loads %s, which this host does not have "
				    "(ldd: not found)", exe, line);
	} else {
		p = line;
	}
	if (*p != '/')
		return 0;
	p[strcspn(p, " \t(")] = 0;
	lexical(p);
	argv_add(libs, "%s", p);
	return 0;
}

int pkg_ldd(const char *path, struct argv *libs, char *err, size_t errlen)
{
	char *out = malloc(LDD_OUT_MAX), *line, *save = NULL;
	int rc;

	if (!out)
		return errf(err, errlen, "out of memory");
	rc = run_ldd(path, out, LDD_OUT_MAX);
	if (rc < 0) {
		free(out);
		return errf(err, errlen, "cannot run ldd on %s", path);
	}
	/* ldd fails on a static binary ("not a dynamic executable"): nothing to load */
	if (rc && (strstr(out, "not a dynamic executable") || !*out)) {
		free(out);
		return 0;
	}
	for (line = strtok_r(out, "\n", &save); line && !rc; line = strtok_r(NULL, "\n", &save))
		rc = ldd_line(path, line, libs, err, errlen);
	free(out);
	return rc ? -1 : 0;
}

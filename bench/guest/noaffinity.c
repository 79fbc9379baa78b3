// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into every static guest binary, ahead of libnuma.a.
 *
 * libnuma.a keeps nearly all of libnuma in one object, and that object's
 * node-string parser calls resolve_affinity() so that "netdev:eth0",
 * "pci:..." or "ip:HOST" name the node of a device. affinity.o, which
 * defines it, resolves host names with getaddrinfo(); statically linked,
 * that needs the NSS modules of the very glibc it was built with at run
 * time, which the guest does not have (ld warns about it for every
 * binary). The guest has no network and no such devices, so nothing is
 * lost: defining the function here keeps affinity.o, and getaddrinfo,
 * out of the link, and such a string is then an unparseable node list.
 */

struct bitmask;

int resolve_affinity(const char *id, struct bitmask *mask);

/* libnuma's NO_IO_AFFINITY: "not a device name, parse it as numbers". */
#define NO_IO_AFFINITY (-2)

int resolve_affinity(const char *id, struct bitmask *mask)
{
	return NO_IO_AFFINITY;
}

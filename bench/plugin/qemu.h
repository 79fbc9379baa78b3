/* SPDX-License-Identifier: GPL-2.0 */
/*
 * qemu.h - the QEMU plugin API the plugin is built for.
 *
 * bnb-plugin.so: the project's QEMU 10 (bench/qemu), API version 8, from
 * that build's own build/qemu/include/qemu-plugin.h; it has the time
 * keeper.  bnb-plugin-qemu72.so (-DBNB_QEMU72): Debian's QEMU 7.2, API
 * version 1, declared in qemu_api.h; no time control there.  The few
 * calls whose form changed between the two are wrapped here.
 */
#ifndef BNB_PLUGIN_QEMU_H
#define BNB_PLUGIN_QEMU_H

#include <string.h>

#ifdef BNB_QEMU72
#include "qemu_api.h"
#define QEMU_PLUGIN_EXPORT BNB_EXPORT
#define QEMU_PLUGIN_VERSION 1

/* Up to len bytes of the instruction; its length if that fits. */
static inline size_t bnb_insn_bytes(const struct qemu_plugin_insn *insn,
				    void *dest, size_t len)
{
	size_t n = qemu_plugin_insn_size(insn);

	if (n > len)
		n = len;
	memcpy(dest, qemu_plugin_insn_data(insn), n);
	return n;
}
#else
#include <qemu-plugin.h>

static inline size_t bnb_insn_bytes(const struct qemu_plugin_insn *insn,
				    void *dest, size_t len)
{
	return qemu_plugin_insn_data(insn, dest, len);
}
#endif

#endif /* BNB_PLUGIN_QEMU_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * variant_info.h - what a variant's runs recorded about how they ran
 * (latency mode, timing, kernel), read from a results folder, for the
 * summary, the verdicts and the plots alike.
 */
#ifndef BNB_VARIANT_INFO_H
#define BNB_VARIANT_INFO_H

#include <json-c/json.h>
#include <stddef.h>

#include "results.h"

/* The first variant of R's experiment that has runs, or NULL. */
const char *variant_baseline(const struct results *r);

/* The latency mode VARIANT's runs recorded: emulated, uniform, real, or unknown. */
const char *variant_latency(const struct results *r, const char *variant);

/*
 * The kernel VARIANT's runs booted, from their provenance: its release as
 * the guest reported it (the image's where the guest said nothing), the
 * variant's `kernel =` value and the build key, as "6.1.192+ (patched,
 * build 46a10bb8599e551b)"; "unknown" without provenance. In BUF.
 */
const char *variant_kernel(const struct results *r, const char *variant, char *buf, size_t len);

/* The same as a JSON object: asked, release, version, build, image_hash. */
struct json_object *variant_kernel_json(const struct results *r, const char *variant);

/* The timing mode of VARIANT's runs from their provenance: wall unless told. */
const char *variant_timing(const struct results *r, const char *variant);

#endif

// SPDX-License-Identifier: GPL-2.0
/* cache.c - allocate the model cache's tag array. */
#include <stdlib.h>
#include <string.h>

#include "cache.h"

int bnb_cache_init(struct bnb_cache *c, uint64_t bytes, unsigned int ways)
{
	uint64_t sets;

	memset(c, 0, sizeof(*c));
	if (!ways || bytes % ((uint64_t)ways << BNB_CACHE_LINE_SHIFT))
		return -1;
	sets = bytes / ways >> BNB_CACHE_LINE_SHIFT;
	if (!sets || (sets & (sets - 1)))
		return -1;
	c->tags = aligned_alloc(64, (sets * ways * sizeof(uint64_t) + 63) & ~63ULL);
	if (!c->tags)
		return -1;
	/* all-ones never equals a line number: addr >> 6 < 2^58 */
	memset(c->tags, 0xff, sets * ways * sizeof(uint64_t));
	c->set_mask = sets - 1;
	c->ways = ways;
	return 0;
}

void bnb_cache_free(struct bnb_cache *c)
{
	free(c->tags);
	c->tags = NULL;
}

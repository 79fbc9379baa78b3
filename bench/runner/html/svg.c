// SPDX-License-Identifier: GPL-2.0
/*
 * A plot's SVG for a page (svg.h), through libxml2's tree: the parser
 * reads no network and no external entity, and only the elements and
 * references a drawing needs stay.
 */
#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "svg.h"
#include "lib/util.h"

/* What a plot is drawn with: anything else goes, with what it holds. */
static const char *const kept[] = {
	"svg", "g", "defs", "title", "desc", "symbol", "use", "path", "rect", "circle",
	"ellipse", "line", "polyline", "polygon", "text", "tspan", "textPath", "clipPath",
	"mask", "marker", "pattern", "linearGradient", "radialGradient", "stop", "image",
	"filter", "feFlood", "feComposite", "feOffset", "feGaussianBlur", "feMerge",
	"feMergeNode", "feBlend", "feColorMatrix",
};

static bool kept_element(const xmlChar *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kept); i++)
		if (!strcmp((const char *)name, kept[i]))
			return true;
	return false;
}

/*
 * VALUE with each url(#id) made url(#PREFIXid), malloc'd; NULL when it
 * names anything outside the file (url(http:...), url(data:...)).
 */
static char *prefixed_urls(const char *value, const char *prefix)
{
	size_t plen = strlen(prefix), n = 0;
	const char *s;
	char *out, *o;

	for (s = value; (s = strstr(s, "url(")); s += 4)
		n++;
	out = malloc(strlen(value) + n * plen + 1);
	if (!out)
		return NULL;
	for (o = out, s = value; *s;) {
		const char *u = strstr(s, "url(");
		const char *id;

		if (!u) {
			strcpy(o, s);
			return out;
		}
		id = u + 4;
		id += strspn(id, " \t\n'\"");
		if (*id != '#') {
			free(out);
			return NULL;
		}
		id++;
		memcpy(o, s, id - s);
		o += id - s;
		memcpy(o, prefix, plen);
		o += plen;
		s = id;
	}
	*o = 0;
	return out;
}

/* An href: a fragment gets the prefix; only <image> may hold a picture's bytes. */
static char *checked_href(const xmlNode *el, const char *value, const char *prefix)
{
	char *out;

	if (value[0] == '#') {
		if (asprintf(&out, "#%s%s", prefix, value + 1) < 0)
			return NULL;
		return out;
	}
	if (!strcmp((const char *)el->name, "image") &&
	    (!strncmp(value, "data:image/png;", 15) || !strncmp(value, "data:image/jpeg;", 16)))
		return strdup(value);
	return NULL;
}

/* The value attribute A of EL should have in the page, malloc'd; NULL: drop it. */
static char *attr_value(const xmlNode *el, const xmlAttr *a, const char *prefix)
{
	const char *name = (const char *)a->name;
	xmlChar *raw = xmlNodeGetContent((const xmlNode *)a);
	const char *v = raw ? (const char *)raw : "";
	char *out = NULL;

	if (!strncasecmp(name, "on", 2))
		;		/* an event handler: a script */
	else if (!strcmp(name, "href"))
		out = checked_href(el, v, prefix);
	else if (!strcmp(name, "id")) {
		if (asprintf(&out, "%s%s", prefix, v) < 0)
			out = NULL;
	} else {
		out = prefixed_urls(v, prefix);
	}
	xmlFree(raw);
	return out;
}

static void clean_attrs(xmlNode *el, const char *prefix)
{
	xmlAttr *a = el->properties, *next;

	for (; a; a = next) {
		char *v = attr_value(el, a, prefix);

		next = a->next;
		if (!v) {
			xmlRemoveProp(a);
			continue;
		}
		/* the value as text: xmlSetNsProp reads no entity in it */
		xmlSetNsProp(el, a->ns, a->name, (const xmlChar *)v);
		free(v);
	}
}

/* Keep the elements, text and attributes a drawing needs below EL. */
static void clean(xmlNode *el, const char *prefix)
{
	xmlNode *c, *next;

	clean_attrs(el, prefix);
	for (c = el->children; c; c = next) {
		next = c->next;
		if (c->type == XML_TEXT_NODE)
			continue;
		if (c->type == XML_ELEMENT_NODE && kept_element(c->name)) {
			clean(c, prefix);
			continue;
		}
		/* comments, processing instructions, entities, other elements */
		xmlUnlinkNode(c);
		xmlFreeNode(c);
	}
}

/* The root's <title> (a tooltip over the whole plot) says TITLE, not "Gnuplot". */
static void set_title(xmlNode *root, const char *title)
{
	xmlNode *c;

	for (c = root->children; c && c->type != XML_ELEMENT_NODE; c = c->next)
		;
	if (!c || strcmp((const char *)c->name, "title")) {
		c = xmlNewNode(root->ns, (const xmlChar *)"title");
		if (!c)
			return;
		if (root->children)
			xmlAddPrevSibling(root->children, c);
		else
			xmlAddChild(root, c);
	}
	xmlNodeSetContent(c, NULL);
	xmlNodeAddContent(c, (const xmlChar *)title);
}

static char *read_file(const char *path, long *len, char *why, size_t wlen)
{
	struct stat st = { 0 };
	char *buf;
	FILE *f = fopen(path, "rb");

	if (!f) {
		snprintf(why, wlen, "%s", errno == ENOENT ? "missing" : strerror(errno));
		return NULL;
	}
	if (fstat(fileno(f), &st) || !st.st_size || st.st_size > SVG_MAX_BYTES) {
		if (st.st_size > SVG_MAX_BYTES)
			snprintf(why, wlen, "larger than %ld MiB", SVG_MAX_BYTES >> 20);
		else
			snprintf(why, wlen, "empty");
		fclose(f);
		return NULL;
	}
	buf = malloc(st.st_size);
	*len = buf ? (long)fread(buf, 1, st.st_size, f) : 0;
	fclose(f);
	if (!buf || *len != st.st_size) {
		snprintf(why, wlen, "cannot be read");
		free(buf);
		return NULL;
	}
	return buf;
}

static char *dump(xmlDoc *doc, xmlNode *root)
{
	xmlBuffer *b = xmlBufferCreate();
	char *out = NULL;

	if (b && xmlNodeDump(b, doc, root, 0, 0) >= 0)
		out = strdup((const char *)xmlBufferContent(b));
	xmlBufferFree(b);
	return out;
}

/* The parser's own complaint: where, and its message without its line break. */
static void parse_error(char *why, size_t len)
{
	const xmlError *e = xmlGetLastError();
	int n;

	if (!e || !e->message) {
		snprintf(why, len, "not XML");
		return;
	}
	n = strcspn(e->message, "\n");
	snprintf(why, len, "not well-formed XML (line %d: %.*s)", e->line, n, e->message);
}

char *svg_inline(const char *path, const char *prefix, const char *title, char *why,
		 size_t len)
{
	long size;
	char *text = read_file(path, &size, why, len), *out = NULL;
	xmlNode *root;
	xmlDoc *doc;

	if (!text)
		return NULL;
	xmlResetLastError();
	doc = xmlReadMemory(text, size, path, NULL,
			    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
			    XML_PARSE_NOCDATA);
	free(text);
	if (!doc) {
		parse_error(why, len);
		return NULL;
	}
	root = xmlDocGetRootElement(doc);
	if (!root || strcmp((const char *)root->name, "svg"))
		snprintf(why, len, "not an SVG (its root element is %s)",
			 root ? (const char *)root->name : "missing");
	else {
		clean(root, prefix);
		set_title(root, title);
		out = dump(doc, root);
		if (!out)
			snprintf(why, len, "out of memory");
	}
	xmlFreeDoc(doc);
	return out;
}

/* perfconfig: perf's configuration files (git's format): /etc/perfconfig
 * and ~/.perfconfig, or $PERF_CONFIG alone.  Items are kept in the order
 * they first appear, grouped by section (the part of the key before its
 * first dot); a later file's value replaces an earlier one's.
 */
#ifndef PCL_PERFCONFIG_H
#define PCL_PERFCONFIG_H

#include <stdbool.h>
#include <stdio.h>

struct perfconfig_item {
	char *name, *value;
	bool from_system;
};

struct perfconfig_section {
	char *name;
	struct perfconfig_item *items;
	size_t nr;
};

struct perfconfig {
	struct perfconfig_section *sections;
	size_t nr;
};

#define PERFCONFIG_SYSTEM_PATH "/etc/perfconfig"

/* Adds a file's items.  0 (also for a missing file), or the number of
 * the first bad line (nothing of the file is kept then). */
int perfconfig__read_file(struct perfconfig *c, const char *path, bool from_system);

/* ~/.perfconfig ($HOME), or NULL without a home; the caller frees. */
char *perfconfig__user_path(void);

/* The files perf reads: $PERF_CONFIG alone if set, else the system file
 * (unless $PERF_CONFIG_NOSYSTEM) and the user's (unless
 * $PERF_CONFIG_NOGLOBAL; only when owned by us or root).  A bad line is
 * reported on stderr as perf reports it and its file skipped. */
void perfconfig__load(struct perfconfig *c);

/* "section.name"'s value, or NULL. */
const char *perfconfig__get(const struct perfconfig *c, const char *key);

/* "section.name" from the files perfconfig__load reads, loaded on the
 * first call and kept for the process (commands read their defaults
 * here); NULL if unset. */
const char *perfconfig__default(const char *key);

/* perfconfig__default's value as a boolean: dflt if unset or not one. */
bool perfconfig__default_bool(const char *key, bool dflt);

/* Sets "section.name" (split at the first dot; both must be non-empty). */
void perfconfig__set(struct perfconfig *c, const char *key, const char *value, bool from_system);

/* The items not from the system file (all, with system), perf's layout:
 * a header comment, "[section]", then "\tname = value" lines. */
void perfconfig__write(const struct perfconfig *c, FILE *f, bool system);

/* git's booleans: true/yes/on/1 and false/no/off/0 (any case), or a
 * number (non-zero: true).  false when value is none of them. */
bool perfconfig__bool(const char *value, bool *out);

void perfconfig__release(struct perfconfig *c);

#endif

/* glob: shell-style matching of event names ('*', '?', '[...]'), as perf's list and -e do. */
#ifndef PCL_GLOB_H
#define PCL_GLOB_H

#include <stdbool.h>

bool glob_match(const char *pattern, const char *str);
bool glob_match_nocase(const char *pattern, const char *str);
/* True when s holds a glob metacharacter that makes it a pattern ('*' or '?'). */
bool is_glob(const char *s);

#endif

/* glob: fnmatch(3) without path or leading-dot rules is exactly the glob perf uses. */
#include "util/glob.h"

#include <fnmatch.h>
#include <string.h>

bool glob_match(const char *pattern, const char *str)
{
	return fnmatch(pattern, str, 0) == 0;
}

bool glob_match_nocase(const char *pattern, const char *str)
{
	return fnmatch(pattern, str, FNM_CASEFOLD) == 0;
}

bool is_glob(const char *s)
{
	return strpbrk(s, "*?") != NULL;
}

/* itrace-opts: --itrace's checks (itrace-opts.h). */
#include "itrace-opts.h"

#include <stdio.h>
#include <string.h>

bool itrace_opts_check(const char *arg, const char *usage0)
{
	if (!arg || strspn(arg, "ibcrxwpoIedfmtagGlLsqAZ0123456789+-nsu ") == strlen(arg))
		return true;
	fprintf(stderr, "Bad Instruction Tracing options '%s'\n\n Usage: %s\n\n", arg, usage0);
	return false;
}

/* itrace-opts: --itrace's checks (itrace-opts.h). */
#include "itrace-opts.h"

#include <string.h>

bool itrace_opts_valid(const char *arg)
{
	return strspn(arg, "ibcrxwpoIedfmtagGlLsqAZ0123456789+-nsu ") == strlen(arg);
}

/* percent-color: colours of percentages (see percent-color.h). */
#include "ui/percent-color.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

const char *percent_color(double pct)
{
	if (fabs(pct) >= 5.0)
		return "\033[31m";
	if (fabs(pct) > 0.5)
		return "\033[32m";
	return NULL;
}

static bool terminal(void)
{
	const char *term = getenv("TERM");

	return isatty(STDOUT_FILENO) && term && strcmp(term, "dumb");
}

bool percent_color_mode(const char *mode)
{
	static const char *const no[] = { "never", "false", "no", "off", "0" };
	static const char *const yes[] = { "true", "yes", "on", "1", "auto" };

	if (!mode)
		return terminal();
	if (!strcasecmp(mode, "always"))
		return true;
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (!strcasecmp(mode, no[i]))
			return false;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!strcasecmp(mode, yes[i]))
			return terminal();
	fputs("bad config value for 'color.ui', ignoring...\n", stderr);
	return terminal();
}

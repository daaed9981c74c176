/* percent-color: perf's colours for percentages on a terminal (or with
 * --stdio-color always): red from 5%, green above 0.5%, plain below. */
#ifndef PCL_PERCENT_COLOR_H
#define PCL_PERCENT_COLOR_H

#include <stdbool.h>

#define COLOR_RESET "\033[m"

/* The escape that starts pct's colour, or NULL for plain. */
const char *percent_color(double pct);

/* perf's color.ui values: "never", "always", "auto" (a terminal whose
 * TERM is not "dumb"), a boolean ("true" is auto).  A word it does not
 * know is warned about on stderr and taken as auto. */
bool percent_color_mode(const char *mode);

#endif

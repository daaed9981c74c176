/* demangle: C++ and Rust (legacy and v0) names through libiberty, the
 * demangler perf 6.1 is built with here, with perf's default options:
 * no parameter lists ("ns::Foo::work<long>"), Rust hashes dropped.
 */
#include "core/symbols/symbols-int.h"

#include <libiberty/demangle.h>
#include <stdbool.h>
#include <stdlib.h>

char *sym_demangle(const char *name)
{
	/* Every name, as perf does: "_GLOBAL__sub_I_x" demangles too. */
	return cplus_demangle(name, DMGL_NO_OPTS);
}

char *sym_demangle_as(const struct symbols_config *config, const char *name)
{
	/* --no-demangle: names as the symbol table has them */
	return config->demangle ? sym_demangle(name) : NULL;
}

/* demangle: C++ and Rust (legacy and v0) names through libiberty, the
 * demangler perf 6.1 is built with here, with perf's default options:
 * no parameter lists ("ns::Foo::work<long>"), Rust hashes dropped.
 */
#include "core/symbols/symbols-int.h"

#include <libiberty/demangle.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Whether libiberty's automatic style could demangle name: Itanium C++
 * ("_Z", "_GLOBAL_" constructors) and Rust (legacy "_ZN", v0 "_R") are all
 * it tries; asking it about every C name costs a third of a big DSO's load. */
static bool maybe_mangled(const char *name)
{
	return name[0] == '_' &&
	       (name[1] == 'Z' || name[1] == 'R' || !strncmp(name, "_GLOBAL_", 8));
}

char *sym_demangle(const char *name)
{
	/* Every name, as perf does: "_GLOBAL__sub_I_x" demangles too. */
	return maybe_mangled(name) ? cplus_demangle(name, DMGL_NO_OPTS) : NULL;
}

char *sym_demangle_as(const struct symbols_config *config, const char *name)
{
	/* --no-demangle: names as the symbol table has them */
	return config->demangle ? sym_demangle(name) : NULL;
}

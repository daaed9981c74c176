/* demangle: C++ and Rust (legacy and v0) names through libiberty, the
 * demangler perf 6.1 is built with here, with perf's default options:
 * no parameter lists ("ns::Foo::work<long>"), Rust hashes dropped.
 */
#include "core/symbols/symbols.h"

#include <libiberty/demangle.h>
#include <stdbool.h>
#include <stdlib.h>

static bool demangle = true;

void sym_demangle_enable(bool on)
{
	demangle = on;
}

char *sym_demangle(const char *name)
{
	if (!demangle)
		return NULL;	/* --no-demangle: names as the symbol table has them */
	/* Every name, as perf does: "_GLOBAL__sub_I_x" demangles too. */
	return cplus_demangle(name, DMGL_NO_OPTS);
}

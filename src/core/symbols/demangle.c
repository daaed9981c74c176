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
bool sym_maybe_mangled(const char *name)
{
	return name[0] == '_' &&
	       (name[1] == 'Z' || name[1] == 'R' || !strncmp(name, "_GLOBAL_", 8));
}

/* Could name be a legacy Rust symbol: "_ZN...17h<16 hex digits>E"? */
static bool maybe_rust_legacy(const char *name)
{
	size_t len = strlen(name);

	return !strncmp(name, "_ZN", 3) && len > 20 && name[len - 1] == 'E' &&
	       !memcmp(name + len - 20, "17h", 3);
}

char *sym_demangle(const char *name)
{
	/* Every name, as perf does: "_GLOBAL__sub_I_x" demangles too. */
	if (!sym_maybe_mangled(name))
		return NULL;
	/* The automatic style tries Rust first, walking the whole name: a
	 * C++ name that cannot be Rust goes to the C++ demangler directly
	 * (the same text for all 124K C++ names of cc1, cc1plus,
	 * libstdc++, perf, clang and LLVM). */
	if (name[1] == 'Z' && !maybe_rust_legacy(name))
		return cplus_demangle_v3(name, DMGL_NO_OPTS);
	return cplus_demangle(name, DMGL_NO_OPTS);
}

char *sym_demangle_as(const struct symbols_config *config, const char *name)
{
	/* --no-demangle: names as the symbol table has them */
	return config->demangle ? sym_demangle(name) : NULL;
}

void symbol__demangle(struct symbol *sym, struct arena *pool)
{
	char *demangled;

	if (!sym->mangled)
		return;
	demangled = sym_demangle(sym->name);
	if (demangled)
		sym->name = arena_strndup(pool, demangled, strlen(demangled));
	sym->name_hash = 0;
	free(demangled);
	sym->mangled = false;
}

void dso__demangle_all(struct dso *dso)
{
	struct dso_priv *p = dso__priv(dso);

	for (size_t i = 0; i < p->nr_syms; i++)
		symbol__demangle(&p->syms[i], &p->pool);
}

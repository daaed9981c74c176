/* script-menu: perf's menu of scripts in the browsers (see script-menu.h). */
#include "ui/script-menu.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/analysis/script-builtins.h"
#include "ui/tui.h"
#include "util/strbuf.h"
#include "util/util.h"

/* perf's first entries: perf script with these options (and its
 * metrics and inlines); then the custom command line. */
static const struct {
	const char *name, *options;
} presets[] = {
	{ "Show individual samples", "" },
	{ "Show individual samples with assembler", "-F +insn --xed" },
	{ "Show individual samples with source", "-F +srcline,+srccode" },
};

#define CUSTOM_NAME "Show samples with custom perf script arguments"

static bool has_event(const struct script_menu *m, const char *name)
{
	for (int i = 0; i < m->nr_events; i++)
		if (!strcmp(m->events[i], name))
			return true;
	return false;
}

/* Whether perf would offer the script: every event its record asks for
 * is in the recording (perf's mem-phys-addr asks for one its check
 * never finds), and pcl's files can hold its data at all. */
static bool script_fits(const struct script_menu *m, const struct script_builtin *sb)
{
	if (sb->kind == SB_NO_DATA || sb->id == SB_MEM_PHYS_ADDR)
		return false;
	for (const char *const *a = sb->record_args; a && *a; a++)
		if (!strcmp(*a, "-e") && (!a[1] || !has_event(m, *++a)))
			return false;
	return true;
}

/* The word quoted for the shell. */
static void add_quoted(struct strbuf *sb, const char *word)
{
	strbuf_addch(sb, '\'');
	for (const char *p = word; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}

void script_menu__run(const struct script_menu *m, const char *comm, const char *symbol)
{
	enum { NR_PRESETS = ARRAY_SIZE(presets) };
	size_t nr_builtins;
	const struct script_builtin *sb = script_builtins(&nr_builtins);
	const struct script_builtin **scripts = xcalloc(nr_builtins + 1, sizeof(*scripts));
	const char **names = xcalloc(NR_PRESETS + 1 + nr_builtins, sizeof(*names));
	struct strbuf cmd = STRBUF_INIT;
	char self[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int n = 0, nr_scripts = 0, chosen;
	char *custom = NULL;

	self[len > 0 ? len : 0] = '\0';
	for (int i = 0; i < NR_PRESETS; i++)
		names[n++] = presets[i].name;
	names[n++] = CUSTOM_NAME;
	for (size_t i = 0; i < nr_builtins; i++)
		if (script_fits(m, &sb[i])) {
			scripts[nr_scripts++] = &sb[i];
			names[n++] = sb[i].name;
		}
	chosen = tui__list(NULL, names, n, "ESC: exit, ENTER|->: Select option", 0);
	if (chosen == NR_PRESETS)
		custom = tui__input("perf script command",
				    "Enter perf script command line (without perf script prefix)");
	if (chosen < 0 || (chosen == NR_PRESETS && !custom))
		goto out;
	add_quoted(&cmd, len > 0 ? self : "pcl");
	strbuf_addstr(&cmd, " script ");
	if (chosen < NR_PRESETS)
		strbuf_addf(&cmd, "%s -F +metric --inline", presets[chosen].options);
	else if (custom)
		strbuf_addstr(&cmd, custom);
	else
		strbuf_addf(&cmd, "-s %s", scripts[chosen - NR_PRESETS - 1]->name);
	if (comm || symbol) {
		strbuf_addstr(&cmd, comm ? " -c " : " -S ");
		add_quoted(&cmd, comm ? comm : symbol);
	}
	if (m->input) {
		strbuf_addstr(&cmd, " -i ");
		add_quoted(&cmd, m->input);
	}
	strbuf_addstr(&cmd, " 2>&1 | less");
	tui__shell(strbuf_str(&cmd));
out:
	free(custom);
	strbuf_release(&cmd);
	free(names);
	free(scripts);
}

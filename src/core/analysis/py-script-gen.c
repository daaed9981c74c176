/* py-script-gen: the skeleton script pcl script -g python writes, one
 * handler per tracepoint of the file's tracing data (in id order, as
 * perf lists them), each taking the event's fields by name and printing
 * them, flag and symbolic fields through Core's flag_str/symbol_str. */
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "core/analysis/py-script.h"
#include "core/data/session.h"
#include "util/util.h"

static const char preamble[] =
	"# Event handlers for pcl script -s (perf's Python scripting interface),\n"
	"# written by pcl script -g python: edit them to taste.\n"
	"#\n"
	"# Each tracepoint handler gets the event's name, an opaque context, the\n"
	"# common fields (cpu, time, pid, comm, call chain), the event's own fields\n"
	"# and, last, a dict of the whole sample.  More of the common fields are\n"
	"# read with common_*(context) from perf_trace_context.\n"
	"\n"
	"from __future__ import print_function\n"
	"\n"
	"import os\n"
	"import sys\n"
	"\n"
	"sys.path.append(os.environ['PERF_EXEC_PATH'] + \\\n"
	"\t'/scripts/python/Perf-Trace-Util/lib/Perf/Trace')\n"
	"\n"
	"from perf_trace_context import *\n"
	"from Core import *\n"
	"\n"
	"\n"
	"def trace_begin():\n"
	"\tprint(\"in trace_begin\")\n"
	"\n"
	"def trace_end():\n"
	"\tprint(\"in trace_end\")\n";

static const char callchain_loop[] =
	"\t\tprint('Sample: {'+get_dict_as_string(perf_sample_dict['sample'], ', ')+'}')\n"
	"\n"
	"\t\tfor node in common_callchain:\n"
	"\t\t\tif 'sym' in node:\n"
	"\t\t\t\tprint(\"\\t[%x] %s%s%s%s\" % (\n"
	"\t\t\t\t\tnode['ip'], node['sym']['name'],\n"
	"\t\t\t\t\t\"+0x{:x}\".format(node['sym_off']) if 'sym_off' in node else \"\",\n"
	"\t\t\t\t\t\" ({})\".format(node['dso']) if 'dso' in node else \"\",\n"
	"\t\t\t\t\t\" \" + node['sym_srcline'] if 'sym_srcline' in node else \"\"))\n"
	"\t\t\telse:\n"
	"\t\t\t\tprint(\"\\t[%x]\" % (node['ip']))\n"
	"\n"
	"\t\tprint()\n";

static const char helpers[] =
	"\n"
	"def trace_unhandled(event_name, context, event_fields_dict, perf_sample_dict):\n"
	"\t\tprint(get_dict_as_string(event_fields_dict))\n"
	"\t\tprint('Sample: {'+get_dict_as_string(perf_sample_dict['sample'], ', ')+'}')\n"
	"\n"
	"def print_header(event_name, cpu, secs, nsecs, pid, comm):\n"
	"\tprint(\"%-20s %5u %05u.%09u %8u %-20s \" % \\\n"
	"\t(event_name, cpu, secs, nsecs, pid, comm), end=\"\")\n"
	"\n"
	"def get_dict_as_string(a_dict, delimiter=' '):\n"
	"\treturn delimiter.join(['%s=%s'%(k,str(v))for k,v in sorted(a_dict.items())])\n";

/* Whether a print-format argument tree formats the field through
 * __print_flags (type TEP_PRINT_FLAGS) or __print_symbolic. */
static bool formats_field(const struct tep_print_arg *arg, const char *field,
			  enum tep_print_arg_type type, bool inside)
{
	for (; arg; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_FIELD:
			if (inside && !strcmp(arg->field.name, field))
				return true;
			break;
		case TEP_PRINT_FLAGS:
			if (formats_field(arg->flags.field, field, type,
					  inside || type == TEP_PRINT_FLAGS))
				return true;
			break;
		case TEP_PRINT_SYMBOL:
			if (formats_field(arg->symbol.field, field, type,
					  inside || type == TEP_PRINT_SYMBOL))
				return true;
			break;
		case TEP_PRINT_TYPE:
			if (formats_field(arg->typecast.item, field, type, inside))
				return true;
			break;
		case TEP_PRINT_OP:
			if (formats_field(arg->op.left, field, type, inside) ||
			    formats_field(arg->op.right, field, type, inside))
				return true;
			break;
		default:
			break;
		}
	}
	return false;
}

static void generate_handler(FILE *fp, struct tep_event *tp)
{
	char *name = py_script__handler_name(tp);
	struct tep_print_arg *args = tp->print_fmt.args;
	struct tep_format_field *f;
	int n = 0;

	fprintf(fp, "\ndef %s(event_name, context, common_cpu,\n"
		"\tcommon_secs, common_nsecs, common_pid, common_comm,\n"
		"\tcommon_callchain", name);
	for (f = tp->format.fields; f; f = f->next)
		fprintf(fp, ",%s%s", ++n % 4 ? " " : "\n\t", f->name);
	fprintf(fp, ",%sperf_sample_dict):\n", ++n % 4 ? " " : "\n\t");
	fputs("\t\tprint_header(event_name, common_cpu, common_secs, common_nsecs,\n"
	      "\t\t\tcommon_pid, common_comm)\n\n\t\tprint(\"", fp);
	n = 0;
	for (f = tp->format.fields; f; f = f->next) {
		bool text = (f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_ARRAY)) ||
			formats_field(args, f->name, TEP_PRINT_FLAGS, false) ||
			formats_field(args, f->name, TEP_PRINT_SYMBOL, false);

		fprintf(fp, "%s%s=%%%c", n++ ? ", " : "", f->name, text ? 's' : 'd');
	}
	fputs(n ? "\" % \\\n\t\t(" : "\")\n", fp);
	n = 0;
	for (f = tp->format.fields; f; f = f->next) {
		const char *sep = n++ ? ", " : "";

		if (formats_field(args, f->name, TEP_PRINT_FLAGS, false))
			fprintf(fp, "%sflag_str(\"%s\", \"%s\", %s)", sep, name, f->name, f->name);
		else if (formats_field(args, f->name, TEP_PRINT_SYMBOL, false))
			fprintf(fp, "%ssymbol_str(\"%s\", \"%s\", %s)", sep, name, f->name,
				f->name);
		else
			fprintf(fp, "%s%s", sep, f->name);
	}
	if (n)
		fputs(n == 1 ? ",))\n" : "))\n", fp);
	fputc('\n', fp);
	fputs(callchain_loop, fp);
	free(name);
}

void py_script__generate(FILE *fp, struct perf_session *s)
{
	struct tep_event **events = s->tep ? tep_list_events(s->tep, TEP_EVENT_SORT_ID) : NULL;

	fputs(preamble, fp);
	for (int i = 0; events && events[i]; i++)
		generate_handler(fp, events[i]);
	fputs(helpers, fp);
}

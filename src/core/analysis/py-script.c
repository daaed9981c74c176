/* py-script: perf's Python scripting interface over an embedded CPython.
 * The objects handed to the script are built the way perf 6.1 builds
 * them, so that scripts print the same thing under either tool. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <ctype.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "core/analysis/py-script.h"
#include "core/data/session.h"
#include "core/events/evsel.h"
#include "core/hist/data-src.h"
#include "core/symbols/dso.h"
#include "core/symbols/insn.h"
#include "core/symbols/machine.h"
#include "core/symbols/map.h"
#include "core/symbols/srccode.h"
#include "core/symbols/thread.h"
#include "util/strbuf.h"
#include "util/util.h"

/* the Python sources of the Core, Util and EventClass modules */
static const char core_py[] =
#include "Core.py.inc"
	;
static const char util_py[] =
#include "Util.py.inc"
	;
static const char event_class_py[] =
#include "EventClass.py.inc"
	;

#define MAX_FRAMES 1024

/* What the perf_trace_context functions look at: the sample being
 * handled, passed to the script as an opaque capsule. */
struct py_sample_ctx {
	struct perf_session *session;
	struct evsel *evsel;
	const struct perf_sample *sample;
	struct addr_location *al;
	struct tep_event *tp;
};

/* the sample being handled: one interpreter, one script per process */
static struct py_sample_ctx sample_ctx;
/* the source files perf_sample_srccode() read */
static struct srccode source_files;
/* perf_set_itrace_options() was called: later calls answer 1 */
static bool itrace_options_set;

struct py_script {
	PyObject *main_dict;	/* __main__'s namespace: the handlers */
	PyObject *context;	/* capsule of sample_ctx */
	struct callchain_frame *frames;
	py_reg_name_fn reg_name;
	uint8_t *defined;	/* tracepoints whose flag/symbol tables were handed over,
				 * by evsel index */
	size_t nr_defined;
};

/* LeakSanitizer (the ASan build): CPython keeps some allocations (interned
 * strings, the dict copies of single-phase modules) past Py_FinalizeEx.
 * Weak: a test may bring its own list. */
__attribute__((weak)) const char *__lsan_default_suppressions(void);
__attribute__((weak)) const char *__lsan_default_suppressions(void)
{
	return "leak:libpython3\n";
}

char *py_script__handler_name(const struct tep_event *tp)
{
	return xasprintf("%s__%s", tp->system, tp->name);
}

/* perf hands a char array over as a string when it holds text up to its
 * first NUL and ends in one */
static bool printable_array(const uint8_t *p, uint32_t len)
{
	if (!len || p[len - 1])
		return false;
	for (uint32_t i = 0; i < len && p[i]; i++)
		if (!isprint(p[i]) && !isspace(p[i]))
			return false;
	return true;
}

enum py_field_kind py_script__field(const struct tep_format_field *f, const void *raw,
				    uint32_t raw_size, uint32_t *off, uint32_t *len)
{
	const uint8_t *data = raw;

	if (!(f->flags & TEP_FIELD_IS_ARRAY))
		return PY_FIELD_NUMBER;
	*off = (uint32_t)f->offset;
	*len = (uint32_t)f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc = 0;

		if ((uint32_t)f->offset + 4 <= raw_size)
			memcpy(&loc, data + f->offset, 4);
		*off = loc & 0xffff;
		*len = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			*off += (uint32_t)(f->offset + f->size);
	}
	/* a torn sample: what lies inside its raw data */
	if (*off > raw_size)
		*off = raw_size;
	if (*len > raw_size - *off)
		*len = raw_size - *off;
	if ((f->flags & TEP_FIELD_IS_STRING) && printable_array(data + *off, *len))
		return PY_FIELD_STRING;
	return PY_FIELD_BYTES;
}

bool py_script__number(const struct tep_format_field *f, const void *raw, uint32_t raw_size,
		       uint64_t *value)
{
	const uint8_t *p = (const uint8_t *)raw + f->offset;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;

	*value = 0;
	if ((uint64_t)f->offset + (uint64_t)f->size > raw_size)
		return false;
	switch (f->size) {
	case 1: memcpy(&u8, p, 1); *value = u8; break;
	case 2: memcpy(&u16, p, 2); *value = u16; break;
	case 4: memcpy(&u32, p, 4); *value = u32; break;
	case 8: memcpy(value, p, 8); break;
	default: *value = 0; break;
	}
	return f->size == 8 && (f->flags & TEP_FIELD_IS_SIGNED);
}

/* --- the perf_trace_context module --- */

static struct py_sample_ctx *ctx_of(PyObject *args)
{
	PyObject *capsule;

	if (!PyArg_ParseTuple(args, "O", &capsule))
		return NULL;
	return PyCapsule_GetPointer(capsule, NULL);
}

/* a common field of the sample's tracepoint: 0 when it has none */
static PyObject *common_value(PyObject *args, const char *name)
{
	struct py_sample_ctx *c = ctx_of(args);
	struct tep_format_field *f;
	unsigned long long v = 0;

	if (!c)
		return NULL;
	if (c->tp && c->sample->raw_data && (f = tep_find_common_field(c->tp, name)))
		tep_read_number_field(f, c->sample->raw_data, &v);
	return PyLong_FromLong((long)(int)v);
}

static PyObject *ctx_common_pc(PyObject *self, PyObject *args)
{
	return common_value(args, "common_preempt_count");
}

static PyObject *ctx_common_flags(PyObject *self, PyObject *args)
{
	return common_value(args, "common_flags");
}

static PyObject *ctx_common_lock_depth(PyObject *self, PyObject *args)
{
	return common_value(args, "common_lock_depth");
}

/* the bytes of the sampled instruction (user space: the kernel's image is
 * not read), None when unknown */
static PyObject *ctx_sample_insn(PyObject *self, PyObject *args)
{
	struct py_sample_ctx *c = ctx_of(args);
	uint8_t insn[INSN_MAX_BYTES];
	int len;

	if (!c)
		return NULL;
	len = c->sample->ip && c->al->thread ?
		machine__fetch_insn(c->session->machine, c->al->thread, c->sample->ip, insn) : 0;
	if (!len)
		Py_RETURN_NONE;
	return PyBytes_FromStringAndSize((const char *)insn, len);
}

/* (file, line) of the sampled address, with the line's text when
 * with_code: None and 0 where unknown */
static PyObject *sample_source(PyObject *args, bool with_code)
{
	struct py_sample_ctx *c = ctx_of(args);
	const struct addr_location *al;
	const char *file = NULL, *code = NULL;
	unsigned line = 0;
	int len = 0;

	if (!c)
		return NULL;
	al = c->al;
	if (al->map && al->dso)
		file = dso__srcfile(al->dso, al->addr, &line);
	if (!with_code)
		return Py_BuildValue("(sI)", file, line);
	if (file)
		code = srccode__line(&source_files, file, line, &len);
	return Py_BuildValue("(sIs#)", file, line, code, (Py_ssize_t)(code ? len : 0));
}

static PyObject *ctx_sample_srcline(PyObject *self, PyObject *args)
{
	return sample_source(args, false);
}

static PyObject *ctx_sample_srccode(PyObject *self, PyObject *args)
{
	return sample_source(args, true);
}

/* pcl's files have no AUX-area traces to decode: the options are taken
 * once (0) and refused after that (1), as perf answers */
static PyObject *ctx_set_itrace_options(PyObject *self, PyObject *args)
{
	PyObject *context;
	const char *options;
	int ret = itrace_options_set;

	if (!PyArg_ParseTuple(args, "Os", &context, &options))
		return NULL;
	itrace_options_set = true;
	return PyLong_FromLong(ret);
}

static PyMethodDef context_methods[] = {
	{ "common_pc", ctx_common_pc, METH_VARARGS, "the sample's preempt count" },
	{ "common_flags", ctx_common_flags, METH_VARARGS, "the sample's trace flags" },
	{ "common_lock_depth", ctx_common_lock_depth, METH_VARARGS, "the lock depth" },
	{ "perf_sample_insn", ctx_sample_insn, METH_VARARGS, "the instruction's bytes" },
	{ "perf_set_itrace_options", ctx_set_itrace_options, METH_VARARGS,
	  "no AUX traces: ignored" },
	{ "perf_sample_srcline", ctx_sample_srcline, METH_VARARGS, "(file, line)" },
	{ "perf_sample_srccode", ctx_sample_srccode, METH_VARARGS, "(file, line, text)" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef context_module = {
	PyModuleDef_HEAD_INIT, "perf_trace_context", NULL, -1, context_methods,
	NULL, NULL, NULL, NULL,
};

static PyObject *context_init(void)
{
	PyObject *m = PyModule_Create(&context_module);
	PyObject *capsule = m ? PyCapsule_New(&sample_ctx, NULL, NULL) : NULL;

	if (capsule && PyModule_AddObject(m, "perf_script_context", capsule) < 0) {
		Py_DECREF(capsule);
		Py_CLEAR(m);
	}
	return m;
}

/* Core, Util, EventClass: built-in modules whose code is Python source, run when
 * a script first imports them (Util prints a notice when it loads) */
static PyObject *source_module(PyModuleDef *def, const char *source)
{
	PyObject *m = PyModule_Create(def), *d, *r;

	if (!m)
		return NULL;
	d = PyModule_GetDict(m);
	PyDict_SetItemString(d, "__builtins__", PyEval_GetBuiltins());
	r = PyRun_String(source, Py_file_input, d, d);
	if (!r)
		Py_CLEAR(m);
	Py_XDECREF(r);
	return m;
}

static PyModuleDef core_module = {
	PyModuleDef_HEAD_INIT, "Core", NULL, -1, NULL, NULL, NULL, NULL, NULL,
};
static PyModuleDef util_module = {
	PyModuleDef_HEAD_INIT, "Util", NULL, -1, NULL, NULL, NULL, NULL, NULL,
};
static PyModuleDef event_class_module = {
	PyModuleDef_HEAD_INIT, "EventClass", NULL, -1, NULL, NULL, NULL, NULL, NULL,
};

static PyObject *core_init(void)
{
	return source_module(&core_module, core_py);
}

static PyObject *util_init(void)
{
	return source_module(&util_module, util_py);
}

static PyObject *event_class_init(void)
{
	return source_module(&event_class_module, event_class_py);
}

/* --- building the handlers' arguments --- */

/* d[key] = v, v's reference taken */
static void set_item(PyObject *d, const char *key, PyObject *v)
{
	PyDict_SetItemString(d, key, v);
	Py_DECREF(v);
}

/* perf's "dso" / "dso_bid" / ... / "symoff" entries of a location, the
 * keys prefixed ("addr_" for the sample's data address) */
static void set_location(PyObject *d, const struct addr_location *al, const char *prefix)
{
	static const char *const keys[] = {
		"dso", "dso_bid", "dso_map_start", "dso_map_end", "symbol", "symoff",
	};
	PyObject *values[ARRAY_SIZE(keys)] = { NULL };

	if (al->map && al->dso) {
		char bid[41] = "";

		for (int i = 0; i < al->dso->build_id_size && i < 20; i++)
			sprintf(bid + 2 * i, "%02x", al->dso->build_id[i]);
		values[0] = PyUnicode_FromString(al->dso->long_name);
		values[1] = PyUnicode_FromString(bid);
		values[2] = PyLong_FromUnsignedLongLong(al->map->start);
		values[3] = PyLong_FromUnsignedLongLong(al->map->end);
	}
	if (al->sym) {
		values[4] = PyUnicode_FromString(al->sym->name);
		values[5] = PyLong_FromUnsignedLongLong(al->addr - al->sym->start);
	}
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		char *key = xasprintf("%s%s", prefix, keys[i]);

		if (values[i])
			set_item(d, key, values[i]);
		free(key);
	}
}

/* perf resolves the data address of page faults and BTS branches */
static bool addr_correlates_sym(const struct perf_event_attr *a)
{
	if (!(a->sample_type & PERF_SAMPLE_ADDR))
		return false;
	if (a->type == PERF_TYPE_SOFTWARE)
		return a->config == PERF_COUNT_SW_PAGE_FAULTS ||
		       a->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		       a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ;
	return a->type == PERF_TYPE_HARDWARE && !a->freq && a->sample_period == 1 &&
	       a->config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS;
}

static PyObject *callchain_list(struct py_script *ps, int max_stack)
{
	struct py_sample_ctx *c = &sample_ctx;
	PyObject *list = PyList_New(0);
	int n;

	if (!(c->evsel->attr.sample_type & PERF_SAMPLE_CALLCHAIN) || !c->al->thread)
		return list;
	n = perf_session__resolve_callchain(c->session, c->evsel, c->sample, c->al->thread,
					    max_stack, ps->frames, MAX_FRAMES);
	for (int i = 0; i < n; i++) {
		const struct addr_location *al = &ps->frames[i].al;
		PyObject *node = PyDict_New();

		set_item(node, "ip", PyLong_FromUnsignedLongLong(ps->frames[i].ip));
		if (al->sym) {
			PyObject *sym = PyDict_New();

			set_item(sym, "start", PyLong_FromUnsignedLongLong(al->sym->start));
			set_item(sym, "end", PyLong_FromUnsignedLongLong(al->sym->end));
			set_item(sym, "binding", PyLong_FromLong(al->sym->binding));
			set_item(sym, "name", PyUnicode_FromString(al->sym->name));
			set_item(node, "sym", sym);
			set_item(node, "sym_off",
				 PyLong_FromUnsignedLongLong(al->addr - al->sym->start));
		}
		if (al->map && al->dso)
			set_item(node, "dso", PyUnicode_FromString(al->dso->long_name));
		PyList_Append(list, node);
		Py_DECREF(node);
	}
	return list;
}

/* perf's "|OP ...|LVL ...|SNP ...|TLB ...|LCK ...|BLK ..." */
static PyObject *datasrc_words(uint64_t raw)
{
	static const char *const ops[] = { "N/A", "LOAD", "STORE", "PFETCH", "EXEC" };
	struct strbuf sb = STRBUF_INIT;
	struct data_src d;
	PyObject *s;
	bool any = false;

	data_src__decode(raw, &d);
	strbuf_addstr(&sb, "|OP ");
	for (unsigned i = 1; i < ARRAY_SIZE(ops); i++) {
		if (d.op & (1u << i)) {
			strbuf_addf(&sb, "%s%s", any ? " or " : "", ops[i]);
			any = true;
		}
	}
	if (!any)
		strbuf_addstr(&sb, "N/A");
	strbuf_addstr(&sb, "|LVL ");
	data_src__mem(&sb, raw, true);
	strbuf_addstr(&sb, "|SNP ");
	data_src__snoop(&sb, raw, true);
	strbuf_addstr(&sb, "|TLB ");
	data_src__tlb(&sb, raw, true);
	strbuf_addstr(&sb, "|LCK ");
	data_src__locked(&sb, raw, true);
	strbuf_addstr(&sb, "|BLK ");
	data_src__blocked(&sb, raw, true);
	s = PyUnicode_FromString(sb.buf);
	strbuf_release(&sb);
	return s;
}

static PyObject *read_values(const struct perf_sample *sample)
{
	PyObject *list = PyList_New(0);
	uint64_t nr = sample->read.nr && sample->read.values ? sample->read.nr : 0;

	if (!nr) {
		PyObject *t = Py_BuildValue("(KKK)", (unsigned long long)sample->read.one.id,
					    (unsigned long long)sample->read.one.value,
					    (unsigned long long)sample->read.one.lost);

		PyList_Append(list, t);
		Py_DECREF(t);
		return list;
	}
	for (uint64_t i = 0; i < nr; i++) {
		const uint64_t *v = sample->read.values + i * (uint64_t)sample->read.stride;
		PyObject *t = Py_BuildValue("(KKK)", (unsigned long long)(sample->read.stride > 1 ?
						v[1] : 0), (unsigned long long)v[0],
					    (unsigned long long)(sample->read.stride > 2 ? v[2] : 0));

		PyList_Append(list, t);
		Py_DECREF(t);
	}
	return list;
}

/* perf's "dso" of a branch end: the map's DSO or "[unknown]" */
static PyObject *branch_dso(uint64_t addr)
{
	struct addr_location al = { 0 };

	machine__find_map_fb(sample_ctx.session->machine, sample_ctx.al->thread,
			     sample_ctx.sample->cpumode, addr, &al);
	return PyUnicode_FromString(al.map && al.dso ? al.dso->long_name : "[unknown]");
}

/* perf's "sym+0xoff" of a branch end ("[unknown]" without a symbol) */
static PyObject *branch_sym(uint64_t addr)
{
	struct addr_location al = { 0 };
	PyObject *name;
	uint64_t off;
	char *text;

	machine__find_symbol_fb(sample_ctx.session->machine, sample_ctx.al->thread,
				sample_ctx.sample->cpumode, addr, &al);
	if (!al.sym || !al.sym->name[0])
		return PyUnicode_FromString("[unknown]");
	/* perf prints the offset's low 32 bits, +0x0 included */
	off = al.addr - al.sym->start;
	text = xasprintf("%s+0x%x", al.sym->name, (unsigned)off);
	name = PyUnicode_FromString(text);
	free(text);
	return name;
}

/* the sample's branch stack, as perf's brstack and brstacksym lists */
static void branch_lists(PyObject *d)
{
	const struct perf_sample *sample = sample_ctx.sample;
	PyObject *plain = PyList_New(0), *syms = PyList_New(0);

	for (uint64_t i = 0; sample->branch_entries && sample_ctx.al->thread &&
	     i < sample->branch_nr; i++) {
		const struct perf_branch_entry *e = &sample->branch_entries[i];
		PyObject *b = PyDict_New(), *bs = PyDict_New();

		set_item(b, "from", PyLong_FromUnsignedLongLong(e->from));
		set_item(b, "to", PyLong_FromUnsignedLongLong(e->to));
		set_item(b, "mispred", PyBool_FromLong(e->mispred));
		set_item(b, "predicted", PyBool_FromLong(e->predicted));
		set_item(b, "in_tx", PyBool_FromLong(e->in_tx));
		set_item(b, "abort", PyBool_FromLong(e->abort));
		set_item(b, "cycles", PyLong_FromUnsignedLong(e->cycles));
		set_item(b, "from_dsoname", branch_dso(e->from));
		set_item(b, "to_dsoname", branch_dso(e->to));
		PyList_Append(plain, b);
		Py_DECREF(b);
		set_item(bs, "from", branch_sym(e->from));
		set_item(bs, "to", branch_sym(e->to));
		set_item(bs, "pred", PyUnicode_FromString(e->mispred ? "M" :
							  e->predicted ? "P" : "-"));
		set_item(bs, "in_tx", PyUnicode_FromString(e->in_tx ? "X" : "-"));
		set_item(bs, "abort", PyUnicode_FromString(e->abort ? "A" : "-"));
		PyList_Append(syms, bs);
		Py_DECREF(bs);
	}
	set_item(d, "brstack", plain);
	set_item(d, "brstacksym", syms);
}

/* perf's "   AX:0x1    BX:0x2 " of a register set */
static PyObject *regs_text(struct py_script *ps, uint64_t mask, const uint64_t *regs)
{
	struct strbuf sb = STRBUF_INIT;
	PyObject *s;
	int i = 0;

	for (int bit = 0; regs && bit < 64; bit++)
		if (mask & (1ULL << bit))
			strbuf_addf(&sb, "%5s:0x%" PRIx64 " ", ps->reg_name(bit), regs[i++]);
	s = PyUnicode_FromString(sb.buf ? sb.buf : "");
	strbuf_release(&sb);
	return s;
}

static const char *comm_of(const struct addr_location *al)
{
	return al->thread && al->thread->comm ? al->thread->comm : "";
}

/* perf_sample_dict / process_event's param_dict */
static PyObject *sample_dict(struct py_script *ps, PyObject *callchain)
{
	const struct perf_sample *sample = sample_ctx.sample;
	struct evsel *evsel = sample_ctx.evsel;
	PyObject *d = PyDict_New(), *sd = PyDict_New();
	uint64_t data_src = (evsel->attr.sample_type & PERF_SAMPLE_DATA_SRC) ?
		sample->data_src : 0x5080021;	/* perf's "nothing known" source */

	set_item(d, "ev_name", PyUnicode_FromString(evsel->name ? evsel->name : ""));
	set_item(d, "attr", PyBytes_FromStringAndSize((const char *)&evsel->attr,
						      sizeof(evsel->attr)));
	set_item(sd, "pid", PyLong_FromUnsignedLong(sample->pid));
	set_item(sd, "tid", PyLong_FromUnsignedLong(sample->tid));
	set_item(sd, "cpu", PyLong_FromUnsignedLong(sample->cpu));
	set_item(sd, "ip", PyLong_FromUnsignedLongLong(sample->ip));
	set_item(sd, "time", PyLong_FromUnsignedLongLong(sample->time));
	set_item(sd, "period", PyLong_FromUnsignedLongLong(sample->period));
	set_item(sd, "phys_addr", PyLong_FromUnsignedLongLong(sample->phys_addr));
	set_item(sd, "addr", PyLong_FromUnsignedLongLong(sample->addr));
	set_item(sd, "values", read_values(sample));
	set_item(sd, "weight", PyLong_FromUnsignedLongLong(sample->weight));
	set_item(sd, "transaction", PyLong_FromUnsignedLongLong(sample->transaction));
	set_item(sd, "datasrc", PyLong_FromUnsignedLongLong(data_src));
	set_item(sd, "datasrc_decode", datasrc_words(data_src));
	set_item(sd, "cpumode", PyLong_FromLong(sample->cpumode));
	if (addr_correlates_sym(&evsel->attr) && sample_ctx.al->thread) {
		struct addr_location addr_al = { 0 };

		machine__find_symbol_fb(sample_ctx.session->machine, sample_ctx.al->thread,
					sample->cpumode, sample->addr, &addr_al);
		set_item(sd, "addr_correlates_sym", PyBool_FromLong(1));
		set_location(sd, &addr_al, "addr_");
	}
	set_item(d, "sample", sd);
	set_item(d, "raw_buf", PyBytes_FromStringAndSize(sample->raw_data,
							 sample->raw_data ? sample->raw_size : 0));
	set_item(d, "comm", PyUnicode_FromString(comm_of(sample_ctx.al)));
	set_location(d, sample_ctx.al, "");
	PyDict_SetItemString(d, "callchain", callchain);
	branch_lists(d);
	set_item(d, "iregs", regs_text(ps, evsel->attr.sample_regs_intr, sample->intr_regs.regs));
	set_item(d, "uregs", regs_text(ps, evsel->attr.sample_regs_user, sample->user_regs.regs));
	return d;
}

/* a tracepoint field's value, typed as perf types it */
static PyObject *field_value(const struct tep_format_field *f, const struct perf_sample *sample)
{
	const char *raw = sample->raw_data;
	uint32_t off = 0, len = 0;
	uint64_t v;

	switch (py_script__field(f, raw, sample->raw_size, &off, &len)) {
	case PY_FIELD_STRING:
		return PyUnicode_FromString(raw + off);
	case PY_FIELD_BYTES:
		return PyByteArray_FromStringAndSize(raw + off, len);
	case PY_FIELD_NUMBER:
		break;
	}
	if (py_script__number(f, raw, sample->raw_size, &v))
		return PyLong_FromLongLong((long long)v);
	return PyLong_FromUnsignedLongLong(v);
}

/* A function of the script's, or NULL. */
static PyObject *handler(struct py_script *ps, const char *name)
{
	PyObject *h = PyDict_GetItemString(ps->main_dict, name);

	return h && PyCallable_Check(h) ? h : NULL;
}

static int handler_arg_count(PyObject *h)
{
	PyObject *code = PyObject_GetAttrString(h, "__code__");
	PyObject *n = code ? PyObject_GetAttrString(code, "co_argcount") : NULL;
	long count = n ? PyLong_AsLong(n) : -1;

	Py_XDECREF(n);
	Py_XDECREF(code);
	PyErr_Clear();
	return (int)count;
}

/* Calls h(*args), args' reference taken: 0, or -1 with the traceback
 * printed. */
static int call(PyObject *h, PyObject *args)
{
	PyObject *r = PyObject_CallObject(h, args);

	Py_DECREF(args);
	if (!r) {
		PyErr_Print();
		fflush(stdout);
		fprintf(stderr, "pcl script: problem in Python trace event handler\n");
		return -1;
	}
	Py_DECREF(r);
	return 0;
}

/* Calls the script's name(*args) if it has it (args' reference taken). */
static int try_call(struct py_script *ps, const char *name, PyObject *args)
{
	PyObject *h = handler(ps, name);

	if (!h) {
		Py_DECREF(args);
		return 0;
	}
	return call(h, args);
}

/* perf tells the script the tables of the tracepoint's print format
 * (__print_flags, __print_symbolic) through Core's define_* functions */
static int define_symbols(struct py_script *ps, const char *ev, struct tep_print_arg *arg,
			  const char **field)
{
	struct tep_print_flag_sym *sym;

	for (; arg; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_FIELD:
			*field = arg->field.name;
			break;
		case TEP_PRINT_FLAGS:
			if (define_symbols(ps, ev, arg->flags.field, field) ||
			    try_call(ps, "define_flag_field",
				     Py_BuildValue("(sss)", ev, *field, arg->flags.delim)))
				return -1;
			for (sym = arg->flags.flags; sym; sym = sym->next)
				if (try_call(ps, "define_flag_value",
					     Py_BuildValue("(ssks)", ev, *field,
							   strtoul(sym->value, NULL, 0), sym->str)))
					return -1;
			break;
		case TEP_PRINT_SYMBOL:
			if (define_symbols(ps, ev, arg->symbol.field, field) ||
			    try_call(ps, "define_symbolic_field", Py_BuildValue("(ss)", ev, *field)))
				return -1;
			for (sym = arg->symbol.symbols; sym; sym = sym->next)
				if (try_call(ps, "define_symbolic_value",
					     Py_BuildValue("(ssks)", ev, *field,
							   strtoul(sym->value, NULL, 0), sym->str)))
					return -1;
			break;
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			if (define_symbols(ps, ev, arg->hex.field, field) ||
			    define_symbols(ps, ev, arg->hex.size, field))
				return -1;
			break;
		case TEP_PRINT_INT_ARRAY:
			if (define_symbols(ps, ev, arg->int_array.field, field) ||
			    define_symbols(ps, ev, arg->int_array.count, field) ||
			    define_symbols(ps, ev, arg->int_array.el_size, field))
				return -1;
			break;
		case TEP_PRINT_TYPE:
			if (define_symbols(ps, ev, arg->typecast.item, field))
				return -1;
			break;
		case TEP_PRINT_OP:
			if (define_symbols(ps, ev, arg->op.left, field) ||
			    define_symbols(ps, ev, arg->op.right, field))
				return -1;
			break;
		default:
			break;
		}
	}
	return 0;
}

static int define_once(struct py_script *ps, const struct evsel *evsel, struct tep_event *tp,
		       const char *name)
{
	const char *field = "";

	if ((size_t)evsel->idx >= ps->nr_defined) {
		size_t n = (size_t)evsel->idx + 16;

		ps->defined = xrealloc(ps->defined, n);
		memset(ps->defined + ps->nr_defined, 0, n - ps->nr_defined);
		ps->nr_defined = n;
	}
	if (ps->defined[evsel->idx])
		return 0;
	ps->defined[evsel->idx] = 1;
	return define_symbols(ps, name, tp->print_fmt.args, &field);
}

/* list.append(v), v's reference taken */
static void append(PyObject *list, PyObject *v)
{
	PyList_Append(list, v);
	Py_DECREF(v);
}

/* The common values of a tracepoint sample, as perf takes them: the
 * time split in seconds and nanoseconds, the pid from the raw data. */
struct tp_common {
	unsigned long cpu, secs, nsecs;
	int pid;
	const char *comm;
};

/* SYSTEM__EVENT's arguments after event_name and context */
static void handler_args(struct py_script *ps, PyObject *args, PyObject *h,
			 const struct tp_common *c, struct tep_event *tp, PyObject *callchain)
{
	append(args, PyLong_FromUnsignedLong(c->cpu));
	append(args, PyLong_FromUnsignedLong(c->secs));
	append(args, PyLong_FromUnsignedLong(c->nsecs));
	append(args, PyLong_FromLong(c->pid));
	append(args, PyUnicode_FromString(c->comm));
	PyList_Append(args, callchain);
	for (struct tep_format_field *f = tp->format.fields; f; f = f->next)
		append(args, field_value(f, sample_ctx.sample));
	/* perf_sample_dict goes to handlers that take one argument more */
	if (handler_arg_count(h) == (int)PyList_Size(args) + 1)
		append(args, sample_dict(ps, callchain));
}

/* trace_unhandled's arguments after event_name and context */
static void unhandled_args(struct py_script *ps, PyObject *args, const struct tp_common *c,
			   struct tep_event *tp, PyObject *callchain)
{
	PyObject *fields = PyDict_New();

	set_item(fields, "common_cpu", PyLong_FromUnsignedLong(c->cpu));
	set_item(fields, "common_s", PyLong_FromUnsignedLong(c->secs));
	set_item(fields, "common_ns", PyLong_FromUnsignedLong(c->nsecs));
	set_item(fields, "common_pid", PyLong_FromLong(c->pid));
	set_item(fields, "common_comm", PyUnicode_FromString(c->comm));
	PyDict_SetItemString(fields, "common_callchain", callchain);
	for (struct tep_format_field *f = tp->format.fields; f; f = f->next)
		set_item(fields, f->name, field_value(f, sample_ctx.sample));
	append(args, fields);
	append(args, sample_dict(ps, callchain));
}

static int tracepoint_sample(struct py_script *ps, struct tep_event *tp, int max_stack)
{
	const struct perf_sample *sample = sample_ctx.sample;
	struct tep_format_field *common_pid = tep_find_common_field(tp, "common_pid");
	unsigned long long pid = 0;
	char *name = py_script__handler_name(tp);
	PyObject *h, *args, *callchain;
	struct tp_common c;
	bool unhandled;
	int ret = 0;

	if (define_once(ps, sample_ctx.evsel, tp, name) < 0) {
		free(name);
		return -1;
	}
	h = handler(ps, name);
	unhandled = !h;
	if (unhandled && !(h = handler(ps, "trace_unhandled")))
		goto out;
	if (common_pid)
		tep_read_number_field(common_pid, sample->raw_data, &pid);
	c = (struct tp_common){ sample->cpu, (unsigned long)(sample->time / 1000000000),
				(unsigned long)(sample->time % 1000000000), (int)pid,
				comm_of(sample_ctx.al) };
	callchain = callchain_list(ps, max_stack);
	args = PyList_New(0);
	append(args, PyUnicode_FromString(name));
	PyList_Append(args, ps->context);
	if (unhandled)
		unhandled_args(ps, args, &c, tp, callchain);
	else
		handler_args(ps, args, h, &c, tp, callchain);
	Py_DECREF(callchain);
	ret = call(h, PyList_AsTuple(args));
	Py_DECREF(args);
out:
	free(name);
	return ret;
}

int py_script__sample(struct py_script *ps, struct perf_session *s, struct evsel *evsel,
		      const struct perf_sample *sample, struct addr_location *al,
		      int max_stack)
{
	struct session_event *se = perf_session__event(s, evsel);
	PyObject *h, *callchain, *d;

	sample_ctx = (struct py_sample_ctx){ s, evsel, sample, al, se ? se->tp_format : NULL };
	if (evsel->attr.type == PERF_TYPE_TRACEPOINT) {
		if (!sample_ctx.tp || !sample->raw_data)
			return 0;
		return tracepoint_sample(ps, sample_ctx.tp, max_stack);
	}
	if (!(h = handler(ps, "process_event")))
		return 0;
	callchain = callchain_list(ps, max_stack);
	d = sample_dict(ps, callchain);
	Py_DECREF(callchain);
	return call(h, Py_BuildValue("(N)", d));
}

int py_script__switch(struct py_script *ps, const struct perf_event_header *rec,
		      const struct perf_sample *sample)
{
	const struct perf_rec_switch *sw = (const void *)rec;
	bool out = rec->misc & PERF_RECORD_MISC_SWITCH_OUT;
	bool cpu_wide = rec->type == PERF_RECORD_SWITCH_CPU_WIDE;
	PyObject *h = handler(ps, "context_switch");

	if (!h)
		return 0;
	/* the machine's pid is the host's, -1 (perf's HOST_KERNEL_ID); the
	 * trailing two are the sample's guest machine pid and vcpu: none */
	return call(h, Py_BuildValue("(KiiiiiiNNii)", (unsigned long long)sample->time,
				     (int)sample->cpu, (int)sample->pid, (int)sample->tid,
				     cpu_wide ? (int)sw->next_prev_pid : -1,
				     cpu_wide ? (int)sw->next_prev_tid : -1, -1,
				     PyBool_FromLong(out),
				     PyBool_FromLong(out && (rec->misc &
							     PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)),
				     0, -1));
}

/* perf puts the script's directory first on sys.path, as python3 does */
static void prepend_script_dir(const char *path)
{
	char *real = realpath(path, NULL);
	PyObject *sys_path = PySys_GetObject("path");
	PyObject *dir;

	if (!real || !sys_path) {
		free(real);
		return;
	}
	dir = PyUnicode_FromString(dirname(real));
	PyList_Insert(sys_path, 0, dir);
	Py_DECREF(dir);
	free(real);
}

struct py_script *py_script__start(const char *path, int argc, const char **argv,
				   py_reg_name_fn reg_name)
{
	struct py_script *ps;
	PyConfig config;
	PyStatus status;
	PyObject *main_module;
	FILE *fp = fopen(path, "r");
	char **args;

	if (!fp) {
		fprintf(stderr, "Can't open python script \"%s\"\n", path);
		return NULL;
	}
	/* scripts find Core and Util beside perf's own scripts through it */
	setenv("PERF_EXEC_PATH", "/usr/lib/pcl", 0);
	args = xcalloc((size_t)argc + 2, sizeof(*args));
	args[0] = (char *)path;
	for (int i = 0; i < argc; i++)
		args[i + 1] = (char *)argv[i];
	PyImport_AppendInittab("perf_trace_context", context_init);
	PyImport_AppendInittab("Core", core_init);
	PyImport_AppendInittab("Util", util_init);
	PyImport_AppendInittab("EventClass", event_class_init);
	PyConfig_InitPythonConfig(&config);
	config.parse_argv = 0;
	config.install_signal_handlers = 0;
	status = PyConfig_SetBytesArgv(&config, argc + 1, args);
	free(args);
	if (!PyStatus_Exception(status))
		status = Py_InitializeFromConfig(&config);
	PyConfig_Clear(&config);
	if (PyStatus_Exception(status)) {
		fprintf(stderr, "pcl script: cannot start Python: %s\n",
			status.err_msg ? status.err_msg : "unknown error");
		fclose(fp);
		return NULL;
	}
	ps = xcalloc(1, sizeof(*ps));
	ps->frames = xcalloc(MAX_FRAMES, sizeof(*ps->frames));
	ps->reg_name = reg_name;
	ps->context = PyCapsule_New(&sample_ctx, NULL, NULL);
	main_module = PyImport_AddModule("__main__");
	ps->main_dict = PyModule_GetDict(main_module);
	prepend_script_dir(path);
	if (PyRun_SimpleFileEx(fp, path, 1)) {
		fprintf(stderr, "Error running python script %s\n", path);
		py_script__delete(ps);
		return NULL;
	}
	return ps;
}

int py_script__begin(struct py_script *ps)
{
	return try_call(ps, "trace_begin", PyTuple_New(0));
}

int py_script__end(struct py_script *ps)
{
	return try_call(ps, "trace_end", PyTuple_New(0));
}

void py_script__delete(struct py_script *ps)
{
	if (!ps)
		return;
	fflush(stdout);
	Py_XDECREF(ps->context);
	Py_FinalizeEx();
	srccode__release(&source_files);
	free(ps->frames);
	free(ps->defined);
	free(ps);
}

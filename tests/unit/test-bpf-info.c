/* Unit tests for core/data/bpf-info: the BPF programs and BTF of a
 * recording's header, and the names perf gives their functions. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <linux/bpf.h>

#include "core/data/bpf-info.h"
#include "core/data/data-cursor.h"
#include "util/strbuf.h"

static void put(struct strbuf *sb, const void *p, size_t n)
{
	strbuf_add(sb, p, n);
}

static void put_u32(struct strbuf *sb, uint32_t v)
{
	put(sb, &v, sizeof(v));
}

/* BTF of "int", "void *", "int (void *ctx)" and a FUNC per name. */
static void put_btf(struct strbuf *sb, const char *const *names, int n)
{
	struct strbuf types = STRBUF_INIT, strings = STRBUF_INIT;
	uint32_t head[6];

	put(&strings, "\0int\0ctx\0", 9);
	put(&types, (uint32_t[]){ 1, 1u << 24, 4, 1u << 24 | 32 }, 16);
	put(&types, (uint32_t[]){ 0, 2u << 24, 0 }, 12);
	put(&types, (uint32_t[]){ 0, 13u << 24 | 1, 1, 5, 2 }, 20);
	for (int i = 0; i < n; i++) {
		put(&types, (uint32_t[]){ (uint32_t)strings.len, 12u << 24, 3 }, 12);
		put(&strings, names[i], strlen(names[i]) + 1);
	}
	head[0] = 0xeB9F | 1u << 16;	/* magic, version 1, flags 0 */
	head[1] = 24;
	head[2] = 0;
	head[3] = (uint32_t)types.len;
	head[4] = (uint32_t)types.len;
	head[5] = (uint32_t)strings.len;
	put(sb, head, sizeof(head));
	put(sb, types.buf, types.len);
	put(sb, strings.buf, strings.len);
	strbuf_release(&types);
	strbuf_release(&strings);
}

/* One program as perf writes it: its functions' addresses, lengths, tags
 * and (with btf_id) func_info, their fields offsets into the arrays. */
static void put_prog(struct strbuf *sb, uint32_t id, const char *name, uint32_t nr,
		     uint32_t btf_id, uint32_t nr_tags)
{
	struct bpf_prog_info info = { 0 };
	struct strbuf data = STRBUF_INIT;
	uint64_t mask = 1u << 3 | 1u << 4 | 1u << 5 | 1u << 8;

	info.id = id;
	strncpy((char *)info.name, name, sizeof(info.name) - 1);
	info.btf_id = btf_id;
	info.nr_jited_ksyms = info.nr_jited_func_lens = nr;
	info.nr_prog_tags = nr_tags;
	info.jited_ksyms = data.len;
	for (uint32_t i = 0; i < nr; i++)
		put(&data, (uint64_t[]){ 0xffffffffc0001000ull + 0x100 * i }, 8);
	info.jited_func_lens = data.len;
	for (uint32_t i = 0; i < nr; i++)
		put_u32(&data, 20 + i);
	info.prog_tags = data.len;
	for (uint32_t i = 0; i < nr_tags; i++)
		put(&data, (uint8_t[BPF_PROG_TAG_LEN]){ 0xab, 0xcd, 0, 0, 0, 0, 0, (uint8_t)i }, 8);
	if (btf_id) {
		info.func_info = data.len;
		info.nr_func_info = nr;
		info.func_info_rec_size = 8;
		for (uint32_t i = 0; i < nr; i++)
			put(&data, (uint32_t[]){ 3 * i, 4 + i }, 8);
	}
	put_u32(sb, sizeof(info));
	put_u32(sb, (uint32_t)data.len);
	put(sb, &mask, sizeof(mask));
	put(sb, &info, sizeof(info));
	put(sb, data.buf, data.len);
	strbuf_release(&data);
}

static void test_names_as_perf(void **state)
{
	static const char *const funcs[] = { "main_fn", "sub_fn" };
	struct strbuf progs = STRBUF_INIT, btfs = STRBUF_INIT, blob = STRBUF_INIT;
	struct bpf_prog_desc *p;
	struct bpf_btf_desc *b;
	uint32_t np, nb;
	struct data_cursor c;
	char name[128];

	(void)state;
	put_u32(&progs, 4);	/* out of id order, as perf may write them */
	put_prog(&progs, 9, "with_btf", 2, 77, 2);
	put_prog(&progs, 3, "lone", 1, 0, 1);
	put_prog(&progs, 5, "two", 2, 0, 2);
	put_prog(&progs, 7, "badtags", 2, 0, 1);
	data_cursor__init(&c, progs.buf, progs.len, false);
	assert_true(bpf_prog_descs__parse(&c, &p, &np));
	put_btf(&blob, funcs, 2);
	put_u32(&btfs, 1);
	put_u32(&btfs, 77);
	put_u32(&btfs, (uint32_t)blob.len);
	put(&btfs, blob.buf, blob.len);
	data_cursor__init(&c, btfs.buf, btfs.len, false);
	assert_true(bpf_btf_descs__parse(&c, &b, &nb));

	assert_int_equal(np, 4);
	assert_int_equal(nb, 1);
	assert_int_equal(p[0].id, 3);
	assert_int_equal(p[0].nr_funcs, 1);
	assert_int_equal(p[0].addrs[0], 0xffffffffc0001000ull);
	assert_int_equal(p[0].lens[0], 20);
	bpf_prog_desc__func_name(&p[0], 0, b, nb, name, sizeof(name));
	assert_string_equal(name, "bpf_prog_abcd000000000000_lone");
	bpf_prog_desc__func_name(&p[1], 1, b, nb, name, sizeof(name));
	assert_string_equal(name, "bpf_prog_abcd000000000001_F");
	assert_int_equal(p[2].nr_funcs, 0);	/* 2 functions, 1 tag: perf shows none */
	assert_int_equal(p[3].id, 9);
	bpf_prog_desc__func_name(&p[3], 1, b, nb, name, sizeof(name));
	assert_string_equal(name, "bpf_prog_abcd000000000001_sub_fn");
	/* the program's BTF missing from the file: its own name rules */
	bpf_prog_desc__func_name(&p[3], 0, NULL, 0, name, sizeof(name));
	assert_string_equal(name, "bpf_prog_abcd000000000000_F");
	assert_string_equal(btf__type_name(b[0].data, b[0].size, 1), "int");
	assert_null(btf__type_name(b[0].data, b[0].size, 6));
	assert_null(btf__type_name(b[0].data, b[0].size - 30, 5));
	bpf_prog_descs__free(p, np);
	bpf_btf_descs__free(b, nb);
	strbuf_release(&progs);
	strbuf_release(&btfs);
	strbuf_release(&blob);
}

/* A truncated payload is refused, nothing kept; arrays pointing outside
 * the data make the program shown as nothing. */
static void test_damaged(void **state)
{
	struct strbuf progs = STRBUF_INIT;
	struct bpf_prog_desc *p;
	uint32_t np;
	struct data_cursor c;

	(void)state;
	put_u32(&progs, 1);
	put_prog(&progs, 3, "lone", 1, 0, 1);
	data_cursor__init(&c, progs.buf, progs.len - 1, false);
	assert_false(bpf_prog_descs__parse(&c, &p, &np));
	assert_null(p);
	assert_int_equal(np, 0);
	/* jited_ksyms' offset beyond the data */
	memcpy(progs.buf + 16 + offsetof(struct bpf_prog_info, jited_ksyms),
	       &(uint64_t){ 1u << 20 }, 8);
	data_cursor__init(&c, progs.buf, progs.len, false);
	assert_true(bpf_prog_descs__parse(&c, &p, &np));
	assert_int_equal(np, 1);
	assert_int_equal(p[0].nr_funcs, 0);
	bpf_prog_descs__free(p, np);
	strbuf_release(&progs);
}

static void add_prog(struct bpf_env *env, uint32_t id, const char *name)
{
	struct strbuf one = STRBUF_INIT;
	uint32_t len;

	put_prog(&one, id, name, 1, 0, 1);
	len = (uint32_t)one.len;
	bpf_env__add_prog(env, id, (uint8_t *)strbuf_detach(&one), len);
}

/* What record gathers (programs and BTF in any order, twice some) is
 * written by id, one of each, and reads back as perf would read it. */
static void test_env_written_by_id(void **state)
{
	static const char *const funcs[] = { "main_fn" };
	struct strbuf one = STRBUF_INIT, sb = STRBUF_INIT;
	struct bpf_env env = { 0 };
	struct bpf_prog_desc *p, d;
	struct bpf_btf_desc *b;
	struct data_cursor c;
	uint32_t np, nb, len;

	(void)state;
	bpf_env__write_progs(NULL, &sb);
	bpf_env__write_btfs(&env, &sb);
	assert_int_equal(sb.len, 8);	/* two zero counts */
	assert_memory_equal(sb.buf, "\0\0\0\0\0\0\0\0", 8);
	strbuf_reset(&sb);
	for (uint32_t id = 9; id >= 3; id -= 3)
		add_prog(&env, id, "lone");
	add_prog(&env, 6, "again");	/* known: dropped */
	assert_true(bpf_env__has_prog(&env, 3));
	assert_false(bpf_env__has_prog(&env, 4));
	put_btf(&one, funcs, 1);
	len = (uint32_t)one.len;
	bpf_env__add_btf(&env, 12, (uint8_t *)strbuf_detach(&one), len);
	put_btf(&one, funcs, 1);
	bpf_env__add_btf(&env, 2, (uint8_t *)strbuf_detach(&one), 24);	/* its header only */
	assert_true(bpf_env__has_btf(&env, 12));
	assert_false(bpf_env__has_btf(&env, 7));

	bpf_env__write_progs(&env, &sb);
	data_cursor__init(&c, sb.buf, sb.len, false);
	assert_true(bpf_prog_descs__parse(&c, &p, &np));
	assert_int_equal(data_cursor__left(&c), 0);
	assert_int_equal(np, 3);
	assert_int_equal(p[0].id, 3);
	assert_int_equal(p[1].id, 6);
	assert_string_equal(p[1].name, "lone");
	assert_int_equal(p[2].id, 9);
	assert_int_equal(p[2].nr_funcs, 1);
	bpf_prog_descs__free(p, np);
	assert_true(bpf_prog_desc__from_entry(env.progs[0].bytes, env.progs[0].len, &d));
	assert_int_equal(d.id, 3);
	assert_int_equal(d.tag[0], 0);
	assert_true(d.addrs[0] == 0xffffffffc0001000ull);
	bpf_prog_desc__release(&d);
	assert_false(bpf_prog_desc__from_entry(env.progs[0].bytes, 20, &d));
	assert_int_equal(d.nr_funcs, 0);

	strbuf_reset(&sb);
	bpf_env__write_btfs(&env, &sb);
	data_cursor__init(&c, sb.buf, sb.len, false);
	assert_true(bpf_btf_descs__parse(&c, &b, &nb));
	assert_int_equal(nb, 2);
	assert_int_equal(b[0].id, 2);
	assert_int_equal(b[0].size, 24);
	assert_int_equal(b[1].id, 12);
	assert_string_equal(btf__type_name(b[1].data, b[1].size, 4), "main_fn");
	bpf_btf_descs__free(b, nb);
	bpf_env__free(&env);
	assert_int_equal(env.nr_progs, 0);
	strbuf_release(&sb);
	strbuf_release(&one);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_as_perf),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_env_written_by_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

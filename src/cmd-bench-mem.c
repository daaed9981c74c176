/* pcl bench mem memcpy|memset: bandwidth of glibc's memcpy()/memset() and of the x86-64
 * kernel's three strategies (an unrolled loop, rep movsq/stosq, rep movsb/stosb), timed as
 * perf 6.1 times them: one call to fault the pages in, then -l calls between two
 * gettimeofday() readings. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cmd-bench.h"
#include "util/exit-codes.h"
#include "util/parse-options.h"

typedef void *(*memcpy_fn)(void *dst, const void *src, size_t size);
typedef void *(*memset_fn)(void *dst, int c, size_t size);

struct mem_function {
	const char *name;
	const char *desc;
	memcpy_fn copy;
	memset_fn set;
};

#ifdef __x86_64__
/* The loops must stay loops: without this GCC turns them back into memcpy()/memset() calls. */
#define KEEP_LOOP __attribute__((optimize("no-tree-loop-distribute-patterns")))

static KEEP_LOOP void *memcpy_unrolled(void *dst, const void *src, size_t size)
{
	uint64_t *d = dst;
	const uint64_t *s = src;
	size_t words = size / 8;
	size_t i = 0;

	for (; i + 4 <= words; i += 4) {
		uint64_t a = s[i], b = s[i + 1], c = s[i + 2], e = s[i + 3];

		d[i] = a;
		d[i + 1] = b;
		d[i + 2] = c;
		d[i + 3] = e;
	}
	for (; i < words; i++)
		d[i] = s[i];
	for (size_t b = words * 8; b < size; b++)
		((char *)dst)[b] = ((const char *)src)[b];
	return dst;
}

static void *memcpy_movsq(void *dst, const void *src, size_t size)
{
	void *d = dst;
	size_t words = size / 8, tail = size % 8;

	__asm__ volatile("rep movsq" : "+D"(d), "+S"(src), "+c"(words) : : "memory");
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(tail) : : "memory");
	return dst;
}

static void *memcpy_movsb(void *dst, const void *src, size_t size)
{
	void *d = dst;

	__asm__ volatile("rep movsb" : "+D"(d), "+S"(src), "+c"(size) : : "memory");
	return dst;
}

static KEEP_LOOP void *memset_unrolled(void *dst, int c, size_t size)
{
	uint64_t pattern = 0x0101010101010101ULL * (uint8_t)c;
	uint64_t *d = dst;
	size_t words = size / 8;
	size_t i = 0;

	for (; i + 4 <= words; i += 4) {
		d[i] = pattern;
		d[i + 1] = pattern;
		d[i + 2] = pattern;
		d[i + 3] = pattern;
	}
	for (; i < words; i++)
		d[i] = pattern;
	for (size_t b = words * 8; b < size; b++)
		((char *)dst)[b] = (char)c;
	return dst;
}

static void *memset_stosq(void *dst, int c, size_t size)
{
	uint64_t pattern = 0x0101010101010101ULL * (uint8_t)c;
	void *d = dst;
	size_t words = size / 8, tail = size % 8;

	__asm__ volatile("rep stosq" : "+D"(d), "+c"(words) : "a"(pattern) : "memory");
	__asm__ volatile("rep stosb" : "+D"(d), "+c"(tail) : "a"(pattern) : "memory");
	return dst;
}

static void *memset_stosb(void *dst, int c, size_t size)
{
	void *d = dst;

	__asm__ volatile("rep stosb" : "+D"(d), "+c"(size) : "a"(c) : "memory");
	return dst;
}
#endif

static const struct mem_function memcpy_functions[] = {
	{ "default", "Default memcpy() provided by glibc", memcpy, NULL },
#ifdef __x86_64__
	{ "x86-64-unrolled", "unrolled memcpy() in arch/x86/lib/memcpy_64.S",
	  memcpy_unrolled, NULL },
	{ "x86-64-movsq", "movsq-based memcpy() in arch/x86/lib/memcpy_64.S", memcpy_movsq, NULL },
	{ "x86-64-movsb", "movsb-based memcpy() in arch/x86/lib/memcpy_64.S", memcpy_movsb, NULL },
#endif
	{ NULL, NULL, NULL, NULL },
};

static const struct mem_function memset_functions[] = {
	{ "default", "Default memset() provided by glibc", NULL, memset },
#ifdef __x86_64__
	{ "x86-64-unrolled", "unrolled memset() in arch/x86/lib/memset_64.S",
	  NULL, memset_unrolled },
	{ "x86-64-stosq", "movsq-based memset() in arch/x86/lib/memset_64.S", NULL, memset_stosq },
	{ "x86-64-stosb", "movsb-based memset() in arch/x86/lib/memset_64.S", NULL, memset_stosb },
#endif
	{ NULL, NULL, NULL, NULL },
};

/* perf's sizes: a number with an optional B, KB, MB, GB or TB suffix, any case; 0 on error */
static uint64_t parse_size(const char *text)
{
	static const char *const units[] = { "b", "kb", "mb", "gb", "tb" };
	char *end;
	unsigned long long n = strtoull(text, &end, 10);

	if (end == text)
		return 0;
	if (!*end)
		return n;
	for (unsigned int i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(end, units[i]))
			return n << (10 * i);
	return 0;
}

static void list_functions(const struct mem_function *functions)
{
	printf("Available functions:\n");
	for (const struct mem_function *f = functions; f->name; f++)
		printf("\t%s ... %s\n", f->name, f->desc);
}

/* The bytes per second of one function; the buffers are fresh for each, as perf's are. */
static double time_function(const struct mem_function *f, size_t size, int loops)
{
	volatile memcpy_fn copy = f->copy;
	volatile memset_fn set = f->set;
	char *dst = calloc(1, size), *src = f->copy ? calloc(1, size) : NULL;
	struct timeval start, end;
	double usec;

	if (!dst || (f->copy && !src)) {
		fprintf(stderr, "Failed to allocate memory\n");
		exit(PCL_EXIT_ERROR);
	}
	/* the first call faults the pages in, outside the timing; the source is written first,
	 * or it would be the kernel's one shared zero page, always in cache */
	if (copy) {
		memset(src, 0, size);
		copy(dst, src, size);
	}
	else
		set(dst, -1, size);
	gettimeofday(&start, NULL);
	for (int i = 0; i < loops; i++) {
		if (copy)
			copy(dst, src, size);
		else
			set(dst, i, size);
	}
	gettimeofday(&end, NULL);
	free(dst);
	free(src);
	usec = bench_elapsed_usec(&start, &end);
	return (double)size * loops / (usec / 1e6);
}

/* The rate in the largest binary unit below it, perf's way (its KB line has a stray 'd'). */
static void print_rate(double bytes_per_sec)
{
	const double k = 1024;

	if (bytes_per_sec < k)
		printf(" %14lf bytes/sec\n", bytes_per_sec);
	else if (bytes_per_sec < k * k)
		printf(" %14lfd KB/sec\n", bytes_per_sec / k);
	else if (bytes_per_sec < k * k * k)
		printf(" %14lf MB/sec\n", bytes_per_sec / k / k);
	else
		printf(" %14lf GB/sec\n", bytes_per_sec / k / k / k);
}

static int bench_mem(int argc, const char **argv, const char *const usage[],
		     const struct mem_function *functions)
{
	const char *size_text = "1MB", *function = "all";
	bool cycles = false;
	int loops = 1;
	const struct option options[] = {
		OPT_BOOLEAN('c', "cycles", &cycles,
			    "Use a cycles event instead of gettimeofday() to measure performance"),
		OPT_STRING('f', "function", &function, "all",
			   "Specify the function to run, \"all\" runs all available functions, "
			   "\"help\" lists them"),
		OPT_INTEGER('l', "nr_loops", &loops,
			    "Specify the number of loops to run. (default: 1)"),
		OPT_STRING('s', "size", &size_text, "1MB",
			   "Specify the size of the memory buffers. Available units: B, KB, MB, GB "
			   "and TB (case insensitive)"),
		OPT_END(),
	};
	bool all, found = false;
	uint64_t size;

	parse_options(argc, argv, options, usage, 0);
	if (cycles) {
		/* no cycles PMU event here (a virtual machine), as perf finds */
		fprintf(stderr, "Failed to open cycles counter\n");
		return PCL_EXIT_ERROR;
	}
	size = parse_size(size_text);
	if (!size) {
		fprintf(stderr, "Invalid size:%s\n", size_text);
		return PCL_EXIT_FAILURE;
	}
	all = !strcmp(function, "all");
	for (const struct mem_function *f = functions; f->name; f++) {
		double bytes_per_sec;

		if (!all && strcmp(function, f->name))
			continue;
		found = true;
		printf("# function '%s' (%s)\n", f->name, f->desc);
		if (bench_format == BENCH_FORMAT_DEFAULT)
			printf("# Copying %s bytes ...\n\n", size_text);
		fflush(stdout);
		bytes_per_sec = time_function(f, (size_t)size, loops);
		if (bench_format == BENCH_FORMAT_DEFAULT)
			print_rate(bytes_per_sec);
		else
			printf("%lf\n", bytes_per_sec);
	}
	if (found)
		return PCL_EXIT_OK;
	if (strcmp(function, "help"))
		printf("Unknown function: %s\n", function);
	list_functions(functions);
	return PCL_EXIT_FAILURE;
}

int bench_mem_memcpy(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench mem memcpy <options>", NULL };

	return bench_mem(argc, argv, usage, memcpy_functions);
}

int bench_mem_memset(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench mem memset <options>", NULL };

	return bench_mem(argc, argv, usage, memset_functions);
}

/* find_bit: walking the set bits of bitmaps of 1 to 2048 bits, each with 1, 2, 4, ... bits
 * set, by jumping from set bit to set bit and by testing every bit.  The sink keeps the
 * compiler from dropping the loops. */
static volatile unsigned long find_bit_sink;

static __attribute__((noinline)) void find_bit_visit(unsigned int bit)
{
	find_bit_sink += bit;
}

enum { BITS_PER_WORD = 64 };

static void walk_set_bits(const uint64_t *map, unsigned int nbits)
{
	for (unsigned int w = 0; w * BITS_PER_WORD < nbits; w++)
		for (uint64_t word = map[w]; word; word &= word - 1) {
			unsigned int bit = w * BITS_PER_WORD + (unsigned int)__builtin_ctzll(word);

			if (bit >= nbits)
				return;
			find_bit_visit(bit);
		}
}

static void test_every_bit(const uint64_t *map, unsigned int nbits)
{
	for (unsigned int bit = 0; bit < nbits; bit++)
		if (map[bit / BITS_PER_WORD] >> (bit % BITS_PER_WORD) & 1)
			find_bit_visit(bit);
}

static double time_walk(void (*walk)(const uint64_t *, unsigned int), const uint64_t *map,
			unsigned int nbits, unsigned int inner)
{
	struct timeval start, end;

	gettimeofday(&start, NULL);
	for (unsigned int j = 0; j < inner; j++)
		walk(map, nbits);
	gettimeofday(&end, NULL);
	return bench_elapsed_usec(&start, &end);
}

static void find_bit_size(unsigned int nbits, unsigned int outer, unsigned int inner)
{
	uint64_t *map = calloc((nbits + BITS_PER_WORD - 1) / BITS_PER_WORD, sizeof(*map));
	/* like perf, the statistics of one bitmap size run on across its fill levels */
	struct bench_stats walk_stats = { 0 }, test_stats = { 0 };

	if (!map)
		exit(PCL_EXIT_ERROR);
	for (unsigned int set = 1; set <= nbits; set <<= 1) {
		memset(map, 0, (nbits + BITS_PER_WORD - 1) / BITS_PER_WORD * sizeof(*map));
		for (unsigned int bit = 0; bit < nbits; bit += nbits / set)
			map[bit / BITS_PER_WORD] |= 1ULL << (bit % BITS_PER_WORD);
		for (unsigned int i = 0; i < outer; i++) {
			bench_stats_add(&walk_stats, time_walk(walk_set_bits, map, nbits, inner));
			bench_stats_add(&test_stats, time_walk(test_every_bit, map, nbits, inner));
		}
		printf("%u operations %u bits set of %u bits\n", inner, set, nbits);
		printf("  Average for_each_set_bit took: %.3f usec (+- %.3f usec)\n",
		       walk_stats.mean, bench_stats_stddev(&walk_stats));
		printf("  Average test_bit loop took:    %.3f usec (+- %.3f usec)\n",
		       test_stats.mean, bench_stats_stddev(&test_stats));
	}
	free(map);
}

int bench_mem_find_bit(int argc, const char **argv)
{
	static const char *const usage[] = { "pcl bench mem find_bit <options>", NULL };
	unsigned int outer = 5, inner = 100000;
	const struct option options[] = {
		OPT_UINTEGER('i', "outer-iterations", &outer, "Number of outer iterations used"),
		OPT_UINTEGER('j', "inner-iterations", &inner, "Number of inner iterations used"),
		OPT_END(),
	};

	if (parse_options(argc, argv, options, usage, 0))
		usage_with_options(usage, options);
	for (unsigned int nbits = 1; nbits <= 2048; nbits <<= 1)
		find_bit_size(nbits, outer, inner);
	return PCL_EXIT_OK;
}

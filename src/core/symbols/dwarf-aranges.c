/* dwarf-aranges: the unit holding an address, from .debug_aranges, as
 * libdwfl 0.188's dwfl_module_addrdie() finds it (see dwarf-aranges.h). */
#include "core/symbols/dwarf-aranges.h"
#include "util/util.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

struct dwarf_aranges {
	struct arange_run *runs;	/* by address */
	size_t nr_runs;
	Dwarf_Addr end;		/* where the last range ends */
};

struct arange_run {
	Dwarf_Addr start;
	Dwarf_Off die;		/* the unit's DIE */
};

struct arange {
	Dwarf_Addr addr, len;
	Dwarf_Off cu;		/* the unit's header */
	size_t order;		/* in the section */
};

static int arange_cmp(const void *a, const void *b)
{
	const struct arange *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static uint64_t read_le(const unsigned char *p, unsigned size)
{
	uint64_t v = 0;

	while (size--)
		v = v << 8 | p[size];
	return v;
}

/* The ranges of .debug_aranges, as libdw 0.188 reads them; false where
 * libdw would refuse the section (then its own lookup answers). */
static bool read_aranges(Dwarf *dw, struct arange **out, size_t *nr)
{
	Elf *elf = dwarf_getelf(dw);
	Elf_Scn *scn = NULL;
	Elf_Data *data = NULL;
	size_t shstrndx, alloc = 0;
	const unsigned char *p, *end;

	*out = NULL;
	*nr = 0;
	if (!elf || elf_getshdrstrndx(elf, &shstrndx) ||
	    elf_getident(elf, NULL)[EI_DATA] != ELFDATA2LSB)
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;
		const char *name;

		if (gelf_getshdr(scn, &shdr) && shdr.sh_type != SHT_NOBITS &&
		    (name = elf_strptr(elf, shstrndx, shdr.sh_name)) &&
		    !strcmp(name, ".debug_aranges")) {
			/* libdw inflated it when it opened the file */
			if (shdr.sh_flags & SHF_COMPRESSED)
				return false;
			data = elf_getdata(scn, NULL);
			break;
		}
	}
	if (!scn)
		return true;	/* no table: libdw finds no unit either */
	if (!data || !data->d_buf)
		return false;
	p = data->d_buf;
	end = p + data->d_size;
	while (p < end) {
		const unsigned char *set = p, *set_end;
		uint64_t length, cu;
		unsigned offset_size = 4, addr_size;
		Dwarf_Off next;
		size_t hsize;

		if (end - p < 4)
			goto bad;
		length = read_le(p, 4);
		p += 4;
		if (length == 0xffffffff) {
			if (end - p < 8)
				goto bad;
			length = read_le(p, 8);
			p += 8;
			offset_size = 8;
		} else if (length >= 0xfffffff0) {
			goto bad;
		}
		if (length > (uint64_t)(end - p) || end - p < 2 + offset_size + 2)
			goto bad;
		set_end = p + length;
		if (read_le(p, 2) != 2)
			goto bad;
		p += 2;
		cu = read_le(p, offset_size);
		p += offset_size;
		addr_size = *p++;
		if ((addr_size != 4 && addr_size != 8) || *p++ != 0)
			goto bad;
		/* the unit must be there, as libdw's record of it */
		if (dwarf_nextcu(dw, cu, &next, &hsize, NULL, NULL, NULL))
			goto bad;
		p += (2 * addr_size - (size_t)(p - set) % (2 * addr_size)) % (2 * addr_size);
		for (;;) {
			uint64_t addr, len;

			if ((size_t)(end - p) < 2 * addr_size)
				goto bad;
			addr = read_le(p, addr_size);
			len = read_le(p + addr_size, addr_size);
			p += 2 * addr_size;
			if (!addr && !len) {
				if (p >= set_end)
					break;
				continue;
			}
			if (*nr == alloc) {
				alloc = alloc ? alloc * 2 : 256;
				*out = xrealloc(*out, alloc * sizeof(**out));
			}
			(*out)[*nr] = (struct arange){ addr, len, cu + hsize, *nr };
			(*nr)++;
		}
	}
	return true;
bad:
	free(*out);
	*out = NULL;
	*nr = 0;
	return false;
}

struct dwarf_aranges *dwarf_aranges__read(Dwarf *dw)
{
	struct dwarf_aranges *a;
	struct arange *ranges;
	size_t nr;

	if (!read_aranges(dw, &ranges, &nr))
		return NULL;
	a = xcalloc(1, sizeof(*a));
	if (!nr)
		return a;
	qsort(ranges, nr, sizeof(*ranges), arange_cmp);
	a->runs = xmalloc(nr * sizeof(*a->runs));
	for (size_t i = 0; i < nr; i++)
		if (!i || ranges[i].cu != ranges[i - 1].cu)
			a->runs[a->nr_runs++] = (struct arange_run){ ranges[i].addr, ranges[i].cu };
	a->runs = xrealloc(a->runs, a->nr_runs * sizeof(*a->runs));
	a->end = ranges[nr - 1].addr + ranges[nr - 1].len;
	free(ranges);
	return a;
}

void dwarf_aranges__delete(struct dwarf_aranges *a)
{
	if (a) {
		free(a->runs);
		free(a);
	}
}

bool dwarf_aranges__find(const struct dwarf_aranges *a, Dwarf_Addr addr, Dwarf_Off *die)
{
	size_t lo = 0, hi = a->nr_runs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < a->runs[mid].start) {
			hi = mid;
			continue;
		}
		if (addr > a->runs[mid].start) {
			if (mid + 1 < a->nr_runs && addr >= a->runs[mid + 1].start) {
				lo = mid + 1;
				continue;
			}
			if (mid + 1 == a->nr_runs && addr > a->end)
				return false;
		}
		*die = a->runs[mid].die;
		return true;
	}
	return false;
}

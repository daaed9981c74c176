/* sdt-notes: the SDT (USDT) markers of an ELF file's .note.stapsdt, as
 * perf 6.1 writes them into the build-id cache's "probes" file:
 *
 *   %sdt_PROVIDER:NAME=NAME
 *   p:sdt_PROVIDER/NAME /path:0xOFFSET(0xSEMAPHORE) arg1=+112(%sp):s32 ...
 *
 * one "%" line per marker name, then the uprobe definition of each of its
 * locations (file offsets; the semaphore's when the marker is guarded). */
#ifndef PCL_SDT_NOTES_H
#define PCL_SDT_NOTES_H

/* The probes file text of path (named path in the definitions), or NULL
 * when it has no SDT markers.  Caller frees. */
char *sdt_notes__probes_text(const char *path);

/* One SDT argument ("-4@112(%rsp)") as a tracefs fetch argument
 * ("+112(%sp):s32"); NULL for what perf skips (constants).  Caller frees. */
char *sdt_notes__fetch_arg(const char *arg);

#endif

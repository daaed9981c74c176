/* branch: what branch mode (report -b) makes of a sample's branch stack.
 *
 * In branch mode every entry of a sample's branch stack is a sample of
 * its own, of period 1, whose keys are the branch's two ends (dso_from,
 * symbol_to, ...) and its flags (mispredict, cycles, ...).  The report
 * also counts the branches by type (perf's "Branch Statistics").
 */
#ifndef PCL_BRANCH_H
#define PCL_BRANCH_H

#include <stdint.h>

#include "core/hist/branch-type.h"
#include "core/hist/hist.h"

struct machine;
struct perf_sample;
struct thread;

/* The name perf gives a branch's type ("COND", "IND_CALL", ...; "" for
 * an unknown one); NULL for a new type without a name. */
const char *hist_branch__type_name(uint64_t flags);

/* Entry i of the sample's branch stack, both ends resolved the way perf
 * resolves them in report: in user space first, then in the kernel's. */
void hist_branch__resolve(struct hist_branch *b, struct machine *m, struct thread *thread,
			  const struct perf_sample *sample, uint64_t i);

/* Counts a branch added to an entry: perf counts the entry's own branch
 * (the first one that made it), whatever branch was just added. */
void branch_type_stat__count(struct branch_type_stat *st, const struct hist_branch *b);

#endif

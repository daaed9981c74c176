/* kvm-stat-print: perf kvm stat's "Analyze events for ..." table. */
#ifndef PCL_UI_KVM_STAT_PRINT_H
#define PCL_UI_KVM_STAT_PRINT_H

#include <stdio.h>

#include "core/analysis/kvm-stat.h"

/* pids: the -p list as given (NULL: all VMs).  Names of exit codes the
 * tables lack are complained about on the same stream, as perf does. */
void kvm_stat_print(FILE *out, const struct kvm_stat *k, const char *pids);

/* live's line for an event longer than --duration */
void kvm_stat_print_slow(FILE *out, const struct kvm_stat *k, const struct kvm_slow_event *slow);

#endif

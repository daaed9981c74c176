/* netdev-times: the path of packets through the network stack, as perf's
 * netdev-times script follows it: transmitted packets from the qdisc to the
 * device to their free, received ones from the hard irq through NET_RX
 * softirq and napi_poll to the socket.  src/ui prints it. */
#ifndef PCL_NETDEV_TIMES_H
#define PCL_NETDEV_TIMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tep_event;
struct perf_sample;

/* A packet received in a NET_RX softirq (netif_receive_skb), or a
 * napi_poll of that softirq. */
struct netdev_rx {
	bool napi_poll;
	char *dev;			/* napi_poll's device */
	uint64_t time;
	uint64_t skbaddr;
	int64_t len;
	bool taken;			/* copied to a socket or freed */
	int64_t pid;
	char *comm;
	uint64_t taken_time;
};

/* what happened in a hard irq before the softirq: a raise or a netif_rx */
struct netdev_irq_event {
	bool netif_rx;
	uint64_t time;
	uint64_t skbaddr;
};

struct netdev_irq {
	int64_t irq;
	char *name;
	int cpu;
	uint64_t entry_time;
	bool has_events;
	struct netdev_irq_event *events;
	size_t nr_events;
};

/* One NET_RX softirq with the hard irqs that led to it. */
struct netdev_hunk {
	uint64_t softirq_entry;
	struct netdev_irq *irqs;
	size_t nr_irqs;
	struct netdev_rx **events;	/* shared with the receive list */
	size_t nr_events;
};

/* A transmitted packet. */
struct netdev_tx {
	char *dev;
	uint64_t skbaddr;
	int64_t len;
	uint64_t queue_time, xmit_time, free_time;
};

struct netdev_list {		/* pointers, newest first where the script inserts at 0 */
	void **items;
	size_t nr, alloc;
};

struct netdev_times {
	bool show_tx, show_rx, debug;
	const char *dev;		/* dev=NAME, or NULL */
	/* per cpu: the stack of hard irqs, the running NET_RX softirq */
	struct netdev_cpu {
		struct netdev_irq *irqs;
		size_t nr_irqs;
		bool has_irqs;
		bool in_softirq;
		uint64_t softirq_entry;
		struct netdev_list events;	/* struct netdev_rx * */
	} *cpus;
	int nr_cpus;
	struct netdev_list hunks;		/* struct netdev_hunk * */
	struct netdev_list rx_skbs, tx_queue, tx_xmit, tx_free;
	uint64_t rx_overflow, queue_overflow, xmit_overflow;
	struct netdev_list all_rx;		/* every struct netdev_rx, to free */
	struct netdev_list all_tx;		/* every struct netdev_tx, to free */
};

/* tx, rx, dev=NAME, debug: 0, or -1 for an argument the script ignores too */
void netdev_times__init(struct netdev_times *nt, int argc, const char **argv);
void netdev_times__exit(struct netdev_times *nt);

/* One tracepoint sample: pid is its common_pid, comm its thread's. */
void netdev_times__event(struct netdev_times *nt, struct tep_event *tp,
			 const struct perf_sample *sample, int64_t pid, const char *comm);

#endif

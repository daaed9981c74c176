/* netdev-times: packets matched by skb address across the network
 * tracepoints, with the script's lists, their order and their budgets. */
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "core/analysis/netdev-times.h"
#include "core/analysis/tp-fields.h"
#include "core/data/perf-record.h"
#include "util/util.h"

#define LIST_BUDGET 65536	/* entries the script keeps per list */
#define NET_RX_SOFTIRQ 3

static void list_grow(struct netdev_list *l)
{
	if (l->nr == l->alloc) {
		l->alloc = l->alloc ? 2 * l->alloc : 64;
		l->items = xrealloc(l->items, l->alloc * sizeof(*l->items));
	}
}

static void list_append(struct netdev_list *l, void *item)
{
	list_grow(l);
	l->items[l->nr++] = item;
}

/* Python's insert(0, x), then pop() past the budget */
static void list_push_front(struct netdev_list *l, void *item, uint64_t *overflow)
{
	list_grow(l);
	memmove(l->items + 1, l->items, l->nr * sizeof(*l->items));
	l->items[0] = item;
	if (++l->nr > LIST_BUDGET) {
		l->nr--;
		(*overflow)++;
	}
}

static void list_remove(struct netdev_list *l, size_t i)
{
	memmove(l->items + i, l->items + i + 1, (l->nr - i - 1) * sizeof(*l->items));
	l->nr--;
}

static void list_exit(struct netdev_list *l)
{
	free(l->items);
	memset(l, 0, sizeof(*l));
}

void netdev_times__init(struct netdev_times *nt, int argc, const char **argv)
{
	memset(nt, 0, sizeof(*nt));
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "tx"))
			nt->show_tx = true;
		else if (!strcmp(argv[i], "rx"))
			nt->show_rx = true;
		else if (str_starts_with(argv[i], "dev="))
			nt->dev = argv[i] + 4;
		else if (!strcmp(argv[i], "debug"))
			nt->debug = true;
	}
	if (!nt->show_tx && !nt->show_rx)
		nt->show_tx = nt->show_rx = true;
}

static void irq_exit(struct netdev_irq *irq)
{
	free(irq->name);
	free(irq->events);
}

void netdev_times__exit(struct netdev_times *nt)
{
	for (int c = 0; c < nt->nr_cpus; c++) {
		for (size_t i = 0; i < nt->cpus[c].nr_irqs; i++)
			irq_exit(&nt->cpus[c].irqs[i]);
		free(nt->cpus[c].irqs);
		list_exit(&nt->cpus[c].events);
	}
	free(nt->cpus);
	for (size_t h = 0; h < nt->hunks.nr; h++) {
		struct netdev_hunk *hunk = nt->hunks.items[h];

		for (size_t i = 0; i < hunk->nr_irqs; i++)
			irq_exit(&hunk->irqs[i]);
		free(hunk->irqs);
		free(hunk->events);
		free(hunk);
	}
	for (size_t i = 0; i < nt->all_rx.nr; i++) {
		struct netdev_rx *rx = nt->all_rx.items[i];

		free(rx->dev);
		free(rx->comm);
		free(rx);
	}
	for (size_t i = 0; i < nt->all_tx.nr; i++) {
		free(((struct netdev_tx *)nt->all_tx.items[i])->dev);
		free(nt->all_tx.items[i]);
	}
	list_exit(&nt->hunks);
	list_exit(&nt->rx_skbs);
	list_exit(&nt->tx_queue);
	list_exit(&nt->tx_xmit);
	list_exit(&nt->tx_free);
	list_exit(&nt->all_rx);
	list_exit(&nt->all_tx);
}

static struct netdev_cpu *cpu_of(struct netdev_times *nt, uint32_t cpu)
{
	if ((int)cpu >= nt->nr_cpus) {
		int n = (int)cpu + 1;

		nt->cpus = xrealloc(nt->cpus, (size_t)n * sizeof(*nt->cpus));
		memset(nt->cpus + nt->nr_cpus, 0, (size_t)(n - nt->nr_cpus) * sizeof(*nt->cpus));
		nt->nr_cpus = n;
	}
	return &nt->cpus[cpu];
}

/* softirq_raise and netif_rx: an event of the innermost hard irq */
static void irq_event(struct netdev_cpu *c, bool netif_rx, uint64_t time, uint64_t skbaddr)
{
	struct netdev_irq *irq;

	if (!c->has_irqs || !c->nr_irqs)
		return;
	irq = &c->irqs[c->nr_irqs - 1];
	irq->events = xrealloc(irq->events, (irq->nr_events + 1) * sizeof(*irq->events));
	irq->events[irq->nr_events++] = (struct netdev_irq_event){ netif_rx, time, skbaddr };
	irq->has_events = true;
}

static void softirq_exit(struct netdev_times *nt, struct netdev_cpu *c)
{
	struct netdev_hunk *hunk;
	bool irqs = c->has_irqs && c->nr_irqs, rx = c->in_softirq;

	if (!irqs || !rx) {
		/* the script forgets both the irqs and the softirq's events */
		for (size_t i = 0; i < c->nr_irqs; i++)
			irq_exit(&c->irqs[i]);
		c->nr_irqs = 0;
		c->has_irqs = c->in_softirq = false;
		c->events.nr = 0;
		return;
	}
	hunk = xcalloc(1, sizeof(*hunk));
	hunk->softirq_entry = c->softirq_entry;
	hunk->irqs = c->irqs;
	hunk->nr_irqs = c->nr_irqs;
	hunk->events = (struct netdev_rx **)c->events.items;
	hunk->nr_events = c->events.nr;
	memset(&c->events, 0, sizeof(c->events));
	c->irqs = NULL;
	c->nr_irqs = 0;
	c->has_irqs = c->in_softirq = false;
	list_append(&nt->hunks, hunk);
}

static struct netdev_rx *new_rx(struct netdev_times *nt)
{
	struct netdev_rx *rx = xcalloc(1, sizeof(*rx));

	list_append(&nt->all_rx, rx);
	return rx;
}

/* An skb freed or copied: the first match of the newest-first list. */
static long find_skb(const struct netdev_list *l, uint64_t skbaddr, bool tx)
{
	for (size_t i = 0; i < l->nr; i++) {
		uint64_t addr = tx ? ((struct netdev_tx *)l->items[i])->skbaddr :
				     ((struct netdev_rx *)l->items[i])->skbaddr;

		if (addr == skbaddr)
			return (long)i;
	}
	return -1;
}

static void tx_freed(struct netdev_times *nt, uint64_t skbaddr, uint64_t time)
{
	long i = find_skb(&nt->tx_xmit, skbaddr, true);

	if (i >= 0) {
		((struct netdev_tx *)nt->tx_xmit.items[i])->free_time = time;
		list_append(&nt->tx_free, nt->tx_xmit.items[i]);
		list_remove(&nt->tx_xmit, (size_t)i);
	}
}

static bool rx_taken(struct netdev_times *nt, uint64_t skbaddr, uint64_t time, int64_t pid,
		     const char *comm)
{
	long i = find_skb(&nt->rx_skbs, skbaddr, false);
	struct netdev_rx *rx;

	if (i < 0)
		return false;
	rx = nt->rx_skbs.items[i];
	rx->taken = true;
	rx->pid = pid;
	free(rx->comm);
	rx->comm = xstrdup(comm);
	rx->taken_time = time;
	list_remove(&nt->rx_skbs, (size_t)i);
	return true;
}

static void net_event(struct netdev_times *nt, struct netdev_cpu *c, struct tep_event *tp,
		      const struct perf_sample *sample)
{
	uint64_t skbaddr = (uint64_t)tp_value(tp, sample, "skbaddr"), time = sample->time;

	if (!strcmp(tp->name, "netif_rx")) {
		irq_event(c, true, time, skbaddr);
	} else if (!strcmp(tp->name, "netif_receive_skb")) {
		struct netdev_rx *rx;

		if (!c->in_softirq)
			return;
		rx = new_rx(nt);
		*rx = (struct netdev_rx){ .time = time, .skbaddr = skbaddr,
					  .len = tp_value(tp, sample, "len") };
		list_append(&c->events, rx);
		list_push_front(&nt->rx_skbs, rx, &nt->rx_overflow);
	} else if (!strcmp(tp->name, "net_dev_queue")) {
		struct netdev_tx *tx = xcalloc(1, sizeof(*tx));

		*tx = (struct netdev_tx){ .dev = tp_string(tp, sample, "name"), .skbaddr = skbaddr,
					  .len = tp_value(tp, sample, "len"), .queue_time = time };
		list_append(&nt->all_tx, tx);
		list_push_front(&nt->tx_queue, tx, &nt->queue_overflow);
	} else if (!strcmp(tp->name, "net_dev_xmit") && tp_value(tp, sample, "rc") == 0) {
		long i = find_skb(&nt->tx_queue, skbaddr, true);

		if (i < 0)
			return;
		((struct netdev_tx *)nt->tx_queue.items[i])->xmit_time = time;
		list_push_front(&nt->tx_xmit, nt->tx_queue.items[i], &nt->xmit_overflow);
		list_remove(&nt->tx_queue, (size_t)i);
	}
}

static void irq_handler(struct netdev_cpu *c, struct tep_event *tp,
			const struct perf_sample *sample)
{
	int64_t irq = tp_value(tp, sample, "irq");

	if (!strcmp(tp->name, "irq_handler_entry")) {
		c->irqs = xrealloc(c->irqs, (c->nr_irqs + 1) * sizeof(*c->irqs));
		c->irqs[c->nr_irqs++] = (struct netdev_irq){
			.irq = irq, .name = tp_string(tp, sample, "name"), .cpu = (int)sample->cpu,
			.entry_time = sample->time };
		c->has_irqs = true;
	} else if (c->has_irqs && c->nr_irqs) {
		/* an exit pops its irq, which stays only if something happened in it */
		struct netdev_irq *top = &c->irqs[c->nr_irqs - 1];

		if (top->irq == irq && top->has_events)
			return;
		irq_exit(top);
		c->nr_irqs--;
	}
}

void netdev_times__event(struct netdev_times *nt, struct tep_event *tp,
			 const struct perf_sample *sample, int64_t pid, const char *comm)
{
	struct netdev_cpu *c = cpu_of(nt, sample->cpu);
	uint64_t skbaddr;

	if (!strcmp(tp->system, "irq")) {
		if (str_starts_with(tp->name, "softirq_")) {
			if (tp_value(tp, sample, "vec") != NET_RX_SOFTIRQ)
				return;
			if (!strcmp(tp->name, "softirq_raise")) {
				irq_event(c, false, sample->time, 0);
			} else if (!strcmp(tp->name, "softirq_entry")) {
				c->in_softirq = true;
				c->softirq_entry = sample->time;
				c->events.nr = 0;
			} else if (!strcmp(tp->name, "softirq_exit")) {
				softirq_exit(nt, c);
			}
		} else if (str_starts_with(tp->name, "irq_handler_")) {
			irq_handler(c, tp, sample);
		}
	} else if (!strcmp(tp->system, "napi") && !strcmp(tp->name, "napi_poll")) {
		struct netdev_rx *rx;

		if (!c->in_softirq)
			return;
		rx = new_rx(nt);
		*rx = (struct netdev_rx){ .napi_poll = true, .time = sample->time,
					  .dev = tp_string(tp, sample, "dev_name") };
		list_append(&c->events, rx);
	} else if (!strcmp(tp->system, "net")) {
		net_event(nt, c, tp, sample);
	} else if (!strcmp(tp->system, "skb")) {
		skbaddr = (uint64_t)tp_value(tp, sample, "skbaddr");
		if (!strcmp(tp->name, "kfree_skb")) {
			long i = find_skb(&nt->tx_queue, skbaddr, true);

			if (i >= 0) {
				list_remove(&nt->tx_queue, (size_t)i);
				return;
			}
			if (find_skb(&nt->tx_xmit, skbaddr, true) >= 0)
				tx_freed(nt, skbaddr, sample->time);
			else
				rx_taken(nt, skbaddr, sample->time, pid, comm);
		} else if (!strcmp(tp->name, "consume_skb")) {
			tx_freed(nt, skbaddr, sample->time);
		} else if (!strcmp(tp->name, "skb_copy_datagram_iovec")) {
			rx_taken(nt, skbaddr, sample->time, pid, comm);
		}
	}
}

/* control: the --control channel of stat (and perf record): commands read
 * from a file descriptor or a FIFO ("enable", "disable", "ping", ...), each
 * on its own line, answered with "ack\n" on an optional second descriptor.
 */
#ifndef PCL_CONTROL_H
#define PCL_CONTROL_H

#include <stdbool.h>
#include <stddef.h>

enum control_cmd {
	CONTROL_NONE,		/* nothing (complete) to read */
	CONTROL_UNSUPPORTED,	/* a line that is no command */
	CONTROL_ENABLE,
	CONTROL_DISABLE,
	CONTROL_SNAPSHOT,
	CONTROL_EVLIST,
	CONTROL_STOP,
	CONTROL_PING,
	CONTROL_ACK,
};

struct control {
	int fd, ack_fd;		/* -1 when absent */
	bool opened;		/* fifo: the descriptors are ours to close */
	char *failed_path;	/* fifo: the path that could not be opened */
};

/*
 * Parses "fd:CTL[,ACK]" or "fifo:CTL[,ACK]" and, for FIFOs, opens them
 * (read-write, so that opening does not wait for a writer).  Returns 0, or
 * -1 for a malformed spec or, with failed_path set, a FIFO that did not open.
 */
int control__open(struct control *c, const char *spec);
void control__close(struct control *c);

/* The command a line names; *arg is what follows it ("" if nothing). */
enum control_cmd control__parse_line(const char *line, const char **arg);

/*
 * Reads one line (up to '\n' or NUL) into buf when fd is readable within
 * timeout_ms (-1: wait).  Returns the command, CONTROL_NONE on timeout.
 */
enum control_cmd control__receive(struct control *c, int timeout_ms, char *buf, size_t size,
				  const char **arg);
/* Answers a processed command on the ack descriptor, if any. */
void control__ack(const struct control *c);

#endif

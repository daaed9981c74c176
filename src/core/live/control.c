/* control: commands on a descriptor or FIFO, answered with "ack". */
#include "core/live/control.h"
#include "util/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool parse_fd(const char *s, size_t len, int *fd)
{
	char *end;
	long v;

	if (!len)
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end != s + len || v < 0 || v > 0x7fffffff)
		return false;
	*fd = (int)v;
	return true;
}

static int open_fifo(struct control *c, const char *path, size_t len, int *fd)
{
	char *p = xstrndup(path, len);

	*fd = open(p, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0) {
		c->failed_path = p;
		return -1;
	}
	free(p);
	return 0;
}

int control__open(struct control *c, const char *spec)
{
	const char *body, *comma;
	size_t len;
	bool fifo = !strncmp(spec, "fifo:", 5);

	*c = (struct control){ .fd = -1, .ack_fd = -1 };
	if (!fifo && strncmp(spec, "fd:", 3))
		return -1;
	body = spec + (fifo ? 5 : 3);
	comma = strchr(body, ',');
	len = comma ? (size_t)(comma - body) : strlen(body);
	if (!fifo)
		return parse_fd(body, len, &c->fd) &&
		       (!comma || parse_fd(comma + 1, strlen(comma + 1), &c->ack_fd)) ? 0 : -1;
	if (!len)
		return -1;
	c->opened = true;
	if (open_fifo(c, body, len, &c->fd))
		return -1;
	if (comma && open_fifo(c, comma + 1, strlen(comma + 1), &c->ack_fd)) {
		control__close(c);
		return -1;
	}
	return 0;
}

void control__close(struct control *c)
{
	if (c->opened) {
		if (c->fd >= 0)
			close(c->fd);
		if (c->ack_fd >= 0)
			close(c->ack_fd);
	}
	free(c->failed_path);
	c->failed_path = NULL;
	c->fd = c->ack_fd = -1;
}

enum control_cmd control__parse_line(const char *line, const char **arg)
{
	static const struct { const char *word; enum control_cmd cmd; } words[] = {
		{ "enable", CONTROL_ENABLE }, { "disable", CONTROL_DISABLE },
		{ "snapshot", CONTROL_SNAPSHOT }, { "evlist", CONTROL_EVLIST },
		{ "stop", CONTROL_STOP }, { "ping", CONTROL_PING }, { "ack", CONTROL_ACK },
	};

	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		size_t n = strlen(words[i].word);

		if (strncmp(line, words[i].word, n))
			continue;
		*arg = line + n + (line[n] == ' ');
		return words[i].cmd;
	}
	*arg = "";
	return CONTROL_UNSUPPORTED;
}

enum control_cmd control__receive(struct control *c, int timeout_ms, char *buf, size_t size,
				  const char **arg)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	size_t n = 0;

	if (c->fd < 0 || poll(&pfd, 1, timeout_ms) <= 0)
		return CONTROL_NONE;
	if (!(pfd.revents & POLLIN)) {
		/* a closed or invalid descriptor: wait as if nothing came */
		poll(NULL, 0, timeout_ms);
		return CONTROL_NONE;
	}
	/* byte by byte: what follows the line belongs to the next command */
	while (n + 1 < size) {
		ssize_t r = read(c->fd, &buf[n], 1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == EAGAIN) {
			pfd.revents = 0;
			if (poll(&pfd, 1, 100) <= 0)
				break;
			continue;
		}
		if (r <= 0 || buf[n] == '\n' || buf[n] == '\0')
			break;
		n++;
	}
	buf[n] = '\0';
	if (!n)
		return CONTROL_NONE;
	return control__parse_line(buf, arg);
}

void control__ack(const struct control *c)
{
	if (c->ack_fd >= 0 && write(c->ack_fd, "ack\n", 5) != 5)
		return;	/* nobody listens: nothing to do */
}

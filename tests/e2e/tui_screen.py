"""A terminal for the browser tests: runs a command in a pseudo-terminal of a
fixed size, feeds its output to a pyte screen, and lets a test send keys and
wait until some text shows.  Waits are on screen contents, never on time
alone, so the tests hold on a loaded machine."""
import fcntl
import os
import pty
import select
import signal
import struct
import termios
import time

import pyte

KEYS = {
    "up": "\x1b[A", "down": "\x1b[B", "right": "\x1b[C", "left": "\x1b[D",
    "home": "\x1b[H", "end": "\x1b[F", "pgup": "\x1b[5~", "pgdn": "\x1b[6~",
    "enter": "\r", "esc": "\x1b", "ctrl-c": "\x03",
}


class _Screen(pyte.Screen):
    """pyte's screen with the scroll commands ncurses sends for xterm
    (CSI n S, CSI n T), which pyte does not know: lines of the scrolling
    region move up or down as if deleted or inserted at its top."""

    def _scroll(self, count, insert):
        top = self.margins.top if self.margins else 0
        x, y = self.cursor.x, self.cursor.y
        self.cursor.y = top
        (self.insert_lines if insert else self.delete_lines)(count or 1)
        self.cursor.x, self.cursor.y = x, y

    def scroll_up(self, count=1, *args, **kw):
        self._scroll(count, False)

    def scroll_down(self, count=1, *args, **kw):
        self._scroll(count, True)


class _Stream(pyte.ByteStream):
    csi = dict(pyte.ByteStream.csi, S="scroll_up", T="scroll_down")


class Terminal:
    def __init__(self, argv, rows=40, cols=160, env=None, cwd=None):
        self.screen = _Screen(cols, rows)
        self.stream = _Stream(self.screen)
        self.rows, self.cols = rows, cols
        self.raw = bytearray()  # everything the program wrote, escapes included
        full_env = dict(os.environ, TERM="xterm", LINES=str(rows), COLUMNS=str(cols))
        full_env.update(env or {})
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            import fcntl, struct, termios
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
            if cwd:
                os.chdir(cwd)
            os.execvpe(argv[0], argv, full_env)
        self.status = None

    def _pump(self, timeout):
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            data = b""
        if not data:
            self._reap(block=True)
            return False
        self.raw += data
        self.stream.feed(data)
        return True

    def quiet(self, idle=0.5):
        """Reads until the program has written nothing for `idle` seconds:
        for a screen whose frames cannot be told apart (perf's browsers
        leave the cursor anywhere), the frame begun is then drawn whole,
        since a frame's pieces follow each other at once.  Returns the
        screen text."""
        while self._pump(idle):
            pass
        return self.text()

    def _reap(self, block=False):
        if self.status is None:
            pid, status = os.waitpid(self.pid, 0 if block else os.WNOHANG)
            if pid:
                self.status = status

    def text(self):
        return "\n".join(self.screen.display)

    def line(self, row):
        return self.screen.display[row]

    def at_frame_end(self):
        """Whether the output read so far ends a whole frame.  ncurses
        draws a frame's changed lines from the top down, then moves the
        cursor to where the program left it; pcl's browsers leave it at
        the end of their status line, the bottom-right corner, which the
        drawing reaches only once the lines above are drawn.  Output read
        mid-frame (a pseudo-terminal hands it over in pieces) shows the
        rows below the cursor still from the frame before.  A frame whose
        last cell drawn is the corner's (the scroll bar's end) leaves the
        cursor there, which pyte counts one column past the last."""
        return self.screen.cursor.y == self.rows - 1 and self.screen.cursor.x >= self.cols - 1

    def wait_for(self, what, timeout=60, frame=False):
        """Waits until `what` (a string, or a predicate on the screen text)
        shows; returns the screen text, or raises with the screen shown.
        With frame, `what` is checked only on whole frames (at_frame_end:
        the browsers' screens, not their boxes, which keep the cursor)."""
        check = what if callable(what) else (lambda text: what in text)
        deadline = time.monotonic() + timeout
        while True:
            text = self.text()
            if (not frame or self.at_frame_end()) and check(text):
                return text
            if self.status is not None or time.monotonic() > deadline:
                raise AssertionError(f"screen never showed {what!r}:\n{text}")
            self._pump(0.2)

    def send(self, keys):
        os.write(self.fd, KEYS.get(keys, keys).encode())
        if keys == "esc":
            self._gap_after_escape()

    def _unread_input(self):
        """Bytes sent that the program has not read yet (0 once it left)."""
        try:
            fd = os.open(os.readlink(f"/proc/{self.pid}/fd/0"), os.O_RDONLY | os.O_NOCTTY)
        except OSError:
            return 0
        try:
            return struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0" * 4))[0]
        except OSError:
            return 0
        finally:
            os.close(fd)

    def _gap_after_escape(self):
        """A lone ESC is told from the first byte of a key's sequence by
        the gap after it (ncurses' ESCDELAY, S-Lang's wait): once the
        program has read it, the next key comes a typist's pause later,
        not glued to it."""
        deadline = time.monotonic() + 30
        while self.status is None and self._unread_input() and time.monotonic() < deadline:
            self._pump(0.02)
        until = time.monotonic() + 0.3
        while self.status is None and time.monotonic() < until:
            self._pump(until - time.monotonic())

    def wait_exit(self, timeout=60):
        """Waits for the program to end; returns its exit status (or the
        negative signal number)."""
        deadline = time.monotonic() + timeout
        while self.status is None:
            if time.monotonic() > deadline:
                os.kill(self.pid, signal.SIGKILL)
                self._reap(block=True)
                raise AssertionError(f"program did not exit:\n{self.text()}")
            if not self._pump(0.2):
                self._reap()
        if os.WIFSIGNALED(self.status):
            return -os.WTERMSIG(self.status)
        return os.WEXITSTATUS(self.status)

    def assert_restored(self):
        """The program left the alternate screen after it last entered it
        and gave the terminal its echo and line mode back."""
        raw = bytes(self.raw)
        assert raw.rfind(b"\x1b[?1049l") > raw.rfind(b"\x1b[?1049h") >= 0
        attrs = termios.tcgetattr(self.fd)
        assert attrs[3] & termios.ECHO and attrs[3] & termios.ICANON

    def close(self):
        if self.status is None:
            os.kill(self.pid, signal.SIGKILL)
            self._reap(block=True)
        os.close(self.fd)

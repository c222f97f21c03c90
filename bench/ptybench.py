"""The shared part of the full-screen benchmarks (S10 `local inspect`, S16 `sessions watch`;
imported by bench/inspect.py and bench/watch.py): a program on a pseudo-terminal and the
screen it draws, the emulator's calls, the facts file.

The screen is parsed by a small terminal model that knows what ratatui's crossterm backend
writes (cursor moves, erasures, SGR attributes, private modes ignored), so a row counts only
once it is drawn whole. Of the attributes it keeps reverse video alone: the one some screens
use to show the current row.
"""
import fcntl
import json
import os
import re
import select
import struct
import termios
import time
import urllib.request


class Screen:
    """Just enough of a terminal for ratatui: CUP, ED, EL, SGR and private modes."""

    CSI = re.compile(rb"\x1b\[([0-9;?]*)([A-Za-z@])")

    def __init__(self, rows, cols):
        self.rows, self.cols = rows, cols
        self.grid = [[" "] * cols for _ in range(rows)]
        self.rev = [[False] * cols for _ in range(rows)]
        self.r = self.c = 0
        self.reverse = False
        self.pending = b""

    def feed(self, data):
        data = self.pending + data
        self.pending = b""
        i = 0
        while i < len(data):
            b = data[i]
            if b == 0x1B:
                m = self.CSI.match(data, i)
                if m is None:
                    if len(data) - i < 16:
                        self.pending = data[i:]
                        return
                    i += 1
                    continue
                self.csi(m.group(1).decode(), m.group(2).decode())
                i = m.end()
            elif b == 0x0D:
                self.c = 0
                i += 1
            elif b == 0x0A:
                self.r = min(self.r + 1, self.rows - 1)
                i += 1
            elif b < 0x20:
                i += 1
            else:
                n = 1 if b < 0x80 else 2 if b >> 5 == 6 else 3 if b >> 4 == 14 else 4
                if i + n > len(data):
                    self.pending = data[i:]
                    return
                ch = data[i:i + n].decode("utf-8", "replace")
                if self.r < self.rows and self.c < self.cols:
                    self.grid[self.r][self.c] = ch
                    self.rev[self.r][self.c] = self.reverse
                self.c += 1
                i += n

    def csi(self, params, final):
        if params.startswith("?"):
            return
        nums = [int(p) if p else 0 for p in params.split(";")] if params else []
        if final == "H":
            self.r = max((nums[0] if nums else 1) - 1, 0)
            self.c = max((nums[1] if len(nums) > 1 else 1) - 1, 0)
        elif final == "J":
            self.grid = [[" "] * self.cols for _ in range(self.rows)]
            self.rev = [[False] * self.cols for _ in range(self.rows)]
        elif final == "K" and self.r < self.rows:
            for c in range(self.c, self.cols):
                self.grid[self.r][c] = " "
                self.rev[self.r][c] = False
        elif final == "m":
            for n in nums or [0]:
                if n in (0, 27):
                    self.reverse = False
                elif n == 7:
                    self.reverse = True

    def text(self):
        return "\n".join("".join(row) for row in self.grid)

    def reversed_rows(self):
        """The rows holding a character drawn in reverse video."""
        return [i for i, row in enumerate(self.rev) if any(row)]


class PtyProgram:
    """`argv` started on a pseudo-terminal of `rows` x `cols`, its output parsed as it comes."""

    def __init__(self, argv, env, rows, cols, what="bench"):
        self.what = what
        self.started = time.monotonic()
        # Started as subprocess starts a command (posix_spawn: no copy of this process), so a
        # screen's launch costs what `sessions list --json`'s does; pty.fork copies the whole
        # Python process first, which took ~2.5 ms longer here. The program leads a session of
        # its own whose controlling terminal is the pseudo-terminal (opened after setsid), so
        # it reads its size there, as it would in a terminal.
        self.fd, slave = os.openpty()
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        name = os.ttyname(slave)
        self.pid = os.posix_spawnp(argv[0], argv, env, setsid=True, file_actions=[
            (os.POSIX_SPAWN_CLOSE, self.fd),
            (os.POSIX_SPAWN_OPEN, 0, name, os.O_RDWR, 0),
            (os.POSIX_SPAWN_DUP2, 0, 1),
            (os.POSIX_SPAWN_DUP2, 0, 2),
        ])
        os.close(slave)
        self.screen = Screen(rows, cols)

    def pump(self, timeout):
        r, _, _ = select.select([self.fd], [], [], timeout)
        if r:
            try:
                self.screen.feed(os.read(self.fd, 65536))
            except OSError:
                pass

    def wait_for(self, pred, limit=60):
        """Reads the output until `pred(the screen's text)` holds; the moment it did."""
        return self.wait_screen(lambda screen: pred(screen.text()), limit)

    def wait_screen(self, pred, limit=60):
        """Reads the output until `pred(the screen)` holds; the moment it did."""
        start = time.monotonic()
        while not pred(self.screen):
            if time.monotonic() - start > limit:
                raise SystemExit(f"{self.what}: timed out; the screen:\n{self.screen.text()}")
            self.pump(0.05)
        return time.monotonic()

    def status_kib(self, key):
        """A line of /proc/PID/status in KiB (VmHWM: the peak RSS, VmRSS: the RSS now)."""
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
        return 0

    def peak_rss_kib(self):
        return self.status_kib("VmHWM")

    def quit(self, key=b"q"):
        os.write(self.fd, key)
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        os.close(self.fd)


def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def call(method, url, body=None):
    """One JSON request to the emulator; the answer's bytes."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json", "Accept": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.read()


def fact_writer(path):
    """fact(key, value): appends a key=value line to the facts file at `path`."""
    def fact(k, v):
        with open(path, "a") as f:
            f.write(f"{k}={v}\n")
    return fact

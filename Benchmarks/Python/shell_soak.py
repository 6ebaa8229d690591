"""One shell session against `app serve` for a while, the server restarted and frozen under it.

Runs `app` on a pseudo-terminal of its own, as a person would, against `app serve`, which
makes up a like every `--like-seconds` (APP_DEMO_LIKE_SECONDS). The shell shows page 1 once,
then sits at its prompt while banners arrive. Meanwhile:

- every `--restart-every` seconds the server is stopped, kill -9 and SIGTERM in turn, and
  started again on the same port and data (0: never);
- every `--freeze-every` seconds the server is frozen with SIGSTOP for `--freeze-for`
  seconds (it accepts connections and answers nothing), and the shell is used as a person
  would: `likes 2`, timed until its prompt comes back; `messages`, interrupted with Ctrl-C
  after a second, timed until its prompt comes back; then, once the server goes on, how long
  until the shell says `Back online` (0: never);
- the shell's resident memory (VmRSS) is read every minute.

At the end every like the server made while the shell was open, counted from its own
events, must have been shown as a banner exactly once. Prints a line per restart, freeze and
minute, then the totals, and exits 1 when a like was missed or shown twice, the banners did
not come back, or a prompt did not come back within its limit.

    python3 shell_soak.py --app PATH --minutes 10 --restart-every 60 [--down 5]
    python3 shell_soak.py --app PATH --minutes 60 --restart-every 0 --freeze-every 600 \\
        --like-seconds 3
"""

import argparse
import json
import os
import pty
import re
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

# The prompt must come back within the client's 15 s limit for a request, and at once after
# Ctrl-C: the figures are printed; these bounds only fail the run.
PAGE_LIMIT = 16.5
CTRL_C_LIMIT = 0.5


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, app, data, port, env):
        self.app, self.data, self.port, self.env = app, data, port, env
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [self.app, "serve", "--demo", "--port", str(self.port), "--data-dir", self.data],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=self.env)
        url = self.process.stdout.readline().decode().strip()
        if not url:
            sys.exit("app serve did not start")
        return url

    def stop(self, sig):
        self.process.send_signal(sig)
        self.process.wait(timeout=60)

    def signal(self, sig):
        self.process.send_signal(sig)


def request(url, method="GET", body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req, timeout=20) as answer:
        return json.loads(answer.read() or b"null")


class Shell:
    """The shell on its pseudo-terminal: what it drew, and keys to type."""

    def __init__(self, app, url, env):
        self.pid, self.terminal = pty.fork()
        if self.pid == 0:
            os.execve(app, [app, "--api-url", url], env)
        self.screen = bytearray()

    def read_for(self, seconds):
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([self.terminal], [], [], left)
            if ready:
                try:
                    self.screen.extend(os.read(self.terminal, 65536))
                except OSError:
                    return

    def wait_for(self, text, after, limit):
        """Seconds until `text` shows after byte `after`, or None after `limit`."""
        started = time.monotonic()
        while time.monotonic() - started < limit:
            if self.screen.find(text, after) >= 0:
                return time.monotonic() - started
            self.read_for(0.01)
        return None

    def type(self, keys):
        os.write(self.terminal, keys)

    def prompt_after(self, mark, limit):
        """Seconds until a prompt is drawn after byte `mark` (its `> ` at the end)."""
        started = time.monotonic()
        while time.monotonic() - started < limit:
            tail = self.screen[mark:]
            if re.search(rb"> (\x1b\[J)?$", bytes(tail.rstrip(b" ")) + b" ") and b"\n" in tail:
                return time.monotonic() - started
            self.read_for(0.01)
        return None

    def rss_kb(self):
        with open("/proc/%d/status" % self.pid) as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0


def freeze(server, shell, freeze_for):
    """Freezes the server, uses the shell as a person would, and lets the server go on."""
    server.signal(signal.SIGSTOP)
    frozen = time.monotonic()
    mark = len(shell.screen)
    # Asked at once, the server not yet known to be frozen: the request waits, and Ctrl-C
    # cancels it.
    shell.type(b"messages\r")
    shell.read_for(1)
    ctrl_c_mark = len(shell.screen)
    shell.type(b"\x03")
    ctrl_c = shell.prompt_after(ctrl_c_mark, 30)
    page_mark = len(shell.screen)
    shell.type(b"likes 2\r")
    page = shell.prompt_after(page_mark, 40)
    shell.read_for(max(0, freeze_for - (time.monotonic() - frozen)))
    back_mark = len(shell.screen)
    server.signal(signal.SIGCONT)
    back = shell.wait_for(b"Back online: ", back_mark, 60)
    offline = shell.screen.find(b"Offline: ", mark) >= 0
    return page, ctrl_c, back, offline


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", required=True)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--restart-every", type=float, default=60)
    parser.add_argument("--down", type=float, default=0,
                        help="seconds the server stays stopped before it starts again")
    parser.add_argument("--freeze-every", type=float, default=0)
    parser.add_argument("--freeze-for", type=float, default=25)
    parser.add_argument("--like-seconds", type=float, default=1)
    options = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="shell-soak-")
    env = dict(os.environ, APP_DEMO_LIKE_SECONDS=str(options.like_seconds), NO_COLOR="1",
               TERM="xterm-256color", APP_DATA_DIR=os.path.join(scratch, "device"))
    env.pop("APP_API_URL", None)
    server = Server(options.app, os.path.join(scratch, "server"), free_port(), env)
    url = server.start()

    login = subprocess.run(
        [options.app, "login", "--api-url", url, "--username", "demo", "--password-stdin"],
        input=b"demo-password", env=env, capture_output=True)
    if login.returncode != 0:
        sys.exit("login failed: " + login.stderr.decode())
    # A session of the soak's own, to read the server's events at the end.
    token = request(url + "/oauth/token", "POST", {
        "grant_type": "password", "username": "demo", "password": "demo-password"})["access_token"]
    start_seq = request(url + "/events?after=%d&wait=0" % (2**62), token=token)["last"]

    shell = Shell(options.app, url, env)
    if shell.wait_for(b"Signed in as demo", 0, 30) is None:
        sys.exit("the shell did not open: " + shell.screen.decode("utf-8", "replace"))
    shell.read_for(1)
    shell.type(b"likes\r")
    if shell.wait_for(b"Liked you: page 1", 0, 30) is None:
        sys.exit("page 1 did not show: " + shell.screen.decode("utf-8", "replace"))
    began = time.monotonic()
    end = began + options.minutes * 60
    next_restart = began + options.restart_every if options.restart_every > 0 else None
    next_freeze = began + options.freeze_every if options.freeze_every > 0 else None
    next_sample = began
    samples, restarts, freezes = [], [], []
    kind = 0
    while True:
        now = time.monotonic()
        if now >= next_sample:
            banners = shell.screen.count(b"New like: ")
            samples.append((round((now - began) / 60), banners, shell.rss_kb()))
            print("minute %3d: %5d banners, RSS %6d KB" % samples[-1], flush=True)
            next_sample += 60
        if next_restart is not None and now >= next_restart and now + 30 < end:
            sig = (signal.SIGKILL, signal.SIGTERM)[kind % 2]
            kind += 1
            mark = len(shell.screen)
            server.stop(sig)
            shell.read_for(options.down)
            server.start()
            # A restart is quick: the shell may see one failed poll (a blip, not said) or go
            # offline and back. Either way the banners must come back.
            banner = shell.wait_for(b"New like: ", len(shell.screen), 90)
            offline = shell.screen.find(b"Offline: ", mark) >= 0
            restarts.append((signal.Signals(sig).name, banner, offline))
            print("restart %2d (%s): next banner %s s after it started again, offline said: %s"
                  % (len(restarts), signal.Signals(sig).name,
                     "never" if banner is None else "%.1f" % banner, "yes" if offline else "no"),
                  flush=True)
            next_restart += options.restart_every
        if next_freeze is not None and now >= next_freeze and now + 90 < end:
            freezes.append(freeze(server, shell, options.freeze_for))
            page, ctrl_c, back, offline = freezes[-1]
            show = lambda v: "never" if v is None else "%.2f s" % v
            print("freeze %2d: likes 2 back in %s, Ctrl-C back in %s, Back online %s after it "
                  "went on, offline said: %s" % (len(freezes), show(page), show(ctrl_c),
                                                 show(back), "yes" if offline else "no"),
                  flush=True)
            next_freeze += options.freeze_every
        if time.monotonic() >= end:
            break
        shell.read_for(max(0.0, min(next_sample, end) - time.monotonic()))
    # The last likes' banners are on their way: a few seconds more, with no new ones made
    # after the count below is taken.
    shell.type(b"\x04")
    shell.read_for(5)
    try:
        os.kill(shell.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    os.waitpid(shell.pid, 0)

    transcript = os.path.join(scratch, "screen.txt")
    with open(transcript, "wb") as f:
        f.write(shell.screen)
    print("the screen as the shell drew it: " + transcript, flush=True)
    events = request(url + "/events?after=%d&wait=0" % start_seq, token=token)["events"]
    server.stop(signal.SIGTERM)
    made = [e["item"]["id"][:8] for e in events if e["type"] == "likedYouInserted"]
    text = shell.screen.decode("utf-8", "replace")
    shown = re.findall(r"New like: ([0-9a-f]{8})", text)
    missed = [i for i in made if shown.count(i) == 0]
    repeated = sorted({i for i in shown if shown.count(i) > 1})
    strangers = [i for i in shown if i not in made]
    gaps = [b for _, b, _ in restarts if b is not None]
    print()
    print("minutes: %.1f, restarts: %d (kill -9 and SIGTERM in turn), freezes: %d" % (
        (time.monotonic() - began) / 60, len(restarts), len(freezes)))
    print("likes made by the server: %d; banners shown: %d" % (len(made), len(shown)))
    print("missed: %d, shown twice: %d, shown but never made: %d" % (
        len(missed), len(repeated), len(strangers)))
    if gaps:
        print("banners again after a restart: median %.1f s, most %.1f s" % (
            statistics.median(gaps), max(gaps)))
    slow = []
    if freezes:
        pages = [p for p, _, _, _ in freezes if p is not None]
        ctrl_cs = [c for _, c, _, _ in freezes if c is not None]
        backs = [b for _, _, b, _ in freezes if b is not None]
        print("frozen: likes 2 back in %.2f–%.2f s, Ctrl-C back in %.2f–%.2f s, Back online "
              "%.1f–%.1f s after it went on" % (
                  min(pages, default=0), max(pages, default=0), min(ctrl_cs, default=0),
                  max(ctrl_cs, default=0), min(backs, default=0), max(backs, default=0)))
        slow = [f for f in freezes if f[0] is None or f[0] > PAGE_LIMIT or f[1] is None
                or f[1] > CTRL_C_LIMIT or f[2] is None]
    if len(samples) >= 2:
        first, last = samples[1], samples[-1]
        grown = last[2] - first[2]
        per = grown / max(1, last[1] - first[1])
        print("RSS from minute %d to %d: %d KB to %d KB, %+d KB over %d banners (%.2f KB each)"
              % (first[0], last[0], first[2], last[2], grown, last[1] - first[1], per))
    print("said: Offline %d times, Back online %d times, errors %d" % (
        text.count("Offline: "), text.count("Back online: "), text.count("error:")))
    ok = (not missed and not repeated and not strangers and len(gaps) == len(restarts)
          and not slow)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

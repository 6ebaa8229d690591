"""One shell session against `app serve` for a while, the server restarted under it.

Runs `app` on a pseudo-terminal of its own, as a person would, against `app serve`, which
makes up a like every second (APP_DEMO_LIKE_SECONDS=1). Every `--restart-every` seconds the
server is stopped, kill -9 and SIGTERM in turn, and started again on the same port and
data. At the end every like the server made while the shell was open, counted from its own
events, must have been shown as a banner exactly once.

Prints one line per restart (how long until the next banner, and whether the shell went
offline), then the totals, and exits 1 when a like was missed or shown twice, or the banners
did not come back after a restart.

    python3 shell_soak.py --app PATH --minutes 10 --restart-every 60 [--down 5]
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
            [self.app, "serve", "--port", str(self.port), "--data-dir", self.data],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=self.env)
        url = self.process.stdout.readline().decode().strip()
        if not url:
            sys.exit("app serve did not start")
        return url

    def stop(self, sig):
        self.process.send_signal(sig)
        self.process.wait(timeout=60)


def request(url, method="GET", body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req, timeout=20) as answer:
        return json.loads(answer.read() or b"null")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--app", required=True)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--restart-every", type=float, default=60)
    parser.add_argument("--down", type=float, default=0,
                        help="seconds the server stays stopped before it starts again")
    options = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="shell-soak-")
    env = dict(os.environ, APP_DEMO_LIKE_SECONDS="1", NO_COLOR="1", TERM="xterm-256color",
               APP_DATA_DIR=os.path.join(scratch, "device"))
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

    pid, terminal = pty.fork()
    if pid == 0:
        os.execve(options.app, [options.app, "--api-url", url], env)
    screen = bytearray()

    def read_for(seconds):
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([terminal], [], [], left)
            if ready:
                try:
                    screen.extend(os.read(terminal, 65536))
                except OSError:
                    return

    def wait_for(text, after, limit):
        started = time.monotonic()
        while time.monotonic() - started < limit:
            if screen.find(text, after) >= 0:
                return time.monotonic() - started
            read_for(0.05)
        return None

    if wait_for(b"Signed in as demo", 0, 30) is None:
        sys.exit("the shell did not open: " + screen.decode("utf-8", "replace"))
    began = time.monotonic()
    end = began + options.minutes * 60
    restarts = []
    kind = 0
    while time.monotonic() + options.restart_every < end:
        read_for(options.restart_every)
        sig = (signal.SIGKILL, signal.SIGTERM)[kind % 2]
        kind += 1
        mark = len(screen)
        server.stop(sig)
        read_for(options.down)
        server.start()
        # A restart is quick: the shell may see one failed poll (a blip, not said) or go
        # offline and back. Either way the banners must come back.
        banner = wait_for(b"New like: ", len(screen), 90)
        offline = screen.find(b"Offline: ", mark) >= 0
        # Measured from the start again: the time it was down is the operator's.
        restarts.append((signal.Signals(sig).name, banner, offline))
        print("restart %2d (%s): next banner %s s after it started again, offline said: %s" % (
            len(restarts), signal.Signals(sig).name,
            "never" if banner is None else "%.1f" % banner, "yes" if offline else "no"),
            flush=True)
    read_for(max(0, end - time.monotonic()))
    # The last likes' banners are on their way: a few seconds more, with no new ones made
    # after the count below is taken.
    os.write(terminal, b"\x04")
    read_for(5)
    os.kill(pid, signal.SIGTERM)
    os.waitpid(pid, 0)

    transcript = os.path.join(scratch, "screen.txt")
    with open(transcript, "wb") as f:
        f.write(screen)
    print("the screen as the shell drew it: " + transcript)
    events = request(url + "/events?after=%d&wait=0" % start_seq, token=token)["events"]
    server.stop(signal.SIGTERM)
    made = [e["item"]["id"][:8] for e in events if e["type"] == "likedYouInserted"]
    text = screen.decode("utf-8", "replace")
    shown = re.findall(r"New like: ([0-9a-f]{8})", text)
    missed = [i for i in made if shown.count(i) == 0]
    repeated = sorted({i for i in shown if shown.count(i) > 1})
    strangers = [i for i in shown if i not in made]
    gaps = [b for _, b, _ in restarts if b is not None]
    print()
    print("minutes: %.1f, restarts: %d (kill -9 and SIGTERM in turn)" % (
        (time.monotonic() - began) / 60, len(restarts)))
    print("likes made by the server: %d; banners shown: %d" % (len(made), len(shown)))
    print("missed: %d, shown twice: %d, shown but never made: %d" % (
        len(missed), len(repeated), len(strangers)))
    if gaps:
        print("banners again after a restart: median %.1f s, most %.1f s" % (
            statistics.median(gaps), max(gaps)))
    print("said: Offline %d times, Back online %d times, errors %d" % (
        text.count("Offline: "), text.count("Back online: "), text.count("error:")))
    ok = not missed and not repeated and not strangers and len(gaps) == len(restarts)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

"""Thousands of clients waiting on `GET /events` of one `app serve`, as scripts/realtime-benchmark
runs it: how much the waiting costs the server, how fast a like reaches its poll, and how an
ordinary read fares meanwhile. Python's standard library only (asyncio, raw HTTP/1.1).

    python3 realtime_polls.py --url URL --pid PID --polls 5000 --likes 100
    python3 realtime_polls.py --url URL1 --pid PID1 --url URL2 --pid PID2 …

With several instances (one database), the polls are spread over them in turn, and each like
back is sent to another instance than the one its poll waits on: the time it takes is the
time an event takes to cross from one instance to another.

Every poll is a connection of its own, kept alive and asked again as soon as it is answered,
as the app's realtime does. Accounts are signed up first (the server should hash with few
rounds: APP_PASSWORD_ROUNDS=1000), and the made-up likes should not come while measuring
(APP_DEMO_LIKE_SECONDS set far apart), so that a poll is answered only by what the benchmark
does.
"""

import argparse
import asyncio
import json
import os
import statistics
import time


class Connection:
    """One keep-alive HTTP/1.1 connection: a request at a time, bodies by Content-Length."""

    def __init__(self, host, port):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def request(self, method, target, token=None, body=None):
        if self.writer is None:
            await self.open()
        payload = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {target} HTTP/1.1\r\nHost: {self.host}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        head += f"Content-Length: {len(payload)}\r\n\r\n"
        self.writer.write(head.encode() + payload)
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        data = await self.reader.readexactly(length) if length else b""
        return status, data

    def close(self):
        if self.writer is not None:
            self.writer.close()


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def process_figures(pid):
    """Resident memory in MB and CPU seconds so far, from /proc."""
    with open(f"/proc/{pid}/status") as status:
        rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return rss, cpu


async def in_batches(items, size, work):
    """`work` on every item, `size` at a time at most."""
    gate = asyncio.Semaphore(size)

    async def one(item):
        async with gate:
            return await work(item)

    return await asyncio.gather(*(one(item) for item in items))


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", action="append", required=True)
    parser.add_argument("--pid", type=int, action="append", required=True)
    parser.add_argument("--polls", type=int, default=5000)
    parser.add_argument("--likes", type=int, default=100)
    parser.add_argument("--reads", type=int, default=1000)
    arguments = parser.parse_args()
    if len(arguments.url) != len(arguments.pid):
        parser.error("give one --pid for each --url")
    instances = [(host, int(port)) for host, port in
                 (url.removeprefix("http://").split(":") for url in arguments.url)]
    host, port = instances[0]

    def instance_of(index):
        """The instance the index-th account's poll waits on."""
        return instances[index % len(instances)]

    def other_instance_of(index):
        """Another instance than `instance_of(index)`: where its like back is sent."""
        return instances[(index + 1) % len(instances)]
    run = f"{int(time.time()) % 100000}"

    async def sign_up(index):
        connection = Connection(host, port)
        try:
            body = {"username": f"rt{run}-{index}", "password": f"password-{index}",
                    "name": f"Waiting {index}"}
            status, data = await connection.request("POST", "/auth/signup", body=body)
            if status != 201:
                raise RuntimeError(f"sign-up answered {status}: {data[:200]!r}")
            return json.loads(data)["access_token"]
        finally:
            connection.close()

    started = time.monotonic()
    tokens = await in_batches(range(arguments.polls), 16, sign_up)
    print(f"signed up {len(tokens)} accounts in {time.monotonic() - started:.1f} s", flush=True)

    # Each account's events so far, and one like to answer for the sampled ones.
    sampled = tokens[: arguments.likes]
    likes = {}

    async def prepare(token):
        connection = Connection(host, port)
        try:
            status, data = await connection.request("GET", "/events?after=0&wait=0", token)
            last = json.loads(data)["last"]
            if token in sampled_set:
                status, data = await connection.request("GET", "/likes?page=1&batchSize=1", token)
                likes[token] = json.loads(data)["data"][0]["id"]
            return last
        finally:
            connection.close()

    sampled_set = set(sampled)
    started = time.monotonic()
    lasts = await in_batches(tokens, 32, prepare)
    print(f"read each account's events and likes in {time.monotonic() - started:.1f} s",
          flush=True)

    # The polls: each asks again as soon as it is answered, from the last it saw.
    answered = {}  # token -> (time, types) of the answers with events
    waiting = {"count": 0}
    ready = asyncio.Event()

    async def poll(token, last, instance):
        connection = Connection(*instance)
        await connection.open()
        while True:
            waiting["count"] += 1
            if waiting["count"] >= arguments.polls:
                ready.set()
            status, data = await connection.request(
                "GET", f"/events?after={last}&wait=30", token)
            waiting["count"] -= 1
            if status != 200:
                raise RuntimeError(f"a poll answered {status}: {data[:200]!r}")
            batch = json.loads(data)
            last = batch["last"]
            if batch["events"]:
                answered.setdefault(token, []).append(
                    (time.monotonic(), [event["type"] for event in batch["events"]]))

    poll_tasks = [asyncio.create_task(poll(token, last, instance_of(index)))
                  for index, (token, last) in enumerate(zip(tokens, lasts))]
    started = time.monotonic()
    await asyncio.wait_for(ready.wait(), timeout=300)
    print(f"all {arguments.polls} polls sent in {time.monotonic() - started:.1f} s", flush=True)
    # Every poll has been sent; the server has them once it has read each one's events (on
    # PostgreSQL, a few queries a poll: a tail of seconds after the last was sent).
    await asyncio.sleep(5)
    before = [process_figures(pid) for pid in arguments.pid]
    await asyncio.sleep(5)
    after = [process_figures(pid) for pid in arguments.pid]
    for number, ((rss, cpu_before), (_, cpu_after)) in enumerate(zip(before, after), 1):
        idle_cpu = (cpu_after - cpu_before) / 5
        each = (f" on instance {number} of {len(instances)}" if len(instances) > 1 else "")
        waiting_here = len(range(number - 1, arguments.polls, len(instances)))
        print(f"{waiting_here} polls waiting{each}: RSS {rss:.0f} MB, "
              f"CPU {idle_cpu * 100:.1f} % of a core while they wait", flush=True)

    # A like back for each sampled account, ten a second: how long until its poll answers.
    delays = []
    likers = {instance: Connection(*instance) for instance in instances}
    for index, token in enumerate(sampled):
        liker = likers[other_instance_of(index)]
        sent = time.monotonic()
        status, data = await liker.request("POST", f"/likes/{likes[token]}/like", token)
        if status != 200:
            raise RuntimeError(f"a like back answered {status}: {data[:200]!r}")
        for _ in range(300):
            if token in answered:
                break
            await asyncio.sleep(0.005)
        if token in answered:
            delays.append(answered[token][0][0] - sent)
        await asyncio.sleep(0.1)
    for liker in likers.values():
        liker.close()
    missed = len(sampled) - len(delays)
    crossing = " from another instance" if len(instances) > 1 else ""
    print(f"likes reaching their poll{crossing}: {len(delays)} of {len(sampled)}, "
          f"p50 {percentile(delays, 0.5) * 1000:.1f} ms, p99 {percentile(delays, 0.99) * 1000:.1f} ms"
          + (f", {missed} not within 1.5 s" if missed else ""), flush=True)

    # Ordinary reads meanwhile: the likes page, eight clients at once.
    read_times = []

    async def reader(token, count, instance):
        connection = Connection(*instance)
        for _ in range(count):
            sent = time.monotonic()
            status, _ = await connection.request("GET", "/likes?page=1&batchSize=10", token)
            if status != 200:
                raise RuntimeError(f"a read answered {status}")
            read_times.append(time.monotonic() - sent)
        connection.close()

    await asyncio.gather(*(reader(tokens[-1 - i], arguments.reads // 8, instance_of(i))
                           for i in range(8)))
    print(f"likes page while they wait: {len(read_times)} reads, "
          f"p50 {statistics.median(read_times) * 1000:.1f} ms, "
          f"p99 {percentile(read_times, 0.99) * 1000:.1f} ms", flush=True)
    ends = ", ".join(f"{process_figures(pid)[0]:.0f} MB" for pid in arguments.pid)
    print(f"RSS at the end: {ends}", flush=True)
    for task in poll_tasks:
        task.cancel()


if __name__ == "__main__":
    asyncio.run(main())

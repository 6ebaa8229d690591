"""Pairs of accounts talking across two `app serve` instances on one PostgreSQL database, as
scripts/people-benchmark runs it: how long a message takes from its sender, on one instance,
to the long poll its receiver holds on the other. Python's standard library only.

    python3 pairs_talking.py --url URL_A --url URL_B --pairs 1000 --messages 3000 --rate 100

Every account is signed up and every pair matched through the API (section 5: a like each
way), on instance A. Each pair's receiver then holds `GET /events?after=…&wait=30` on
instance B, asked again as soon as it is answered, as the app's watch does, while the
senders write to them on instance A, `--rate` messages a second in all, each pair in turn.
A message's time is from just before its `POST /messages` to the answer of the poll that
carries its `message` event. The server should hash with few rounds
(APP_PASSWORD_ROUNDS=1000) and lift the pacing of likes and messages.
"""

import argparse
import asyncio
import json
import time

from realtime_polls import Connection, in_batches, percentile


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", action="append", required=True)
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--messages", type=int, default=3000)
    parser.add_argument("--rate", type=float, default=100)
    arguments = parser.parse_args()
    if len(arguments.url) != 2:
        parser.error("give two --url: the senders' instance, then the receivers'")
    a, b = [(host, int(port)) for host, port in
            (url.removeprefix("http://").split(":") for url in arguments.url)]
    run = f"{int(time.time()) % 100000}"

    async def sign_up(index):
        connection = Connection(*a)
        try:
            name = f"pair{run}-{index}"
            body = {"username": name, "password": f"password-{index}", "name": f"Talker {index}"}
            status, data = await connection.request("POST", "/auth/signup", body=body)
            if status != 201:
                raise RuntimeError(f"sign-up answered {status}: {data[:200]!r}")
            token = json.loads(data)["access_token"]
            status, data = await connection.request("GET", "/me", token)
            return {"name": name, "token": token, "id": json.loads(data)["id"]}
        finally:
            connection.close()

    started = time.monotonic()
    accounts = await in_batches(range(2 * arguments.pairs), 16, sign_up)
    pairs = [(accounts[2 * i], accounts[2 * i + 1]) for i in range(arguments.pairs)]
    print(f"signed up {len(accounts)} accounts in {time.monotonic() - started:.1f} s", flush=True)

    async def match(pair):
        sender, receiver = pair
        connection = Connection(*a)
        try:
            for liker, liked in ((sender, receiver), (receiver, sender)):
                status, data = await connection.request(
                    "POST", f"/people/{liked['id']}/like", liker["token"])
                if status != 200:
                    raise RuntimeError(f"a like answered {status}: {data[:200]!r}")
            if not json.loads(data)["mutualMatch"]:
                raise RuntimeError("a like back was no match")
            status, data = await connection.request(
                "GET", "/events?after=0&wait=0", receiver["token"])
            return json.loads(data)["last"]
        finally:
            connection.close()

    started = time.monotonic()
    lasts = await in_batches(pairs, 16, match)
    print(f"matched {len(pairs)} pairs in {time.monotonic() - started:.1f} s", flush=True)

    arrived = {}  # subject -> the time its poll answered
    poll_failures = []
    waiting = {"count": 0}
    ready = asyncio.Event()

    async def poll(receiver, last):
        connection = Connection(*b)
        try:
            await connection.open()
            while True:
                waiting["count"] += 1
                if waiting["count"] >= len(pairs):
                    ready.set()
                status, data = await connection.request(
                    "GET", f"/events?after={last}&wait=30", receiver["token"])
                waiting["count"] -= 1
                now = time.monotonic()
                if status != 200:
                    poll_failures.append(f"{status} {data[:120]!r}")
                    return
                batch = json.loads(data)
                last = batch["last"]
                for event in batch["events"]:
                    if event["type"] == "message":
                        arrived.setdefault(event["message"]["subject"], now)
        finally:
            # Closed, not left to the exit: the server holds a poll's place until it sees
            # the connection go.
            connection.close()

    polls = [asyncio.create_task(poll(receiver, last))
             for (_, receiver), last in zip(pairs, lasts)]
    while not ready.is_set():
        if poll_failures:
            raise SystemExit(f"{len(poll_failures)} polls refused, first: {poll_failures[0]}")
        await asyncio.sleep(0.1)
    # Every poll is sent; the server holds them once it has read each one's events.
    await asyncio.sleep(3)

    senders = [Connection(*a) for _ in range(16)]
    sent = {}
    failures = []

    async def send(index):
        sender, receiver = pairs[index % len(pairs)]
        subject = f"m{index}"
        connection = senders[index % len(senders)]
        sent[subject] = time.monotonic()
        status, data = await connection.request("POST", "/messages", sender["token"], body={
            "user": receiver["name"], "operation": "add_message", "subject": subject,
            "message": f"message {index} of the benchmark"})
        if status != 200 or json.loads(data)["statusCode"] != 200:
            failures.append(f"{status} {data[:120]!r}")

    started = time.monotonic()
    gates = [asyncio.Lock() for _ in senders]

    async def send_on_its_connection(index):
        async with gates[index % len(senders)]:
            await send(index)

    tasks = []
    for index in range(arguments.messages):
        due = started + index / arguments.rate
        await asyncio.sleep(max(0, due - time.monotonic()))
        tasks.append(asyncio.create_task(send_on_its_connection(index)))
    await asyncio.gather(*tasks)
    sending = time.monotonic() - started
    deadline = time.monotonic() + 10
    while len(arrived) < len(sent) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    for task in polls:
        task.cancel()
    await asyncio.gather(*polls, return_exceptions=True)
    for connection in senders:
        connection.close()

    delays = [arrived[subject] - at for subject, at in sent.items() if subject in arrived]
    missing = len(sent) - len(delays)
    print(f"{len(sent)} messages over {len(pairs)} pairs in {sending:.1f} s "
          f"({len(sent) / sending:.0f}/s), sent on A, polled on B: "
          f"p50 {percentile(delays, 0.5) * 1000:.1f} ms, p99 {percentile(delays, 0.99) * 1000:.1f} ms, "
          f"max {max(delays) * 1000:.1f} ms"
          + (f"; {missing} never arrived" if missing else "")
          + (f"; {len(failures)} sends failed, first: {failures[0]}" if failures else ""),
          flush=True)


asyncio.run(main())

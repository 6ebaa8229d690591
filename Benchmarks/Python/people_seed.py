"""Seeds a served backend's database for scripts/people-benchmark, through SQL, not sign-ups.

    people_seed.py sqlite FILE ACCOUNTS LIKES BENCH_ID
    people_seed.py postgres ACCOUNTS LIKES BENCH_ID      (SQL on stdout, for psql)

ACCOUNTS accounts (ids `%08x-0000-4000-8000-000000000000`, usernames `p<N>`), LIKES likes
between random pairs of them (pending, or matched both ways one time in ten), and for the
benchmark's own account BENCH_ID (signed up through the API): 200 matches with 5 messages
each (usernames p1 to p200), and 100 pending likes (p201 to p300). Random with a fixed
seed: the same database every run.
"""
import random
import sqlite3
import sys

HASH = "pbkdf2-sha256$1000$c2FsdA==$bm90LWEtcmVhbC1oYXNo"


def account_id(n):
    return "%08x-0000-4000-8000-000000000000" % n


def rows(accounts, likes, bench):
    rng = random.Random(20261206)
    seq = 0
    people = [(account_id(n), "p%d" % n, "Person %d" % n, n) for n in range(1, accounts + 1)]
    like_rows = {}
    for n in range(1, 201):
        seq += 1
        like_rows[(bench, account_id(n))] = ("p%d" % n, "Person %d" % n, seq, "matched", seq)
        like_rows[(account_id(n), bench)] = ("bench", "Bench", seq, "matched", seq)
    for n in range(201, 301):
        seq += 1
        like_rows[(bench, account_id(n))] = ("p%d" % n, "Person %d" % n, seq, "pending", None)
    while len(like_rows) < likes:
        liked, liker = rng.randint(1, accounts), rng.randint(1, accounts)
        if liked == liker or (account_id(liked), account_id(liker)) in like_rows:
            continue
        seq += 1
        matched = rng.random() < 0.1
        like_rows[(account_id(liked), account_id(liker))] = (
            "p%d" % liker, "Person %d" % liker, seq, "matched" if matched else "pending",
            seq if matched else None)
        if matched:
            like_rows[(account_id(liker), account_id(liked))] = (
                "p%d" % liked, "Person %d" % liked, seq, "matched", seq)
    talk = []
    for n in range(1, 201):
        low, high = sorted([bench, account_id(n)])
        for m in range(5):
            author = bench if m % 2 == 0 else account_id(n)
            talk.append((low, high, author, "subject %d" % m, "message %d of %d" % (m, n),
                         1800000000 + m))
    return people, like_rows, talk


def seed_sqlite(path, accounts, likes, bench):
    people, like_rows, talk = rows(accounts, likes, bench)
    db = sqlite3.connect(path, timeout=30)
    db.execute("UPDATE account SET joinedSeq = ? WHERE id = ?", (accounts + 1, bench))
    db.executemany(
        "INSERT INTO account (id, username, name, passwordHash, joinedSeq) VALUES (?, ?, ?, '%s', ?)"
        % HASH, people)
    db.executemany(
        "INSERT INTO incomingLike (accountID, id, userName, name, seq, status, matchedSeq) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(a, i) + v for (a, i), v in like_rows.items()])
    db.executemany(
        "INSERT INTO talkMessage (lowID, highID, authorID, subject, text, sentAt) "
        "VALUES (?, ?, ?, ?, ?, ?)", talk)
    db.commit()
    db.execute("ANALYZE")
    db.commit()


def quote(value):
    if value is None:
        return "\\N"
    return str(value).replace("\\", "\\\\").replace("\t", "\\t")


def seed_postgres(accounts, likes, bench):
    people, like_rows, talk = rows(accounts, likes, bench)
    out = sys.stdout
    out.write("BEGIN;\n")
    out.write("COPY account (id, username, name, password_hash, joined_seq) FROM stdin;\n")
    for (i, username, name, joined) in people:
        out.write("\t".join(quote(v) for v in (i, username, name, HASH, joined)) + "\n")
    out.write("\\.\n")
    out.write("UPDATE account SET joined_seq = %d WHERE id = '%s';\n" % (accounts + 1, bench))
    out.write("COPY incoming_like (account_id, id, user_name, name, seq, status, matched_seq) FROM stdin;\n")
    for (a, i), v in like_rows.items():
        out.write("\t".join(quote(x) for x in (a, i) + v) + "\n")
    out.write("\\.\n")
    out.write("COPY talk_message (low_id, high_id, author_id, subject, text, sent_at) FROM stdin;\n")
    for row in talk:
        out.write("\t".join(quote(v) for v in row) + "\n")
    out.write("\\.\n")
    out.write("SELECT setval('account_joined_seq_seq', %d);\n" % (accounts + 1))
    out.write("SELECT setval('like_order', (SELECT MAX(seq) FROM incoming_like) + 1);\n")
    out.write("COMMIT;\nANALYZE;\n")


if __name__ == "__main__":
    if sys.argv[1] == "sqlite":
        seed_sqlite(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    else:
        seed_postgres(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])

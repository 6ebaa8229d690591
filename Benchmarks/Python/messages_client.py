"""The Python client the messages benchmark measures the app against: the same fetch,
the envelope and its body each read with one `json.loads`, names sorted case-insensitively
(then by their bytes), and the same text the app prints.

    python3 messages_client.py BASE_URL TOKEN
"""

import json
import re
import sys
import urllib.request

# What the app shows as an escape: C0 controls other than tab and newline, DEL, C1.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
CONTROL_OR_NEWLINE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f]")


def escape(match):
    return "\\u{%x}" % ord(match.group(0))


def main():
    base, token = sys.argv[1], sys.argv[2]
    request = urllib.request.Request(base + "/messages",
                                     headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request) as response:
        raw = response.read()
    envelope = json.loads(raw)
    if envelope["statusCode"] != 200:
        sys.exit(f"error: status {envelope['statusCode']}")
    people = json.loads(envelope["body"])
    names = sorted(people, key=lambda name: (name.lower(), name.encode()))
    out = sys.stdout
    for position, name in enumerate(names):
        messages = people[name]
        count = {0: "no messages", 1: "1 message"}.get(len(messages), f"{len(messages)} messages")
        lines = [f"{CONTROL_OR_NEWLINE.sub(escape, name)} — {count}"]
        for message in messages:
            subject = CONTROL.sub(escape, message["subject"]).replace("\n", "\n    ")
            text = CONTROL.sub(escape, message["message"]).replace("\n", "\n    ")
            lines.append("  • " + subject)
            lines.append("    " + text)
        if position:
            out.write("\n\n")
        out.write("\n".join(lines))
    out.write("\n")


if __name__ == "__main__":
    main()

"""Schemathesis hooks for scripts/api-fuzz.

`GET /events` is a long poll: a `wait` of up to 30 s is within the contract, and a run of
hundreds of cases would spend most of its time waiting. Valid waits are cut to at most 1 s
before each call, in every phase; values outside 0..30 are sent as generated, so the
server's 422 for them is still tested.
"""
import schemathesis


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    if case.operation.path == "/events" and case.query:
        wait = case.query.get("wait")
        # The coverage phase sends its values as text, the fuzzing phase as numbers.
        try:
            seconds = int(wait)
        except (TypeError, ValueError):
            return
        if str(seconds) == str(wait).strip() and 0 <= seconds <= 30:
            case.query["wait"] = min(seconds, 1)

"""Schemathesis hooks for scripts/schemathesis (loaded through SCHEMATHESIS_HOOKS).

Both deal with libmicrohttpd's memory pool per connection (`--connection-memory-limit`, 8 KiB by
default), which holds the request line, the header fields and one record (about 64 bytes) per
query argument, and is full before the server sees the request:

- A request line or header fields larger than the pool are refused by libmicrohttpd with 414 URI
  Too Long or 431 Request Header Fields Too Large and a small HTML body (no problem details, no
  Content-Type). openapi.yaml does not list these answers (they are libmicrohttpd's, on any
  path), so every check fails on them. `filter_failure` drops the failures on those answers, and
  only on those; Schemathesis counts them in its summary as dropped by `filter_failure`.

- A request line that fits but whose query arguments then fill the pool (about a hundred of them;
  Schemathesis repeats a query parameter to test arrays) is never answered by libmicrohttpd 0.9.75
  (Debian 12's): the connection hangs until the connection timeout closes it. `filter_case` does
  not send such requests: none with more than 32 query values, or a query longer than 4 KiB.
  The server's own queries have at most two parameters.
"""

from urllib.parse import urlencode

import schemathesis

LIBMICROHTTPD_REQUEST_TOO_BIG = b"<html><head><title>Request too big</title>"
MAX_QUERY_VALUES = 32
MAX_QUERY_BYTES = 4096


@schemathesis.hook
def filter_failure(context, failure, case, response) -> bool:
    too_big = response.status_code in (414, 431) and response.content.startswith(LIBMICROHTTPD_REQUEST_TOO_BIG)
    return not too_big


@schemathesis.hook
def filter_case(context, case) -> bool:
    query = case.query if isinstance(case.query, dict) else {}
    pairs = [(str(name), str(item)) for name, value in query.items()
             for item in (value if isinstance(value, list) else [value])]
    return len(pairs) <= MAX_QUERY_VALUES and len(urlencode(pairs)) <= MAX_QUERY_BYTES

"""Schemathesis hooks for scripts/schemathesis (loaded through SCHEMATHESIS_HOOKS).

Both deal with libmicrohttpd's memory pool per connection (`--connection-memory-limit`, 4 KiB by
default), which holds the request line, the header fields and one record per query argument:

- A query whose arguments would not fit answers 414 `uri-too-long` (problem details) from the
  server, and a request line or header fields larger than the pool are refused by libmicrohttpd
  with 414 URI Too Long or 431 Request Header Fields Too Large and a small HTML body. openapi.yaml
  lists these among the answers any path may give, not under each operation, so Schemathesis
  counts them as undocumented statuses. `filter_failure` drops the failures on those answers, and
  only on those; Schemathesis counts them in its summary as dropped by `filter_failure`.

- A request line within a few hundred bytes of the pool's size is closed by libmicrohttpd 0.9.75
  without an answer (it has no room left to build its own). `filter_case` does not send queries
  longer than 2 KiB. (Many short arguments are fine: the server refuses them with its 414.)

`filter_failure` also drops one false positive of the coverage phase: see
`unknown_header_accepted`.
"""

from urllib.parse import urlencode

import schemathesis

LIBMICROHTTPD_REQUEST_TOO_BIG = b"<html><head><title>Request too big</title>"
URI_TOO_LONG_PROBLEM = b'"type":"https://mvvmserver.dev/problems/uri-too-long"'
MAX_QUERY_BYTES = 2048


@schemathesis.hook
def filter_failure(context, failure, case, response) -> bool:
    libmicrohttpd = response.status_code in (414, 431) and response.content.startswith(LIBMICROHTTPD_REQUEST_TOO_BIG)
    server = response.status_code == 414 and URI_TOO_LONG_PROBLEM in response.content
    return not (libmicrohttpd or server or unknown_header_accepted(failure, case))


def unknown_header_accepted(failure, case) -> bool:
    """A request whose only fault is a header field the contract does not name, answered 2xx.

    The coverage phase adds an undeclared header (`x-schemathesis-unknown-property`) to the
    operations that declare header parameters (Last-Event-ID, If-None-Match) and expects the
    request to be refused; RFC 9110 (section 5.1) says a recipient ignores header fields it does
    not recognize, and the server does.
    """
    names = list((getattr(case, "headers", None) or {}).keys())
    return getattr(failure, "code", None) == "ST201" and any("unknown-property" in str(name).lower() for name in names)


@schemathesis.hook
def filter_case(context, case) -> bool:
    query = case.query if isinstance(case.query, dict) else {}
    pairs = [(str(name), str(item)) for name, value in query.items()
             for item in (value if isinstance(value, (list, tuple)) else [value])]
    return len(urlencode(pairs)) <= MAX_QUERY_BYTES

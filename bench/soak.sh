#!/usr/bin/env bash
# Soak: at least 60 s of mixed load (sessions created and deleted, inputs, long-polls, store
# clears, evictions through a small session cap) on a release build, then checks that RSS is back
# within 10% of its level after warm-up and that every view model, context and session of a
# deleted or evicted session was released (counts from /metrics). Exit status 0 when it passed.
# Usage: bench/soak.sh   (SOAK_SECONDS=60 SOAK_WORKERS=6 SOAK_MAX_SESSIONS=100 to change)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-deps
SCRATCH=.build-bench
swift build -c release --scratch-path "$SCRATCH" >/tmp/soak-build.log 2>&1 || { cat /tmp/soak-build.log; exit 1; }
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$SCRATCH/release/server" --port "$PORT" --state none --log-level warning --max-sessions "${SOAK_MAX_SESSIONS:-100}" >/tmp/soak-server.log 2>&1 &
SERVER=$!
trap 'kill -INT $SERVER 2>/dev/null; wait $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && break; sleep 0.1; done
python3 bench/soak.py --port "$PORT" --pid "$SERVER" --seconds "${SOAK_SECONDS:-60}" --warmup 10 --workers "${SOAK_WORKERS:-6}"

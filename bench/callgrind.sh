#!/usr/bin/env bash
# Instructions per request, counted by callgrind: unlike requests per second on these shared
# cores, the count repeats to within a fraction of a percent from run to run, so that a change
# of a few percent can be seen. The server's application (bench/callgrind: the same Application
# and scenes, linked as the release server is: tcmalloc, Swift's runtime and Foundation linked
# in) and the baseline each run under valgrind and answer one keep-alive connection
# (bench/callgrind_drive.py): the cached GET, the inputs scenario (POST car/input, alternating
# the two bodies) and session churn (POST /sessions and DELETE, by turns). Counters are zeroed
# after a warm-up and read after CALLGRIND_COUNT requests (2000). Prints a table, also written
# to bench/out/callgrind.md, with the server's costliest functions per input and per churn
# request.
#
# Usage: bench/callgrind.sh            (needs valgrind, python3, gcc, libmicrohttpd-dev, swift)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$BENCH_DIR/.." && pwd)
OUT="$BENCH_DIR/out"
BIN="$BENCH_DIR/bin"
SCRATCH="$ROOT/.build-callgrind"
COUNT=${CALLGRIND_COUNT:-2000}
WARM=300
mkdir -p "$OUT" "$BIN"
LOG="$OUT/callgrind.log"
: >"$LOG"

say() { echo "callgrind: $*" >&2; }
fail() { say "$*"; exit 1; }

"$ROOT/scripts/ensure-deps" valgrind python3 gcc curl >>"$LOG" 2>&1 || fail "installing what the count needs failed (see $LOG)"

say "build: the harness (release) and bench/bin/baseline"
# Linked as scripts/run links the server (--static-swift-stdlib).
swift build -c release --static-swift-stdlib --package-path "$BENCH_DIR/callgrind" --scratch-path "$SCRATCH" >>"$LOG" 2>&1 ||
    fail "swift build of bench/callgrind failed (see $LOG)"
# valgrind 3.19 cannot read the DWARF of some dependencies (swift-prometheus's, swift-atomics'):
# it runs a copy without debug information (the symbols, which name the functions, stay).
strip --strip-debug -o "$BIN/harness" "$SCRATCH/release/harness" || fail "could not strip the harness"
# shellcheck disable=SC2046
gcc -O2 -Wall -o "$BIN/baseline" "$BENCH_DIR/baseline.c" $(pkg-config --cflags --libs libmicrohttpd) -lpthread ||
    fail "could not build baseline.c"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# measure LABEL SCENARIO PORT COMMAND...: instructions per request of COMMAND (listening on PORT)
measure() {
    local label=$1 scenario=$2 port=$3
    shift 3
    rm -f "$OUT/callgrind.$label".*
    # tcmalloc takes its memory with mmap, not sbrk: valgrind's brk segment is too small for it.
    TCMALLOC_SKIP_SBRK=true valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.$label.%p" "$@" >>"$LOG" 2>&1 &
    local pid=$! tries=0
    until curl -s -o /dev/null "http://127.0.0.1:$port/health"; do
        ((++tries < 240)) || fail "$label did not start under valgrind (see $LOG)"
        sleep 0.5
    done
    python3 "$BENCH_DIR/callgrind_drive.py" "$port" "$WARM" "$scenario" "$OUT/callgrind.doc.json" >>"$LOG" 2>&1 ||
        fail "$label: the warm-up failed (see $LOG)"
    callgrind_control -z "$pid" >>"$LOG" 2>&1
    python3 "$BENCH_DIR/callgrind_drive.py" "$port" "$COUNT" "$scenario" >>"$LOG" 2>&1 || fail "$label: the run failed (see $LOG)"
    callgrind_control -d "$pid" >>"$LOG" 2>&1
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    local dump
    dump=$(ls "$OUT/callgrind.$label".*.1 2>/dev/null | head -1)
    [[ -n "$dump" ]] || fail "$label: no dump was written (see $LOG)"
    awk -v n="$COUNT" '/^summary:/ { printf "%.0f\n", $2 / n }' "$dump"
}

# The baseline answers the bytes the server answered (its car document and its created session).
port=$(free_port)
server_inputs=$(measure server-inputs inputs "$port" "$BIN/harness" "$port")
doc="$OUT/callgrind.doc.json"
cp "$doc" "$OUT/callgrind.baseline-doc.json"
cp "$doc.created" "$OUT/callgrind.baseline-created.json"
baseline_args=(--threads 2 --memory-limit 4096 --doc "$OUT/callgrind.baseline-doc.json" --created "$OUT/callgrind.baseline-created.json")
port=$(free_port)
baseline_inputs=$(measure baseline-inputs inputs "$port" "$BIN/baseline" --port "$port" "${baseline_args[@]}")
port=$(free_port)
server_get=$(measure server-get get "$port" "$BIN/harness" "$port")
port=$(free_port)
baseline_get=$(measure baseline-get get "$port" "$BIN/baseline" --port "$port" "${baseline_args[@]}")
port=$(free_port)
server_churn=$(measure server-churn churn "$port" "$BIN/harness" "$port")
port=$(free_port)
baseline_churn=$(measure baseline-churn churn "$port" "$BIN/baseline" --port "$port" "${baseline_args[@]}")

# costliest LABEL: the server's costliest functions of a run, per request, inclusive, demangled.
costliest() {
    callgrind_annotate --inclusive=yes "$(ls "$OUT/callgrind.$1".*.1 | head -1)" >"$OUT/callgrind.$1.txt" 2>>"$LOG"
    awk -v n="$COUNT" '/^ *[0-9,]+ \(/ && /MVVMServer|Scenes/ {
            x = $1; gsub(",", "", x); sub(/^ *[0-9,]+ +\([ 0-9.%]+\) +/, ""); sub(/ \[.*$/, ""); sub(/^.*:/, "")
            if (!seen[$0]++ && shown++ < 40) printf "%.0f\t%s\n", x / n, $0
        }' "$OUT/callgrind.$1.txt" >"$OUT/callgrind.$1.tsv"
    echo "| Instructions | Function |"
    echo "|---:|---|"
    swift demangle --simplified <"$OUT/callgrind.$1.tsv" | awk -F'\t' '{ printf "| %s | %s |\n", $1, substr($2, 1, 120) }'
}

{
    echo "Instructions per request (callgrind, $COUNT requests after $WARM, one keep-alive connection; user space, all threads)"
    echo
    echo "| Scenario | Server | Baseline | Ratio |"
    echo "|---|---:|---:|---:|"
    awk -v s="$server_get" -v b="$baseline_get" 'BEGIN { printf "| Cached state, GET car | %d | %d | %.2f |\n", s, b, s / b }'
    awk -v s="$server_inputs" -v b="$baseline_inputs" 'BEGIN { printf "| Inputs, POST car/input | %d | %d | %.2f |\n", s, b, s / b }'
    awk -v s="$server_churn" -v b="$baseline_churn" 'BEGIN { printf "| Session churn, POST /sessions and DELETE by turns | %d | %d | %.2f |\n", s, b, s / b }'
    echo
    echo "The server's costliest functions per input (inclusive instructions; nested, so they overlap):"
    echo
    costliest server-inputs
    echo
    echo "The server's costliest functions per churn request (half of them POST, half DELETE):"
    echo
    costliest server-churn
} | tee "$OUT/callgrind.md"

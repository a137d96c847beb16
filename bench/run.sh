#!/usr/bin/env bash
# bench/run.sh: builds the server in release mode and the C tools, starts the server and the
# raw-libmicrohttpd baseline, runs every scenario of issue #6 in interleaved rounds, and prints
# a markdown table (also written to bench/out/results.md).
#
# Environment:
#   BENCH_QUICK=1        smoke run: 3 rounds of 2 s wrk runs, 10,000 sessions in scenario 6
#   BENCH_ROUNDS=N       rounds per scenario (default 9, 3 when quick; at least 3 for a real
#                        run: on these shared cores a round now and then runs 10–20% slow,
#                        server or baseline, and the p99s of the GET and of the fan-out jump
#                        between rounds on both sides; a median of five rounds missed a p99
#                        target by chance in about one run in thirty, of nine in about one in a
#                        hundred: BENCHMARKS.md, fourteenth round)
#   BENCH_DURATION=10s   length of each wrk run (default 10s, 2s when quick)
#   BENCH_THREADS=2      wrk threads
#   BENCH_SESSIONS=N     sessions created in scenario 6 (default 100000, 10000 when quick)
#   BENCH_SKIP_BUILD=1   reuse .build-bench and bench/bin as they are
#   BENCH_SCENARIOS="1 2 3 4 5 6 7 8 9 10"   the scenarios to run (4 and 5 share their runs; default
#                        all; 10 without 5 runs scenario 5a's server side too, for its target)
#   BENCH_SCENARIOS="11" the cluster scenario (not in the default list): inputs through nginx to
#                        two instances on PostgreSQL (scripts/cluster), next to one instance on
#                        SQLite and to the baseline, and the failover time (bench/failover.py);
#                        then one of the instances alone against the SQLite one (rows 11pi, 11pc:
#                        inputs and session churn, SQLite's figures in the baseline's column)
#   BENCH_SCENARIOS="12" a test flow's cost (not in the default list): what an integration test
#                        does (a session made, five inputs, one action, GET …/settled, the journal
#                        exported, the session deleted), on the server in testing mode in the
#                        server's column and the same server without it in the baseline's, both
#                        as scripts/run starts them (only --port 0, their state files under
#                        bench/out), wrk -t$FLOW_CONNECTIONS with a connection per thread
#   BENCH_STATE=1        scenarios 1 to 6 with the state store on (a state file under bench/out)
#                        instead of --state none; scenarios 2 and 3 then also run, in the same
#                        rounds, bench/durable_floor.c (rows 2f and 3f): raw libmicrohttpd that
#                        answers each change once committed to SQLite, like the server, and does
#                        nothing else, beside the same baseline figures
#
# Scenarios 1 to 6 run the server with --log-level warning and raised limits; scenario 7 runs a
# second server exactly as scripts/run starts it (its defaults: log level info, the default
# limits), with only --port 0 instead of 8080, against the same baseline. Scenario 8
# (bench/restart.py) starts the server as scripts/run does on a state file of $SESSIONS saved
# sessions and times its first answer from a restored one, beside a start on an empty file.
# Scenarios 9 and 10 are Server-Sent Events streams (bench/lpclient.c's stream mode), run on the
# server only (the baseline has no streams), in the same rounds and on the same server as 4 and
# 5: 9 holds 10,000 streams over the 1,000 sessions of scenario 4 (10 each) and checks the
# threads and resident size while they are open; 10 opens 1,000 streams on one view model and
# times each one's message from the answer of one input, against scenario 5a's long-poll p99
# (the server's median) from the same run.
#
# Every process it starts is stopped on exit (trap EXIT). Logs: bench/out/*.log.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH_DIR")
OUT="$BENCH_DIR/out"
BIN="$BENCH_DIR/bin"
SCRATCH="$ROOT/.build-bench"

QUICK=${BENCH_QUICK:-0}
THREADS=${BENCH_THREADS:-2}
if [[ "$QUICK" == 1 ]]; then
    ROUNDS=${BENCH_ROUNDS:-3}
    DURATION=${BENCH_DURATION:-2s}
    SESSIONS=${BENCH_SESSIONS:-10000}
else
    ROUNDS=${BENCH_ROUNDS:-9}
    DURATION=${BENCH_DURATION:-10s}
    SESSIONS=${BENCH_SESSIONS:-100000}
fi
SCENARIOS=" ${BENCH_SCENARIOS:-1 2 3 4 5 6 7 8 9 10} "
wants() { [[ "$SCENARIOS" == *" $1 "* ]]; }
MAX_CONNECTIONS=16000
MAX_SESSIONS=120000
LP_SESSIONS=1000          # scenarios 4 and 5b: 10,000 long-polls over 1,000 sessions
LP_PER_SESSION=10
FAN_OUT=1000              # scenario 5a: long-polls on one view model
STREAM_SESSIONS=$LP_SESSIONS   # scenario 9: 10,000 streams over the long-poll sessions
STREAM_PER_SESSION=10
STREAM_FAN_OUT=1000       # scenario 10: streams on one view model
INPUT_SESSIONS=64         # scenario 2: one session (car view model) per connection
FLOW_CONNECTIONS=8        # scenario 12: flows in parallel, one connection (and wrk thread) each

mkdir -p "$OUT" "$BIN"
RAW="$OUT/raw.tsv"
LOG="$OUT/run.log"
: >"$RAW"
: >"$LOG"
: >"$OUT/server.log"
: >"$OUT/baseline.log"

say() { printf '%s\n' "$*" >&2; printf '%s\n' "$*" >>"$LOG"; }
fail() { say "bench: $*"; exit 1; }

# ------------------------------------------------------------------ processes and cleanup

SERVER_PID=""
SERVER_PORT=""
DEFAULT_PID=""            # scenario 7: the server as scripts/run starts it
DEFAULT_PORT=""
BASELINE_PID=""
BASELINE_PORT=""
FLOOR_PID=""              # scenarios 2f and 3f: bench/durable_floor.c
FLOOR_PORT=""
CRASHES=0

stop_pid() {   # pid: TERM, then KILL after 15 s
    local pid=$1
    [[ -n "$pid" ]] || return 0
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    kill -TERM "$pid" 2>/dev/null || true
    local tenths=0
    while ((tenths < 150)) && kill -0 "$pid" 2>/dev/null; do
        sleep 0.1
        tenths=$((tenths + 1))
    done
    ((tenths < 20)) || say "bench: process $pid took $((tenths / 10)).$((tenths % 10)) s to stop on SIGTERM"
    if kill -0 "$pid" 2>/dev/null; then
        say "bench: process $pid did not stop on SIGTERM within 15 s; killing it"
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
}

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    stop_pid "$SERVER_PID"
    stop_pid "$DEFAULT_PID"
    stop_pid "$BASELINE_PID"
    stop_pid "$FLOOR_PID"
    stop_pid "${FLOW_TESTING_PID:-}"
    stop_pid "${FLOW_PLAIN_PID:-}"
    SERVER_PID=""
    DEFAULT_PID=""
    BASELINE_PID=""
    FLOOR_PID=""
    if [[ -n "${CLUSTER_URL:-}" ]]; then cluster down; fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_for_line() {   # file pattern seconds pid: prints the first matching line
    local file=$1 pattern=$2 seconds=$3 pid=$4 line
    for _ in $(seq 1 $((seconds * 10))); do
        line=$(grep -m1 -E "$pattern" "$file" 2>/dev/null || true)
        if [[ -n "$line" ]]; then printf '%s\n' "$line"; return 0; fi
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

start_server() {
    local state=none
    if [[ "${BENCH_STATE:-0}" == 1 ]]; then
        rm -rf "$OUT/state"
        state="$OUT/state/state.sqlite"
    fi
    "$SCRATCH/release/server" --host 127.0.0.1 --port 0 --state "$state" --log-level warning \
        --max-connections "$MAX_CONNECTIONS" --max-sessions "$MAX_SESSIONS" \
        >"$OUT/server.stdout" 2>>"$OUT/server.log" </dev/null &
    SERVER_PID=$!
    local line
    line=$(wait_for_line "$OUT/server.stdout" 'listening on' 60 "$SERVER_PID") ||
        fail "the server did not start (see $OUT/server.log)"
    SERVER_PORT=${line##*:}
    say "server: pid $SERVER_PID, port $SERVER_PORT"
}

start_as_scripts_run() {   # name [flags...]: the server with scripts/run's defaults and only --port 0 (and flags); sets STARTED_PID and STARTED_PORT
    # Its default state file (or, in testing mode, its temporary one) under a state folder of the
    # bench's own (XDG_STATE_HOME, TMPDIR). Output: $OUT/name.stdout and $OUT/name.log.
    local name=$1 line
    shift
    rm -rf "$OUT/$name-state"
    mkdir -p "$OUT/$name-state"
    XDG_STATE_HOME="$OUT/$name-state" TMPDIR="$OUT/$name-state" "$SCRATCH/release/server" --port 0 "$@" \
        >"$OUT/$name.stdout" 2>>"$OUT/$name.log" </dev/null &
    STARTED_PID=$!
    line=$(wait_for_line "$OUT/$name.stdout" 'listening on' 60 "$STARTED_PID") || fail "the $name server did not start (see $OUT/$name.log)"
    STARTED_PORT=${line##*:}
}

start_default_server() {   # scenario 7: scripts/run's defaults, on a free port
    start_as_scripts_run default
    DEFAULT_PID=$STARTED_PID DEFAULT_PORT=$STARTED_PORT
    local base="http://127.0.0.1:$DEFAULT_PORT" id
    id=$(curl -sf -X POST "$base/sessions" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
    [[ -n "$id" ]] || fail "no session on the default-configuration server"
    DEFAULT_CAR_PATH="/sessions/$id/scenes/car"
    curl -sf -o /dev/null "$base$DEFAULT_CAR_PATH" || fail "GET $DEFAULT_CAR_PATH failed on the default-configuration server"
    say "default-configuration server: pid $DEFAULT_PID, port $DEFAULT_PORT, $DEFAULT_CAR_PATH"
}

stop_server() {
    stop_pid "$SERVER_PID"
    SERVER_PID=""
}

start_floor() {   # scenarios 2f and 3f: the durable floor, on a fresh state file, with its input sessions
    rm -rf "$OUT/floor-state"
    mkdir -p "$OUT/floor-state"
    "$BIN/durable_floor" --port 0 --threads 2 --connection-limit "$MAX_CONNECTIONS" --memory-limit 4096 \
        --doc "$OUT/car.json" --state "$OUT/floor-state/state.sqlite" \
        >"$OUT/floor.stdout" 2>>"$OUT/floor.log" </dev/null &
    FLOOR_PID=$!
    local line result
    line=$(wait_for_line "$OUT/floor.stdout" 'listening on' 30 "$FLOOR_PID") ||
        fail "the durable floor did not start (see $OUT/floor.log)"
    FLOOR_PORT=${line##* }
    result=$(lp create --port "$FLOOR_PORT" --n "$INPUT_SESSIONS" --conns 16 --out "$OUT/floor-ids.txt" | grep '^RESULT') ||
        fail "could not create $INPUT_SESSIONS sessions on the durable floor: $result"
    say "durable floor: pid $FLOOR_PID, port $FLOOR_PORT, $INPUT_SESSIONS sessions"
}

start_baseline() {
    "$BIN/baseline" --port 0 --threads 2 --connection-limit "$MAX_CONNECTIONS" --memory-limit 4096 \
        --doc "$OUT/car.json" --created "$OUT/created.json" \
        >"$OUT/baseline.stdout" 2>>"$OUT/baseline.log" </dev/null &
    BASELINE_PID=$!
    local line
    line=$(wait_for_line "$OUT/baseline.stdout" 'listening on' 30 "$BASELINE_PID") ||
        fail "the baseline did not start (see $OUT/baseline.log)"
    BASELINE_PORT=${line##* }
    say "baseline: pid $BASELINE_PID, port $BASELINE_PORT"
}

check_alive() {   # after each run: a dead server is a finding, and the end of the bench
    if [[ -n "$SERVER_PID" ]] && ! kill -0 "$SERVER_PID" 2>/dev/null; then
        local status=0
        wait "$SERVER_PID" 2>/dev/null || status=$?
        say "bench: THE SERVER DIED during $1 (exit status $status); see $OUT/server.log"
        SERVER_PID=""
        CRASHES=$((CRASHES + 1))
        print_table
        exit 1
    fi
    if [[ -n "$BASELINE_PID" ]] && ! kill -0 "$BASELINE_PID" 2>/dev/null; then
        BASELINE_PID=""
        fail "the baseline died during $1; see $OUT/baseline.log"
    fi
}

# ------------------------------------------------------------------ results

field() {   # "RESULT a=1 b=2" key -> value
    local line=$1 key=$2
    sed -n "s/.*[[:space:]]$key=\([^[:space:]]*\).*/\1/p" <<<" $line" | head -n1
}

record() {   # scenario who round metric value
    [[ -n "$5" ]] || return 0
    printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$RAW"
}

copy_figures() {   # round scenario who to-scenario to-who [metric...]: a run's figures recorded again in another row and column (all its metrics, or those named)
    local round=$1 from=$2 from_who=$3 to=$4 to_who=$5
    shift 5
    awk -F'\t' -v r="$round" -v f="$from" -v fw="$from_who" -v t="$to" -v tw="$to_who" -v only=" $* " \
        '$1 == f && $2 == fw && $3 == r && (only == "  " || index(only, " " $4 " ") > 0) { $1 = t; $2 = tw; print }' OFS='\t' "$RAW" >>"$RAW.tmp"
    cat "$RAW.tmp" >>"$RAW"
    rm -f "$RAW.tmp"
}

# The table: scenario key | scenario | metric key | metric | rule | limit [| metric that must pass too]
#   ratio_ge X: server median / baseline median >= X     ratio_le X: server median <= X x baseline median
#   max_le X: every server round <= X                     eq X: every server round == X
#   le_row SCEN METRIC: server median <= the server median of another row of the same run
#   info: reported only
TABLE_SPEC=$(cat <<EOF
s1c64|1. Cached state, GET car, 64 conns|rps|req/s|ratio_ge|0.85
s1c64|1. Cached state, GET car, 64 conns|p99_ms|p99 ms|ratio_le|2
s1c64|1. Cached state, GET car, 64 conns|errors|errors|eq|0
s1c64|1. Cached state, GET car, 64 conns|cpu_us|CPU µs per request (answering process)|info|
s1c256|1. Cached state, GET car, 256 conns|rps|req/s|ratio_ge|0.85
s1c256|1. Cached state, GET car, 256 conns|p99_ms|p99 ms|ratio_le|2
s1c256|1. Cached state, GET car, 256 conns|errors|errors|eq|0
s1c256|1. Cached state, GET car, 256 conns|cpu_us|CPU µs per request (answering process)|info|
s2|2. Inputs, POST car/input, 64 conns|rps|req/s|ratio_ge|0.5
s2|2. Inputs, POST car/input, 64 conns|p99_ms|p99 ms|info|
s2|2. Inputs, POST car/input, 64 conns|errors|errors|eq|0
s2|2. Inputs, POST car/input, 64 conns|cpu_us|CPU µs per request (answering process)|info|
s3|3. Session churn, POST+DELETE, 32 conns|rps|req/s|ratio_ge|0.3
s3|3. Session churn, POST+DELETE, 32 conns|sessions_per_s|sessions/s|info|
s3|3. Session churn, POST+DELETE, 32 conns|errors|errors|eq|0
s3|3. Session churn, POST+DELETE, 32 conns|cpu_us|CPU µs per request (answering process)|info|
s2f|2f. Beside 2: the durable floor (bench/durable_floor.c) in the server's column, inputs|rps|req/s|info|
s2f|2f. Beside 2: the durable floor (bench/durable_floor.c) in the server's column, inputs|cpu_us|CPU µs per request (answering process)|info|
s3f|3f. Beside 3: the durable floor (bench/durable_floor.c) in the server's column, churn|rps|req/s|info|
s3f|3f. Beside 3: the durable floor (bench/durable_floor.c) in the server's column, churn|cpu_us|CPU µs per request (answering process)|info|
s4|4. Long-poll capacity, ${LP_SESSIONS} sessions x ${LP_PER_SESSION}|parked|parked at once|eq|$((LP_SESSIONS * LP_PER_SESSION))
s4|4. Long-poll capacity, ${LP_SESSIONS} sessions x ${LP_PER_SESSION}|threads_hold|threads while holding|info|
s4|4. Long-poll capacity, ${LP_SESSIONS} sessions x ${LP_PER_SESSION}|threads_added|threads added while holding|max_le|16
s4|4. Long-poll capacity, ${LP_SESSIONS} sessions x ${LP_PER_SESSION}|rss_hold_mb|RSS holding, MB|max_le|150
s4|4. Long-poll capacity, ${LP_SESSIONS} sessions x ${LP_PER_SESSION}|rss_after_mb|RSS after answers, MB|max_le|150
s4|4. Long-poll capacity, ${LP_SESSIONS} sessions x ${LP_PER_SESSION}|rss_closed_mb|RSS after the client closed, MB|info|
s5a|5. Fan-out, ${FAN_OUT} long-polls on one view model, 1 input|answered|answered|eq|${FAN_OUT}
s5a|5. Fan-out, ${FAN_OUT} long-polls on one view model, 1 input|refused|answered early (not parked)|eq|0
s5a|5. Fan-out, ${FAN_OUT} long-polls on one view model, 1 input|p99_ms|p99 ms input→answer|ratio_le|2|answered
s5a|5. Fan-out, ${FAN_OUT} long-polls on one view model, 1 input|span_ms|all answered within, ms|info|
s5b|5. Fan-out, $((LP_SESSIONS * LP_PER_SESSION)) long-polls, ${LP_SESSIONS} sessions, 1 input each|answered|answered|eq|$((LP_SESSIONS * LP_PER_SESSION))
s5b|5. Fan-out, $((LP_SESSIONS * LP_PER_SESSION)) long-polls, ${LP_SESSIONS} sessions, 1 input each|p99_ms|p99 ms input→answer|ratio_le|2|answered
s5b|5. Fan-out, $((LP_SESSIONS * LP_PER_SESSION)) long-polls, ${LP_SESSIONS} sessions, 1 input each|span_ms|all answered within, ms|info|
s6|6. Memory per session, ${SESSIONS} sessions, root scene loaded|kib_per_session|RSS per session, KiB|max_le|15
s6|6. Memory per session, ${SESSIONS} sessions, root scene loaded|sessions_per_s|sessions created/s|info|
s6|6. Memory per session, ${SESSIONS} sessions, root scene loaded|loaded_checked|root scenes checked loaded (of 5)|eq|5
s7|7. Default configuration (as scripts/run starts it), cached GET car, 64 conns|rps|req/s|ratio_ge|0.85
s7|7. Default configuration (as scripts/run starts it), cached GET car, 64 conns|p99_ms|p99 ms|info|
s7|7. Default configuration (as scripts/run starts it), cached GET car, 64 conns|errors|errors|eq|0
s7|7. Default configuration (as scripts/run starts it), cached GET car, 64 conns|cpu_us|CPU µs per request (answering process)|info|
s8|8. Restart with ${SESSIONS} saved sessions (scripts/run's defaults)|restart_ms|ms from start to a restored session's state|max_le|2000
s8|8. Restart with ${SESSIONS} saved sessions (scripts/run's defaults)|empty_ms|ms from start to /health, empty state file|info|
s8|8. Restart with ${SESSIONS} saved sessions (scripts/run's defaults)|bytes_per_session|state file bytes per session|info|
s9|9. Stream capacity, ${STREAM_SESSIONS} sessions x ${STREAM_PER_SESSION} streams, no thread per stream|streams|streams open at once|eq|$((STREAM_SESSIONS * STREAM_PER_SESSION))
s9|9. Stream capacity, ${STREAM_SESSIONS} sessions x ${STREAM_PER_SESSION} streams, no thread per stream|threads_hold|threads while holding|info|
s9|9. Stream capacity, ${STREAM_SESSIONS} sessions x ${STREAM_PER_SESSION} streams, no thread per stream|threads_added|threads added while holding|max_le|16
s9|9. Stream capacity, ${STREAM_SESSIONS} sessions x ${STREAM_PER_SESSION} streams, no thread per stream|rss_hold_mb|RSS holding, MB|max_le|150
s9|9. Stream capacity, ${STREAM_SESSIONS} sessions x ${STREAM_PER_SESSION} streams, no thread per stream|received|streams sent the change of 1 input per session|info|
s9|9. Stream capacity, ${STREAM_SESSIONS} sessions x ${STREAM_PER_SESSION} streams, no thread per stream|p99_ms|p99 ms input→message|info|
s10|10. Stream fan-out, ${STREAM_FAN_OUT} streams on one view model, 1 input|received|received|eq|${STREAM_FAN_OUT}
s10|10. Stream fan-out, ${STREAM_FAN_OUT} streams on one view model, 1 input|p99_ms|p99 ms input→message|le_row|s5a p99_ms|received
s10|10. Stream fan-out, ${STREAM_FAN_OUT} streams on one view model, 1 input|span_ms|all received within, ms|info|
s11c|11. Cluster: inputs through nginx to 2 instances on PostgreSQL, 64 conns|rps|req/s|info|
s11c|11. Cluster: inputs through nginx to 2 instances on PostgreSQL, 64 conns|p99_ms|p99 ms|info|
s11c|11. Cluster: inputs through nginx to 2 instances on PostgreSQL, 64 conns|errors|errors|eq|0
s11s|11. Beside it: inputs to 1 instance on SQLite, 64 conns|rps|req/s|info|
s11s|11. Beside it: inputs to 1 instance on SQLite, 64 conns|p99_ms|p99 ms|info|
s11s|11. Beside it: inputs to 1 instance on SQLite, 64 conns|errors|errors|eq|0
s11f|11. Failover: kill -9 to the session's next answer through nginx|failover_ms|ms|max_le|2000
s11pi|11. One instance on PostgreSQL (no nginx) against one on SQLite (in the baseline's column), inputs, 64 conns|rps|req/s|ratio_ge|0.6
s11pi|11. One instance on PostgreSQL (no nginx) against one on SQLite (in the baseline's column), inputs, 64 conns|cpu_us|CPU µs per request (answering process)|info|
s11pi|11. One instance on PostgreSQL (no nginx) against one on SQLite (in the baseline's column), inputs, 64 conns|errors|errors|eq|0
s11pc|11. One instance on PostgreSQL against one on SQLite (in the baseline's column), session churn, 32 conns|rps|req/s|ratio_ge|0.6
s11pc|11. One instance on PostgreSQL against one on SQLite (in the baseline's column), session churn, 32 conns|cpu_us|CPU µs per request (answering process)|info|
s11pc|11. One instance on PostgreSQL against one on SQLite (in the baseline's column), session churn, 32 conns|errors|errors|eq|0
s12|12. A test flow (create, 5 inputs, 1 action, settled, journal, delete): testing mode against the plain server, both as scripts/run starts them|cpu_us_per_flow|CPU µs per flow (answering process)|ratio_le|1.25
s12|12. A test flow (create, 5 inputs, 1 action, settled, journal, delete): testing mode against the plain server, both as scripts/run starts them|flows_per_s|flows/s|info|
s12|12. A test flow (create, 5 inputs, 1 action, settled, journal, delete): testing mode against the plain server, both as scripts/run starts them|unexpected|answers not as the step expects|eq|0
EOF
)

print_table() {
    local table
    table=$(awk -F'\t' -v spec="$TABLE_SPEC" -v selected="$SCENARIOS" '
        function fmt(v) {
            if (v == "") return "—"
            v += 0
            if (v == int(v)) return sprintf("%d", v)
            if (v >= 1000 || v <= -1000) return sprintf("%.0f", v)
            if (v >= 100 || v <= -100) return sprintf("%.1f", v)
            return sprintf("%.2f", v)
        }
        function stats(key,    n, i, j, t, a) {   # sets MED MIN MAX N
            n = split(values[key], a, " ")
            N = n
            if (n == 0) { MED = MIN = MAX = ""; return }
            for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
            MIN = a[1] + 0; MAX = a[n] + 0
            MED = (n % 2) ? a[(n + 1) / 2] + 0 : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        function cell() { return N == 0 ? "—" : (N == 1 ? fmt(MED) : fmt(MED) " [" fmt(MIN) "–" fmt(MAX) "]") }
        { k = $1 SUBSEP $2 SUBSEP $4; values[k] = (k in values) ? values[k] " " $5 : $5 }
        END {
            rows = split(spec, lines, "\n")
            for (r = 1; r <= rows; r++) { split(lines[r], f, "|"); labels[f[1], f[3]] = f[4] }
            print "| Scenario | Metric | Server median [min–max] | Baseline median [min–max] | Ratio | Target | Result |"
            print "|---|---|---:|---:|---:|---|---|"
            for (r = 1; r <= rows; r++) {
                if (lines[r] == "") continue
                split(lines[r], f, "|")
                scen = f[1]; label = f[2]; metric = f[3]; mlabel = f[4]; rule = f[5]; limit = f[6]
                number = scen; sub(/^s/, "", number); sub(/[^0-9].*$/, "", number)   # s1c64 -> 1, s10 -> 10
                if (index(selected, " " number " ") == 0) continue
                stats(scen SUBSEP "server" SUBSEP metric); sm = MED; smin = MIN; smax = MAX; sn = N; scell = cell()
                stats(scen SUBSEP "baseline" SUBSEP metric); bm = MED; bn = N; bcell = cell()
                ratio = "—"
                if (sn > 0 && bn > 0 && bm + 0 > 0) ratio = sprintf("%.2f", sm / bm)
                target = "—"; result = "info"
                if (rule == "ratio_ge") target = "≥ " limit " × baseline"
                else if (rule == "ratio_le") target = "≤ " limit " × baseline"
                else if (rule == "max_le") target = "≤ " limit " (every round)"
                else if (rule == "eq") target = "= " limit " (every round)"
                else if (rule == "le_row") {   # limit: "scen metric" of another row, its server median
                    split(limit, other, " ")
                    stats(other[1] SUBSEP "server" SUBSEP other[2]); om = MED; on = N
                    oname = other[1]; sub(/^s/, "", oname)
                    target = "≤ " oname "'"'"'s " labels[other[1], other[2]] " (server median " (on > 0 ? fmt(om) : "not run") ")"
                }
                if (rule != "info") {
                    if (sn == 0 || ((rule == "ratio_ge" || rule == "ratio_le") && bn == 0)) result = "no data"
                    else if (rule == "le_row" && on == 0) result = "no comparison (" other[1] " not run)"
                    else if (rule == "ratio_ge") result = (bm > 0 && sm / bm >= limit) ? "pass" : "FAIL"
                    else if (rule == "ratio_le") result = (sm <= limit * bm) ? "pass" : "FAIL"
                    else if (rule == "max_le") result = (smax <= limit) ? "pass" : "FAIL"
                    else if (rule == "eq") result = (smin == limit && smax == limit) ? "pass" : "FAIL"
                    else if (rule == "le_row") result = (sm <= om) ? "pass" : "FAIL"
                    if (f[7] != "" && result == "pass" && passed[scen, f[7]] != "pass") result = "FAIL (" f[7] ")"
                }
                passed[scen, metric] = result
                printf "| %s | %s | %s | %s | %s | %s | %s |\n", label, mlabel, scell, bcell, ratio, target, result
            }
        }' "$RAW")
    {
        echo "# MVVMServer benchmarks"
        echo
        echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average at start $LOAD_AT_START;" \
             "$ROUNDS rounds, server and baseline interleaved; wrk -t$THREADS -d$DURATION" \
             "$([[ "$QUICK" == 1 ]] && echo '(BENCH_QUICK=1: smoke run, not a measurement)')."
        echo "Server: --max-connections $MAX_CONNECTIONS --max-sessions $MAX_SESSIONS --log-level warning" \
             "(scenario 7: only --port 0, as scripts/run starts it)," \
             "allocator $(ldd "$SCRATCH/release/server" 2>/dev/null | grep -q tcmalloc && echo tcmalloc || echo glibc);" \
             "baseline: bench/baseline.c (raw libmicrohttpd, epoll, pool of 2, same limits, same bytes)."
        echo "Ratios are server median / baseline median; absolute limits are checked on every round."
        if wants 12; then
            echo "Scenario 12 puts the server in testing mode in the server's column and the same server without" \
                 "it in the baseline's, both as scripts/run starts them; wrk -t$FLOW_CONNECTIONS -c$FLOW_CONNECTIONS, a flow per connection."
        fi
        if wants 9 || wants 10; then
            echo "Scenarios 9 and 10 (Server-Sent Events streams) run on the server only, in the rounds of 4 and 5;" \
                 "scenario 10's p99 is held to scenario 5a's server median of the same run."
        fi
        echo
        echo "$table"
        echo
        if [[ -s "$OUT/server.log" ]]; then
            echo "Server log: $(wc -l <"$OUT/server.log") lines at warning or above (bench/out/server.log)."
        else
            echo "Server log: empty at warning level."
        fi
        [[ "$CRASHES" == 0 ]] || echo "**The server died during the run.**"
    } >"$OUT/results.md"
    echo
    cat "$OUT/results.md"
}

# ------------------------------------------------------------------ dependencies and build

check_dependencies() {
    "$ROOT/scripts/ensure-deps" wrk gcc curl >>"$LOG" 2>&1 || fail "installing what the bench needs failed (see $LOG)"
    command -v swift >/dev/null || fail "swift is not on PATH"
}

build() {
    if [[ "${BENCH_SKIP_BUILD:-0}" == 1 && -x "$SCRATCH/release/server" && -x "$BIN/baseline" && -x "$BIN/lpclient" && -x "$BIN/durable_floor" ]]; then
        say "build: skipped (BENCH_SKIP_BUILD=1)"
        return
    fi
    # The PostgreSQL store only for the cluster scenario (the trait is off by default).
    local traits=()
    [[ " $SCENARIOS " == *" 11 "* ]] && traits=(--traits PostgreSQL)
    # Linked as scripts/run links it (--static-swift-stdlib; the server alone: the testing
    # library has no static form).
    say "build: swift build -c release --static-swift-stdlib --product server --scratch-path .build-bench ${traits[*]}"
    (cd "$ROOT" && swift build -c release --static-swift-stdlib --product server --scratch-path "$SCRATCH" "${traits[@]}" >>"$LOG" 2>&1) ||
        fail "swift build failed (see $LOG)"
    say "build: bench/bin/baseline, bench/bin/durable_floor, bench/bin/lpclient (gcc -O2)"
    # shellcheck disable=SC2046
    gcc -O2 -Wall -o "$BIN/baseline" "$BENCH_DIR/baseline.c" $(pkg-config --cflags --libs libmicrohttpd) -lpthread ||
        fail "could not build baseline.c"
    # shellcheck disable=SC2046
    gcc -O2 -Wall -o "$BIN/durable_floor" "$BENCH_DIR/durable_floor.c" $(pkg-config --cflags --libs libmicrohttpd sqlite3) -lpthread ||
        fail "could not build durable_floor.c"
    gcc -O2 -Wall -o "$BIN/lpclient" "$BENCH_DIR/lpclient.c" || fail "could not build lpclient.c"
}

raise_fd_limit() {
    local hard
    hard=$(ulimit -Hn)
    [[ "$hard" == unlimited ]] && hard=65536
    ulimit -n "$hard" || true
    local soft
    soft=$(ulimit -n)
    say "ulimit -n: $soft"
    ((soft >= LP_SESSIONS * LP_PER_SESSION + 1000)) ||
        say "bench: warning: ulimit -n $soft is too low for $((LP_SESSIONS * LP_PER_SESSION)) long-polls"
}

# ------------------------------------------------------------------ fixtures

lp() { "$BIN/lpclient" "$@"; }

make_sessions() {   # count file: sessions with the car scene made and set to Fiat
    local count=$1 file=$2 result
    result=$(lp create --port "$SERVER_PORT" --n "$count" --conns 16 --out "$file" | grep '^RESULT') ||
        fail "could not create $count sessions: $result"
    result=$(lp each --port "$SERVER_PORT" --ids "$file" --conns 16 --path '/sessions/{id}/scenes/car' \
        --expect '"scene":"car"' | grep '^RESULT') || fail "GET car failed: $result"
    result=$(lp each --port "$SERVER_PORT" --ids "$file" --conns 16 --method POST \
        --path '/sessions/{id}/scenes/car/input' --body '{"make":"Fiat","model":"Panda"}' \
        --expect '"make":"Fiat"' | grep '^RESULT') || fail "POST car/input failed: $result"
    [[ $(field "$result" matched) == "$count" ]] || fail "the car input did not take: $result"
}

prepare_fixtures() {
    local base="http://127.0.0.1:$SERVER_PORT"
    curl -sf -X POST -o "$OUT/created.json" "$base/sessions" || fail "POST /sessions failed"
    MAIN_ID=$(sed -n 's/.*"id":"\([^"]*\)".*/\1/p' "$OUT/created.json")
    [[ -n "$MAIN_ID" ]] || fail "no id in $(cat "$OUT/created.json")"
    CAR_PATH="/sessions/$MAIN_ID/scenes/car"
    curl -sf -o /dev/null "$base$CAR_PATH" || fail "GET $CAR_PATH failed"
    curl -sf -o "$OUT/car.json" "$base$CAR_PATH"
    curl -sf -o "$OUT/car.again.json" "$base$CAR_PATH"
    cmp -s "$OUT/car.json" "$OUT/car.again.json" || fail "the cached car state changed between two GETs"
    say "fixture: session $MAIN_ID, car state document $(wc -c <"$OUT/car.json") bytes: $(cat "$OUT/car.json")"
    make_sessions "$INPUT_SESSIONS" "$OUT/input-ids.txt"
    make_sessions "$LP_SESSIONS" "$OUT/lp-ids.txt"
    make_sessions 1 "$OUT/fan-ids.txt"
    say "fixture: $INPUT_SESSIONS input sessions, $LP_SESSIONS long-poll sessions, 1 fan-out session"
}

check_baseline_bytes() {
    curl -sf -o "$OUT/car.baseline.json" "http://127.0.0.1:$BASELINE_PORT$CAR_PATH" || fail "baseline GET failed"
    cmp -s "$OUT/car.json" "$OUT/car.baseline.json" || fail "the baseline does not answer the server's bytes"
}

# ------------------------------------------------------------------ scenarios

cpu_ticks() {   # pid: user + system CPU time of the process so far, in clock ticks
    awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0
}

run_wrk() {   # scenario who round port connections script path [metric-extra...]
    local scenario=$1 who=$2 round=$3 port=$4 connections=$5 script=$6 path=$7 output result
    local pid ticks_before ticks_after
    pid=$(target_pid "$who")
    ticks_before=$(cpu_ticks "$pid")
    output=$(BENCH_LUA_DIR="$BENCH_DIR" BENCH_WRK_THREADS="$THREADS" wrk -t"$THREADS" -c"$connections" -d"$DURATION" --timeout 5s \
        -s "$script" "http://127.0.0.1:$port$path" 2>&1) || true
    ticks_after=$(cpu_ticks "$pid")
    printf '### %s %s round %s\n%s\n' "$scenario" "$who" "$round" "$output" >>"$LOG"
    result=$(grep '^RESULT' <<<"$output" | tail -n1) || true
    if [[ -z "$result" ]]; then
        say "bench: wrk gave no result for $scenario/$who (see $LOG)"
        return
    fi
    record "$scenario" "$who" "$round" rps "$(field "$result" rps)"
    record "$scenario" "$who" "$round" p99_ms "$(field "$result" p99_ms)"
    # The CPU time the answering process spent per request (wrk shares the cores: this is what
    # the throughput ratio is made of).
    local requests
    requests=$(field "$result" requests)
    if [[ -n "$requests" && "$requests" -gt 0 ]]; then
        record "$scenario" "$who" "$round" cpu_us "$(awk -v t=$((ticks_after - ticks_before)) -v hz="$(getconf CLK_TCK)" -v n="$requests" 'BEGIN { printf "%.2f", t * 1e6 / hz / n }')"
    fi
    local errors=0 key
    for key in connect_errors read_errors write_errors status_errors timeouts; do
        local value
        value=$(field "$result" "$key")
        errors=$((errors + ${value:-0}))
    done
    record "$scenario" "$who" "$round" errors "$errors"
    local flows
    flows=$(field "$result" flows)
    if [[ -n "$flows" && "$flows" -gt 0 ]]; then
        record "$scenario" "$who" "$round" flows_per_s "$(field "$result" flows_per_s)"
        record "$scenario" "$who" "$round" unexpected "$(field "$result" unexpected)"
        record "$scenario" "$who" "$round" cpu_us_per_flow "$(awk -v t=$((ticks_after - ticks_before)) -v hz="$(getconf CLK_TCK)" -v n="$flows" 'BEGIN { printf "%.1f", t * 1e6 / hz / n }')"
    fi
    local sessions_per_s
    sessions_per_s=$(field "$result" sessions_per_s)
    [[ -z "$sessions_per_s" ]] || record "$scenario" "$who" "$round" sessions_per_s "$sessions_per_s"
    say "  $scenario $who round $round: $(field "$result" rps) req/s, p99 $(field "$result" p99_ms) ms, errors $errors${sessions_per_s:+, $sessions_per_s sessions/s}"
}

run_longpoll() {   # scenario who round port pid ids per-session
    local scenario=$1 who=$2 round=$3 port=$4 pid=$5 ids=$6 per=$7 output result
    output=$(lp longpoll --port "$port" --pid "$pid" --ids "$ids" --per-session "$per" --wait 60 \
        --park-timeout 60 2>&1) || true
    printf '### %s %s round %s\n%s\n' "$scenario" "$who" "$round" "$output" >>"$LOG"
    result=$(grep '^RESULT' <<<"$output" | tail -n1) || true
    if [[ -z "$result" ]]; then
        say "bench: lpclient gave no result for $scenario/$who: $(tail -n3 <<<"$output")"
        return
    fi
    local key
    for key in parked answered p99_ms p50_ms span_ms rss_hold_mb rss_after_mb rss_closed_mb threads_hold; do
        record "$scenario" "$who" "$round" "$key" "$(field "$result" "$key")"
    done
    record "$scenario" "$who" "$round" refused "$(field "$result" early)"
    local hold before
    hold=$(field "$result" threads_hold)
    before=$(field "$result" threads_before)
    [[ -z "$hold" || -z "$before" ]] || record "$scenario" "$who" "$round" threads_added "$((hold - before))"
    say "  $scenario $who round $round: $(grep -v '^RESULT' <<<"$output" | tr '\n' ' ')"
}

run_stream() {   # scenario round ids per-session: Server-Sent Events streams, on the server only
    local scenario=$1 round=$2 ids=$3 per=$4 output result
    output=$(lp stream --port "$SERVER_PORT" --pid "$SERVER_PID" --ids "$ids" --per-session "$per" --wait 60 \
        --park-timeout 60 --release-timeout 30 2>&1) || true
    printf '### %s server round %s\n%s\n' "$scenario" "$round" "$output" >>"$LOG"
    result=$(grep '^RESULT' <<<"$output" | tail -n1) || true
    if [[ -z "$result" ]]; then
        say "bench: lpclient gave no result for $scenario/server: $(tail -n3 <<<"$output")"
        return
    fi
    local key
    for key in opened streams received p99_ms p50_ms span_ms rss_hold_mb rss_after_mb rss_closed_mb threads_hold release_ms; do
        record "$scenario" server "$round" "$key" "$(field "$result" "$key")"
    done
    local hold before
    hold=$(field "$result" threads_hold)
    before=$(field "$result" threads_before)
    [[ -z "$hold" || -z "$before" ]] || record "$scenario" server "$round" threads_added "$((hold - before))"
    say "  $scenario server round $round: $(grep -v '^RESULT' <<<"$output" | tr '\n' ' ')"
}

pair() {   # round command...: runs the command for the server and the baseline, alternating the order
    local round=$1
    shift
    if ((round % 2 == 1)); then
        "$@" server
        "$@" baseline
    else
        "$@" baseline
        "$@" server
    fi
}

target_port() { [[ $1 == server ]] && echo "$SERVER_PORT" || echo "$BASELINE_PORT"; }
target_pid() { [[ $1 == server ]] && echo "$SERVER_PID" || echo "$BASELINE_PID"; }

s1() { run_wrk "s1c$2" "$3" "$1" "$(target_port "$3")" "$2" "$BENCH_DIR/report.lua" "$CAR_PATH"; check_alive "scenario 1"; }
s7() {   # the default-configuration server stands in for the server for one run
    local main_pid=$SERVER_PID main_port=$SERVER_PORT path=$CAR_PATH
    SERVER_PID=$DEFAULT_PID
    SERVER_PORT=$DEFAULT_PORT
    [[ $2 == server ]] && path=$DEFAULT_CAR_PATH
    run_wrk s7 "$2" "$1" "$(target_port "$2")" 64 "$BENCH_DIR/report.lua" "$path"
    check_alive "scenario 7 (the default configuration)"
    SERVER_PID=$main_pid
    SERVER_PORT=$main_port
}
s2() { BENCH_IDS="$OUT/input-ids.txt" run_wrk s2 "$2" "$1" "$(target_port "$2")" 64 "$BENCH_DIR/inputs.lua" /; check_alive "scenario 2"; }
s3() { run_wrk s3 "$2" "$1" "$(target_port "$2")" 32 "$BENCH_DIR/churn.lua" /; check_alive "scenario 3"; }
s12() {   # the testing-mode server stands in for the server, the plain one for the baseline
    local main_pid=$SERVER_PID main_port=$SERVER_PORT base_pid=$BASELINE_PID base_port=$BASELINE_PORT
    SERVER_PID=$FLOW_TESTING_PID SERVER_PORT=$FLOW_TESTING_PORT BASELINE_PID=$FLOW_PLAIN_PID BASELINE_PORT=$FLOW_PLAIN_PORT
    THREADS=$FLOW_CONNECTIONS run_wrk s12 "$2" "$1" "$(target_port "$2")" "$FLOW_CONNECTIONS" "$BENCH_DIR/flow.lua" /
    kill -0 "$FLOW_TESTING_PID" 2>/dev/null || fail "the testing-mode server died during scenario 12; see $OUT/flow-testing.log"
    kill -0 "$FLOW_PLAIN_PID" 2>/dev/null || fail "the plain server died during scenario 12; see $OUT/flow-plain.log"
    SERVER_PID=$main_pid SERVER_PORT=$main_port BASELINE_PID=$base_pid BASELINE_PORT=$base_port
}
floor_run() {   # round scenario connections script [ids]: the durable floor stands in for the server for one run
    local round=$1 scenario=$2 main_pid=$SERVER_PID
    SERVER_PID=$FLOOR_PID
    BENCH_IDS=${5:-} run_wrk "${scenario}f" server "$round" "$FLOOR_PORT" "$3" "$4" /
    SERVER_PID=$main_pid
    if ! kill -0 "$FLOOR_PID" 2>/dev/null; then
        FLOOR_PID=""
        fail "the durable floor died during scenario ${scenario}f; see $OUT/floor.log"
    fi
    # The round's baseline figures stand beside the floor's.
    copy_figures "$round" "$scenario" baseline "${scenario}f" baseline
}
s45() {
    run_longpoll s4 "$2" "$1" "$(target_port "$2")" "$(target_pid "$2")" "$OUT/lp-ids.txt" "$LP_PER_SESSION"
    check_alive "scenario 4"
    # Scenario 5b is the same run seen from the latency side.
    copy_figures "$1" s4 "$2" s5b "$2" answered p99_ms span_ms
}
s5a() {
    run_longpoll s5a "$2" "$1" "$(target_port "$2")" "$(target_pid "$2")" "$OUT/fan-ids.txt" "$FAN_OUT"
    check_alive "scenario 5"
}

s9() {
    run_stream s9 "$1" "$OUT/lp-ids.txt" "$STREAM_PER_SESSION"
    check_alive "scenario 9"
}
s10() {
    run_stream s10 "$1" "$OUT/fan-ids.txt" "$STREAM_FAN_OUT"
    check_alive "scenario 10"
}

rss_kib() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

CLUSTER_DIR=${TMPDIR:-/tmp}/mvvmserver-bench-cluster
cluster() { MVVM_CLUSTER_DIR=$CLUSTER_DIR "$ROOT/scripts/cluster" "$@"; }

s11_setup() {   # two instances on PostgreSQL behind nginx, and one instance on SQLite
    cluster down
    CLUSTER_URL=$(MVVM_SERVER="$SCRATCH/release/server" \
        MVVM_SERVER_FLAGS="--log-level warning --max-connections $MAX_CONNECTIONS --max-sessions $MAX_SESSIONS" \
        cluster up 2 2>>"$LOG") || fail "scripts/cluster up 2 failed (see $LOG)"
    CLUSTER_PORT=${CLUSTER_URL##*:}
    NGINX_PID=$(cat "$CLUSTER_DIR/nginx.pid")
    # Sessions made through nginx; their first reads through nginx take each over on the
    # instance the ring gives it, before any measurement.
    SERVER_PORT=$CLUSTER_PORT make_sessions "$INPUT_SESSIONS" "$OUT/cluster-ids.txt"
    # Instance 1 alone, without nginx: sessions made on it, held by it.
    PG_PID=$(cat "$CLUSTER_DIR/instance-1.pid")
    PG_PORT=$(cat "$CLUSTER_DIR/instance-1.port")
    SERVER_PORT=$PG_PORT make_sessions "$INPUT_SESSIONS" "$OUT/pg-ids.txt"
    BENCH_STATE=1 start_server
    SQLITE_PID=$SERVER_PID
    SQLITE_PORT=$SERVER_PORT
    make_sessions "$INPUT_SESSIONS" "$OUT/sqlite-ids.txt"
    say "cluster: nginx on $CLUSTER_PORT (pid $NGINX_PID), 2 instances on PostgreSQL; one instance on SQLite on $SQLITE_PORT"
}

s11() {   # round: the cluster, the SQLite instance and the baseline, one wrk run of inputs each
    local round=$1 who
    for who in cluster sqlite baseline; do
        case $who in
            cluster) SERVER_PID=$NGINX_PID; BENCH_IDS="$OUT/cluster-ids.txt" run_wrk s11c server "$round" "$CLUSTER_PORT" 64 "$BENCH_DIR/inputs.lua" / ;;
            sqlite) SERVER_PID=$SQLITE_PID; BENCH_IDS="$OUT/sqlite-ids.txt" run_wrk s11s server "$round" "$SQLITE_PORT" 64 "$BENCH_DIR/inputs.lua" / ;;
            baseline)
                BENCH_IDS="$OUT/input-ids.txt" run_wrk s11c baseline "$round" "$BASELINE_PORT" 64 "$BENCH_DIR/inputs.lua" /
                # The same baseline figure stands beside the SQLite row.
                copy_figures "$round" s11c baseline s11s baseline
                ;;
        esac
        check_alive "scenario 11 ($who)"
    done
    # One instance on PostgreSQL against the one on SQLite: its inputs beside the SQLite row's
    # figures of this round, then session churn on each, in alternating order.
    SERVER_PID=$PG_PID
    BENCH_IDS="$OUT/pg-ids.txt" run_wrk s11pi server "$round" "$PG_PORT" 64 "$BENCH_DIR/inputs.lua" /
    check_alive "scenario 11 (one instance on PostgreSQL)"
    copy_figures "$round" s11s server s11pi baseline
    local baseline_pid=$BASELINE_PID order="postgres sqlite"
    ((round % 2 == 1)) || order="sqlite postgres"
    for who in $order; do
        if [[ $who == postgres ]]; then
            SERVER_PID=$PG_PID
            run_wrk s11pc server "$round" "$PG_PORT" 32 "$BENCH_DIR/churn.lua" /
        else
            BASELINE_PID=$SQLITE_PID
            run_wrk s11pc baseline "$round" "$SQLITE_PORT" 32 "$BENCH_DIR/churn.lua" /
            BASELINE_PID=$baseline_pid
        fi
        check_alive "scenario 11 (session churn, $who)"
    done
    SERVER_PID=$SQLITE_PID
}

s6_round() {
    local round=$1 result before after created per_s
    start_server
    # Warm up the allocator and the scene machinery with one session, then measure.
    curl -sf -X POST -o "$OUT/s6-warm.json" "http://127.0.0.1:$SERVER_PORT/sessions" || fail "POST /sessions failed"
    sleep 1
    before=$(rss_kib "$SERVER_PID")
    result=$(lp create --port "$SERVER_PORT" --n "$SESSIONS" --conns 32 --out "$OUT/s6-ids.txt" | grep '^RESULT') || true
    check_alive "scenario 6"
    sleep 2
    after=$(rss_kib "$SERVER_PID")
    created=$(field "$result" created)
    per_s=$(field "$result" per_s)
    local live loaded
    live=$(curl -sf "http://127.0.0.1:$SERVER_PORT/metrics" | awk '$1 == "mvvm_sessions_live" { print $2 }')
    loaded=$(lp each --port "$SERVER_PORT" --ids <(shuf -n 5 "$OUT/s6-ids.txt") --conns 1 \
        --path '/sessions/{id}/scenes/films' --expect '"lifecycle":"loaded"' | grep '^RESULT') || true
    record s6 server "$round" kib_per_session "$(awk -v a="$after" -v b="$before" -v n="$created" 'BEGIN { if (n > 0) printf "%.2f", (a - b) / n }')"
    record s6 server "$round" sessions_per_s "$per_s"
    record s6 server "$round" loaded_checked "$(field "$loaded" matched)"
    say "  s6 server round $round: $created sessions ($live live) at $per_s/s; RSS $((before / 1024)) → $((after / 1024)) MB; films loaded in $(field "$loaded" matched) of 5 checked"
    stop_server
}

# ------------------------------------------------------------------ main

LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)
check_dependencies
build
raise_fd_limit
if wants 1 || wants 2 || wants 3 || wants 4 || wants 5 || wants 7 || wants 9 || wants 10; then
    start_server
    prepare_fixtures
    if wants 7; then start_default_server; fi
    start_baseline
    check_baseline_bytes
    if [[ "${BENCH_STATE:-0}" == 1 ]] && { wants 2 || wants 3; }; then start_floor; fi
    say "baseline answers the same $(wc -c <"$OUT/car.json") bytes; $ROUNDS rounds, wrk -t$THREADS -d$DURATION"
    for round in $(seq 1 "$ROUNDS"); do
        say "round $round of $ROUNDS"
        if wants 1; then
            pair "$round" s1 "$round" 64
            pair "$round" s1 "$round" 256
        fi
        if wants 2; then pair "$round" s2 "$round"; fi
        if wants 2 && [[ -n "$FLOOR_PID" ]]; then floor_run "$round" s2 64 "$BENCH_DIR/inputs.lua" "$OUT/floor-ids.txt"; fi
        if wants 3; then pair "$round" s3 "$round"; fi
        if wants 3 && [[ -n "$FLOOR_PID" ]]; then floor_run "$round" s3 32 "$BENCH_DIR/churn.lua"; fi
        if wants 4 || wants 5; then pair "$round" s45 "$round"; fi
        if wants 5; then
            pair "$round" s5a "$round"
        elif wants 10; then
            s5a "$round" server   # scenario 10's target: 5a's p99, server side only
        fi
        if wants 9; then s9 "$round"; fi
        if wants 10; then s10 "$round"; fi
        if wants 7; then pair "$round" s7 "$round"; fi
    done
    stop_pid "$DEFAULT_PID"
    DEFAULT_PID=""
    stop_server
    stop_pid "$BASELINE_PID"
    BASELINE_PID=""
    stop_pid "$FLOOR_PID"
    FLOOR_PID=""
fi

if wants 6; then
    say "scenario 6: $ROUNDS rounds of $SESSIONS sessions, each on a fresh server"
    for round in $(seq 1 "$ROUNDS"); do
        s6_round "$round"
    done
fi

if wants 11; then
    say "scenario 11: a cluster of 2 on PostgreSQL behind nginx, $ROUNDS rounds"
    # The baseline answers the car document of a server with its state off, made here.
    start_server
    curl -sf -X POST -o "$OUT/created.json" "http://127.0.0.1:$SERVER_PORT/sessions" || fail "POST /sessions failed"
    CAR_PATH="/sessions/$(sed -n 's/.*"id":"\([^"]*\)".*/\1/p' "$OUT/created.json")/scenes/car"
    curl -sf -o "$OUT/car.json" "http://127.0.0.1:$SERVER_PORT$CAR_PATH" || fail "GET $CAR_PATH failed"
    make_sessions "$INPUT_SESSIONS" "$OUT/input-ids.txt"
    stop_server
    start_baseline
    s11_setup
    for round in $(seq 1 "$ROUNDS"); do s11 "$round"; done
    while read -r line; do
        record s11f server "$(field "$line" round)" failover_ms "$(field "$line" failover_ms)"
        say "  s11 failover: $(cut -d' ' -f2- <<<"$line")"
    done < <(MVVM_CLUSTER_DIR=$CLUSTER_DIR python3 "$BENCH_DIR/failover.py" "$CLUSTER_URL" --rounds "$ROUNDS" | grep '^RESULT' || fail "the failover measure failed (bench/failover.py)")
    cluster down
    CLUSTER_URL=""
    stop_server
    stop_pid "$BASELINE_PID"
    BASELINE_PID=""
fi

if wants 12; then
    say "scenario 12: a test flow, testing mode against the plain server, $ROUNDS rounds"
    start_as_scripts_run flow-testing --testing
    FLOW_TESTING_PID=$STARTED_PID FLOW_TESTING_PORT=$STARTED_PORT
    start_as_scripts_run flow-plain
    FLOW_PLAIN_PID=$STARTED_PID FLOW_PLAIN_PORT=$STARTED_PORT
    say "testing-mode server: pid $FLOW_TESTING_PID, port $FLOW_TESTING_PORT; plain server: pid $FLOW_PLAIN_PID, port $FLOW_PLAIN_PORT"
    for round in $(seq 1 "$ROUNDS"); do pair "$round" s12 "$round"; done
    stop_pid "$FLOW_TESTING_PID"
    stop_pid "$FLOW_PLAIN_PID"
    FLOW_TESTING_PID="" FLOW_PLAIN_PID=""
fi

if wants 8; then
    say "scenario 8: a restart with $SESSIONS saved sessions, $ROUNDS rounds"
    while read -r line; do
        round=$(field "$line" round)
        for metric in restart_ms empty_ms bytes_per_session; do record s8 server "$round" "$metric" "$(field "$line" "$metric")"; done
        say "  s8 round $round: $(cut -d' ' -f3- <<<"$line")"
    done < <(python3 "$BENCH_DIR/restart.py" "$SCRATCH/release/server" "$OUT/s8" --sessions "$SESSIONS" --rounds "$ROUNDS" | grep '^RESULT' || fail "scenario 8 failed (bench/restart.py)")
fi

print_table

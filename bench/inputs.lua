-- inputs.lua: POST /sessions/{id}/scenes/car/input, alternating the two bodies per session so
-- that every input changes the car's output. The session ids come from the file named by
-- $BENCH_IDS (one a line), dealt out between wrk's threads: thread k of $BENCH_WRK_THREADS
-- (default 2, as bench/run.sh runs wrk) takes ids k, k + n, k + 2n, ... Each thread sends its
-- ids in turn, whichever of its connections asks next (wrk's Lua does not say which connection
-- asks), so with as many ids as connections an id's next input goes out one turn of its
-- thread's connections later, and may overlap its previous one while that is still being
-- answered.
--
-- wrk runs setup() and init() for one thread, then starts that thread, before it makes the
-- next: setup() must give each thread its share at once and never touch a thread made before.

dofile((os.getenv("BENCH_LUA_DIR") or "bench") .. "/report.lua")

local thread_count = tonumber(os.getenv("BENCH_WRK_THREADS") or "2")
local threads_made = 0

function setup(thread)
   threads_made = threads_made + 1
   local ids = {}
   local file = assert(io.open(assert(os.getenv("BENCH_IDS"), "set BENCH_IDS"), "r"))
   for line in file:lines() do
      if #line > 0 then table.insert(ids, line) end
   end
   file:close()
   local mine = {}
   for i = (threads_made - 1) % thread_count + 1, #ids, thread_count do table.insert(mine, ids[i]) end
   thread:set("ids", mine)
end

local bodies = {
   '{"make":"Lamborghini","model":"Huracan"}',
   '{"make":"Fiat","model":"Panda"}',
}
local requests = {}
local turn = {}
local next_id = 0

function init(args)
   local headers = { ["Content-Type"] = "application/json" }
   for i, id in ipairs(ids) do
      local path = "/sessions/" .. id .. "/scenes/car/input"
      requests[i] = {
         wrk.format("POST", path, headers, bodies[1]),
         wrk.format("POST", path, headers, bodies[2]),
      }
      turn[i] = 0
   end
end

function request()
   next_id = next_id % #requests + 1
   turn[next_id] = 3 - (turn[next_id] == 0 and 2 or turn[next_id])
   return requests[next_id][turn[next_id]]
end

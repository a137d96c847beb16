-- inputs.lua: POST /sessions/{id}/scenes/car/input, alternating the two bodies per session so
-- that every input changes the car's output. The session ids come from the file named by
-- $BENCH_IDS (one a line), shared out between wrk's threads. Each thread sends its ids in turn,
-- whichever of its connections asks next (wrk's Lua does not say which connection asks), so with
-- as many ids as connections an id's next input goes out one turn of the thread's connections
-- later, and may overlap its previous one while that is still being answered: with the state
-- store on, about one input in six finds its session busy with the commit of the one before
-- (BENCHMARKS.md, the twenty-fourth round).

dofile((os.getenv("BENCH_LUA_DIR") or "bench") .. "/report.lua")

local threads = {}

function setup(thread)
   table.insert(threads, thread)
   local ids = {}
   local file = assert(io.open(assert(os.getenv("BENCH_IDS"), "set BENCH_IDS"), "r"))
   for line in file:lines() do
      if #line > 0 then table.insert(ids, line) end
   end
   file:close()
   -- setup runs once per thread before any starts: deal the ids again to every thread seen so far.
   for index, t in ipairs(threads) do
      local mine = {}
      for i = index, #ids, #threads do table.insert(mine, ids[i]) end
      t:set("ids", mine)
   end
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

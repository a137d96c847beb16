-- flow.lua: what an integration test does with one session, again and again. Each thread has
-- one connection (run it with as many connections as threads) and walks one session through:
-- POST /sessions, five inputs to the car scene, one action (search's buttonTapped),
-- GET …/settled, GET …/journal (a 404 on a server without testing mode) and DELETE, then starts
-- again with a new session. Prints bench_report's line with the flows completed and the
-- answers that were not what the step expects (the flow then starts again).

dofile((os.getenv("BENCH_LUA_DIR") or "bench") .. "/report.lua")

local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

local inputs = {
   '{"make":"Lamborghini","model":"Huracan"}', '{"model":"Urus"}', '{"make":"Fiat"}',
   '{"model":"Panda"}', '{"make":"Lamborghini","model":"Huracan"}',
}
local json = { ["Content-Type"] = "application/json" }

function init(args)
   flows, unexpected, step, id = 0, 0, 0, nil
end

function request()
   if step == 0 then
      return wrk.format("POST", "/sessions", { ["Content-Length"] = "0" }, "")
   end
   local base = "/sessions/" .. id
   if step <= 5 then return wrk.format("POST", base .. "/scenes/car/input", json, inputs[step]) end
   if step == 6 then return wrk.format("POST", base .. "/scenes/search/actions/buttonTapped", json, "{}") end
   if step == 7 then return wrk.format("GET", base .. "/settled?wait=5") end
   if step == 8 then return wrk.format("GET", base .. "/journal") end
   return wrk.format("DELETE", base)
end

function response(status, headers, body)
   local expected = 200
   if step == 0 then expected = 201 elseif step == 9 then expected = 204 end
   local fine = status == expected or (step == 8 and status == 404)
   if step == 0 and fine then
      id = body:match('"id"%s*:%s*"([^"]+)"')
      fine = id ~= nil
   end
   if not fine then
      unexpected = unexpected + 1
      step = 0
      return
   end
   step = step + 1
   if step == 10 then
      flows = flows + 1
      step = 0
   end
end

function done(summary, latency, requests)
   local f, u = 0, 0
   for _, t in ipairs(threads) do
      f = f + (t:get("flows") or 0)
      u = u + (t:get("unexpected") or 0)
   end
   local seconds = summary.duration / 1e6
   bench_report(summary, latency, string.format(" flows=%d unexpected=%d flows_per_s=%.1f", f, u, f / seconds))
end

-- churn.lua: session churn. Each request creates a session (POST /sessions) unless a created
-- one is waiting to be deleted, in which case it deletes it (DELETE /sessions/{id}, the id read
-- from the 201 body in response()). Prints bench_report's line with the sessions created and
-- deleted per second.

dofile((os.getenv("BENCH_LUA_DIR") or "bench") .. "/report.lua")

local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

function init(args)
   created, deleted, other = 0, 0, 0
   pending = {}
   create_request = wrk.format("POST", "/sessions", { ["Content-Length"] = "0" }, "")
end

function request()
   local n = #pending
   if n > 0 then
      local id = pending[n]
      pending[n] = nil
      return wrk.format("DELETE", "/sessions/" .. id)
   end
   return create_request
end

function response(status, headers, body)
   if status == 201 then
      created = created + 1
      local id = body:match('"id"%s*:%s*"([^"]+)"')
      if id then table.insert(pending, id) end
   elseif status == 204 then
      deleted = deleted + 1
   else
      other = other + 1
   end
end

function done(summary, latency, requests)
   local c, d, o = 0, 0, 0
   for _, t in ipairs(threads) do
      c = c + (t:get("created") or 0)
      d = d + (t:get("deleted") or 0)
      o = o + (t:get("other") or 0)
   end
   local seconds = summary.duration / 1e6
   bench_report(summary, latency, string.format(
      " created=%d deleted=%d other_status=%d sessions_per_s=%.1f", c, d, o, c / seconds))
end

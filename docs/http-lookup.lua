-- wrk script for docs/performance.md, section "HTTP": one point lookup of a random existing key
-- per request, GET /v1/tables/kv/indexes/kv_pk?key=K with K uniform in [0, rows).
--
--   wrk -t2 -c8 -d20s --latency -s docs/http-lookup.lua http://127.0.0.1:7070 -- 1000000
--
-- The argument after "--" is the number of rows (default 1,000,000). Each wrk thread seeds its
-- own generator from its number, so runs are repeatable. wrk reports answers other than 2xx/3xx
-- itself ("Non-2xx or 3xx responses"); every key asked exists, so a correct run has none.

local counter = 0

function setup(thread)
  counter = counter + 1
  thread:set("id", counter)
end

function init(args)
  rows = tonumber(args[1] or "1000000")
  math.randomseed(20240603 + id)
end

function request()
  return wrk.format("GET", "/v1/tables/kv/indexes/kv_pk?key=" .. math.random(0, rows - 1))
end

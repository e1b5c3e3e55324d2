-- A site's limitations on this node (data `limits`): connections — its requests in flight at once, over it 503;
-- bandwidth (Mbps) — shared by its requests in flight: each request is sent at most at bandwidth / in flight,
-- counted when it starts. The in-flight count lives in the shared dictionary `ek_limit` and drops in the log phase;
-- which count a request holds is kept by its request ID, which (unlike ngx.ctx) outlives an internal redirect to
-- a custom error page.
local data = require "edgekeep.data"
local page = require "edgekeep.page"

local dict = ngx.shared.ek_limit
local _M = {}

-- The sites this worker counted a request of: a request is counted and let go in the same worker, so one of a site
-- this worker never counted holds nothing here, which log() tells without a look in the dictionary.
local counted = {}

-- Whether the site of `view` (data.view) has limitations: its requests are counted, and let go in the log phase.
function _M.limited(view)
  return data.rules({ view = view }, "limits") ~= nil
end

-- Counts the request against its site and caps it; a subrequest or internal redirect was counted already, but for a
-- live domain's request (ctx.name) that the fixed servers sent on to a named location of theirs before its access
-- steps ran (live.lua): it holds no count yet. A live domain's request is counted only where the log phase runs
-- (ctx.logged), which lets it go: route() sends a site's requests there when the site has limitations.
function _M.admit(ctx)
  local limits = data.rules(ctx, "limits")
  if not limits then return end
  if ctx.name and not ctx.logged then return end
  if ngx.req.is_internal() and (not ctx.name or dict:get("held:" .. ngx.var.request_id)) then return end
  local key = "inflight:" .. ctx.site
  counted[ctx.site] = true
  local n = dict:incr(key, 1, 0)
  if not n then return end
  dict:set("held:" .. ngx.var.request_id, key, 86400)
  if limits.connections and n > limits.connections then return page.send(503, "connections") end
  if limits.bandwidth then
    ngx.var.limit_rate = math.max(1, math.floor(limits.bandwidth * 125000 / n))
  end
end

-- `site`: the request's site where the caller has it (live.lua), else nil: $ek_site names it.
function _M.log(site)
  site = site or ngx.var.ek_site
  if not site or site == "" then return end
  -- A site this worker never counted a request of: nothing to let go.
  if not counted[site] then return end
  local held = "held:" .. ngx.var.request_id
  local key = dict:get(held)
  if not key then return end
  dict:delete(held)
  dict:incr(key, -1, 0)
end

return _M

-- The live domains' list in `ek_data` (`live` or `liveDelta` of the pushed document, see render/live.ts and
-- sync/live-push.ts): checked, stored as generations, and looked up by name for live.lua.
local cjson = require "cjson.safe"
local lrucache = require "resty.lrucache"
local live_cache = require "edgekeep.live_cache"

local dict = ngx.shared.ek_data
local null = cjson.null
local _M = {}

-- Seconds an old generation stays readable after the swap.
local GRACE = 5
-- Names (and misses) each worker keeps decoded.
local cache = lrucache.new(20000)

local function count(t) return type(t) == "table" and #t or -1 end
local function posint(v, max) return type(v) == "number" and v >= 1 and v <= max and v % 1 == 0 end
-- A field of an entry: nil for JSON null.
local function opt(v) if v == null then return nil end return v end
_M.opt = opt

-- An IPv4 or IPv6 address: the balancer takes nothing else (the agent resolves origin names, render/live-origins.ts).
local function address(host)
  return host:match("^%d+%.%d+%.%d+%.%d+$") or (host:find(":", 1, true) and host:match("^[%x:%.]+$"))
end

local function bad_origin(o)
  if type(o) ~= "table" or type(o.host) ~= "string" or o.host == "" or not posint(o.port, 65535) then return "an origin without host or port" end
  if not address(o.host) then return "an origin that is not an address" end
  if not posint(o.weight, 100) or type(o.backup) ~= "boolean" then return "an origin's weight or backup" end
  if type(o.maxFails) ~= "number" or o.maxFails < 0 or not posint(o.failTimeout, 3600) then return "an origin's health settings" end
end

local SCHEMES = { http = true, https = true, follow = true }

-- Why one live domain cannot be taken, or nil.
local function invalid(d)
  if type(d) ~= "table" or type(d.name) ~= "string" or not d.name:match("^[%w%*][%w%.%-_]*$") then return "a domain without a valid name" end
  if not posint(d.site, 2^53) or not posint(d.domain, 2^53) then return d.name .. ": site or domain id" end
  if not SCHEMES[d.scheme] then return d.name .. ": origin scheme" end
  if count(d.origins) < 1 then return d.name .. ": no origin" end
  for _, o in ipairs(d.origins) do
    local why = bad_origin(o)
    if why then return d.name .. ": " .. why end
  end
  if count(d.httpPorts) < 0 or count(d.httpsPorts) < 0 or type(d.https) ~= "boolean" then return d.name .. ": ports" end
  local redirect = opt(d.redirect)
  if redirect ~= nil and (type(redirect) ~= "table" or not posint(redirect.code, 399) or not posint(redirect.port, 65535)) then return d.name .. ": redirect" end
  local hsts, hash, map = opt(d.hsts), opt(d.hash), opt(d.portMap)
  if (hsts ~= nil and type(hsts) ~= "string") or (hash ~= nil and type(hash) ~= "string") or (map ~= nil and type(map) ~= "table") then
    return d.name .. ": hsts, hash or port mapping"
  end
  if type(d.leastConn) ~= "boolean" or (d.leastConn and hash ~= nil) then return d.name .. ": balancing" end
  if count(d.rates) < 0 then return d.name .. ": rates" end
  for _, r in ipairs(d.rates) do
    if type(r) ~= "table" or type(r.prefix) ~= "string" or r.prefix == "" or not posint(r.rate, 2^40) then return d.name .. ": a rate rule" end
  end
  local body = opt(d.bodyLimit)
  if (body ~= nil and not posint(body, 2^53)) or type(d.cacheIgnoreQuery) ~= "boolean" then return d.name .. ": body limit or cache key" end
  local zone = opt(d.cacheZone)
  if zone ~= nil and (type(zone) ~= "string" or not zone:match("^ek_s%d+$")) then return d.name .. ": cache zone" end
  if type(d.webp) ~= "boolean" then return d.name .. ": webp" end
  if type(d.gzip) ~= "boolean" then return d.name .. ": gzip" end
  if type(d.errorPages) ~= "boolean" then return d.name .. ": error pages" end
  if type(d.keepalive) ~= "boolean" then return d.name .. ": keepalive" end
  local cache = opt(d.cache)
  local why = cache ~= nil and live_cache.invalid(cache)
  if why then return d.name .. ": " .. why end
end

-- Storage. `live:cur` is "<gen> <base>": the list of generation `gen` is the base list `B<base>:<name>` (every name
-- of a full push) under the overlay `O<gen>:<name>` (every name changed by the deltas since that base; "-" for a
-- removed one). A generation is written whole, then `live:cur` switches to it in one write: a request reads it once
-- and sees the old list or the new one whole. What the switch replaced is removed GRACE seconds later.
local GONE = "-"
-- Names an overlay may hold before a delta folds it into a new base.
local OVERLAY_MAX = 5000

local function names_of(list_key)
  local names = {}
  for name in (dict:get(list_key) or ""):gmatch("[^\n]+") do names[#names + 1] = name end
  return names
end

-- Deletes the keys `<prefix><gen>:<name>` listed under `live:<list>:<gen>`, and that list.
local function drop(prefix, list, gen)
  for _, name in ipairs(names_of("live:" .. list .. ":" .. gen)) do dict:delete(prefix .. gen .. ":" .. name) end
  dict:delete("live:" .. list .. ":" .. gen)
end
local function drop_base(gen) drop("B", "names", gen) end
local function drop_overlay(gen) drop("O", "over", gen) end

-- Drops what a switch replaced once no request can still read it; at boot (the master, no timers) the workers
-- started by this load do it (worker_started).
local function drop_later(overlay, base)
  if ngx.get_phase() == "init" then return dict:set("live:stale", (overlay or 0) .. " " .. (base or 0)) end
  ngx.timer.at(GRACE, function()
    if overlay then drop_overlay(overlay) end
    if base then drop_base(base) end
  end)
end

-- This worker's reading of `live:cur`: gen, base and the value itself; nil before any list.
local parsed = {}
local function current()
  local cur = dict:get("live:cur")
  if not cur then return nil end
  if parsed.cur ~= cur then
    local gen, base = cur:match("^(%d+) (%d+)$")
    parsed = { cur = cur, gen = tonumber(gen), base = tonumber(base) }
  end
  return parsed.gen, parsed.base, cur
end

-- The raw entry of one exact name in (gen, base): JSON, or nil.
local function raw_of(gen, base, name)
  if gen ~= base then
    local over = dict:get("O" .. gen .. ":" .. name)
    if over == GONE then return nil end
    if over then return over end
  end
  return dict:get("B" .. base .. ":" .. name)
end

-- Writes `entries` (name -> raw JSON) as `<prefix><gen>:<name>` and their list, all or nothing.
local function write(prefix, list, gen, entries)
  local names = {}
  for name, raw in pairs(entries) do
    local ok, err = dict:safe_set(prefix .. gen .. ":" .. name, raw)
    if not ok then
      dict:set("live:" .. list .. ":" .. gen, table.concat(names, "\n"))
      drop(prefix, list, gen)
      return nil, "live: " .. err
    end
    names[#names + 1] = name
  end
  local ok, err = dict:safe_set("live:" .. list .. ":" .. gen, table.concat(names, "\n"))
  if not ok then
    drop(prefix, list, gen)
    return nil, "live: " .. err
  end
  return #names
end

local function checked(list)
  if type(list) ~= "table" then return nil, "live is not a list" end
  local seen = {}
  for _, d in ipairs(list) do
    local why = invalid(d)
    if why then return nil, "live: " .. why end
    if seen[d.name] then return nil, "live: " .. d.name .. " twice" end
    seen[d.name] = true
  end
  return true
end

local function switch(gen, base, digest, count)
  dict:set("live:cur", gen .. " " .. base)
  dict:set("live:digest", digest or "")
  dict:set("live:count", count)
end

-- A new base of `entries` (name -> raw JSON): written, switched to, the old generation dropped later.
local function rebase(entries, digest)
  local old, old_base = current()
  local gen = (old or 0) + 1
  local count, err = write("B", "names", gen, entries)
  if not count then return nil, err end
  switch(gen, gen, digest, count)
  if old then drop_later(old ~= old_base and old or nil, old_base) end
  return true
end

-- An entry as stored: its top-level null fields left out (a lookup reads them as nil, which opt() takes alike), so
-- that an entry with its key fits the dictionary's 512-byte slab size: in the 1,024-byte one, 100,000 domains no
-- longer fitted in ek_data.
local function stored(d)
  for k, v in pairs(d) do
    if v == null then d[k] = nil end
  end
  return cjson.encode(d)
end

-- Replaces the live domains with `list`, all or nothing; `digest` names the list, and the same list again is a no-op.
local function load(list, digest)
  if digest ~= nil and digest == dict:get("live:digest") then return true end
  local ok, err = checked(list)
  if not ok then return nil, err end
  local entries = {}
  for _, d in ipairs(list) do entries[d.name] = stored(d) end
  return rebase(entries, digest)
end

-- Changes the live domains of digest `delta.base` by `delta.set` (entries, added or replaced) and `delta.remove`
-- (names), all or nothing, into the list of `digest`. A base the runtime does not hold is refused: the agent then
-- sends the whole list.
local function apply_delta(delta, digest)
  if type(delta) ~= "table" or type(delta.remove) ~= "table" then return nil, "liveDelta is not a delta" end
  local gen, base = current()
  if not gen or delta.base ~= dict:get("live:digest") then return nil, "live: the delta's base is not held" end
  local ok, err = checked(delta.set)
  if not ok then return nil, err end
  local count = dict:get("live:count") or 0
  local overlay = {}
  if gen ~= base then
    for _, name in ipairs(names_of("live:over:" .. gen)) do overlay[name] = dict:get("O" .. gen .. ":" .. name) end
  end
  for _, d in ipairs(delta.set) do
    if not raw_of(gen, base, d.name) then count = count + 1 end
    overlay[d.name] = stored(d)
  end
  for _, name in ipairs(delta.remove) do
    if type(name) ~= "string" then return nil, "live: a removed name that is not a string" end
    if raw_of(gen, base, name) then count = count - 1 end
    overlay[name] = GONE
  end
  if #names_of("live:over:" .. gen) + #delta.set + #delta.remove > OVERLAY_MAX then
    -- fold: the base's names with the overlay over them, as a new base
    local entries = {}
    for _, name in ipairs(names_of("live:names:" .. base)) do entries[name] = dict:get("B" .. base .. ":" .. name) end
    for name, raw in pairs(overlay) do entries[name] = raw ~= GONE and raw or nil end
    return rebase(entries, digest)
  end
  local next_gen = gen + 1
  local written, werr = write("O", "over", next_gen, overlay)
  if not written then return nil, werr end
  switch(next_gen, base, digest, count)
  if gen ~= base then drop_later(gen, nil) end
  return true
end

-- The live part of a pushed document: `liveDelta` against the list held, else `live`, the whole list; neither leaves
-- the live domains as they are. `liveDigest` names the list that results.
function _M.take(doc)
  if doc.liveDelta ~= nil then return apply_delta(doc.liveDelta, doc.liveDigest) end
  if doc.live == nil then return true end
  return load(doc.live, doc.liveDigest)
end

-- Worker 0 of a (re)load drops what that load replaced.
function _M.worker_started()
  local stale = dict:get("live:stale")
  if stale and ngx.worker.id() == 0 then
    dict:delete("live:stale")
    local overlay, base = stale:match("^(%d+) (%d+)$")
    ngx.timer.at(GRACE, function()
      if tonumber(overlay) > 0 then drop_overlay(tonumber(overlay)) end
      if tonumber(base) > 0 then drop_base(tonumber(base)) end
    end)
  end
end

-- The live domain of `name`: exact, else the longest `*.` wildcard that covers it; false if none.
local function find(gen, base, name)
  local raw = raw_of(gen, base, name)
  local from = 1
  while not raw do
    local dot = name:find(".", from, true)
    if not dot then return false end
    raw = raw_of(gen, base, "*" .. name:sub(dot))
    from = dot + 1
  end
  return cjson.decode(raw) or false
end

-- The live domain a request for `name` goes to (decoded), or false; each worker keeps recent answers per generation.
function _M.lookup(name)
  local gen, base, cur = current()
  if not gen then return false end
  local hit = cache:get(name)
  if hit and hit.cur == cur then return hit.domain end
  local domain = find(gen, base, name)
  cache:set(name, { cur = cur, domain = domain })
  return domain
end

-- How many live domains the node holds, for the status call.
function _M.count()
  return dict:get("live:count") or 0
end

return _M

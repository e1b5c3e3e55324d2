-- The local control endpoint: the agent pushes data and purges here, without reloading nginx.
--   PUT  /data   { revision, sites: [{ siteId, blacklist, whitelist }] }
--   POST /purge  { urls: ["http://host/path?query", ...], prefixes: ["http://host/path/", ...] },
--                { hosts: ["host", ...], extensions: ["png", ...] } or { all: true }
--   GET  /blocked  -> { blocked: [{ siteId, ip, cause, expiresAt }] }
--   POST /blocked  { siteId, ips, cause, seconds }
--   DELETE /blocked { siteId, ips } or { siteId, all: true }
--   GET  /status
-- Every call carries `Authorization: Bearer <PREFIX/control.token>`.
local cjson = require "cjson.safe"
local data = require "edgekeep.data"
local purge = require "edgekeep.purge"
local blocked = require "edgekeep.blocked"

local _M = {}

local function reply(status, body)
  ngx.status = status
  ngx.header["Content-Type"] = "application/json"
  ngx.say(cjson.encode(body))
  return ngx.exit(status)
end

local function read_json()
  ngx.req.read_body()
  local body = ngx.req.get_body_data()
  if not body then
    local file = ngx.req.get_body_file()
    if file then
      local f = io.open(file, "r")
      if f then body = f:read("*a"); f:close() end
    end
  end
  return cjson.decode(body or "")
end

local routes = {
  ["GET /status"] = function()
    return reply(200, data.status())
  end,
  ["PUT /data"] = function()
    local doc = read_json()
    if not doc then return reply(400, { error = "the body is not JSON" }) end
    local ok, err = data.load(doc)
    if not ok then return reply(400, { error = err }) end
    return reply(200, data.status())
  end,
  -- The node's disk is full (the agent's report): nothing new is cached, since nginx cannot write a cache file and
  -- would cut the answer instead (access.lua sets $ek_no_cache, every server's proxy_no_cache).
  ["PUT /disk"] = function()
    local doc = read_json()
    if not doc or type(doc.full) ~= "boolean" then return reply(400, { error = "full (a boolean) is needed" }) end
    require("edgekeep.zone").disk_full(doc.full)
    return reply(200, { full = doc.full })
  end,
  ["GET /blocked"] = function()
    local list = blocked.list()
    -- Debian's cjson writes an empty table as {}: say the empty list outright.
    if #list == 0 then
      ngx.header["Content-Type"] = "application/json"
      ngx.say('{"blocked":[]}')
      return ngx.exit(200)
    end
    return reply(200, { blocked = list })
  end,
  ["POST /blocked"] = function()
    local doc = read_json()
    if not doc or not tonumber(doc.siteId) or type(doc.ips) ~= "table" then return reply(400, { error = "siteId and ips are needed" }) end
    for _, ip in ipairs(doc.ips) do blocked.add(tonumber(doc.siteId), tostring(ip), doc.cause or "manual", doc.seconds) end
    return reply(200, { added = #doc.ips })
  end,
  ["DELETE /blocked"] = function()
    local doc = read_json()
    if not doc or not tonumber(doc.siteId) then return reply(400, { error = "siteId is needed" }) end
    if doc.all ~= true and type(doc.ips) ~= "table" then return reply(400, { error = "ips or all is needed" }) end
    return reply(200, { removed = blocked.remove(tonumber(doc.siteId), doc.all ~= true and doc.ips or nil) })
  end,
  ["POST /purge"] = function()
    local doc = read_json()
    if not doc then return reply(400, { error = "the body is not JSON" }) end
    if doc.all == true then return reply(200, { removed = purge.all(data.cache) }) end
    if type(doc.prefixes) == "table" then
      local prefixes = {}
      for _, p in ipairs(doc.prefixes) do prefixes[#prefixes + 1] = tostring(p):gsub("^https?://", "") end
      local removed = #prefixes > 0 and purge.matching(data.cache, { prefixes = prefixes }) or 0
      if type(doc.urls) == "table" then removed = removed + purge.urls(data.cache, doc.urls) end
      return reply(200, { removed = removed })
    end
    if type(doc.hosts) == "table" then
      local hosts, extensions = {}, nil
      for _, h in ipairs(doc.hosts) do hosts[tostring(h):lower()] = true end
      if type(doc.extensions) == "table" then
        extensions = {}
        for _, e in ipairs(doc.extensions) do extensions[tostring(e):lower()] = true end
      end
      return reply(200, { removed = purge.matching(data.cache, { hosts = hosts, extensions = extensions }) })
    end
    if type(doc.urls) ~= "table" then return reply(400, { error = "urls, hosts or all is needed" }) end
    return reply(200, { removed = purge.urls(data.cache, doc.urls) })
  end,
}

function _M.handle()
  if ngx.var.http_authorization ~= "Bearer " .. data.token then return reply(401, { error = "a control token is needed" }) end
  local route = routes[ngx.req.get_method() .. " " .. ngx.var.uri]
  if not route then return reply(404, { error = "no such call" }) end
  return route()
end

return _M

-- A live domain's cache rules (render/cache-locations.ts liveCacheRules): checked with the pushed list, and matched
-- per request to the fixed servers' location of their policy (render/live-server.ts).
local cjson = require "cjson.safe"

local null = cjson.null
local data = require "edgekeep.data"  -- data.policies: the policies this configuration has a location for, set at boot
local _M = {}

-- A policy's name: it names an nginx location.
local function policy(v)
  return type(v) == "string" and (v == "off" or v:match("^%d+$") or v:match("^%d+_force$")) ~= nil
end

-- Why a domain's cache rules cannot be taken, or nil.
function _M.invalid(c)
  if type(c) ~= "table" or type(c.prefixes) ~= "table" or type(c.fileTypes) ~= "table" then return "cache rules" end
  if c.root ~= null and not policy(c.root) then return "a cache rule of /" end
  for _, p in ipairs(c.prefixes) do
    if type(p) ~= "table" or type(p.path) ~= "string" or p.path:sub(1, 1) ~= "/" or not policy(p.policy) then return "a cache rule's prefix" end
  end
  for _, t in ipairs(c.fileTypes) do
    if type(t) ~= "table" or not policy(t.policy) or type(t.extensions) ~= "table" or not t.extensions[1] then return "a cache rule's file types" end
    for _, e in ipairs(t.extensions) do
      if type(e) ~= "string" or not e:match("^[%l%d]+$") then return "a cache rule's file types" end
    end
  end
end

-- Once per decoded record: each file-type rule's extensions as a set.
function _M.prepare(c)
  for _, t in ipairs(c.fileTypes) do
    t.set = {}
    for _, e in ipairs(t.extensions) do t.set[e] = true end
  end
end

-- The policy of `uri` as the locations of a server block of the domain's own pick it: the longest prefix of the
-- host's URL rules (`^~`: no regex is looked at then), else the first file-type rule of the path's extension
-- (`~* \.(...)$`, caseless; PCRE's `$` also matches before a final newline), else the rule of `/`; nil: none, the
-- origin's cache headers decide. Or nil and a prefix that is `uri` and a slash: nginx redirects to it (a location
-- that proxies and ends in a slash), whatever else matches. Prefixes come longest first, so it is seen before any
-- prefix that matches.
local function policy_of(c, uri)
  for _, p in ipairs(c.prefixes) do
    local path = p.path
    if #path == #uri + 1 and path:sub(1, #uri) == uri then return nil, path end
    if uri:sub(1, #path) == path then return p.policy end
  end
  local ext = c.fileTypes[1] and uri:match("%.(%w+)\n?$")
  if ext then
    ext = ext:lower()
    for _, t in ipairs(c.fileTypes) do
      if t.set[ext] then return t.policy end
    end
  end
  if c.root ~= null then return c.root end
end

-- From route(): a request a rule matches goes to its policy's named location, where live.resume() takes it up.
-- Pushed data can name a policy before the reload that renders its location is done: the answer is then served by
-- `location /` and not stored, so nothing is cached longer, or at all, against the rule.
function _M.route(c, var)
  local name, slash = policy_of(c, var.uri)
  if slash then
    -- absolute, as nginx's header filter makes its own (ngx.redirect leaves a relative one as it is)
    local port, https = var.server_port, var.https == "on"
    local at = var.scheme .. "://" .. var.host .. (port == (https and "443" or "80") and "" or ":" .. port) .. slash
    local args = var.args
    return ngx.redirect(args and at .. "?" .. args or at, 301)
  end
  if not name then return end
  if not data.policies[name] then
    var.ek_no_cache = "1"
    return
  end
  return ngx.exec("@ek_cache_" .. name)
end

return _M

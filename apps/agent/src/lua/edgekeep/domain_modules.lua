-- Per-domain traffic modules in the shared dictionary `ek_data`: one JSON document per domain
-- ({ domainId, headers, redirects, cors, referers, headerRules }), compiled once per worker per change.
local cjson = require "cjson.safe"

local dict = ngx.shared.ek_data
local _M = {}
local compiled = {}

-- Replaces every domain's document; a domain left out loses its modules.
function _M.load(domains)
  if domains ~= nil and type(domains) ~= "table" then return nil, "domains is not a list" end
  local version = (dict:get("dmversion") or 0) + 1
  local present = {}
  for _, d in ipairs(domains or {}) do
    local id = tostring(d.domainId)
    present[id] = true
    local ok, err = dict:safe_set("dm:" .. id, cjson.encode(d))
    if ok then ok, err = dict:safe_set("dmv:" .. id, version) end
    if not ok then return nil, "domain " .. id .. ": " .. err end
  end
  for id in (dict:get("domains") or ""):gmatch("[^,]+") do
    if not present[id] then
      dict:delete("dmv:" .. id)
      dict:delete("dm:" .. id)
    end
  end
  local ids = {}
  for id in pairs(present) do ids[#ids + 1] = id end
  dict:safe_set("domains", table.concat(ids, ","))
  dict:safe_set("dmversion", version)
  return true
end

-- The modules of the domain this request is for (`id`: its id as live.lua has it, else $ek_domain), or nil. `key`:
-- its version's key ("dmv:" and the id) where the caller keeps it.
function _M.current(id, key)
  id = id or ngx.var.ek_domain
  if not id or id == "" then return nil end
  local version = dict:get(key or "dmv:" .. id)
  if not version then return nil end
  local cached = compiled[id]
  if cached and cached.version == version then return cached.doc end
  local doc = cjson.decode(dict:get("dm:" .. id) or "")
  if not doc then return nil end
  if doc.cors == cjson.null then doc.cors = nil end
  if doc.tokenAuth == cjson.null then doc.tokenAuth = nil end
  compiled[id] = { version = version, doc = doc }
  return doc
end

return _M

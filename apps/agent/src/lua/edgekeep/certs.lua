-- Certificates by SNI name, without reload. The shared dictionary holds, per certificate, its PEM (chain and key)
-- and a version that changes only when the PEM does; `sni:<name>` points a domain name (or `*.` wildcard) at a
-- certificate. Each worker keeps the parsed certificate and key per version, so a handshake parses nothing.
-- Keys are never logged: errors name the certificate id only.
local ssl = require "ngx.ssl"
local cjson = require "cjson.safe"

local dict = ngx.shared.ek_data
local _M = {}
local parsed = {}

local function set(key, value)
  local ok, err = dict:safe_set(key, value)
  if not ok then return nil, key .. ": " .. err end
  return true
end

local function forget(list_key, keep, prefixes)
  for item in (dict:get(list_key) or ""):gmatch("[^\n]+") do
    if not keep[item] then
      for _, p in ipairs(prefixes) do dict:delete(p .. item) end
    end
  end
end

-- Replaces the certificates with a list { id, names = [...], chain, key }; the names not in it fall back to the
-- default certificate. The PEM goes in before the names point at it.
function _M.load(list)
  if type(list) ~= "table" then return nil, "certificates is not a list" end
  local ids, names = {}, {}
  for _, c in ipairs(list) do
    local id = tostring(c.id)
    if type(c.chain) ~= "string" or type(c.key) ~= "string" then return nil, "certificate " .. id .. " has no PEM" end
    local pem = cjson.encode({ chain = c.chain, key = c.key })
    if dict:get("certpem:" .. id) ~= pem then
      local ok, err = set("certpem:" .. id, pem)
      -- Versions come from one counter, so a certificate removed and pushed again never reuses a worker's cache.
      if ok then ok, err = set("certv:" .. id, dict:incr("certseq", 1, 0)) end
      if not ok then return nil, err end
    end
    ids[id] = true
    for _, name in ipairs(type(c.names) == "table" and c.names or {}) do names[tostring(name):lower()] = id end
  end
  for name, id in pairs(names) do
    local ok, err = set("sni:" .. name, id)
    if not ok then return nil, err end
  end
  forget("sninames", names, { "sni:" })
  forget("certids", ids, { "certpem:", "certv:" })
  local name_list, id_list = {}, {}
  for name in pairs(names) do name_list[#name_list + 1] = name end
  for id in pairs(ids) do id_list[#id_list + 1] = id end
  local ok, err = set("sninames", table.concat(name_list, "\n"))
  if ok then ok, err = set("certids", table.concat(id_list, "\n")) end
  return ok, err
end

-- Loads the release's certificate file at boot (the master reads it; it is root's only).
function _M.boot(file)
  local f = io.open(file, "r")
  if not f then return end
  local list = assert(cjson.decode(f:read("*a")), "certificate file is not JSON")
  f:close()
  assert(_M.load(list))
end

local function lookup(name)
  local id = dict:get("sni:" .. name)
  if id then return id end
  local dot = name:find(".", 1, true)
  if dot then return dict:get("sni:*" .. name:sub(dot)) end
end

local function certificate(id)
  local version = dict:get("certv:" .. id)
  if not version then return nil end
  local cached = parsed[id]
  if cached and cached.version == version then return cached end
  local pem = cjson.decode(dict:get("certpem:" .. id) or "")
  if not pem then return nil end
  local cert, err = ssl.parse_pem_cert(pem.chain)
  if not cert then return nil, "certificate " .. id .. ": " .. (err or "unreadable chain") end
  local key
  key, err = ssl.parse_pem_priv_key(pem.key)
  if not key then return nil, "certificate " .. id .. ": the private key does not parse" end
  cached = { version = version, cert = cert, key = key }
  parsed[id] = cached
  return cached
end

-- ssl_certificate_by_lua: refuses an address over the zone's TLS handshake limit; then the certificate for the SNI name, exact name first, then the wildcard of its parent;
-- without one the server's default certificate stays.
function _M.serve()
  if not require("edgekeep.zone").tls_allowed() then return ngx.exit(ngx.ERROR) end
  local name = ssl.server_name()
  if not name then return end
  local id = lookup(name:lower())
  if not id then return end
  local c, err = certificate(id)
  if not c then
    if err then ngx.log(ngx.ERR, err) end
    return
  end
  local ok
  ok, err = ssl.clear_certs()
  if ok then ok, err = ssl.set_cert(c.cert) end
  if ok then ok, err = ssl.set_priv_key(c.key) end
  if not ok then
    ngx.log(ngx.ERR, "certificate ", id, ": ", err)
    return ngx.exit(ngx.ERROR)
  end
end

return _M

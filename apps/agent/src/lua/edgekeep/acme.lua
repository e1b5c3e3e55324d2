-- ACME HTTP-01 answers, pushed as data while an order runs: `acme:<host>/<token>` holds the key authorization.
-- The CA's validator asks http://<host>/.well-known/acme-challenge/<token> on any HTTP port of the node.
local dict = ngx.shared.ek_data
local _M = {}

local PREFIX = "/.well-known/acme-challenge/"

-- Replaces the answers with a list { name, token, keyAuthorization }; the answers no longer pushed are removed.
function _M.load(list)
  if list == nil then list = {} end
  if type(list) ~= "table" then return nil, "acme is not a list" end
  local keep = {}
  for _, c in ipairs(list) do
    if type(c.name) ~= "string" or type(c.token) ~= "string" or type(c.keyAuthorization) ~= "string" then
      return nil, "an ACME answer without name, token or keyAuthorization"
    end
    local key = c.name:lower() .. "/" .. c.token
    keep[key] = true
    local ok, err = dict:safe_set("acme:" .. key, c.keyAuthorization)
    if not ok then return nil, "acme: " .. err end
  end
  for key in (dict:get("acmekeys") or ""):gmatch("[^\n]+") do
    if not keep[key] then dict:delete("acme:" .. key) end
  end
  local keys = {}
  for key in pairs(keep) do keys[#keys + 1] = key end
  local ok, err = dict:safe_set("acmekeys", table.concat(keys, "\n"))
  if not ok then return nil, "acme: " .. err end
  return true
end

-- content_by_lua of the challenge location: the key authorization for this host and token, or 404.
function _M.serve()
  local token = ngx.var.uri:sub(#PREFIX + 1)
  local host = (ngx.var.host or ""):lower()
  local answer = token ~= "" and dict:get("acme:" .. host .. "/" .. token)
  if not answer then return ngx.exit(404) end
  ngx.header["Content-Type"] = "text/plain"
  ngx.print(answer)
  return ngx.exit(200)
end

return _M

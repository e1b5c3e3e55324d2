-- Token auth (signed URLs). A protected path needs ?expires=<unix seconds>&sign=<hex HMAC-SHA1(key, path .. ":" .. expires)>
-- where path is the decoded URL path; a missing, wrong or expired signature gets 403.
local page = require "edgekeep.page"

local _M = {}

local function hex(s)
  return (s:gsub(".", function(c) return string.format("%02x", c:byte()) end))
end

local function protected(t, uri)
  if t.scope ~= "paths" then return true end
  for _, p in ipairs(t.paths or {}) do
    if uri:sub(1, #p) == p then return true end
  end
  return false
end

function _M.access(cfg)
  local t = cfg.tokenAuth
  if not t or type(t) ~= "table" then return end
  local uri = ngx.var.uri
  if not protected(t, uri) then return end
  local args = ngx.req.get_uri_args(10)
  local expires, sign = args.expires, args.sign
  if type(expires) ~= "string" or type(sign) ~= "string" or not expires:match("^%d+$") then return page.send(403, "token") end
  if tonumber(expires) < ngx.time() then return page.send(403, "token") end
  if hex(ngx.hmac_sha1(t.key, uri .. ":" .. expires)) ~= sign:lower() then return page.send(403, "token") end
end

return _M

-- CORS: a preflight (OPTIONS with Access-Control-Request-Method) is answered at the edge; other answers to
-- an allowed Origin get the Access-Control-* headers. The allowed origin is '*' or exactly one https origin.
local _M = {}

local function allowed(cfg, origin)
  return origin and origin ~= "" and (cfg.allowOrigin == "*" or cfg.allowOrigin == origin)
end

local function set_common(cfg, origin)
  if cfg.allowOrigin == "*" then
    ngx.header["Access-Control-Allow-Origin"] = "*"
  else
    ngx.header["Access-Control-Allow-Origin"] = origin
    ngx.header["Vary"] = "Origin"
  end
  if cfg.allowCredentials then ngx.header["Access-Control-Allow-Credentials"] = "true" end
end

function _M.access(cfg)
  local c = cfg.cors
  if not c or ngx.req.get_method() ~= "OPTIONS" then return end
  local wanted = ngx.var.http_access_control_request_method
  if not wanted then return end
  local origin = ngx.var.http_origin
  ngx.ctx.ek_preflight = true
  if not allowed(c, origin) then return ngx.exit(ngx.HTTP_FORBIDDEN) end
  set_common(c, origin)
  ngx.header["Access-Control-Allow-Methods"] = table.concat(c.allowMethods or {}, ", ")
  if c.allowHeaders and #c.allowHeaders > 0 then
    ngx.header["Access-Control-Allow-Headers"] = table.concat(c.allowHeaders, ", ")
  elseif ngx.var.http_access_control_request_headers then
    ngx.header["Access-Control-Allow-Headers"] = ngx.var.http_access_control_request_headers
  end
  ngx.header["Access-Control-Max-Age"] = tostring(c.maxAge)
  return ngx.exit(ngx.HTTP_NO_CONTENT)
end

function _M.header_filter(cfg)
  local c = cfg.cors
  if not c or ngx.ctx.ek_preflight then return end
  local origin = ngx.var.http_origin
  if not allowed(c, origin) then return end
  set_common(c, origin)
  if c.exposeHeaders and #c.exposeHeaders > 0 then
    ngx.header["Access-Control-Expose-Headers"] = table.concat(c.exposeHeaders, ", ")
  end
end

return _M

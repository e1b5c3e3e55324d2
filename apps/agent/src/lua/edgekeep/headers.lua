-- Custom headers: request headers are set or removed before the request goes to the origin,
-- response headers before the answer goes to the visitor.
local _M = {}

local function apply(list, side, set)
  for _, h in ipairs(list or {}) do
    if h.type == side then
      if h.action == "remove" then set(h.name, nil) else set(h.name, h.value) end
    end
  end
end

function _M.access(cfg)
  apply(cfg.headers, "request", function(name, value)
    if value == nil then ngx.req.clear_header(name) else ngx.req.set_header(name, value) end
  end)
end

function _M.header_filter(cfg)
  apply(cfg.headers, "response", function(name, value) ngx.header[name] = value end)
end

return _M

-- Proxy rewrite: the first rule whose source matches changes the path (and optionally the Host) sent to the
-- origin; the visitor's URL and the cache key stay as requested.
local _M = {}

local function new_path(rule, uri)
  if rule.match == "prefix" then
    if uri:sub(1, #rule.source) == rule.source then return rule.target .. uri:sub(#rule.source + 1) end
    return nil
  end
  local m = ngx.re.match(uri, rule.source, "jo")
  if not m then return nil end
  return (rule.target:gsub("%$(%d)", function(n) return m[tonumber(n)] or "" end))
end

function _M.access(cfg)
  local rules = cfg.rewrites
  if not rules or #rules == 0 then return end
  local uri = ngx.var.uri
  for _, rule in ipairs(rules) do
    local path = new_path(rule, uri)
    if path then
      ngx.req.set_uri(path, false)
      if rule.host and rule.host ~= "" then ngx.var.ek_origin_host = rule.host end
      return
    end
  end
end

return _M

-- URL redirects: the first rule whose source matches the path answers 301 or 302 with its target.
--   exact: the path equals source; prefix: the path starts with source, the rest is appended to target;
--   regex: source matches the path (PCRE), $1..$9 in target take its captures.
local _M = {}

local function target_of(rule, uri)
  if rule.match == "exact" then
    if uri == rule.source then return rule.target end
  elseif rule.match == "prefix" then
    if uri:sub(1, #rule.source) == rule.source then return rule.target .. uri:sub(#rule.source + 1) end
  elseif rule.match == "regex" then
    local m = ngx.re.match(uri, rule.source, "jo")
    if m then
      return (rule.target:gsub("%$(%d)", function(n) return m[tonumber(n)] or "" end))
    end
  end
  return nil
end

function _M.access(cfg)
  local rules = cfg.redirects
  if not rules or #rules == 0 then return end
  local uri = ngx.var.uri
  for _, rule in ipairs(rules) do
    local target = target_of(rule, uri)
    if target then
      local args = ngx.var.args
      if rule.keepQuery ~= false and args and args ~= "" then
        target = target .. (target:find("?", 1, true) and "&" or "?") .. args
      end
      ngx.var.ek_block = ""
      return ngx.redirect(target, rule.code)
    end
  end
end

return _M

-- User-agent rules { urlRegex, userAgentRegex, blockType } and anti-header rules { header, valueRegex, urlRegex,
-- blockType }: a request whose user agent (or named header) matches is blocked. An anti-header rule with an empty
-- valueRegex blocks requests that carry the header at all.
local data = require "edgekeep.data"
local match = require "edgekeep.match"

local _M = {}

function _M.user_agent(ctx)
  local rules = data.rules(ctx, "userAgents")
  if not rules then return end
  local ua = ngx.var.http_user_agent or ""
  for _, r in ipairs(rules) do
    if match.re(ngx.var.uri, r.urlRegex) and match.re(ua, r.userAgentRegex) then
      return match.answer(ctx, r.blockType, "ua", r.userAgentRegex)
    end
  end
end

function _M.anti_header(ctx)
  local rules = data.rules(ctx, "antiHeaders")
  if not rules then return end
  local headers = ngx.req.get_headers(100)
  for _, r in ipairs(rules) do
    local value = headers[tostring(r.header):lower()]
    if type(value) == "table" then value = table.concat(value, ",") end
    if value ~= nil and match.re(ngx.var.uri, r.urlRegex) and match.re(value, r.valueRegex) then
      return match.answer(ctx, r.blockType, "header:" .. r.header, r.header)
    end
  end
end

return _M

-- Region rules: { countries = ["US", ...], isBlack, urlRegex, blockType }. A black rule blocks requests from its
-- countries; a white one blocks requests from every other country. The country is $ek_country (the geoip2 lookup
-- the renderer configures); an address the database does not know has no country.
local data = require "edgekeep.data"
local match = require "edgekeep.match"

local _M = {}

data.compiler("geo", function(rules)
  for _, r in ipairs(rules) do
    local set = {}
    for _, c in ipairs(r.countries or {}) do set[tostring(c):upper()] = true end
    r.set = set
  end
  return rules
end)

function _M.check(ctx)
  local rules = data.rules(ctx, "geo")
  if not rules then return end
  local country = ngx.var.ek_country or ""
  for _, r in ipairs(rules) do
    local listed = r.set[country] == true
    if listed == (r.isBlack == true) and match.re(ngx.var.uri, r.urlRegex) then
      return match.answer(ctx, r.blockType, "geo:" .. (country ~= "" and country or "unknown"), country)
    end
  end
end

return _M

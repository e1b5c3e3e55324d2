-- Rate limits and access frequencies per site, rule and client address, in the shared dictionary `ek_limit`.
--   limitReqs:   { id, urlRegex, rate (requests a second), burst, priority, type } — a token bucket: `burst` requests
--                at once, refilled at `rate` a second; over it type "deny" answers 929, "drop" closes, "block"
--                blocks the address for 10 minutes.
--   frequencies: { id, urlRegex, seconds, times, blockSeconds } — more than `times` requests within `seconds`
--                blocks the address for `blockSeconds`.
--   abuseIP:     { score } — an address this node blocked or limited often within a day (see blocked.observe) is
--                refused once its risk score reaches `score`: 1 observation scores 25, 2 score 50, 3–4 score 75, 5+ 100.
local data = require "edgekeep.data"
local blocked = require "edgekeep.blocked"
local match = require "edgekeep.match"

local dict = ngx.shared.ek_limit
local _M = {}

data.compiler("limitReqs", match.sorted)

-- Takes one token from the bucket; false when it is empty.
local function take(key, rate, burst)
  local now = ngx.now()
  local v = dict:get(key)
  local tokens, at = burst, now
  if v then
    local t, a = v:match("^([%d%.%-e]+)|([%d%.]+)$")
    tokens, at = tonumber(t) or burst, tonumber(a) or now
  end
  tokens = math.min(burst, tokens + (now - at) * rate)
  if tokens < 1 then
    dict:set(key, tokens .. "|" .. now, math.ceil(burst / rate) + 1)
    return false
  end
  dict:set(key, (tokens - 1) .. "|" .. now, math.ceil(burst / rate) + 1)
  return true
end

function _M.limit_req(ctx)
  local rules = data.rules(ctx, "limitReqs")
  if not rules then return end
  for _, r in ipairs(rules) do
    if match.re(ngx.var.uri, r.urlRegex) then
      local rate = math.max(tonumber(r.rate) or 1, 0.001)
      local burst = math.max(tonumber(r.burst) or 0, 0) + 1
      if not take("r|" .. ctx.site .. "|" .. tostring(r.id) .. "|" .. ctx.ip, rate, burst) then
        blocked.observe(ctx.ip)
        if r.type == "block" then
          blocked.add(ctx.site, ctx.ip, "limit", 600)
          return ctx.deny("limit", r.id)
        end
        return match.answer(ctx, r.type, "limit", r.id)
      end
    end
  end
end

function _M.frequency(ctx)
  local rules = data.rules(ctx, "frequencies")
  if not rules then return end
  for _, r in ipairs(rules) do
    if match.re(ngx.var.uri, r.urlRegex) then
      local seconds = math.max(tonumber(r.seconds) or 1, 1)
      local count = dict:incr("f|" .. ctx.site .. "|" .. tostring(r.id) .. "|" .. ctx.ip, 1, 0, seconds)
      if count and count > (tonumber(r.times) or 1) then
        blocked.add(ctx.site, ctx.ip, "frequency", tonumber(r.blockSeconds) or 600)
        return ctx.deny("frequency", r.id)
      end
    end
  end
end

function _M.score(ip)
  local n = blocked.observations(ip)
  if n >= 5 then return 100 end
  if n >= 3 then return 75 end
  if n >= 2 then return 50 end
  if n >= 1 then return 25 end
  return 0
end

function _M.abuse(ctx)
  local rule = data.rules(ctx, "abuseIP")
  if not rule or not tonumber(rule.score) then return end
  if _M.score(ctx.ip) >= tonumber(rule.score) then return ctx.deny("abuse") end
end

return _M

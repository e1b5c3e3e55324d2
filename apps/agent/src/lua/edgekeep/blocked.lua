-- Blocked IPs: addresses a rule blocked for a while (drop with blacklist, anti-CC failure, rate limits), held in
-- the shared dictionary `ek_blocked` per site, enforced by the access pipeline, reported to the API by the agent
-- and lifted through the control endpoint, all without a reload.
--   "b|<site>|<ip>" -> "<cause>|<expiry epoch seconds>|<made at>" with the same time to live
--   "n|<ip>"        -> how often this node blocked or limited the address in the last day (the abuse score)
local dict = ngx.shared.ek_blocked
local _M = {}

local DEFAULT_SECONDS = 600
local SEEN_SECONDS = 86400

local function key(site_id, ip) return "b|" .. tostring(site_id) .. "|" .. ip end

-- Counts one observation of an address blocked or limited by a rule; the abuse score reads these counts.
function _M.observe(ip)
  dict:incr("n|" .. ip, 1, 0, SEEN_SECONDS)
end

function _M.observations(ip)
  return dict:get("n|" .. ip) or 0
end

-- Blocks `ip` on `site_id` for `seconds` (default 600) with `cause` (a short word: "waf", "anticc", "limit"...).
function _M.add(site_id, ip, cause, seconds)
  seconds = tonumber(seconds) or DEFAULT_SECONDS
  if seconds <= 0 then seconds = DEFAULT_SECONDS end
  cause = tostring(cause or "rule"):gsub("|", "/")
  local at = ngx.now()
  local ok, err = dict:safe_set(key(site_id, ip), cause .. "|" .. math.floor(at + seconds) .. "|" .. at, seconds)
  if not ok then
    ngx.log(ngx.WARN, "ek_blocked: cannot block ", ip, ": ", err)
    return nil, err
  end
  _M.observe(ip)
  return true
end

-- The cause, expiry and making time of a block of `ip` on `site_id`, or nil.
function _M.get(site_id, ip)
  local v = dict:get(key(site_id, ip))
  if not v then return nil end
  local cause, expiry, at = v:match("^(.*)|(%d+)|([%d%.]+)$")
  return cause, tonumber(expiry), tonumber(at)
end

-- Blocks made by a dropping rule (drop with blacklist, failed anti-CC challenges, too many requests for unknown
-- hosts) keep dropping the connection.
local DROPPING = { acl = true, anticc = true, invalidDomain = true }

-- Access step: a blocked address gets the 929 page with its block's cause, or is dropped (444); which rule made
-- the block is not kept, so the rule stays empty.
function _M.check(ctx)
  local cause = _M.get(ctx.site, ctx.ip)
  if not cause then return end
  if DROPPING[cause] then return ctx.drop("blocked:" .. cause) end
  return ctx.deny("blocked:" .. cause)
end

-- Every block this node holds: [{ siteId, ip, cause, expiresAt }].
function _M.list()
  local out = {}
  for _, k in ipairs(dict:get_keys(0)) do
    local site, ip = k:match("^b|(%d+)|(.+)$")
    if site then
      local cause, expiry = _M.get(site, ip)
      if cause then out[#out + 1] = { siteId = tonumber(site), ip = ip, cause = cause, expiresAt = expiry } end
    end
  end
  return out
end

-- Lifts the blocks of `ips` on `site_id`, or every block of the site when `ips` is nil; returns how many.
function _M.remove(site_id, ips)
  local n = 0
  if ips then
    for _, ip in ipairs(ips) do
      if dict:get(key(site_id, ip)) then n = n + 1 end
      dict:delete(key(site_id, ip))
    end
    return n
  end
  local prefix = key(site_id, "")
  for _, k in ipairs(dict:get_keys(0)) do
    if k:sub(1, #prefix) == prefix then
      dict:delete(k)
      n = n + 1
    end
  end
  return n
end

-- Applies the lifts of a site's data document ({ ip?, at }): blocks made before `at` go, later ones stay.
function _M.lift(site_id, unblocks)
  for _, u in ipairs(unblocks or {}) do
    local at = tonumber(u.at) or 0
    if type(u.ip) == "string" then
      local _, _, made = _M.get(site_id, u.ip)
      if made and made <= at then dict:delete(key(site_id, u.ip)) end
    else
      local prefix = key(site_id, "")
      for _, k in ipairs(dict:get_keys(0)) do
        if k:sub(1, #prefix) == prefix then
          local _, _, made = _M.get(site_id, k:sub(#prefix + 1))
          if made and made <= at then dict:delete(k) end
        end
      end
    end
  end
end

return _M

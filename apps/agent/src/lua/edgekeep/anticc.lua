-- Anti-CC: an address that sends more than `times` requests within `seconds` to URLs a rule matches gets the
-- rule's challenge; solving it sets a signed pass cookie, failing it repeatedly blocks the address.
local match = require "edgekeep.match"
local blocked = require "edgekeep.blocked"
local page = require "edgekeep.challenge_page"
local block_page = require "edgekeep.page"
local token = require "edgekeep.challenge_token"

local counters = ngx.shared.ek_waf

local _M = {}

local FAILURES = 5
local FAILURE_WINDOW = 600
local BLOCK_SECONDS = 600
local SLIDER_TOLERANCE = 3

-- Only a path on this site: no scheme, no host, no line breaks.
local function safe_return(r)
  if type(r) ~= "string" or r == "" or #r > 2048 then return "/" end
  if r:sub(1, 1) ~= "/" or r:find("^//") or r:find("^/\\") or r:find("[%c]") then return "/" end
  return r
end

local function solved(site, ip, mode, t, a)
  if type(t) ~= "string" then return false end
  if mode == 1 then
    local nonce = token.check(site, ip, 1, t, "shield")
    return nonce ~= nil and token.proof_ok(nonce, a)
  end
  if mode == 2 then return type(a) == "string" and token.check(site, ip, 2, t, a) ~= nil end
  if mode == 3 then return token.check(site, ip, 3, t, "click") ~= nil end
  if mode == 4 then return token.check(site, ip, 4, t, "redirect") ~= nil end
  if mode == 5 then
    local v = tonumber(a)
    if not v then return false end
    v = math.floor(v)
    for d = -SLIDER_TOLERANCE, SLIDER_TOLERANCE do
      if token.check(site, ip, 5, t, tostring(v + d)) then return true end
    end
  end
  return false
end

local function verify(site)
  local ip = ngx.var.remote_addr
  local args = ngx.req.get_uri_args(10)
  if ngx.req.get_method() == "POST" then
    ngx.req.read_body()
    for k, v in pairs(ngx.req.get_post_args(10) or {}) do args[k] = v end
  end
  local mode = tonumber(args.m) or 3
  local ret = safe_return(args.r)
  if solved(site, ip, mode, args.t, args.a) then
    counters:delete("ccf:" .. site .. ":" .. ip)
    ngx.header["Set-Cookie"] = token.cookie_name(site) .. "=" .. token.pass_value(site, ip)
      .. "; Path=/; Max-Age=" .. token.PASS_SECONDS .. "; HttpOnly; SameSite=Lax"
    return ngx.redirect(ret, 302)
  end
  local failures = counters:incr("ccf:" .. site .. ":" .. ip, 1, 0, FAILURE_WINDOW) or 1
  if failures >= FAILURES then
    blocked.add(site, ip, "anticc", BLOCK_SECONDS)
    block_page.note("anticc", nil, "dropBlacklist")
    return ngx.exit(444)
  end
  return page.serve(site, ip, mode, ret, true)
end

function _M.run(site_id, rules)
  if not rules or #rules == 0 then return end
  local uri = ngx.var.uri
  if uri == page.VERIFY then return verify(site_id) end
  for _, r in ipairs(rules) do
    if match.re(uri, r.urlRegex) then
      local ip = ngx.var.remote_addr
      if token.pass_ok(site_id, ip, ngx.var["cookie_" .. token.cookie_name(site_id)]) then return end
      local n = counters:incr("cc:" .. site_id .. ":" .. r.id .. ":" .. ip, 1, 0, r.seconds)
      if n and n > r.times then return page.serve(site_id, ip, r.type, ngx.var.request_uri, false, r.id) end
      return
    end
  end
end

return _M

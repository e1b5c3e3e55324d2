-- Basic auth: the first rule whose pattern matches the path needs the credentials of one of its users;
-- without them the answer is 401 with WWW-Authenticate. Passwords are checked against salted
-- PBKDF2-HMAC-SHA1 hashes; a worker remembers credentials it has accepted. An address that sent wrong credentials
-- FAILURES times within FAILURE_WINDOW seconds on a domain gets the 929 page there, without a check, until the
-- window ends: guessing is slowed, and so is the CPU a flood of wrong passwords would take.
local match = require "edgekeep.match"
local page = require "edgekeep.page"
local bit = require "bit"

local counters = ngx.shared.ek_limit
local _M = {}
local accepted = {}
local accepted_count = 0
local ROUNDS = 2000
local FAILURES = 10
local FAILURE_WINDOW = 60

local function unhex(s)
  return (s:gsub("%x%x", function(h) return string.char(tonumber(h, 16)) end))
end

local function pbkdf2(password, salt)
  local u = ngx.hmac_sha1(password, salt .. "\0\0\0\1")
  local t = { u:byte(1, 20) }
  for _ = 2, ROUNDS do
    u = ngx.hmac_sha1(password, u)
    for j = 1, 20 do t[j] = bit.bxor(t[j], u:byte(j)) end
  end
  for j = 1, 20 do t[j] = string.format("%02x", t[j]) end
  return table.concat(t)
end

local function matches(rule, uri)
  if rule.match == "prefix" then return uri:sub(1, #rule.pattern) == rule.pattern end
  return match.re(uri, rule.pattern)
end

local function valid(rule, header)
  local encoded = header and header:match("^[Bb]asic%s+(%S+)$")
  local decoded = encoded and ngx.decode_base64(encoded)
  if not decoded then return false end
  local name, password = decoded:match("^([^:]*):(.*)$")
  if not name then return false end
  for _, u in ipairs(rule.users or {}) do
    if u.user == name then
      local key = u.hash .. "\n" .. decoded
      if accepted[key] then return true end
      if pbkdf2(password, unhex(u.salt)) ~= u.hash then return false end
      if accepted_count > 10000 then accepted, accepted_count = {}, 0 end
      accepted[key] = true
      accepted_count = accepted_count + 1
      return true
    end
  end
  return false
end

function _M.access(cfg)
  local rules = cfg.basicAuth
  if not rules or #rules == 0 then return end
  local uri = ngx.var.uri
  for _, rule in ipairs(rules) do
    if matches(rule, uri) then
      local header = ngx.var.http_authorization
      local failures = "baf|" .. tostring(cfg.domainId) .. "|" .. ngx.var.remote_addr
      if header and (counters:get(failures) or 0) >= FAILURES then return page.send(929, "basicAuthFailures") end
      if valid(rule, header) then return end
      if header then counters:incr(failures, 1, 0, FAILURE_WINDOW) end
      page.note("basicAuth", nil, "page")
      ngx.header["WWW-Authenticate"] = 'Basic realm="' .. (rule.realm ~= "" and rule.realm or "Restricted") .. '", charset="UTF-8"'
      return ngx.exit(ngx.HTTP_UNAUTHORIZED)
    end
  end
end

return _M

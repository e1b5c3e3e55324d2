-- Signatures of the anti-CC challenge: the pass cookie (bound to address, site and expiry) and the challenge
-- token (bound to address, site, mode, expiry, nonce and the expected answer), with an HMAC keyed by a secret
-- derived from the node's control token, which never leaves the node.
local data = require "edgekeep.data"
local bit = require "bit"

local _M = {}

_M.PASS_SECONDS = 1800
_M.TOKEN_SECONDS = 300
_M.SHIELD_BITS = 4096

local key
local function secret()
  if not key then key = ngx.hmac_sha1(data.token or "", "edgekeep anti-cc") end
  return key
end

local function sign(text)
  return (ngx.encode_base64(ngx.hmac_sha1(secret(), text)):gsub("[+/=]", { ["+"] = "-", ["/"] = "_", ["="] = "" }))
end

function _M.cookie_name(site_id)
  return "ek_cc_" .. site_id
end

function _M.pass_value(site_id, ip)
  local exp = ngx.time() + _M.PASS_SECONDS
  return exp .. "." .. sign("pass|" .. ip .. "|" .. site_id .. "|" .. exp)
end

function _M.pass_ok(site_id, ip, value)
  local exp, sig = (value or ""):match("^(%d+)%.([%w_-]+)$")
  if not exp or tonumber(exp) < ngx.time() then return false end
  return sig == sign("pass|" .. ip .. "|" .. site_id .. "|" .. exp)
end

function _M.token(site_id, ip, mode, answer)
  local exp = ngx.time() + _M.TOKEN_SECONDS
  local nonce = ngx.var.request_id:sub(1, 16)
  return exp .. "." .. nonce .. "." .. sign(table.concat({ "ch", ip, site_id, mode, exp, nonce, answer }, "|")), nonce
end

-- The nonce of a token that is unexpired and signed for this answer, or nil.
function _M.check(site_id, ip, mode, token, answer)
  local exp, nonce, sig = (token or ""):match("^(%d+)%.(%x+)%.([%w_-]+)$")
  if not exp or tonumber(exp) < ngx.time() then return nil end
  if sig ~= sign(table.concat({ "ch", ip, site_id, mode, exp, nonce, answer }, "|")) then return nil end
  return nonce
end

-- 32-bit FNV-1a of a string; the shield's page computes the same in JavaScript.
function _M.fnv(s)
  local h = 2166136261
  for i = 1, #s do
    h = bit.bxor(h, s:byte(i))
    h = bit.tobit(bit.lshift(h, 24) + h * 403)
  end
  return h
end

-- The shield's proof: a number whose FNV-1a with the nonce is a multiple of SHIELD_BITS.
function _M.proof_ok(nonce, n)
  if not n or not n:match("^%d+$") or #n > 9 then return false end
  return _M.fnv(nonce .. n) % _M.SHIELD_BITS == 0
end

return _M

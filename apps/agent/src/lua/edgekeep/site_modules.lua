-- The traffic modules of the request's domain, in order: referer and header rules, CORS preflight, signed URLs,
-- basic auth, redirects, the rewrite for the origin, then request headers (access phase); response headers and
-- CORS headers (header filter).
local domain_modules = require "edgekeep.domain_modules"
local referer = require "edgekeep.referer"
local cors = require "edgekeep.cors"
local redirects = require "edgekeep.redirects"
local headers = require "edgekeep.headers"
local token_auth = require "edgekeep.token_auth"
local basic_auth = require "edgekeep.basic_auth"
local rewrite = require "edgekeep.rewrite"

local _M = {}

-- `domain`: the id of the request's domain where the caller has it (live.lua), else nil, and `key` its modules'
-- version key (domain_modules.current). Answers the domain's modules (nil: none), which live.lua hands on to the
-- header filter.
function _M.access(domain, key)
  local cfg = domain_modules.current(domain, key)
  if not cfg then return nil end
  referer.access(cfg)
  cors.access(cfg)
  token_auth.access(cfg)
  basic_auth.access(cfg)
  redirects.access(cfg)
  rewrite.access(cfg)
  headers.access(cfg)
  return cfg
end

-- What live.lua keeps for a domain the access phase found no modules for.
local NONE = {}
_M.NONE = NONE

-- `cfg`: the domain's modules as the access phase found them (NONE: none), where the caller has them (live.lua).
function _M.header_filter(domain, cfg)
  if cfg == NONE then return end
  if not cfg then cfg = domain_modules.current(domain) end
  if not cfg then return end
  headers.header_filter(cfg)
  cors.header_filter(cfg)
end

return _M

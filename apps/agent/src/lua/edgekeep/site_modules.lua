-- The traffic modules of the request's domain, in order: referer and header rules, CORS preflight,
-- redirects, then request headers (access phase); response headers and CORS headers (header filter).
local domain_modules = require "edgekeep.domain_modules"
local referer = require "edgekeep.referer"
local cors = require "edgekeep.cors"
local redirects = require "edgekeep.redirects"
local headers = require "edgekeep.headers"

local _M = {}

function _M.access()
  local cfg = domain_modules.current()
  if not cfg then return end
  referer.access(cfg)
  cors.access(cfg)
  redirects.access(cfg)
  headers.access(cfg)
end

function _M.header_filter()
  local cfg = domain_modules.current()
  if not cfg then return end
  headers.header_filter(cfg)
  cors.header_filter(cfg)
end

return _M

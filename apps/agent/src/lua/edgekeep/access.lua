-- Access phase of every site request: a site over its traffic allowance gets 929; whitelisted addresses pass,
-- blacklisted ones get the block page.
local data = require "edgekeep.data"
local iplist = require "edgekeep.iplist"

local _M = {}

local PAGE = [[<!doctype html>
<html><head><meta charset="utf-8"><title>403 Forbidden</title></head>
<body style="font-family:sans-serif;max-width:40em;margin:4em auto">
<h1>403 Forbidden</h1>
<p>Access to this site from your address (%s) is blocked by the site's IP blacklist.</p>
<p><small>Request ID %s</small></p>
</body></html>
]]

local LIMITED = [[<!doctype html>
<html><head><meta charset="utf-8"><title>929 Traffic limit reached</title></head>
<body style="font-family:sans-serif;max-width:40em;margin:4em auto">
<h1>929 Traffic limit reached</h1>
<p>This site has used up its traffic allowance for the month and is not served until it is raised.</p>
<p><small>Request ID %s</small></p>
</body></html>
]]

-- The site used up its month's traffic and its product says to stop serving it.
local function limited()
  ngx.var.ek_block = "traffic"
  ngx.status = 929
  ngx.header["Content-Type"] = "text/html; charset=utf-8"
  ngx.header["Cache-Control"] = "no-store"
  ngx.print(string.format(LIMITED, ngx.var.request_id))
  return ngx.exit(929)
end

local function block(cause, ip)
  ngx.var.ek_block = cause
  ngx.status = ngx.HTTP_FORBIDDEN
  ngx.header["Content-Type"] = "text/html; charset=utf-8"
  ngx.header["Cache-Control"] = "no-store"
  ngx.print(string.format(PAGE, ip, ngx.var.request_id))
  return ngx.exit(ngx.HTTP_FORBIDDEN)
end

function _M.run()
  local site = ngx.var.ek_site
  if not site or site == "" then return end
  local lists = data.site_lists(site)
  if not lists then return end
  if lists.limited then return limited() end
  local ip = ngx.var.remote_addr
  local key = iplist.key(ip)
  if not key then return end
  if iplist.contains(lists.whitelist, key) then return end
  if iplist.contains(lists.blacklist, key) then return block("blacklist", ip) end
  return require("edgekeep.waf").run(site)
end

return _M

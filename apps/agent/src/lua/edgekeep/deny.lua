-- The 403 page of the traffic modules: the cause is logged (blockCause) and named on the page.
local _M = {}

local PAGE = [[<!doctype html>
<html><head><meta charset="utf-8"><title>403 Forbidden</title></head>
<body style="font-family:sans-serif;max-width:40em;margin:4em auto">
<h1>403 Forbidden</h1>
<p>This request was refused by the site's %s rules.</p>
<p><small>Request ID %s</small></p>
</body></html>
]]

function _M.refuse(cause)
  ngx.var.ek_block = cause
  ngx.status = ngx.HTTP_FORBIDDEN
  ngx.header["Content-Type"] = "text/html; charset=utf-8"
  ngx.header["Cache-Control"] = "no-store"
  ngx.print(string.format(PAGE, cause, ngx.var.request_id))
  return ngx.exit(ngx.HTTP_FORBIDDEN)
end

return _M

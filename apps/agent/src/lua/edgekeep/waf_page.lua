-- The block pages the advanced firewall answers: 929 (denied by a rule) and 978 (anti-CC challenge), in the
-- visitor's language (Accept-Language: zh-TW/zh-HK/zh-Hant, other zh, else English).
local _M = {}

function _M.language()
  local accept = (ngx.var.http_accept_language or ""):lower()
  if accept == "" then return "zh_TW" end
  local first = accept:match("^%s*([%a%-]+)") or ""
  if first:find("^zh%-tw") or first:find("^zh%-hk") or first:find("^zh%-hant") then return "zh_TW" end
  if first:find("^zh") then return "zh_CN" end
  return "en_US"
end

local function escape(s)
  return (tostring(s):gsub("[&<>\"']", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }))
end
_M.escape = escape

local TITLES = {
  [929] = { en_US = "Access denied", zh_TW = "拒絕存取", zh_CN = "拒绝访问" },
  [978] = { en_US = "Checking your browser", zh_TW = "正在檢查您的瀏覽器", zh_CN = "正在检查您的浏览器" },
}
local DENIED = {
  en_US = "A security rule of this site refuses this request.",
  zh_TW = "本網站的安全規則拒絕了此請求。",
  zh_CN = "本网站的安全规则拒绝了此请求。",
}
local REQUEST_ID = { en_US = "Request ID", zh_TW = "請求編號", zh_CN = "请求编号" }

-- Sends a whole page with the given status and ends the request; `body` is trusted HTML.
function _M.send(status, body, lang)
  lang = lang or _M.language()
  local title = TITLES[status] and TITLES[status][lang] or tostring(status)
  ngx.status = status
  ngx.header["Content-Type"] = "text/html; charset=utf-8"
  ngx.header["Cache-Control"] = "no-store"
  ngx.print('<!doctype html><html lang="', (lang:gsub("_", "-")), '"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width,initial-scale=1"><title>', escape(title), '</title>',
    '<style>body{font-family:system-ui,sans-serif;max-width:32em;margin:4em auto;padding:0 1em;color:#1f2937}',
    'button{font-size:1em;padding:.5em 1.5em;cursor:pointer}input{font-size:1em;padding:.4em}.err{color:#b91c1c}',
    'small{color:#6b7280}</style></head><body><h1>', escape(title), '</h1>', body,
    '<p><small>', REQUEST_ID[lang], ' ', escape(ngx.var.request_id), '</small></p></body></html>\n')
  return ngx.exit(ngx.HTTP_OK)
end

function _M.deny()
  local lang = _M.language()
  return _M.send(929, "<p>" .. DENIED[lang] .. "</p>", lang)
end

return _M

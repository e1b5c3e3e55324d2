-- The block pages 403 (a signed URL without a valid signature), 503 (a site over its connection limit), 903 (a node address reached without a domain it serves), 929 (denied or rate limited) and
-- 978 (anti-CC challenge), in English, Traditional and Simplified Chinese by the visitor's Accept-Language.
local cjson = require "cjson.safe"

local _M = {}

local TEXTS = {
  en_US = {
    traffic = { "Traffic limit reached", "This site has used up its traffic allowance for the month and is not served until it is raised." },
    [403] = { "Link not valid", "This address needs a valid, unexpired signature from the site. Open it from the page that links to it." },
    [503] = { "Site busy", "The site is serving as many visitors at once as its plan allows. Try again in a moment." },
    [903] = { "No site here", "This address belongs to an edge node. Open the site by its domain name instead." },
    [929] = { "Access denied", "The site's security rules blocked this request. If you think this is a mistake, contact the site owner with the ray ID below." },
    [978] = { "Checking your browser", "The site protects itself against automated traffic. Complete the check below to continue." },
    ip = "Your address", request = "Ray ID", cause = "Reason",
  },
  zh_TW = {
    traffic = { "已達流量上限", "本網站本月的流量額度已用完，額度提高前暫停服務。" },
    [403] = { "連結無效", "此網址需要網站發出且尚未過期的簽章，請從連結到它的頁面開啟。" },
    [503] = { "網站忙碌中", "網站同時服務的訪客已達方案上限，請稍後再試。" },
    [903] = { "此位址沒有網站", "這是邊緣節點的位址，請改用網站的網域名稱開啟。" },
    [929] = { "拒絕存取", "網站的安全規則阻擋了這個請求。如果您認為這是誤判，請帶著下方的 Ray ID 聯絡網站管理者。" },
    [978] = { "正在檢查您的瀏覽器", "網站正在防範自動化流量，請完成下方的驗證後繼續。" },
    ip = "您的位址", request = "Ray ID", cause = "原因",
  },
  zh_CN = {
    traffic = { "已达流量上限", "本网站本月的流量额度已用完，额度提高前暂停服务。" },
    [403] = { "链接无效", "此网址需要网站签发且尚未过期的签名，请从链接到它的页面打开。" },
    [503] = { "网站繁忙", "网站同时服务的访客已达套餐上限，请稍后再试。" },
    [903] = { "此地址没有网站", "这是边缘节点的地址，请改用网站的域名打开。" },
    [929] = { "拒绝访问", "网站的安全规则拦截了这个请求。如果您认为这是误判，请带着下方的 Ray ID 联系网站管理员。" },
    [978] = { "正在检查您的浏览器", "网站正在防范自动化流量，请完成下方的验证后继续。" },
    ip = "您的地址", request = "Ray ID", cause = "原因",
  },
}

local HTML = [[<!doctype html>
<html lang="%s"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>%d %s</title>
<style>body{font-family:system-ui,sans-serif;color:#1f2328;background:#f6f8fa;margin:0}
main{max-width:36em;margin:10vh auto;padding:2em;background:#fff;border:1px solid #d0d7de;border-radius:8px}
h1{font-size:1.4em;margin:0 0 .6em}.code{color:#cf222e;font-weight:600}dl{color:#57606a;font-size:.9em}
dt{float:left;clear:left;width:8em}dd{margin:0 0 .3em 8em;word-break:break-all}</style></head>
<body><main><h1><span class="code">%d</span> %s</h1><p>%s</p>%s
<dl><dt>%s</dt><dd>%s</dd><dt>%s</dt><dd>%s</dd>%s</dl></main></body></html>
]]

local function escape(s)
  return (tostring(s or ""):gsub("[&<>\"']", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }))
end
_M.escape = escape

-- The first language of an Accept-Language header the pages speak; English otherwise.
function _M.lang(header)
  for tag in (header or ""):lower():gmatch("([%a%-]+)[^,]*") do
    if tag == "zh-tw" or tag == "zh-hk" or tag == "zh-mo" or tag:find("^zh%-hant") then return "zh_TW" end
    if tag == "zh" or tag == "zh-cn" or tag == "zh-sg" or tag:find("^zh%-hans") then return "zh_CN" end
    if tag == "en" or tag:find("^en%-") then return "en_US" end
  end
  return "en_US"
end

-- One block page as HTML. opts: { lang, ip, requestId (the ray id), cause, body } where body is trusted HTML placed under the
-- explanation (the anti-CC challenge renders its form there).
function _M.template(code, opts)
  local t = TEXTS[opts.lang] or TEXTS.en_US
  -- A site stopped for its traffic explains that instead of a security block.
  local texts = code == 929 and opts.cause == "traffic" and t.traffic or t[code]
  local title, text = texts[1], texts[2]
  local cause = opts.cause and opts.cause ~= "" and string.format("<dt>%s</dt><dd>%s</dd>", t.cause, escape(opts.cause)) or ""
  return string.format(HTML, opts.lang:gsub("_", "-"), code, escape(title), code, escape(title), escape(text), opts.body or "",
    t.ip, escape(opts.ip), t.request, escape(opts.requestId), cause)
end

-- Notes what refused the current request, for the access log: $ek_block (the cause), $ek_block_rule (what
-- refused: `<module>:<rule>`, a rule's id or the list entry that matched, else "") and $ek_block_action.
function _M.note(cause, rule, action)
  local var = ngx.var
  var.ek_block = cause or ""
  var.ek_block_rule = rule or ""
  var.ek_block_action = action
end

-- The action a block page stands for; other pages (403 token, 503 connections, 903 no domain) are "page".
local ACTIONS = { [929] = "deny", [978] = "challenge" }

-- The pages the zone's owner set in place of the product's, pushed as data (`pages`: the sites' 929 pages by site
-- id) and the zone's 903 page; decoded once per worker and data version.
local pages = { version = -1 }
local function custom(code)
  if code == 903 then return require("edgekeep.zone").view().no_domain_page end
  if code ~= 929 then return nil end
  local dict = ngx.shared.ek_data
  local version = dict:get("version") or 0
  if pages.version ~= version then pages = { version = version, sites = cjson.decode(dict:get("pages") or "{}") or {} } end
  return pages.sites[ngx.var.ek_site or ""]
end

-- A page of the error settings: its HTML, or a redirect to its URL.
local function send_custom(code, p)
  if p.type == "redirect" then return ngx.redirect(p.body, 302) end
  ngx.status = code
  ngx.header["Content-Type"] = "text/html; charset=utf-8"
  ngx.header["Cache-Control"] = "no-store"
  ngx.print(p.type == "js" and "<!doctype html><html><body><script>" .. p.body .. "</script></body></html>\n" or p.body)
  return ngx.exit(code)
end

-- Answers the current request with block page `code`, noting `cause` and `rule` (see note). `body` as in template.
-- A 903 or 929 page of the error settings, where set, answers instead (the anti-CC challenge never does).
function _M.send(code, cause, body, rule)
  _M.note(cause, rule, ACTIONS[code] or "page")
  -- a page of the runtime's own: no error page of the site replaces it (error_pages.lua), as error_page would not
  ngx.ctx.ek_page = true
  local own = custom(code)
  if own then return send_custom(code, own) end
  ngx.status = code
  ngx.header["Content-Type"] = "text/html; charset=utf-8"
  ngx.header["Cache-Control"] = "no-store"
  ngx.print(_M.template(code, {
    lang = _M.lang(ngx.var.http_accept_language),
    ip = ngx.var.remote_addr,
    requestId = require("edgekeep.ray").id(),
    cause = cause,
    body = body,
  }))
  return ngx.exit(code)
end

return _M

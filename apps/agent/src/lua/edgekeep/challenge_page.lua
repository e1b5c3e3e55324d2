-- The anti-CC challenge pages (status 978), one per protection mode, in three languages.
local cjson = require "cjson.safe"
local token = require "edgekeep.challenge_token"
local page = require "edgekeep.page"

local _M = {}

_M.VERIFY = "/.edgekeep/cc/verify"

local T = {
  shield = {
    en_US = "This site checks that your browser is a real one. This takes about five seconds and continues by itself.",
    zh_TW = "本網站正在確認您使用的是真實瀏覽器，約需五秒，完成後會自動繼續。",
    zh_CN = "本网站正在确认您使用的是真实浏览器，约需五秒，完成后会自动继续。",
  },
  noscript = { en_US = "Please turn on JavaScript to continue.", zh_TW = "請啟用 JavaScript 以繼續。", zh_CN = "请启用 JavaScript 以继续。" },
  code = { en_US = "Type the answer to continue:", zh_TW = "請輸入答案以繼續：", zh_CN = "请输入答案以继续：" },
  click = { en_US = "Too many requests came from your address. Click the button to continue.", zh_TW = "您的位址送出了過多請求，請按下按鈕以繼續。", zh_CN = "您的地址发送了过多请求，请点击按钮以继续。" },
  slider = { en_US = "Move the slider onto the marked position, then confirm.", zh_TW = "請將滑桿移到標記的位置，然後確認。", zh_CN = "请将滑块移到标记的位置，然后确认。" },
  verify = { en_US = "Verify", zh_TW = "驗證", zh_CN = "验证" },
  wrong = { en_US = "That was not right. Please try again.", zh_TW = "驗證未通過，請再試一次。", zh_CN = "验证未通过，请再试一次。" },
}

local esc = page.escape

local function hidden(mode, tok, ret)
  return '<input type="hidden" name="m" value="' .. mode .. '"><input type="hidden" name="t" value="' .. esc(tok)
    .. '"><input type="hidden" name="r" value="' .. esc(ret) .. '">'
end

local function form(inner)
  return '<form method="post" action="' .. _M.VERIFY .. '">' .. inner .. "</form>"
end

local function js_string(s)
  return (cjson.encode(s):gsub("<", "\\u003c"))
end

local PAGES = {
  [1] = function(site, ip, ret, lang)
    local tok, nonce = token.token(site, ip, 1, "shield")
    return "<p>" .. T.shield[lang] .. "</p><noscript><p>" .. T.noscript[lang] .. "</p></noscript><script>(function(){"
      .. "var n=" .. js_string(nonce) .. ",t=" .. js_string(tok) .. ",r=" .. js_string(ret) .. ",s=Date.now(),i=0;"
      .. "function f(x){var h=0x811c9dc5;for(var k=0;k<x.length;k++){h^=x.charCodeAt(k);h=Math.imul(h,16777619);}return h>>>0;}"
      .. "while(f(n+i)%" .. token.SHIELD_BITS .. "!==0)i++;"
      .. "setTimeout(function(){location.replace(" .. js_string(_M.VERIFY .. "?m=1&t=") .. "+encodeURIComponent(t)+'&a='+i+'&r='+encodeURIComponent(r));},"
      .. "Math.max(0,5000-(Date.now()-s)));})();</script>"
  end,
  [2] = function(site, ip, ret, lang)
    local a, b = math.random(2, 19), math.random(2, 19)
    local tok = token.token(site, ip, 2, tostring(a + b))
    return form("<p>" .. T.code[lang] .. ' <strong id="q">' .. a .. " + " .. b .. ' = ?</strong></p><p><input name="a" inputmode="numeric" autocomplete="off" autofocus required> <button>'
      .. T.verify[lang] .. "</button></p>" .. hidden(2, tok, ret))
  end,
  [3] = function(site, ip, ret, lang)
    local tok = token.token(site, ip, 3, "click")
    return form("<p>" .. T.click[lang] .. '</p><p><button name="a" value="click">' .. T.verify[lang] .. "</button></p>" .. hidden(3, tok, ret))
  end,
  [5] = function(site, ip, ret, lang)
    local p = math.random(15, 90)
    local tok = token.token(site, ip, 5, tostring(p))
    return form("<p>" .. T.slider[lang] .. '</p><div style="position:relative;max-width:24em;height:2.5em">'
      .. '<div id="mark" data-target="' .. p .. '" style="position:absolute;top:0;bottom:0;left:calc(' .. p .. '% - 2px);width:4px;background:#2563eb"></div>'
      .. '<input type="range" name="a" min="0" max="100" value="0" style="position:absolute;left:0;right:0;top:.6em;width:100%;margin:0"></div>'
      .. "<p><button>" .. T.verify[lang] .. "</button></p>" .. hidden(5, tok, ret))
  end,
}

-- Serves the challenge of the mode (redirect mode answers a 302 to the verify address), then ends the request.
local seeded = false

function _M.serve(site, ip, mode, ret, failed, rule)
  if not seeded then
    math.randomseed(ngx.now() * 1000 + ngx.worker.pid())
    seeded = true
  end
  if mode == 4 then
    page.note("anticc", rule, "challenge")
    local tok = token.token(site, ip, 4, "redirect")
    return ngx.redirect(_M.VERIFY .. "?m=4&t=" .. ngx.escape_uri(tok) .. "&r=" .. ngx.escape_uri(ret), 302)
  end
  local lang = page.lang(ngx.var.http_accept_language)
  local render = PAGES[mode] or PAGES[3]
  local body = render(site, ip, ret, lang)
  if failed then body = '<p class="err">' .. T.wrong[lang] .. "</p>" .. body end
  return page.send(978, "anticc", body, rule)
end

return _M

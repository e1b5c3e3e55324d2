-- The sites' error pages of statuses 300–599 for the live domains (a server block of its own has them as nginx's
-- error_page): pushed as `errorPages` (site id -> status -> { type, body }), kept in `ek_data` one key per site, and
-- put in place of the answer in the fixed servers' header and body filters. What they replace is what error_page
-- would: an origin's answer of that status and nginx's own (a 502 of an origin down, a refusal), never a page the
-- runtime wrote itself (page.lua marks those).
local cjson = require "cjson.safe"

local dict = ngx.shared.ek_data
local _M = {}

local TYPES = { content = true, redirect = true, js = true }
-- The body of a redirect page (never empty: the body filter ends the answer with the chunk it sends).
local FOUND = "<html>\n<head><title>302 Found</title></head>\n<body>\n<center><h1>302 Found</h1></center>\n</body>\n</html>\n"
local MAX_BODY = 65536

-- Why one site's pages cannot be taken, or nil.
local function invalid(site, pages)
  if not tostring(site):match("^%d+$") or type(pages) ~= "table" then return "errorPages: site " .. tostring(site) end
  for status, p in pairs(pages) do
    local code = tonumber(status)
    if not code or code < 300 or code > 599 or code % 1 ~= 0 then return "errorPages: site " .. site .. ": status " .. tostring(status) end
    if type(p) ~= "table" or not TYPES[p.type] or type(p.body) ~= "string" or p.body == "" or #p.body > MAX_BODY then
      return "errorPages: site " .. site .. ": the page of " .. status
    end
    if p.type == "redirect" and not p.body:match("^https?://[^%s\"'$\\{};]+$") then return "errorPages: site " .. site .. ": the URL of " .. status end
  end
end

-- Whether `all` (nil: none) can be taken; data.load asks before it writes anything of a document.
function _M.check(all)
  if all == nil or all == cjson.null then return true end
  if type(all) ~= "table" then return nil, "errorPages is not an object" end
  for site, pages in pairs(all) do
    local why = invalid(site, pages)
    if why then return nil, why end
  end
  return true
end

-- Replaces the pages with `all` (nil: none), all checked before any is written.
function _M.load(all)
  local ok, why = _M.check(all)
  if not ok then return nil, why end
  if all == nil or all == cjson.null then all = {} end
  local ids = {}
  for site, pages in pairs(all) do
    local ok, err = dict:safe_set("errpages:" .. site, cjson.encode(pages))
    if not ok then return nil, "errorPages: " .. err end
    ids[#ids + 1] = site
  end
  local kept = {}
  for _, id in ipairs(ids) do kept[id] = true end
  for id in (dict:get("errpages") or ""):gmatch("[^,]+") do
    if not kept[id] then dict:delete("errpages:" .. id) end
  end
  dict:set("errpages", table.concat(ids, ","))
  return true
end

-- This worker's decoded pages of a site, again only when the pushed text changed.
local decoded = {}
local function pages_of(site)
  local raw = dict:get("errpages:" .. site)
  if not raw then return nil end
  local known = decoded[site]
  if known and known.raw == raw then return known.pages end
  local pages = cjson.decode(raw)
  decoded[site] = { raw = raw, pages = pages }
  return pages
end

-- Header filter of the fixed servers, for a request of live domain `d` (its record) whose site had pages when route()
-- found it (the others are served where no body filter puts one in place) and its ngx.ctx: an answer of a status its
-- site has a page for becomes that page (a redirect: 302 to its URL), the status kept; the headers of the body it
-- replaces go.
function _M.header_filter(ctx, d)
  local status = ngx.status
  if status < 300 or status > 599 then return end
  if ctx.ek_page then return end
  local pages = pages_of(d.site)
  local p = pages and pages[tostring(status)]
  if not p then return end
  local header = ngx.header
  header["Content-Length"] = nil
  header["Content-Encoding"] = nil
  header["Content-Range"] = nil
  header["ETag"] = nil
  header["Last-Modified"] = nil
  header["Accept-Ranges"] = nil
  header["Content-Type"] = "text/html; charset=utf-8"
  if p.type == "redirect" then
    ngx.status = 302
    header["Location"] = p.body
    ctx.ek_error_body = FOUND
    return
  end
  ctx.ek_error_body = p.type == "js" and "<!doctype html><html><body><script>" .. p.body .. "</script></body></html>\n" or p.body
end

-- Body filter of the fixed servers: the page in place of the body, sent with the first chunk, the rest dropped. The
-- page is set before the end is marked (the mark goes on the chunk's last buffer), and is never empty.
function _M.body_filter()
  local status = ngx.status
  if status < 300 or status > 599 then return end
  local ctx = ngx.ctx
  local body = ctx.ek_error_body
  if body == nil then return end
  if body == false then
    -- sent already: nothing more of the body it replaced
    ngx.arg[1] = ""
    return
  end
  ngx.arg[1] = body
  ngx.arg[2] = true
  ctx.ek_error_body = false
end

return _M

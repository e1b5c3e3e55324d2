-- Cache purge by removing nginx's cache files: a file is md5(cache key) under the levels=1:2 layout.
local ffi = require "ffi"

ffi.cdef [[
typedef struct ek_dir EK_DIR;
struct ek_dirent { uint64_t d_ino; int64_t d_off; unsigned short d_reclen; unsigned char d_type; char d_name[256]; };
EK_DIR *opendir(const char *name);
struct ek_dirent *readdir(EK_DIR *dirp);
int closedir(EK_DIR *dirp);
]]

local DT_DIR = 4
local _M = {}

-- `cache` is one cache directory or a list of them (the node's shared cache and the sites' own), each absolute
-- or relative to the nginx prefix.
local function cache_roots(cache)
  local roots = {}
  for i, dir in ipairs(type(cache) == "table" and cache or { cache }) do
    roots[i] = dir:sub(1, 1) == "/" and dir or ngx.config.prefix() .. dir
  end
  return roots
end

-- The file of one cache key (`$scheme://$host$request_uri`, i.e. the URL as the client asked for it) under a root.
local function key_file(root, url)
  local hash = ngx.md5(url)
  return string.format("%s/%s/%s/%s", root, hash:sub(-1), hash:sub(-3, -2), hash)
end

-- Removes the cached copies of URLs, whichever scheme they were fetched with, in every cache directory.
function _M.urls(cache, urls)
  local removed = 0
  local roots = cache_roots(cache)
  for _, url in ipairs(urls) do
    local rest = url:match("^https?://(.+)$")
    for _, scheme in ipairs(rest and { "http://", "https://" } or {}) do
      -- "#webp" is the variant kept for clients that accept WebP (a site with WebP on keys images that way).
      for _, variant in ipairs({ "", "#webp" }) do
        for _, root in ipairs(roots) do
          if os.remove(key_file(root, scheme .. rest .. variant)) then removed = removed + 1 end
        end
      end
    end
  end
  return removed
end

-- The key a cache file was stored under without its scheme, "host/path?query" (nginx writes "\nKEY: <key>\n"
-- into the file's header).
local function cached_key(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local head = f:read(4096) or ""
  f:close()
  return head:match("\nKEY: https?://([^\n]+)")
end

local function starts_with(s, prefix)
  return s:sub(1, #prefix) == prefix
end

-- Whether a cached key matches: its host is in `hosts` (a set), it starts with one of `prefixes`
-- ("host/path/"), its path ends in one of `extensions` (a set); absent parts match everything.
local function matches(key, m)
  if not key then return false end
  local host = key:match("^([^/]+)") or ""
  if m.hosts and not m.hosts[host] then return false end
  if m.prefixes then
    local hit = false
    for _, p in ipairs(m.prefixes) do
      if starts_with(key, p) then hit = true; break end
    end
    if not hit then return false end
  end
  if m.extensions then
    local ext = (key:match("^[^?#]*%.([%w]+)[?#]") or key:match("^[^?#]*%.([%w]+)$") or ""):lower()
    if not m.extensions[ext] then return false end
  end
  return true
end

local function each_entry(path, fn)
  local dir = ffi.C.opendir(path)
  if dir == nil then return end
  while true do
    local entry = ffi.C.readdir(dir)
    if entry == nil then break end
    local name = ffi.string(entry.d_name)
    if name ~= "." and name ~= ".." then fn(name, entry.d_type) end
  end
  ffi.C.closedir(dir)
end

-- Removes every cached file of every cache directory, or those that match `m` (see matches), leaving alone the temporary files being
-- written (cache files are named by 32 hex digits); yields every few directories so the worker keeps serving.
function _M.matching(cache, m)
  local removed, visited = 0, 0
  local function walk(path, depth)
    local subdirs = {}
    each_entry(path, function(name, kind)
      if depth < 2 and (kind == DT_DIR or kind == 0) then
        subdirs[#subdirs + 1] = path .. "/" .. name
      elseif #name == 32 and name:match("^%x+$") then
        local file = path .. "/" .. name
        if (not m or matches(cached_key(file), m)) and os.remove(file) then removed = removed + 1 end
      end
    end)
    for _, sub in ipairs(subdirs) do
      walk(sub, depth + 1)
      visited = visited + 1
      if visited % 64 == 0 then ngx.sleep(0.001) end
    end
  end
  for _, root in ipairs(cache_roots(cache)) do walk(root, 0) end
  return removed
end

-- Every cached file, or those of the given hosts (a set).
function _M.all(cache, hosts)
  return _M.matching(cache, hosts and { hosts = hosts } or nil)
end

return _M

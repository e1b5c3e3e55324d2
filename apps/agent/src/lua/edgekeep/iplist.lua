-- IP lists as sorted, merged ranges of fixed-width hex keys ("4" .. 8 hex digits, "6" .. 32), searched by bisection.
-- A compiled list keeps its IPv4 ranges as numbers in C arrays and finds an address in them with a fixed number of
-- halving steps that have neither a branch nor a loop: LuaJIT then compiles the whole access phase of a request
-- as one trace (a loop inside it would stop that), and a search touches a few cache lines, not Lua objects.
local ffi = require "ffi"
local bit = require "bit"

local byte, sub = string.byte, string.sub
local rshift = bit.rshift
local doubles = ffi.typeof("double[?]")

-- Low bounds at 1..n, a sentinel below every address at 0, and above every address from n + 1 to the array's end.
local BELOW, ABOVE = -1, 2 ^ 33
local V4_STEPS = 20 -- up to 2^20 - 1 ranges

local _M = {}

local function v4_hex(ip)
  local a, b, c, d = ip:match("^(%d+)%.(%d+)%.(%d+)%.(%d+)$")
  if not a then return nil end
  a, b, c, d = tonumber(a), tonumber(b), tonumber(c), tonumber(d)
  if a > 255 or b > 255 or c > 255 or d > 255 then return nil end
  return string.format("%02x%02x%02x%02x", a, b, c, d)
end

local function v6_hex(ip)
  local head, tail = ip:match("^(.-)::(.*)$")
  local left, right = {}, {}
  local function groups(s, into)
    if s == nil or s == "" then return true end
    for g in (s .. ":"):gmatch("([^:]*):") do into[#into + 1] = g end
    return true
  end
  if head then groups(head, left); groups(tail, right) else groups(ip, left) end
  local last = (#right > 0) and right or left
  if #last > 0 and last[#last]:find(".", 1, true) then
    local v4 = v4_hex(last[#last])
    if not v4 then return nil end
    last[#last] = v4:sub(1, 4)
    last[#last + 1] = v4:sub(5, 8)
  end
  local missing = 8 - #left - #right
  if (head and missing < 1) or (not head and missing ~= 0) then return nil end
  local out = {}
  for _, g in ipairs(left) do out[#out + 1] = g end
  for _ = 1, head and missing or 0 do out[#out + 1] = "0" end
  for _, g in ipairs(right) do out[#out + 1] = g end
  for i, g in ipairs(out) do
    if not g:match("^%x%x?%x?%x?$") then return nil end
    out[i] = string.rep("0", 4 - #g) .. g:lower()
  end
  return table.concat(out)
end

-- The comparable key of one address; an IPv4-mapped IPv6 address counts as IPv4.
function _M.key(ip)
  local v4 = v4_hex(ip)
  if v4 then return "4" .. v4 end
  local v6 = ip:find(":", 1, true) and v6_hex(ip)
  if not v6 then return nil end
  if v6:sub(1, 24) == "00000000000000000000ffff" then return "4" .. v6:sub(25) end
  return "6" .. v6
end

-- Keys of recent client addresses: a client's key is worked out once, not on each of its requests. The table is
-- dropped whole when it is full.
local recent, recent_count = {}, 0
local RECENT_MAX = 10000

function _M.client_key(ip)
  local k = recent[ip]
  if k ~= nil then return k or nil end
  k = _M.key(ip) or false
  if recent_count >= RECENT_MAX then recent, recent_count = {}, 0 end
  recent[ip] = k
  recent_count = recent_count + 1
  return k or nil
end

local function cidr(key, bits)
  local lo, hi = { key:sub(1, 1) }, { key:sub(1, 1) }
  for i = 2, #key do
    local start = (i - 2) * 4
    local d = tonumber(key:sub(i, i), 16)
    local free = math.min(4, math.max(0, start + 4 - bits))
    local span = 2 ^ free
    local base = d - d % span
    lo[i] = string.format("%x", base)
    hi[i] = string.format("%x", base + span - 1)
  end
  return table.concat(lo), table.concat(hi)
end

-- One entry (an address, a CIDR block or a range a-b) as a range; nil when it is not one.
function _M.range(entry)
  local addr, bits = entry:match("^([^/]+)/(%d+)$")
  if addr then
    local k = _M.key(addr)
    bits = tonumber(bits)
    if not k or bits > (#k - 1) * 4 then return nil end
    return cidr(k, bits)
  end
  local a, b = entry:match("^([^-]+)-([^-]+)$")
  if a then
    local lo, hi = _M.key(a), _M.key(b)
    if not lo or not hi or #lo ~= #hi or lo > hi then return nil end
    return lo, hi
  end
  local k = _M.key(entry)
  if not k then return nil end
  return k, k
end

-- A list of entries as { count, n4, lo4 / hi4 = C arrays of IPv4 bounds, v6 = sorted IPv6 key ranges }: merged;
-- entries that do not parse are left out.
function _M.compile(entries)
  local ranges = {}
  for _, e in ipairs(entries or {}) do
    local lo, hi = _M.range(e)
    if lo then ranges[#ranges + 1] = { lo, hi } end
  end
  table.sort(ranges, function(x, y) return x[1] < y[1] end)
  local merged = {}
  for _, r in ipairs(ranges) do
    local top = merged[#merged]
    if top and r[1] <= top[2] then
      if r[2] > top[2] then top[2] = r[2] end
    else
      merged[#merged + 1] = { r[1], r[2] }
    end
  end
  local v6, n4 = {}, 0
  for _, r in ipairs(merged) do
    if byte(r[1], 1) == 52 then n4 = n4 + 1 else v6[#v6 + 1] = r end
  end
  assert(n4 < 2 ^ V4_STEPS, "more IPv4 ranges than one list can hold")
  local size = 2
  while size <= n4 + 1 do size = size * 2 end
  local lo4, hi4 = doubles(size, ABOVE), doubles(size, ABOVE)
  lo4[0], hi4[0] = BELOW, BELOW
  for i = 1, n4 do
    lo4[i] = tonumber(sub(merged[i][1], 2), 16)
    hi4[i] = tonumber(sub(merged[i][2], 2), 16)
  end
  return { count = #merged, n4 = n4, lo4 = lo4, hi4 = hi4, last4 = size - 1, v6 = v6 }
end

-- floor_index(lo, last, x): the largest index i <= last with lo[i] <= x, for lo sorted and lo[0] <= x. Each step
-- adds h when lo[b + h] <= x, as min(1, max(0, x - lo + 1)) on whole numbers: no branch for the trace to guard.
local floor_index = (function()
  local src = { "local min, max = math.min, math.max\nreturn function(lo, last, x)\n  local b = 0\n" }
  for k = V4_STEPS - 1, 0, -1 do
    src[#src + 1] = ("  b = b + %d * min(1, max(0, x - lo[min(b + %d, last)] + 1))\n"):format(2 ^ k, 2 ^ k)
  end
  src[#src + 1] = "  return b\nend\n"
  return assert(load(table.concat(src), "=iplist.floor_index"))()
end)()

-- The number of an IPv4 key; the last one is kept, as one request looks its address up in several lists.
local last_key, last_number

local function v4_number(key)
  if key ~= last_key then
    last_number = tonumber(sub(key, 2), 16)
    last_key = key
  end
  return last_number
end

local function contains_v4(list, x)
  return x <= list.hi4[floor_index(list.lo4, list.last4, x)]
end

local function contains_v6(ranges, key)
  local lo, hi = 1, #ranges
  while lo <= hi do
    local mid = rshift(lo + hi, 1)
    local r = ranges[mid]
    if key < r[1] then
      hi = mid - 1
    elseif key > r[2] then
      lo = mid + 1
    else
      return true
    end
  end
  return false
end

-- Whether the key of an address lies in a compiled list.
function _M.contains(list, key)
  if key == nil then return false end
  if byte(key, 1) == 52 then
    return list.n4 > 0 and contains_v4(list, v4_number(key))
  end
  return #list.v6 > 0 and contains_v6(list.v6, key)
end

return _M

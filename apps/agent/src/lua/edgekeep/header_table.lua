-- The request's headers as one table, read once for the advanced firewall's header rules: name (lowercase, "_" as
-- "-") -> the value of the first header of that name, which is what nginx's $http_<name> reads (1.22: the first;
-- "-" and "_" alike). One read of the list instead of a variable looked up by name, and the list scanned, per header
-- a rule names.
local ffi = require "ffi"
local base = require "resty.core.base"
require "resty.core.request" -- declares the header functions of the FFI
local replace_char = require("resty.core.utils").str_replace_char
local new_tab = require "table.new"

local C = ffi.C
local ffi_str = ffi.string
local HEADER = ffi.typeof("ngx_http_lua_ffi_table_elt_t*")
local HEADER_SIZE = ffi.sizeof("ngx_http_lua_ffi_table_elt_t")
local truncated = ffi.new("int[1]")

local function add(headers, h)
  local name = replace_char(ffi_str(h.key.data, h.key.len), "_", "-")
  if headers[name] == nil then headers[name] = ffi_str(h.value.data, h.value.len) end
end

-- The first UNROLLED headers are taken one by one without a loop, the rest in one: a loop inside the access phase
-- would keep LuaJIT from compiling the phase as one trace ("inner loop in root trace"), which a request with more
-- headers than that pays for.
local UNROLLED = 40
local steps = { "local add = ...\nreturn function(headers, list, n)\n" }
for i = 0, UNROLLED - 1 do steps[#steps + 1] = ("  if n <= %d then return end add(headers, list[%d])\n"):format(i, i) end
steps[#steps + 1] = ("  for i = %d, n - 1 do add(headers, list[i]) end\nend\n"):format(UNROLLED)
local add_all = assert(load(table.concat(steps), "=header_table", "t"))(add)

-- The headers of the current request (a new table).
return function()
  local r = base.get_request()
  local n = C.ngx_http_lua_ffi_req_get_headers_count(r, 0, truncated)
  if n <= 0 then return {} end
  local headers = new_tab(0, n)
  local list = ffi.cast(HEADER, base.get_string_buf(n * HEADER_SIZE))
  if C.ngx_http_lua_ffi_req_get_headers(r, list, n, 0) == 0 then add_all(headers, list, n) end
  return headers
end

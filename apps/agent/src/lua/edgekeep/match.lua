-- Small helpers the access steps share: regex tests that treat an empty pattern as "everything", and the
-- ways a rule answers (blockType).
local ffi = require "ffi"
local core_regex = require "resty.core.regex"

local _M = {}

-- Patterns are compiled once (PCRE with its JIT) and run straight through the FFI. ngx.re.find parses its options
-- and looks the pattern up in an LRU list on every call, and a function calling it many times is not compiled
-- by LuaJIT ("loop unroll limit"): the advanced firewall spent most of its time there.
local compile_re = core_regex.re_match_compile
local ok, exec_re = pcall(function() return ffi.C.ngx_http_lua_ffi_exec_regex end)
if not ok or not compile_re then exec_re = nil end
local NO_MATCH = -1 -- PCRE_ERROR_NOMATCH

-- A compiled pattern for test(); nil and the error for a broken one.
function _M.regex(pattern)
  if not exec_re then return { pattern = pattern } end
  local compiled, err, flags = compile_re(pattern, "jo")
  if not compiled then return nil, err end
  return { compiled = compiled, flags = flags }
end

-- Whether `subject` (a string) matches the compiled pattern `re`.
function _M.test(re, subject)
  if not re.compiled then return ngx.re.find(subject, re.pattern, "jo") ~= nil end
  return exec_re(re.compiled, re.flags, subject, #subject, 0) >= 0
end

-- False only when `subject` certainly does not match `re`: an error (a match limit, say) answers true.
function _M.maybe(re, subject)
  if not re.compiled then
    local from, _, err = ngx.re.find(subject, re.pattern, "jo")
    return from ~= nil or err ~= nil
  end
  return exec_re(re.compiled, re.flags, subject, #subject, 0) ~= NO_MATCH
end

-- What a pattern may not hold to be one branch of an alternation: group numbers and names, which joining would
-- shift or duplicate, and constructs that reach past their branch (\Q without \E, comments, verbs).
local NOT_JOINABLE = { "\\[1-9]", "\\[gkQ]", "%(%?P", "%(%?<[%a_]", "%(%?'", "%(%?%(", "%(%?R", "%(%?&", "%(%?[%+%-]?%d", "%(%*", "%(%?[%a%-]*x" }

-- One compiled pattern that matches where any of `patterns` does, or nil when they cannot be joined.
function _M.alternation(patterns)
  for _, p in ipairs(patterns) do
    for _, unsafe in ipairs(NOT_JOINABLE) do
      if p:find(unsafe) then return nil end
    end
  end
  return _M.regex("(?:" .. table.concat(patterns, ")|(?:") .. ")")
end

-- Patterns of the rules, compiled on first use; a broken one is false. Dropped whole when full.
local patterns, pattern_count = {}, 0
local PATTERNS_MAX = 10000

-- Whether `subject` matches `regex` (PCRE, cached); an empty or missing regex matches everything, a broken one
-- nothing (the API refuses broken ones before they get here).
function _M.re(subject, regex)
  if regex == nil or regex == "" or regex == ngx.null then return true end
  local re = patterns[regex]
  if re == nil then
    local err
    re, err = _M.regex(regex)
    if not re then
      ngx.log(ngx.WARN, "bad rule regex ", regex, ": ", err)
      re = false
    end
    if pattern_count >= PATTERNS_MAX then patterns, pattern_count = {}, 0 end
    patterns[regex] = re
    pattern_count = pattern_count + 1
  end
  return re and _M.test(re, subject or "") or false
end

-- Answers with the rule's blockType: "drop" closes the connection (444), anything else the 929 page.
function _M.answer(ctx, block_type, cause, rule)
  if block_type == "drop" then return ctx.drop(cause, rule) end
  return ctx.deny(cause, rule)
end

function _M.sorted(rules)
  table.sort(rules, function(a, b) return (tonumber(a.priority) or 0) < (tonumber(b.priority) or 0) end)
  return rules
end

return _M

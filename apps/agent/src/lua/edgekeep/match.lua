-- Small helpers the access steps share: regex tests that treat an empty pattern as "everything", and the
-- ways a rule answers (blockType).
local _M = {}

-- Whether `subject` matches `regex` (PCRE, cached); an empty or missing regex matches everything, a broken one
-- nothing (the API refuses broken ones before they get here).
function _M.re(subject, regex)
  if regex == nil or regex == "" or regex == ngx.null then return true end
  local from, _, err = ngx.re.find(subject or "", regex, "jo")
  if err then ngx.log(ngx.WARN, "bad rule regex ", regex, ": ", err) end
  return from ~= nil
end

-- Answers with the rule's blockType: "drop" closes the connection (444), anything else the 929 page.
function _M.answer(ctx, block_type, cause)
  if block_type == "drop" then return ctx.drop(cause) end
  return ctx.deny(cause)
end

function _M.sorted(rules)
  table.sort(rules, function(a, b) return (tonumber(a.priority) or 0) < (tonumber(b.priority) or 0) end)
  return rules
end

return _M

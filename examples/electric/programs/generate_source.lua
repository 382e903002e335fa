-- generate_source.lua N OUT: writes a Lua source of N functions, each with local
-- tables, string constants and arithmetic, for luac to compile (a compiler's
-- allocation pattern: many small short-lived objects, a growing constant table).
local n = tonumber(arg[1]) or 20000
local out = assert(io.open(arg[2], "w"))
out:write("local F = {}\n")
for i = 1, n do
  out:write(string.format([[
F[%d] = function(a, b)
  local t = {x = a + %d, y = b * %d, name = "item%d", tags = {"t%d", "u%d", "v%d"}}
  if t.x > t.y then return t.name .. ":" .. t.tags[1] else return t.tags[2] .. %d end
end
]], i, i, i % 7 + 1, i, i % 13, i % 17, i % 19, i))
end
out:write("return F\n")
out:close()

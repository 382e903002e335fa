-- checksum.lua: an FNV-style 32-bit checksum of the integers t[1..n], with a
-- branch on each word's sign and parity (the program of examples/interp, in Lua).
return function(t, n)
  local h = 0x811c9dc5
  for i = 1, n do
    local w = t[i]
    if w < 0 then
      local x = (h - w) & 0xffffffff
      h = ((x << 7) | (x >> 25)) & 0xffffffff
    else
      h = ((h ~ w) * 0x01000193) & 0xffffffff
    end
    if w & 1 == 1 then
      h = (h + i) & 0xffffffff
    end
  end
  return h
end

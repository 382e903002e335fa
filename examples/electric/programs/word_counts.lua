-- word_counts.lua N: makes N pseudo-random sentences, counts their words in a
-- table keyed by string, and prints the twenty most frequent (strings and table
-- growth: the allocator's other work in a script).
local n = tonumber(arg and arg[1]) or 200000
local syllables = {"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po"}
local seed = 12345
local function random(k)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % k + 1
end
local counts = {}
for _ = 1, n do
  local words = {}
  for w = 1, random(8) do
    local parts = {}
    for s = 1, random(3) do parts[s] = syllables[random(#syllables)] end
    words[w] = table.concat(parts)
  end
  for _, word in ipairs(words) do counts[word] = (counts[word] or 0) + 1 end
end
local list = {}
for word, c in pairs(counts) do list[#list + 1] = {word, c} end
table.sort(list, function(a, b) return a[2] > b[2] or (a[2] == b[2] and a[1] < b[1]) end)
for i = 1, 20 do print(list[i][1], list[i][2]) end

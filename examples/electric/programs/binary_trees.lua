-- binary_trees.lua DEPTH: builds and walks complete binary trees of many depths,
-- most of them short-lived (the allocator's work: tables made and collected).
local function make(depth)
  if depth == 0 then return {} end
  depth = depth - 1
  return {make(depth), make(depth)}
end

local function count(tree)
  if not tree[1] then return 1 end
  return 1 + count(tree[1]) + count(tree[2])
end

local max_depth = tonumber(arg and arg[1]) or 14
local long_lived = make(max_depth)
for depth = 4, max_depth, 2 do
  local iterations = 1 << (max_depth - depth + 4)
  local nodes = 0
  for _ = 1, iterations do
    nodes = nodes + count(make(depth))
  end
  print(string.format("%d trees of depth %d: %d nodes", iterations, depth, nodes))
end
print(string.format("long-lived tree of depth %d: %d nodes", max_depth, count(long_lived)))

-- collatz.lua: the total number of Collatz steps of the words t[1..n], each
-- first mapped to 1..1000: a loop nested in a loop, both under dynamic control
-- (while loops, so the compiler emits plain conditional jumps, no FORLOOP).
return function(t, n)
  local steps = 0
  local i = 1
  while i <= n do
    local x = t[i] // 1 % 1000 + 1
    while x ~= 1 do
      if x % 2 == 0 then
        x = x // 2
      else
        x = 3 * x + 1
      end
      steps = steps + 1
    end
    i = i + 1
  end
  return steps
end

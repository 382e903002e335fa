-- moments.lua: the variance plus half the range of t[1..n], in floating point:
-- integer and float operands mix, and two comparisons per word keep a minimum
-- and a maximum.
return function(t, n)
  local sum, sumsq = 0.0, 0.0
  local lo, hi = 1e300, -1e300
  for i = 1, n do
    local w = t[i]
    sum = sum + w
    sumsq = sumsq + w * w
    if w < lo then lo = w end
    if w > hi then hi = w end
  end
  if n < 1 then
    return 0.0
  end
  local mean = sum / n
  return (sumsq / n - mean * mean) + (hi - lo) * 0.5
end

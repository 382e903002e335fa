//===- FlatMap.h - A small sorted map in one allocation ---------*- C++ -*-===//
//
// The specializer's abstract states are copied along every residual edge and
// compared at every join, and their maps hold a few dozen entries. std::map
// pays an allocation per entry and a pointer chase per step; FlatMap keeps the
// entries sorted in one vector, so a copy is one allocation and a lookup a
// binary search over contiguous memory. Iteration is in key order, as with
// std::map, so nothing the specializer emits depends on the container.
//
// Unlike std::map, inserting or erasing invalidates iterators and references.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_FLATMAP_H
#define RESPEC_PE_FLATMAP_H

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

namespace respec {

template <typename Key, typename T> class FlatMap {
public:
  using value_type = std::pair<Key, T>;
  using iterator = typename std::vector<value_type>::iterator;
  using const_iterator = typename std::vector<value_type>::const_iterator;

  iterator begin() { return entries.begin(); }
  iterator end() { return entries.end(); }
  const_iterator begin() const { return entries.begin(); }
  const_iterator end() const { return entries.end(); }
  size_t size() const { return entries.size(); }
  bool empty() const { return entries.empty(); }
  void clear() { entries.clear(); }

  iterator lower_bound(const Key &K) {
    return std::lower_bound(entries.begin(), entries.end(), K, keyLess);
  }
  const_iterator lower_bound(const Key &K) const {
    return std::lower_bound(entries.begin(), entries.end(), K, keyLess);
  }
  const_iterator upper_bound(const Key &K) const {
    return std::upper_bound(entries.begin(), entries.end(), K, lessKey);
  }
  iterator find(const Key &K) {
    iterator It = lower_bound(K);
    return It != end() && It->first == K ? It : end();
  }
  const_iterator find(const Key &K) const {
    const_iterator It = lower_bound(K);
    return It != end() && It->first == K ? It : end();
  }
  size_t count(const Key &K) const { return find(K) != end(); }

  template <typename... Args> std::pair<iterator, bool> try_emplace(const Key &K, Args &&...A) {
    iterator It = lower_bound(K);
    if (It != end() && It->first == K)
      return {It, false};
    return {entries.emplace(It, std::piecewise_construct, std::forward_as_tuple(K),
                            std::forward_as_tuple(std::forward<Args>(A)...)),
            true};
  }
  template <typename V> std::pair<iterator, bool> emplace(const Key &K, V &&Value) {
    return try_emplace(K, std::forward<V>(Value));
  }
  std::pair<iterator, bool> insert(const value_type &V) { return try_emplace(V.first, V.second); }
  T &operator[](const Key &K) { return try_emplace(K).first->second; }
  iterator erase(const_iterator It) { return entries.erase(It); }

  bool operator==(const FlatMap &O) const { return entries == O.entries; }
  bool operator!=(const FlatMap &O) const { return !(*this == O); }

private:
  std::vector<value_type> entries; ///< sorted by key, keys unique

  static bool keyLess(const value_type &E, const Key &K) { return E.first < K; }
  static bool lessKey(const Key &K, const value_type &E) { return K < E.first; }
};

} // namespace respec

#endif

//===- Measure.cpp - Timing the program variants, interleaved -------------===//
#include "Measure.h"
#include "Process.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>

using namespace llvm;

namespace respec::layout {

double Timing::median() const {
  std::vector<double> Sorted = seconds;
  std::sort(Sorted.begin(), Sorted.end());
  size_t N = Sorted.size();
  return N == 0 ? 0 : N % 2 ? Sorted[N / 2] : (Sorted[N / 2 - 1] + Sorted[N / 2]) / 2;
}

std::vector<Timing> measure(const std::string &Command, const std::vector<std::string> &Binaries,
                            unsigned Rounds, uint64_t Seed, const std::string &LogDirectory) {
  std::vector<Timing> Timings(Binaries.size());
  std::vector<size_t> Order(Binaries.size());
  std::iota(Order.begin(), Order.end(), 0);
  std::mt19937_64 Random(Seed);
  for (unsigned Round = 0; Round < Rounds; ++Round) {
    errs() << "layout: measuring, round " << Round + 1 << " of " << Rounds << "\n";
    std::shuffle(Order.begin(), Order.end(), Random);
    for (size_t Index : Order) {
      std::string Log = LogDirectory + "/measure-" + std::to_string(Index) + ".log";
      auto Start = std::chrono::steady_clock::now();
      runOrThrow({shell(withBinary(Command, Binaries[Index])), "",
                  {{"RESPEC_LAYOUT_BINARY", Binaries[Index]}}, Log},
                 "the measuring command on " + Binaries[Index]);
      Timings[Index].seconds.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count());
    }
  }
  return Timings;
}

} // namespace respec::layout

//===- Diagnostics.h - Errors the user can act on ---------------*- C++ -*-===//
//
// Every error respec reports names a place in the user's sources (file:line)
// when one exists. Specialization errors are thrown as SpecError and turned into
// a message and a non-zero exit by the driver, which also makes sure no partial
// output file is left behind.
//
//===----------------------------------------------------------------------===//
#ifndef RESPEC_PE_DIAGNOSTICS_H
#define RESPEC_PE_DIAGNOSTICS_H

#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugLoc.h"
#include <stdexcept>
#include <string>

namespace respec {

/// "file:line" (or "file:line:col") of a debug location, or "" when unknown.
inline std::string formatLocation(const llvm::DebugLoc &Loc) {
  if (!Loc)
    return "";
  std::string Where = Loc->getFilename().str() + ":" + std::to_string(Loc.getLine());
  if (Loc.getCol())
    Where += ":" + std::to_string(Loc.getCol());
  return Where;
}

class SpecError : public std::runtime_error {
public:
  SpecError(const std::string &Where, const std::string &Message)
      : std::runtime_error(Message), where(Where) {}
  SpecError(const llvm::DebugLoc &Loc, const std::string &Message)
      : SpecError(formatLocation(Loc), Message) {}
  std::string where; ///< file:line, may be empty
};

} // namespace respec

#endif

# check_variant_targets.cmake — the test variant-targets-features: the features that
# examples/variant_targets.h requires of a CPU for each target must be exactly those
# clang adds for -march=<cpu> to plain -march=x86-64's (read from the target-features
# attribute of a function compiled both ways), so that a variant is skipped exactly
# when the CPU lacks something its code may use.
#
#   cmake -DCLANG=<clang> -DLISTER=<variant-targets-list> -DWORK=<dir> -P check_variant_targets.cmake
execute_process(COMMAND ${LISTER} OUTPUT_VARIABLE listing RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${LISTER} failed")
endif()
message(STATUS "variant_targets.h:\n${listing}")

file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/function.c "void function(void) {}\n")

# The features clang enables for -march=<cpu>, without the leading +, sorted.
function(clang_features out_var cpu)
  execute_process(COMMAND ${CLANG} -O2 -march=${cpu} -S -emit-llvm ${WORK}/function.c -o -
    OUTPUT_VARIABLE ir RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR NOT ir MATCHES "\"target-features\"=\"([^\"]*)\"")
    message(FATAL_ERROR "cannot read clang's target features for -march=${cpu}")
  endif()
  string(REPLACE "," ";" features "${CMAKE_MATCH_1}")
  list(TRANSFORM features REPLACE "^\\+" "")
  list(SORT features)
  set(${out_var} ${features} PARENT_SCOPE)
endfunction()

clang_features(baseline x86-64)
string(REPLACE "\n" ";" lines "${listing}")
set(checked 0)
foreach(line IN LISTS lines)
  if(line STREQUAL "")
    continue()
  endif()
  if(NOT line MATCHES "^([^:]+): ([^:]*): ")
    message(FATAL_ERROR "unexpected line from ${LISTER}: ${line}")
  endif()
  set(cpu ${CMAKE_MATCH_1})
  string(REPLACE " " ";" listed "${CMAKE_MATCH_2}")
  list(SORT listed)
  clang_features(features ${cpu})
  list(REMOVE_ITEM features ${baseline})
  if(NOT listed STREQUAL features)
    message(FATAL_ERROR "${cpu}: variant_targets.h checks for\n  ${listed}\n"
      "but clang's -march=${cpu} adds to -march=x86-64\n  ${features}")
  endif()
  message(STATUS "${cpu}: checks ${CMAKE_MATCH_2}, as clang enables")
  math(EXPR checked "${checked} + 1")
endforeach()
if(checked EQUAL 0)
  message(FATAL_ERROR "${LISTER} listed no targets")
endif()

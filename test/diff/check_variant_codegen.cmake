# check_variant_codegen.cmake — the test variant-targets-codegen: a variant built for a
# TARGETS cpu (examples/RespecVariants.cmake) must really be code for that cpu. Each
# pair names a baseline variant's object and the same variant's object built with
# -march=<cpu>: the latter must contain instructions that need the target (VEX-encoded
# AVX instructions, MOVBE, the BMI2 shifts), the former none, so that a flag lost on
# the way (to clang, to respec specialize, to the LTO code generator) shows.
#
#   cmake -DOBJDUMP=<llvm-objdump> -DPAIRS=<baseline.o>=<target.o>,... -P check_variant_codegen.cmake
set(pattern "\t(movbe|v[a-z][a-z0-9]*|shlx|shrx|sarx|rorx|andn|bzhi|pdep|pext)[a-z]*[ \t\n]")

# How many instructions of the object match pattern; the first few in example_var.
function(count_target_instructions out_var example_var object)
  execute_process(COMMAND ${OBJDUMP} -d --no-show-raw-insn ${object}
    OUTPUT_VARIABLE listing RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${OBJDUMP} failed on ${object}")
  endif()
  string(REGEX MATCHALL "${pattern}" found "${listing}")
  list(LENGTH found count)
  list(SUBLIST found 0 3 examples)
  string(REGEX REPLACE "[ \t\n]+" " " examples "${examples}")
  set(${out_var} ${count} PARENT_SCOPE)
  set(${example_var} "${examples}" PARENT_SCOPE)
endfunction()

string(REPLACE "," ";" PAIRS "${PAIRS}")
foreach(pair IN LISTS PAIRS)
  string(REPLACE "=" ";" pair ${pair})
  list(GET pair 0 baseline)
  list(GET pair 1 target)
  count_target_instructions(baseline_count baseline_examples ${baseline})
  count_target_instructions(target_count target_examples ${target})
  get_filename_component(baseline_name ${baseline} NAME)
  get_filename_component(target_name ${target} NAME)
  if(NOT baseline_count EQUAL 0)
    message(FATAL_ERROR "${baseline_name}, built for the baseline target, has ${baseline_count} "
      "instructions it may not use (${baseline_examples})")
  endif()
  if(target_count EQUAL 0)
    message(FATAL_ERROR "${target_name} has no instruction of its target: was it built with -march?")
  endif()
  message(STATUS "${target_name}: ${target_count} instructions of the target (${target_examples}); "
    "${baseline_name}: none")
endforeach()

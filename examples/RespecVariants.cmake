# RespecVariants.cmake — builds the variants of one case study so that a single
# program (a differential test, a benchmark) can link all of them side by side.
#
# Every variant defines the same spec functions under the same names. Each variant is
# therefore resolved into one relocatable object, then its exported spec functions are
# renamed with a variant prefix (encode_ints1000 -> generic_encode_ints1000,
# clang_lto_encode_ints1000, ...) and every other symbol it defines is made local, so
# variants neither clash nor resolve calls into each other. All variants are compiled
# with clang-16 whatever compiler builds the rest of the project, so that only the
# variant differs.
#
#   respec_add_variants(<name>
#     SPEC <spec.c>                 the spec file
#     SOURCES <file.c>...           the generic sources it calls
#     EXPORTS <function>...         the spec functions (RESPEC_SPECIALIZE)
#     VARIANTS <variant>...         any of: generic clang-lto respec hand
#     [TARGETS <cpu>...]            more targets to build every variant for (below)
#     [HAND_SOURCES <file.c>...]    the hand-written variant's sources
#     [INCLUDE_DIRS <dir>...] [DEFINES <NAME[=value]>...]
#     [FORCE_INCLUDES <file.h>...]  headers included first in every source (-include)
#     [HEADERS <file.h>...]         headers the respec tool reads (for rebuilds)
#     [RESPEC_FLAGS <flag>...])     extra flags for `respec specialize`
#
# For each variant V that can be built it defines a static library target <name>-V
# holding the single object <build>/variants/<name>/<name>-V.o (also recorded in the
# target's RESPEC_OBJECT property), and it appends V to the global property
# RESPEC_VARIANTS_<name>. The respec variant is skipped while the respec tool target
# does not exist, so everything else still builds.
#
# Targets. Without TARGETS every variant is built for clang's default target (plain
# x86-64 on this project's machines: SSE2, no AVX). Each cpu in TARGETS adds, for every
# variant V in VARIANTS, a variant V-<suffix> built exactly like V plus -march=<cpu>:
# the same flag on every clang compile (generic, hand, clang-lto's bitcode) and on
# `respec specialize` (which hands it to clang for every input, so the function
# attributes target-cpu/target-features drive respec's clean-up pipeline, its cost
# models, the vectorizers and the code generator), and for clang-lto the LTO link's
# --plugin-opt=mcpu=<cpu> (what clang's driver passes to the linker for -flto
# -march=<cpu>), so that the LTO code generator's default CPU is the same. The suffix
# is the last dash-separated part of cpu: TARGETS x86-64-v3 adds generic-v3,
# clang-lto-v3, respec-v3 and hand-v3, whose exports are renamed generic_v3_*,
# clang_lto_v3_*, respec_v3_*, hand_v3_* and whose HAVE_ macros are e.g.
# HAVE_MARSHAL_RESPEC_V3. The cpus known are the x86-64 micro-architecture levels
# x86-64-v2, x86-64-v3 and x86-64-v4, those of examples/variant_targets.h: building
# for a target is possible on any machine, running its variants needs a CPU with the
# target's features, so programs that link them check with variant_target_check()
# before calling one: bench/harness.c and test/diff/diffcheck.c do it for every
# variant whose name ends in a target's suffix and skip it with a message naming the
# missing features (a differential test then exits with status 77, which test/diff and
# test/rpc declare as ctest's SKIP_RETURN_CODE, so that it counts as skipped).
#
#   respec_link_variants(<target> <name>)
# links every built variant of <name> into <target> and defines HAVE_<NAME>_<V> as
# upper-case C identifiers (e.g. HAVE_MARSHAL_CLANG_LTO) for its sources, so that
# programs include exactly the variants that exist; <target> also gets examples/ on
# its include path for variant_targets.h.
#
# How the variants are made (each plus -march=<cpu> for a variant of a TARGETS cpu):
#   generic    each source compiled with clang -O2, combined with ld.lld -r.
#   clang-lto  each source compiled with clang -O3 -flto; the bitcode is merged and
#              every symbol but the exports internalized (what the final link of a
#              program that only calls the spec functions lets LTO assume), then
#              ld.lld -r --lto-O3 runs the LTO pipeline and code generation.
#   respec     `respec specialize SPEC SOURCES -I.. -D.. -o OBJ`.
#   hand       the HAND_SOURCES compiled with clang -O2, combined with ld.lld -r.
include_guard(GLOBAL)

set(RESPEC_VARIANT_WARNINGS -Wall -Wextra)

# Compiles sources with clang and the given flags into objects under outdir
# (again when a file of DEPENDS changes: a compiler plugin); returns the object
# paths in out_var.
function(_respec_compile_sources out_var outdir tag)
  cmake_parse_arguments(PARSE_ARGV 3 arg "" "" "SOURCES;FLAGS;DEPENDS")
  set(objects)
  set(index 0)
  foreach(source IN LISTS arg_SOURCES)
    get_filename_component(source ${source} ABSOLUTE)
    get_filename_component(stem ${source} NAME_WE)
    # The index keeps same-named sources from different directories apart.
    set(object ${outdir}/${index}-${stem}.o)
    add_custom_command(OUTPUT ${object}
      COMMAND ${RESPEC_CLANG} ${arg_FLAGS} ${RESPEC_SANITIZER_FLAGS} -MD -MF ${object}.d
              -c ${source} -o ${object}
      DEPENDS ${source} ${arg_DEPENDS}
      DEPFILE ${object}.d
      COMMENT "Compiling ${stem}.c (${tag})"
      VERBATIM)
    list(APPEND objects ${object})
    math(EXPR index "${index} + 1")
  endforeach()
  set(${out_var} ${objects} PARENT_SCOPE)
endfunction()

# The cpus TARGETS accepts: those examples/variant_targets.h can check at run time.
set(RESPEC_VARIANT_TARGET_CPUS x86-64-v2 x86-64-v3 x86-64-v4)

function(respec_add_variants name)
  cmake_parse_arguments(PARSE_ARGV 1 arg ""
    "SPEC"
    "SOURCES;EXPORTS;VARIANTS;TARGETS;HAND_SOURCES;INCLUDE_DIRS;DEFINES;FORCE_INCLUDES;HEADERS;RESPEC_FLAGS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "respec_add_variants(${name}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SPEC OR NOT arg_EXPORTS OR NOT arg_VARIANTS)
    message(FATAL_ERROR "respec_add_variants(${name}): SPEC, EXPORTS and VARIANTS are required")
  endif()
  if(NOT RESPEC_CLANG OR NOT RESPEC_LLVM_BIN)
    message(FATAL_ERROR "respec_add_variants(${name}): RESPEC_CLANG and RESPEC_LLVM_BIN must be set")
  endif()

  get_filename_component(spec ${arg_SPEC} ABSOLUTE)
  set(generic_sources ${spec})
  foreach(source IN LISTS arg_SOURCES)
    get_filename_component(source ${source} ABSOLUTE)
    list(APPEND generic_sources ${source})
  endforeach()

  set(headers)
  foreach(header IN LISTS arg_HEADERS)
    get_filename_component(header ${header} ABSOLUTE)
    list(APPEND headers ${header})
  endforeach()

  set(preprocessor_flags)
  foreach(dir IN LISTS arg_INCLUDE_DIRS)
    get_filename_component(dir ${dir} ABSOLUTE)
    list(APPEND preprocessor_flags -I${dir})
  endforeach()
  foreach(define IN LISTS arg_DEFINES)
    list(APPEND preprocessor_flags -D${define})
  endforeach()
  foreach(header IN LISTS arg_FORCE_INCLUDES)
    get_filename_component(header ${header} ABSOLUTE)
    list(APPEND preprocessor_flags -include ${header})
    list(APPEND headers ${header})
  endforeach()

  set(keep_exports)
  foreach(function IN LISTS arg_EXPORTS)
    list(APPEND keep_exports --keep-global-symbol=${function})
  endforeach()
  string(JOIN "," export_list ${arg_EXPORTS})

  # The builds: the baseline target (no -march), then one per TARGETS cpu.
  set(builds baseline)
  foreach(cpu IN LISTS arg_TARGETS)
    if(NOT cpu IN_LIST RESPEC_VARIANT_TARGET_CPUS)
      message(FATAL_ERROR "respec_add_variants(${name}): TARGETS ${cpu} is not one of "
        "${RESPEC_VARIANT_TARGET_CPUS} (examples/variant_targets.h must know its features)")
    endif()
    list(APPEND builds ${cpu})
  endforeach()

  set(ld_lld ${RESPEC_LLVM_BIN}/ld.lld)
  set(objcopy ${RESPEC_LLVM_BIN}/llvm-objcopy)
  set(base_dir ${CMAKE_CURRENT_BINARY_DIR}/variants/${name})
  get_property(built GLOBAL PROPERTY RESPEC_VARIANTS_${name})

  foreach(cpu IN LISTS builds)
    if(cpu STREQUAL "baseline")
      set(suffix "")
      set(march_flags "")
      set(lto_codegen_flags "")
    else()
      string(REGEX REPLACE "^.*-" "" suffix ${cpu})
      set(suffix -${suffix})
      set(march_flags -march=${cpu})
      set(lto_codegen_flags --plugin-opt=mcpu=${cpu})
    endif()

    foreach(base_variant IN LISTS arg_VARIANTS)
      set(variant ${base_variant}${suffix})
      if(base_variant STREQUAL "respec" AND NOT TARGET respec)
        message(STATUS "respec_add_variants(${name}): no respec tool target yet; skipping the ${variant} variant")
        continue()
      endif()
      set(work_dir ${base_dir}/${variant})
      file(MAKE_DIRECTORY ${work_dir})
      # The one relocatable object holding the whole variant, before renaming.
      set(combined ${work_dir}/combined.o)

      if(base_variant STREQUAL "generic" OR base_variant STREQUAL "hand")
        if(base_variant STREQUAL "hand")
          if(NOT arg_HAND_SOURCES)
            message(FATAL_ERROR "respec_add_variants(${name}): variant hand needs HAND_SOURCES")
          endif()
          set(sources ${arg_HAND_SOURCES})
        else()
          set(sources ${generic_sources})
        endif()
        _respec_compile_sources(objects ${work_dir} "${name} ${variant}"
          SOURCES ${sources}
          FLAGS -O2 ${march_flags} ${RESPEC_VARIANT_WARNINGS} ${preprocessor_flags})
        add_custom_command(OUTPUT ${combined}
          COMMAND ${ld_lld} -r -o ${combined} ${objects}
          DEPENDS ${objects}
          COMMENT "Combining the ${variant} variant of ${name}"
          VERBATIM)

      elseif(base_variant STREQUAL "clang-lto")
        _respec_compile_sources(objects ${work_dir} "${name} ${variant}"
          SOURCES ${generic_sources}
          FLAGS -O3 -flto ${march_flags} ${RESPEC_VARIANT_WARNINGS} ${preprocessor_flags})
        set(merged ${work_dir}/merged.bc)
        set(internalized ${work_dir}/internalized.bc)
        add_custom_command(OUTPUT ${combined}
          COMMAND ${RESPEC_LLVM_BIN}/llvm-link ${objects} -o ${merged}
          COMMAND ${RESPEC_LLVM_BIN}/opt -passes=internalize
                  -internalize-public-api-list=${export_list} ${merged} -o ${internalized}
          COMMAND ${ld_lld} -r --lto-O3 ${lto_codegen_flags} -o ${combined} ${internalized}
          DEPENDS ${objects}
          BYPRODUCTS ${merged} ${internalized}
          COMMENT "Link-time optimizing the ${variant} variant of ${name}"
          VERBATIM)

      elseif(base_variant STREQUAL "respec" AND RESPEC_RUNTIME_SANITIZE)
        # respec gets -fsanitize=address (or thread) so that its input functions carry
        # the sanitize_* attribute, which its output keeps; clang instruments that
        # output. UBSan's checks are the front end's: the specialized code has none.
        if(RESPEC_RUNTIME_SANITIZE STREQUAL "address")
          set(attribute_flag -fsanitize=address)
        else()
          set(attribute_flag -fsanitize=thread)
        endif()
        set(specialized ${work_dir}/specialized.ll)
        add_custom_command(OUTPUT ${combined}
          COMMAND $<TARGET_FILE:respec> specialize ${generic_sources} ${preprocessor_flags}
                  ${arg_RESPEC_FLAGS} ${march_flags} ${attribute_flag} -q --emit-llvm
                  -o ${specialized}
          COMMAND ${RESPEC_CLANG} -O2 ${march_flags} ${attribute_flag} -fno-omit-frame-pointer
                  -c ${specialized} -o ${combined}
          DEPENDS respec ${generic_sources} ${headers}
          BYPRODUCTS ${specialized}
          COMMENT "Specializing ${name} with respec (${variant}), instrumented"
          VERBATIM)

      elseif(base_variant STREQUAL "respec")
        add_custom_command(OUTPUT ${combined}
          COMMAND $<TARGET_FILE:respec> specialize ${generic_sources} ${preprocessor_flags}
                  ${arg_RESPEC_FLAGS} ${march_flags} -o ${combined}
          DEPENDS respec ${generic_sources} ${headers}
          COMMENT "Specializing ${name} with respec (${variant})"
          VERBATIM)

      else()
        message(FATAL_ERROR "respec_add_variants(${name}): unknown variant '${base_variant}'")
      endif()

      string(MAKE_C_IDENTIFIER ${variant} prefix)
      set(rename_exports)
      foreach(function IN LISTS arg_EXPORTS)
        list(APPEND rename_exports --redefine-sym=${function}=${prefix}_${function})
      endforeach()
      set(localized ${work_dir}/localized.o)
      set(final ${base_dir}/${name}-${variant}.o)
      # Localize first, while the exports still carry the names the keep list uses.
      add_custom_command(OUTPUT ${final}
        COMMAND ${objcopy} ${keep_exports} ${combined} ${localized}
        COMMAND ${objcopy} ${rename_exports} ${localized} ${final}
        DEPENDS ${combined}
        BYPRODUCTS ${localized}
        COMMENT "Renaming the exports of the ${variant} variant of ${name} to ${prefix}_*"
        VERBATIM)
      set_source_files_properties(${final} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)

      add_library(${name}-${variant} STATIC ${final})
      set_target_properties(${name}-${variant} PROPERTIES
        LINKER_LANGUAGE C
        RESPEC_OBJECT ${final})
      list(APPEND built ${variant})
    endforeach()
  endforeach()

  list(REMOVE_DUPLICATES built)
  set_property(GLOBAL PROPERTY RESPEC_VARIANTS_${name} ${built})
endfunction()

function(respec_link_variants target name)
  get_property(variants GLOBAL PROPERTY RESPEC_VARIANTS_${name})
  if(NOT variants)
    message(FATAL_ERROR "respec_link_variants(${target}): no variants of '${name}' were added")
  endif()
  foreach(variant IN LISTS variants)
    string(MAKE_C_IDENTIFIER "${name}_${variant}" identifier)
    string(TOUPPER ${identifier} identifier)
    target_link_libraries(${target} PRIVATE ${name}-${variant})
    target_compile_definitions(${target} PRIVATE HAVE_${identifier}=1)
  endforeach()
  # examples/, where variant_targets.h lives.
  target_include_directories(${target} PRIVATE ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
endfunction()

# The value profiling of `respec profile` for case-study programs (examples/profile):
# RESPEC_PROFILE_CFLAGS compile a source with clang-16 and the plugin (what `respec
# profile --cflags` prints; the build's own compiler may be gcc, which cannot load it;
# RESPEC_PROFILE_DEPENDS recompiles when the plugin changes),
# and respec_link_profile_runtime(<target>) links what `--ldflags` prints.
set(RESPEC_PROFILE_CFLAGS -O2 -g -frecord-command-line -fpass-plugin=$<TARGET_FILE:respec-profile-pass>)
set(RESPEC_PROFILE_DEPENDS $<TARGET_FILE:respec-profile-pass>)
function(respec_link_profile_runtime target)
  add_dependencies(${target} respec-profile-pass)
  target_link_libraries(${target} PRIVATE respec-profile-runtime Threads::Threads)
  target_link_options(${target} PRIVATE -Wl,--wrap=_exit -Wl,--wrap=_Exit)
endfunction()

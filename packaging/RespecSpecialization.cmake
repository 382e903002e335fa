# respec_add_specialization — build a target with the specialized object of its spec
# in place of the spec's generic object. Installed with respec's CMake package
# (find_package(respec) includes it); it needs only the imported respec::respec.
#
#   respec_add_specialization(<target>
#     SPEC <spec.c>              the spec, one of <target>'s sources
#     SOURCES <file.c>...        the generic sources the spec calls (they stay in
#                                <target> as they are: the specialized object sits
#                                beside their objects)
#     [RESPEC_FLAGS <flag>...]   more arguments for `respec specialize` (clang flags
#                                such as -O3 or -march=..., --function NAME, ...)
#     [DEPENDS <file>...])       files whose change must re-specialize (headers)
#
# The spec is removed from <target>'s sources, and `respec specialize SPEC SOURCES`
# writes <build>/respec/<target>/<spec name>.o, added to <target> as an object: it
# defines the spec's RESPEC_SPECIALIZE functions with specialized bodies under the
# same names and signatures (every other definition in it is private). respec
# compiles the inputs with <target>'s include directories and compile definitions
# (properties INCLUDE_DIRECTORIES and COMPILE_DEFINITIONS, usage requirements
# included) and with respec's own headers on the include path; compile options are
# not passed on (give clang flags in RESPEC_FLAGS). Paths are relative to the
# current source directory.
include_guard(GLOBAL)

function(respec_add_specialization target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SPEC" "SOURCES;RESPEC_FLAGS;DEPENDS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "respec_add_specialization(${target}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "respec_add_specialization(${target}): no such target")
  endif()
  if(NOT arg_SPEC)
    message(FATAL_ERROR "respec_add_specialization(${target}): SPEC is required")
  endif()

  get_filename_component(spec ${arg_SPEC} ABSOLUTE)
  set(generic_sources)
  foreach(source IN LISTS arg_SOURCES)
    get_filename_component(source ${source} ABSOLUTE)
    list(APPEND generic_sources ${source})
  endforeach()

  # The target's sources without the spec (as written: relative to its directory).
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  set(kept)
  foreach(source IN LISTS sources)
    get_filename_component(absolute ${source} ABSOLUTE BASE_DIR ${source_dir})
    if(NOT absolute STREQUAL spec)
      list(APPEND kept ${source})
    endif()
  endforeach()
  if(kept STREQUAL sources)
    message(FATAL_ERROR "respec_add_specialization(${target}): ${arg_SPEC} is not a source of ${target}")
  endif()
  set_property(TARGET ${target} PROPERTY SOURCES ${kept})

  get_filename_component(stem ${spec} NAME_WE)
  set(object ${CMAKE_CURRENT_BINARY_DIR}/respec/${target}/${stem}.o)
  set(include_dirs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(definitions "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  add_custom_command(OUTPUT ${object}
    COMMAND respec::respec specialize ${spec} ${generic_sources}
            "$<$<BOOL:${include_dirs}>:-I$<JOIN:${include_dirs},;-I>>"
            "$<$<BOOL:${definitions}>:-D$<JOIN:${definitions},;-D>>"
            ${arg_RESPEC_FLAGS} -o ${object}
    DEPENDS $<TARGET_FILE:respec::respec> ${spec} ${generic_sources} ${arg_DEPENDS}
    COMMENT "Specializing ${stem} for ${target} with respec"
    COMMAND_EXPAND_LISTS
    VERBATIM)
  target_sources(${target} PRIVATE ${object})
  set_source_files_properties(${object} TARGET_DIRECTORY ${target}
    PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
endfunction()

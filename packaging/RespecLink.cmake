# respec_link — link a target through `respec link`, so that the libraries it links
# that ship link-time rules adapt to it (a prebuilt variant, or their code
# specialized for the target's facts). Installed with respec's CMake package
# (find_package(respec) includes it); it needs only the imported respec::respec.
#
#   respec_link(<target>
#     [RULES <file>...]          rules of libraries to consider, besides those found
#                                as libNAME.rules beside a linked libNAME.a/.so and
#                                those in $RESPEC_LINK_RULES
#     [DEPENDS <file>...]        files whose change must relink (a library's bitcode)
#     [EXPLAIN])                 print respec link --explain at each link
#
# The target's link command runs as `respec link [--rules FILE]... -- <command>`
# (the C and C++ linker launchers, CMake 3.21 or later); relinking follows the
# rules files and DEPENDS. Paths are relative to the current source directory.
include_guard(GLOBAL)

function(respec_link target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "EXPLAIN" "" "RULES;DEPENDS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "respec_link(${target}): unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "respec_link(${target}): no such target")
  endif()
  if(CMAKE_VERSION VERSION_LESS 3.21)
    message(FATAL_ERROR "respec_link(${target}): needs CMake 3.21 or later (linker launchers)")
  endif()
  get_target_property(respec_command respec::respec LOCATION)
  set(launcher ${respec_command} link)
  set(depends)
  foreach(rules IN LISTS arg_RULES)
    get_filename_component(rules ${rules} ABSOLUTE)
    list(APPEND launcher --rules ${rules})
    list(APPEND depends ${rules})
  endforeach()
  if(arg_EXPLAIN)
    list(APPEND launcher --explain)
  endif()
  list(APPEND launcher --)
  foreach(file IN LISTS arg_DEPENDS)
    get_filename_component(file ${file} ABSOLUTE)
    list(APPEND depends ${file})
  endforeach()
  set_property(TARGET ${target} PROPERTY C_LINKER_LAUNCHER ${launcher})
  set_property(TARGET ${target} PROPERTY CXX_LINKER_LAUNCHER ${launcher})
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${depends} ${respec_command})
endfunction()

# CPConvert.cmake: cpconvert as a pre-build step of a CMake project.
#
# Included by the top-level CMakeLists.txt of cpconvert itself and installed with the tool
# (find_package(CPConvert) loads it). It defines:
#
#   cpconvert_sources(<out_var> SOURCES a.cu [b.cu ...] [TARGET tgt] [OPTIONS opt ...]
#                     [SUFFIX _cp] [OUTPUT_DIR dir])
#       For each source, a custom command that writes <OUTPUT_DIR>/<name><SUFFIX>.cu with
#       `cpconvert SRC -o OUT -MD -MF OUT.d OPTIONS...`; <out_var> receives the list of
#       generated files, to be added to a target as its sources. OUTPUT_DIR defaults to
#       ${CPCONVERT_OUTPUT_DIR} if that is set, else ${CMAKE_CURRENT_BINARY_DIR}/cpconvert;
#       SUFFIX defaults to _cp. Relative sources are taken from the current source
#       directory. The dependency file makes an edited header re-convert the sources that
#       include it (CMake >= 3.20, or the Ninja generator; older Makefile generators scan
#       the #includes themselves). The generated files get the source's own directory on
#       their include path, so `#include "local.h"` still finds the header beside it (a
#       source-file property: add the files to a target of the same directory).
#       The parser sees the include directories and compile definitions the build uses:
#       those of TARGET (the target the generated files are added to; it may be defined
#       after this call), else those of the current directory as they are at this call.
#       OPTIONS are passed to cpconvert after them, unchanged: give -I with absolute paths
#       (the command runs in the build directory).
#       Output names are unique in a build, because the folder of converted files below is
#       flat: converting one source twice (say with other OPTIONS) needs another SUFFIX, and
#       two equal names stop configuring.
#
#   CPConvert::runtime
#       INTERFACE target: the include directory of the composite-precision runtime
#       (<cp/cp.cuh>, which the generated files include) and the flag that keeps host
#       compilers from contracting its error-free transformations into FMAs.
#
#   cpconvert_converted (custom target, not built by default)
#       Runs every conversion of the build, compiles nothing, and copies the generated
#       files into one folder, ${CPCONVERT_CONVERTED_EXPORT_DIR} (default
#       ${CMAKE_BINARY_DIR}/cpconvert-converted). Carry that folder to a machine without
#       libclang and configure there with -DCPCONVERT_CONVERTED_DIR=<folder>.
#
# Which cpconvert runs, first match wins:
#   1. the target `cpconvert` of the same build (cpconvert's own tree): editing the tool
#      re-converts;
#   2. the cache variable CPCONVERT_EXECUTABLE, when set to a path;
#   3. the imported target CPConvert::cpconvert, which find_package(CPConvert) defines
#      when the installed package has the tool;
#   4. none: if CPCONVERT_CONVERTED_DIR is set, no command runs and the pre-converted
#      ${CPCONVERT_CONVERTED_DIR}/<name><SUFFIX>.cu files are used as they are;
#   5. otherwise configuring stops with an error that names these choices.
# cpconvert_sources decides when it is called: call it after the tool target exists.
if(CMAKE_VERSION VERSION_LESS 3.14)
  message(FATAL_ERROR "CPConvert.cmake needs CMake 3.14 or newer (3.20 for dependency files "
                      "under the Makefile generators), this is ${CMAKE_VERSION}")
endif()
include_guard(DIRECTORY) # once per directory and below: imported targets are directory-scoped
if(POLICY CMP0116) # dependency files of custom commands: the same under every generator
  cmake_policy(SET CMP0116 NEW)
endif()

set(CPCONVERT_EXECUTABLE "" CACHE FILEPATH
    "cpconvert to run for cpconvert_sources (empty: the build's own or the package's)")
set(CPCONVERT_CONVERTED_DIR "" CACHE PATH
    "Folder of files converted elsewhere, used by cpconvert_sources when no cpconvert is available")
set(CPCONVERT_CONVERTED_EXPORT_DIR "${CMAKE_BINARY_DIR}/cpconvert-converted" CACHE PATH
    "Where the target cpconvert_converted collects the generated files")

# CPConvert::runtime: the build's own runtime target, else the installed headers (the
# package config names their folder), else the runtime of the source tree beside this file.
if(NOT TARGET CPConvert::runtime)
  if(TARGET cp_runtime)
    add_library(CPConvert::runtime ALIAS cp_runtime)
  else()
    set(_cpconvert_include "${_CPCONVERT_RUNTIME_INCLUDE_DIR}")
    if(NOT _cpconvert_include)
      get_filename_component(_cpconvert_include "${CMAKE_CURRENT_LIST_DIR}/../runtime/include" ABSOLUTE)
    endif()
    if(NOT EXISTS "${_cpconvert_include}/cp/cp.cuh")
      message(FATAL_ERROR "CPConvert: the runtime headers are not in ${_cpconvert_include}/cp")
    endif()
    add_library(CPConvert::runtime INTERFACE IMPORTED)
    set_target_properties(CPConvert::runtime PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${_cpconvert_include}"
      INTERFACE_COMPILE_OPTIONS
        "$<$<COMPILE_LANGUAGE:C,CXX>:-ffp-contract=off>;$<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-ffp-contract=off>")
    unset(_cpconvert_include)
  endif()
endif()

# The command that runs cpconvert and what it depends on, or nothing (pre-converted).
function(_cpconvert_tool out_cmd out_dep)
  if(TARGET cpconvert)
    set(${out_cmd} cpconvert PARENT_SCOPE)
    set(${out_dep} cpconvert PARENT_SCOPE)
  elseif(CPCONVERT_EXECUTABLE)
    set(${out_cmd} "${CPCONVERT_EXECUTABLE}" PARENT_SCOPE)
    set(${out_dep} "${CPCONVERT_EXECUTABLE}" PARENT_SCOPE)
  elseif(TARGET CPConvert::cpconvert)
    set(${out_cmd} CPConvert::cpconvert PARENT_SCOPE)
    set(${out_dep} "$<TARGET_FILE:CPConvert::cpconvert>" PARENT_SCOPE)
  else()
    set(${out_cmd} "" PARENT_SCOPE)
    set(${out_dep} "" PARENT_SCOPE)
  endif()
endfunction()

# The -I and -D flags the build compiles with: TARGET's, through generator expressions
# (evaluated when the build is generated, so the target may come later), else the current
# directory's properties now. Without them the parser could take another #if branch than
# the compiler does.
function(_cpconvert_build_flags out_var tgt)
  if(tgt)
    set(inc "$<TARGET_PROPERTY:${tgt},INCLUDE_DIRECTORIES>")
    set(def "$<TARGET_PROPERTY:${tgt},COMPILE_DEFINITIONS>")
    set(${out_var} "$<$<BOOL:${inc}>:-I$<JOIN:${inc},$<SEMICOLON>-I>>"
                   "$<$<BOOL:${def}>:-D$<JOIN:${def},$<SEMICOLON>-D>>" PARENT_SCOPE)
    return()
  endif()
  get_directory_property(incs INCLUDE_DIRECTORIES)
  get_directory_property(defs COMPILE_DEFINITIONS)
  set(flags)
  foreach(i IN LISTS incs)
    list(APPEND flags "-I${i}")
  endforeach()
  foreach(d IN LISTS defs)
    list(APPEND flags "-D${d}")
  endforeach()
  set(${out_var} ${flags} PARENT_SCOPE)
endfunction()

# The custom command's dependency on the headers a source includes.
function(_cpconvert_depends_args out_var depfile src)
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.20 OR CMAKE_GENERATOR MATCHES "Ninja")
    set(${out_var} DEPFILE "${depfile}" PARENT_SCOPE)
  elseif(CMAKE_GENERATOR MATCHES "Make")
    set(${out_var} IMPLICIT_DEPENDS CXX "${src}" PARENT_SCOPE)
  else()
    set(${out_var} "" PARENT_SCOPE) # only the source itself is tracked
  endif()
endfunction()

# Every generated file under one name: two sources that would land on the same name in the
# export folder are refused at configure time rather than overwriting each other there.
function(_cpconvert_register out)
  get_filename_component(name "${out}" NAME)
  get_property(seen GLOBAL PROPERTY _CPCONVERT_NAME_${name})
  if(seen AND NOT seen STREQUAL out)
    message(FATAL_ERROR "cpconvert_sources: ${out} and ${seen} have the same name; "
                        "give one of them another SUFFIX or rename a source")
  endif()
  set_property(GLOBAL PROPERTY _CPCONVERT_NAME_${name} "${out}")
endfunction()

# The target that runs these conversions without compiling, under cpconvert_converted.
function(_cpconvert_export_target outs)
  get_property(count GLOBAL PROPERTY _CPCONVERT_COUNT) # (not `n`: if() reads N as false)
  if(NOT count)
    set(count 0)
  endif()
  math(EXPR count "${count} + 1")
  set_property(GLOBAL PROPERTY _CPCONVERT_COUNT ${count})
  add_custom_target(_cpconvert_sources_${count}
    COMMAND ${CMAKE_COMMAND} -E make_directory "${CPCONVERT_CONVERTED_EXPORT_DIR}"
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${outs} "${CPCONVERT_CONVERTED_EXPORT_DIR}"
    DEPENDS ${outs} VERBATIM)
  if(NOT TARGET cpconvert_converted)
    add_custom_target(cpconvert_converted)
  endif()
  add_dependencies(cpconvert_converted _cpconvert_sources_${count})
endfunction()

function(cpconvert_sources out_var)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SUFFIX;OUTPUT_DIR;TARGET" "SOURCES;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "cpconvert_sources: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "cpconvert_sources: no SOURCES given")
  endif()
  if(NOT DEFINED arg_SUFFIX)
    set(arg_SUFFIX _cp)
  endif()
  if(NOT arg_OUTPUT_DIR)
    if(CPCONVERT_OUTPUT_DIR)
      set(arg_OUTPUT_DIR "${CPCONVERT_OUTPUT_DIR}")
    else()
      set(arg_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/cpconvert")
    endif()
  endif()
  get_filename_component(dir "${arg_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  _cpconvert_tool(tool tool_dep)
  if(NOT tool AND NOT CPCONVERT_CONVERTED_DIR)
    message(FATAL_ERROR
      "cpconvert_sources: no cpconvert to run. Build it in the same project (target "
      "cpconvert), find_package(CPConvert) from an install that has bin/cpconvert, set "
      "-DCPCONVERT_EXECUTABLE=/path/to/cpconvert, or, on a machine without libclang, point "
      "-DCPCONVERT_CONVERTED_DIR at a folder of files converted elsewhere (the target "
      "cpconvert_converted of a configured build collects them)")
  endif()
  if(tool)
    file(MAKE_DIRECTORY "${dir}") # -MF needs the folder to exist
  endif()
  _cpconvert_build_flags(build_flags "${arg_TARGET}")
  set(outs)
  foreach(src IN LISTS arg_SOURCES)
    get_filename_component(src "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(name "${src}" NAME_WLE)
    get_filename_component(src_dir "${src}" DIRECTORY)
    if(NOT tool)
      set(out "${CPCONVERT_CONVERTED_DIR}/${name}${arg_SUFFIX}.cu")
      if(NOT EXISTS "${out}")
        message(FATAL_ERROR "cpconvert_sources: no cpconvert to run and ${out} (the "
                            "pre-converted ${src}) does not exist")
      endif()
    else()
      set(out "${dir}/${name}${arg_SUFFIX}.cu")
      _cpconvert_register("${out}")
      _cpconvert_depends_args(dep_args "${out}.d" "${src}")
      add_custom_command(OUTPUT "${out}"
        COMMAND ${tool} "${src}" -o "${out}" -MD -MF "${out}.d" ${build_flags} ${arg_OPTIONS}
        DEPENDS "${src}" ${tool_dep}
        ${dep_args}
        COMMENT "cpconvert ${name}${arg_SUFFIX}.cu"
        VERBATIM COMMAND_EXPAND_LISTS)
    endif()
    set_property(SOURCE "${out}" APPEND PROPERTY INCLUDE_DIRECTORIES "${src_dir}")
    list(APPEND outs "${out}")
  endforeach()
  if(tool)
    _cpconvert_export_target("${outs}")
  endif()
  set(${out_var} ${outs} PARENT_SCOPE)
endfunction()

# CPConvertTarget.cmake: cpconvert_target, included by CPConvert.cmake (which documents it).
#
# cpconvert_target(<new> FROM <float> ...): <new>, a target of <float>'s type built from
# its sources, the CUDA ones converted, and its properties as they are at the call.
set(_CPCONVERT_TARGET_LISTS INCLUDE_DIRECTORIES COMPILE_DEFINITIONS COMPILE_OPTIONS
    COMPILE_FEATURES LINK_LIBRARIES LINK_OPTIONS LINK_DIRECTORIES
    INTERFACE_INCLUDE_DIRECTORIES INTERFACE_SYSTEM_INCLUDE_DIRECTORIES
    INTERFACE_COMPILE_DEFINITIONS INTERFACE_COMPILE_OPTIONS INTERFACE_COMPILE_FEATURES
    INTERFACE_LINK_LIBRARIES INTERFACE_LINK_OPTIONS INTERFACE_LINK_DIRECTORIES)
set(_CPCONVERT_TARGET_VALUES CUDA_ARCHITECTURES CUDA_SEPARABLE_COMPILATION
    CUDA_RESOLVE_DEVICE_SYMBOLS CUDA_RUNTIME_LIBRARY CUDA_STANDARD CUDA_STANDARD_REQUIRED
    CUDA_EXTENSIONS CXX_STANDARD CXX_STANDARD_REQUIRED CXX_EXTENSIONS C_STANDARD
    C_STANDARD_REQUIRED C_EXTENSIONS POSITION_INDEPENDENT_CODE LINKER_LANGUAGE
    RUNTIME_OUTPUT_DIRECTORY LIBRARY_OUTPUT_DIRECTORY ARCHIVE_OUTPUT_DIRECTORY
    EXCLUDE_FROM_ALL)

function(cpconvert_target new)
  cmake_parse_arguments(PARSE_ARGV 1 _t "TOGETHER" "FROM;SUFFIX;OUTPUT_DIR"
                        "SOURCES;HEADERS;OPTIONS")
  if(_t_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "cpconvert_target: unknown arguments: ${_t_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT _t_FROM)
    message(FATAL_ERROR "cpconvert_target(${new}): no FROM <target> given")
  endif()
  if(NOT TARGET "${_t_FROM}")
    message(FATAL_ERROR "cpconvert_target(${new}): ${_t_FROM} is not a target (define it "
                        "before the call)")
  endif()
  get_target_property(from "${_t_FROM}" ALIASED_TARGET)
  if(NOT from)
    set(from "${_t_FROM}")
  endif()
  get_target_property(type "${from}" TYPE)
  get_target_property(imported "${from}" IMPORTED)
  if(imported OR NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
    message(FATAL_ERROR "cpconvert_target(${new}): ${_t_FROM} is an imported or ${type} "
                        "target; FROM takes a target this project compiles")
  endif()
  # Its sources, absolute (relative ones are relative to its folder, or its build folder
  # when generated there); generator expressions ($<TARGET_OBJECTS:...>) are kept as they are.
  get_target_property(from_dir "${from}" SOURCE_DIR)
  get_target_property(from_bin "${from}" BINARY_DIR)
  get_target_property(sources "${from}" SOURCES)
  set(kept)
  set(cuda)
  foreach(s IN LISTS sources)
    if(s MATCHES "\\$<")
      list(APPEND kept "${s}")
      continue()
    endif()
    get_filename_component(abs "${s}" ABSOLUTE BASE_DIR "${from_dir}")
    if(NOT EXISTS "${abs}" AND NOT IS_ABSOLUTE "${s}")
      get_filename_component(abs "${s}" ABSOLUTE BASE_DIR "${from_bin}")
    endif()
    list(APPEND kept "${abs}")
    if(abs MATCHES "\\.cu$")
      list(APPEND cuda "${abs}")
    endif()
  endforeach()
  # The sources to convert: SOURCES, else every CUDA source (TOGETHER: a file that allocates
  # the buffers of an annotated kernel is converted too), else each holding `#pragma cp`.
  set(convert)
  if(_t_SOURCES)
    foreach(s IN LISTS _t_SOURCES)
      get_filename_component(abs "${s}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      if(NOT abs IN_LIST kept)
        message(FATAL_ERROR "cpconvert_target(${new}): ${s} is not a source of ${_t_FROM}")
      endif()
      list(APPEND convert "${abs}")
    endforeach()
  elseif(_t_TOGETHER)
    set(convert ${cuda})
  else()
    foreach(s IN LISTS cuda)
      if(EXISTS "${s}")
        file(STRINGS "${s}" pragmas REGEX "^[ \t]*#[ \t]*pragma[ \t]+cp([ \t]|$)" LIMIT_COUNT 1)
        if(pragmas)
          list(APPEND convert "${s}")
        endif()
      endif()
    endforeach()
  endif()
  if(NOT convert)
    message(FATAL_ERROR "cpconvert_target(${new}): ${_t_FROM} has no source to convert "
            "(no .cu source holds a `#pragma cp` line): name them with SOURCES")
  endif()
  list(REMOVE_ITEM kept ${convert})

  if(type STREQUAL "EXECUTABLE")
    add_executable(${new})
  else()
    string(REGEX REPLACE "_LIBRARY$" "" kind "${type}")
    add_library(${new} ${kind})
  endif()
  foreach(p IN LISTS _CPCONVERT_TARGET_LISTS _CPCONVERT_TARGET_VALUES)
    get_property(set TARGET "${from}" PROPERTY ${p} SET)
    if(set)
      get_property(value TARGET "${from}" PROPERTY ${p})
      set_property(TARGET ${new} PROPERTY ${p} "${value}")
    endif()
  endforeach()
  # The converted files include <cp/cp.cuh>; a library's converted headers do too.
  set_property(TARGET ${new} APPEND PROPERTY LINK_LIBRARIES CPConvert::runtime)
  if(NOT type STREQUAL "EXECUTABLE")
    set_property(TARGET ${new} APPEND PROPERTY INTERFACE_LINK_LIBRARIES CPConvert::runtime)
  endif()

  set(args)
  if(_t_TOGETHER)
    list(APPEND args TOGETHER)
  endif()
  foreach(k IN ITEMS SUFFIX OUTPUT_DIR)
    if(DEFINED _t_${k})
      list(APPEND args ${k} "${_t_${k}}")
    endif()
  endforeach()
  if(_t_HEADERS)
    list(APPEND args HEADERS ${_t_HEADERS})
  endif()
  if(_t_OPTIONS)
    list(APPEND args OPTIONS ${_t_OPTIONS})
  endif()
  cpconvert_sources(converted SOURCES ${convert} TARGET ${new} ${args})
  target_sources(${new} PRIVATE ${kept} ${converted})
endfunction()

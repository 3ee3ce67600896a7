# FindLibclang: locates libclang and its C headers (clang-c/Index.h).
#
# The releases cpconvert is tested with, newest first (Libclang_MAJORS): 22, the newest
# Debian 12 ships (bookworm-security), which parses CUDA 13 without workarounds; 16, Debian
# 12's default, kept as a fallback where only it is installed. The first of them found wins,
# so a machine with both builds against 22. Libclang_ROOT / LLVM_ROOT, if given, is taken as
# it is (any release from 16 on; others are untested). For each release it looks at
# `llvm-config-<major>` on PATH, then the Debian and upstream install prefixes
# (/usr/lib/llvm-<major>, /usr/local/opt/llvm@<major>).
# Provides the imported target Libclang::libclang (which defines CP_LIBCLANG_MAJOR for what
# links it), Libclang_VERSION, Libclang_VERSION_MAJOR and Libclang_RESOURCE_DIR (clang's
# own headers, lib/clang/<major>, which the CUDA driver needs named: see rewriter/parse/parse.c).
# find_package(Libclang 16) states the oldest release accepted.
include(FindPackageHandleStandardArgs)

set(Libclang_MAJORS 22 16 CACHE STRING "libclang releases to look for, in order of preference")
mark_as_advanced(Libclang_MAJORS)

set(_libclang_roots)
foreach(_root IN ITEMS "${Libclang_ROOT}" "${LLVM_ROOT}" "$ENV{LLVM_ROOT}")
  if(_root)
    list(APPEND _libclang_roots "${_root}")
  endif()
endforeach()

# Prefixes of one release, most specific first.
function(_libclang_prefixes major out)
  set(_hints)
  find_program(_libclang_llvm_config_${major} NAMES llvm-config-${major})
  mark_as_advanced(_libclang_llvm_config_${major})
  if(_libclang_llvm_config_${major})
    execute_process(COMMAND ${_libclang_llvm_config_${major}} --prefix
                    OUTPUT_VARIABLE _prefix OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    list(APPEND _hints "${_prefix}")
  endif()
  list(APPEND _hints /usr/lib/llvm-${major} /usr/local/opt/llvm@${major})
  set(${out} ${_hints} PARENT_SCOPE)
endfunction()

# The library and headers: under the given root, else the first release in Libclang_MAJORS
# that is installed (both from the same prefix, so headers and library always match).
if(NOT Libclang_LIBRARY)
  if(_libclang_roots)
    find_library(Libclang_LIBRARY NAMES clang libclang HINTS ${_libclang_roots}
                 PATH_SUFFIXES lib NO_DEFAULT_PATH)
  else()
    foreach(_major IN LISTS Libclang_MAJORS)
      _libclang_prefixes(${_major} _hints)
      find_library(Libclang_LIBRARY NAMES clang-${_major} HINTS ${_hints}
                   PATH_SUFFIXES lib NO_DEFAULT_PATH)
      if(Libclang_LIBRARY)
        break()
      endif()
      unset(Libclang_LIBRARY CACHE) # NOTFOUND would stop the next release's search
    endforeach()
  endif()
endif()
if(Libclang_LIBRARY)
  get_filename_component(_libdir "${Libclang_LIBRARY}" DIRECTORY)
  get_filename_component(_prefix "${_libdir}" DIRECTORY)
  find_path(Libclang_INCLUDE_DIR clang-c/Index.h HINTS "${_prefix}" PATH_SUFFIXES include
            NO_DEFAULT_PATH)
endif()

# The version: CINDEX_VERSION_* says the C API level, not the LLVM release, so read the
# release from the library's resource directory (lib/clang/<major>) next to it.
if(Libclang_LIBRARY)
  file(GLOB _resdirs LIST_DIRECTORIES true "${_libdir}/clang/*")
  foreach(_d IN LISTS _resdirs)
    get_filename_component(_v "${_d}" NAME)
    if(_v MATCHES "^[0-9]+(\\.[0-9]+)*$")
      set(Libclang_VERSION "${_v}")
      set(Libclang_RESOURCE_DIR "${_d}")
    endif()
  endforeach()
  string(REGEX MATCH "^[0-9]+" Libclang_VERSION_MAJOR "${Libclang_VERSION}")
endif()

list(GET Libclang_MAJORS 0 _libclang_newest)
list(JOIN Libclang_MAJORS ", " _libclang_wanted)
find_package_handle_standard_args(Libclang
  REQUIRED_VARS Libclang_LIBRARY Libclang_INCLUDE_DIR Libclang_VERSION_MAJOR
  VERSION_VAR Libclang_VERSION
  FAIL_MESSAGE "libclang (${_libclang_wanted}) not found. On Debian 12 run `scripts/setup.sh` (installs libclang-${_libclang_newest}-dev), or point -DLibclang_ROOT at an LLVM install")

if(Libclang_FOUND AND NOT TARGET Libclang::libclang)
  add_library(Libclang::libclang UNKNOWN IMPORTED)
  set_target_properties(Libclang::libclang PROPERTIES
    IMPORTED_LOCATION "${Libclang_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Libclang_INCLUDE_DIR}"
    INTERFACE_COMPILE_DEFINITIONS "CP_LIBCLANG_MAJOR=${Libclang_VERSION_MAJOR}")
endif()
mark_as_advanced(Libclang_INCLUDE_DIR Libclang_LIBRARY)

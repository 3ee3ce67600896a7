# FindLibclang: locates libclang and its C headers (clang-c/Index.h).
#
# Looks in this order: Libclang_ROOT / LLVM_ROOT if given, `llvm-config-16` / `llvm-config`
# on PATH, then the Debian and upstream install prefixes (/usr/lib/llvm-16, /usr/local).
# Provides the imported target Libclang::libclang and Libclang_VERSION.
# Set the version you need with find_package(Libclang 16).
include(FindPackageHandleStandardArgs)

set(_libclang_hints)
foreach(_root IN ITEMS "${Libclang_ROOT}" "${LLVM_ROOT}" "$ENV{LLVM_ROOT}")
  if(_root)
    list(APPEND _libclang_hints "${_root}")
  endif()
endforeach()
set(_libclang_major 16)
if(Libclang_FIND_VERSION_MAJOR)
  set(_libclang_major ${Libclang_FIND_VERSION_MAJOR})
endif()
find_program(_libclang_llvm_config NAMES llvm-config-${_libclang_major} llvm-config)
if(_libclang_llvm_config)
  execute_process(COMMAND ${_libclang_llvm_config} --prefix
                  OUTPUT_VARIABLE _prefix OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  list(APPEND _libclang_hints "${_prefix}")
endif()
list(APPEND _libclang_hints /usr/lib/llvm-${_libclang_major} /usr/local/opt/llvm@${_libclang_major} /usr/local)

find_path(Libclang_INCLUDE_DIR clang-c/Index.h HINTS ${_libclang_hints} PATH_SUFFIXES include NO_DEFAULT_PATH)
find_library(Libclang_LIBRARY NAMES clang-${_libclang_major} clang libclang HINTS ${_libclang_hints}
             PATH_SUFFIXES lib NO_DEFAULT_PATH)

# The version: CINDEX_VERSION_* says the C API level, not the LLVM release, so read the
# release from the library's resource directory (lib/clang/<major>) next to it.
if(Libclang_LIBRARY)
  get_filename_component(_libdir "${Libclang_LIBRARY}" DIRECTORY)
  file(GLOB _resdirs LIST_DIRECTORIES true "${_libdir}/clang/*")
  foreach(_d IN LISTS _resdirs)
    get_filename_component(_v "${_d}" NAME)
    if(_v MATCHES "^[0-9]+(\\.[0-9]+)*$")
      set(Libclang_VERSION "${_v}")
    endif()
  endforeach()
endif()

find_package_handle_standard_args(Libclang
  REQUIRED_VARS Libclang_LIBRARY Libclang_INCLUDE_DIR
  VERSION_VAR Libclang_VERSION
  FAIL_MESSAGE "libclang ${_libclang_major} not found. On Debian 12 run `scripts/setup.sh` (installs libclang-${_libclang_major}-dev), or point -DLibclang_ROOT at an LLVM ${_libclang_major} install")

if(Libclang_FOUND AND NOT TARGET Libclang::libclang)
  add_library(Libclang::libclang UNKNOWN IMPORTED)
  set_target_properties(Libclang::libclang PROPERTIES
    IMPORTED_LOCATION "${Libclang_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${Libclang_INCLUDE_DIR}")
endif()
mark_as_advanced(Libclang_INCLUDE_DIR Libclang_LIBRARY _libclang_llvm_config)

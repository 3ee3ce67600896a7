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
#       The parser sees the flags the build compiles with, after `--` (cpconvert drops
#       nvcc's options that do not change parsing): with TARGET (the target the generated
#       files are added to; it may be defined after this call) and CMake 3.19 or newer, its
#       CUDA compiles' CMAKE_CUDA_FLAGS[_<CONFIG>], standard (CUDA_STANDARD, else
#       CXX_STANDARD, raised by cuda_std_NN features), compile definitions, include
#       directories and compile options, usage requirements of its libraries included and
#       generator expressions evaluated for CUDA, from a response file written at generation
#       (CMakeFiles/cpconvert/<name>[-<config>]-CUDA.flags; a single quote inside an item is
#       not supported, a SHELL: option is split from CMake 3.27 and left out before);
#       without TARGET, the current directory's, as they are at this call. Where the project
#       does not enable CUDA, only the include directories and definitions. OPTIONS are
#       passed to cpconvert unchanged, those after an `--` in them after the build's flags:
#       give -I with absolute paths (the command runs in the build directory).
#       The sources and the generated files get -Xcompiler=-Wno-unknown-pragmas (nvcc;
#       -Wno-unknown-pragmas for clang and C++), so that -Wall -Werror builds take the pragma.
#       Output names are unique in a build, because the folder of converted files below is
#       flat: converting one source twice (say with other OPTIONS) needs another SUFFIX, and
#       two equal names stop configuring.
#
#   cpconvert_sources(<out_var> TOGETHER SOURCES a.cu [b.cu ...] [HEADERS h.h ...]
#                     [TARGET tgt] [OPTIONS opt ...] [OUTPUT_DIR dir])
#       One custom command that converts every source in one run (`cpconvert a.cu b.cu
#       --o-dir DIR -MF DEP`), as a code needs whose buffers are allocated in one file and
#       launched in another, or whose struct of device pointers lives in a header. The
#       outputs keep their names and the layout they have below the deepest directory that
#       holds every source and header (main.cu and inc/atoms.h -> DIR/main.cu,
#       DIR/inc/atoms.h). HEADERS lists the headers the run writes (those that gain
#       companion fields or declarations, and the headers between them and a source): they
#       are outputs of the command too, so that a deleted one is written again. After each
#       run the outputs cpconvert wrote are compared with those declared, and a difference
#       stops the build with a message that names the header to add to or drop from
#       HEADERS. One dependency file names every input and header for every output (a
#       change in any of them can change every output, since the run shares one analysis).
#       <out_var> receives the converted sources and headers; the generated sources get
#       their source's folder on the include path. SUFFIX is refused: --o-dir keeps names.
#       Each TOGETHER conversion has a name, unique in the build: TARGET, else the first
#       source's stem and a hash of its files. DIR is OUTPUT_DIR if given, else
#       ${CMAKE_CURRENT_BINARY_DIR}/cpconvert/<name> (two targets may convert the same
#       files); DIR/.cpconvert-<name>.{d,outputs,stamp} are its dependency file, declared
#       outputs and stamp (the first output, touched by each run: Make then converts once
#       after a touch that leaves the outputs' bytes unchanged). Without a cpconvert to run
#       the files are taken from ${CPCONVERT_CONVERTED_DIR}/<name> at the same relative
#       paths, where cpconvert_converted collects them; the converted headers' folders go
#       first on TARGET's include path either way.
#
#   cpconvert_target(<new> FROM <float_target> [TOGETHER] [SOURCES a.cu ...]
#                    [HEADERS h.h ...] [OPTIONS opt ...] [SUFFIX _cp] [OUTPUT_DIR dir])
#       (CPConvertTarget.cmake) A target <new> of <float_target>'s type (executable, or
#       static, shared, module or object library) from its sources, the CUDA ones converted
#       by cpconvert_sources(... TARGET <new>), with its properties as they are at the call:
#       include directories, compile definitions, options and features, link libraries,
#       options and directories, their INTERFACE_ forms, CUDA_ARCHITECTURES,
#       CUDA_SEPARABLE_COMPILATION, CUDA_RESOLVE_DEVICE_SYMBOLS, CUDA_RUNTIME_LIBRARY, the
#       CUDA, CXX and C standards and extensions, POSITION_INDEPENDENT_CODE,
#       LINKER_LANGUAGE, the output directories and EXCLUDE_FROM_ALL, a linked library
#       that an earlier call derived a target from replaced by that target; it links
#       CPConvert::runtime (a library also for its users). The sources converted: SOURCES
#       (each one of <float_target>'s), else with TOGETHER every .cu source, else each .cu
#       source holding a `#pragma cp` line when CMake configures. Relative sources of
#       <float_target> are taken from its folder; generator expressions are kept. The other
#       arguments go to cpconvert_sources. Source-file properties are not carried over.
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

# Script mode (cmake -DCPCONVERT_CHECK_DEPFILE=DEP -DCPCONVERT_CHECK_OUTPUTS=LIST
# -DCPCONVERT_CHECK_STAMP=STAMP -P this file), run after each TOGETHER conversion: the
# outputs cpconvert wrote, the targets of the -MF file's rules (a header's empty rule has no
# prerequisites), against the declared ones. Then the stamp, the command's first output,
# gets a rule of its own in DEP with the first output's prerequisites (every input and
# header): Ninja wants the first output in the file, and Make reads its dependencies there.
if(CMAKE_SCRIPT_MODE_FILE AND DEFINED CPCONVERT_CHECK_DEPFILE)
  cmake_policy(VERSION 3.14)
  file(READ "${CPCONVERT_CHECK_DEPFILE}" _text)
  string(REPLACE "\\\n" " " _text "${_text}") # one line per rule
  string(REGEX MATCHALL "[^\n]+: [^\n]*" _lines "${_text}")
  file(STRINGS "${CPCONVERT_CHECK_OUTPUTS}" _declared)
  set(_written)
  set(_undeclared)
  foreach(_line IN LISTS _lines)
    string(REGEX REPLACE "^([^:]+): .*$" "\\1" _target "${_line}")
    string(REPLACE "\\ " " " _target "${_target}")
    string(REPLACE "\\#" "#" _target "${_target}")
    string(REPLACE "$$" "$" _target "${_target}")
    list(APPEND _written "${_target}")
    if(NOT _target IN_LIST _declared)
      list(APPEND _undeclared "${_target}")
    endif()
  endforeach()
  # A header missing from HEADERS is the cause; the sources then land elsewhere too (the
  # layout's base directory moves up to hold the header).
  set(_headers "${_undeclared}")
  list(FILTER _headers INCLUDE REGEX "\\.(h|hh|hpp|hxx|cuh|inl)$")
  if(_headers)
    list(GET _headers 0 _target)
    get_filename_component(_name "${_target}" NAME)
    message(FATAL_ERROR "cpconvert_sources: the conversion also wrote ${_target}, which is "
            "not declared: add ${_name} to HEADERS")
  elseif(_undeclared)
    list(GET _undeclared 0 _target)
    message(FATAL_ERROR "cpconvert_sources: the conversion wrote ${_target}, which is not "
            "declared: a header it wrote lies outside the folders of the declared files")
  endif()
  foreach(_out IN LISTS _declared)
    if(NOT _out IN_LIST _written)
      message(FATAL_ERROR "cpconvert_sources: the conversion did not write ${_out} (its "
              "header gains no companions): drop it from HEADERS")
    endif()
  endforeach()
  if(DEFINED CPCONVERT_CHECK_STAMP AND _lines)
    string(REPLACE "$" "$$" _stamp "${CPCONVERT_CHECK_STAMP}")
    string(REGEX REPLACE "([ #])" "\\\\\\1" _stamp "${_stamp}")
    list(GET _lines 0 _first)
    string(REGEX REPLACE "^[^:]+: " "" _prereqs "${_first}")
    file(READ "${CPCONVERT_CHECK_DEPFILE}" _text)
    file(WRITE "${CPCONVERT_CHECK_DEPFILE}" "${_stamp}: ${_prereqs}\n${_text}")
  endif()
  return()
endif()

if(CMAKE_VERSION VERSION_LESS 3.14)
  message(FATAL_ERROR "CPConvert.cmake needs CMake 3.14 or newer (3.20 for dependency files "
                      "under the Makefile generators), this is ${CMAKE_VERSION}")
endif()
include_guard(DIRECTORY) # once per directory and below: imported targets are directory-scoped
if(POLICY CMP0116) # dependency files of custom commands: the same under every generator
  cmake_policy(SET CMP0116 NEW)
endif()

set(_CPCONVERT_MODULE "${CMAKE_CURRENT_LIST_FILE}") # for the check after TOGETHER runs
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

# `#pragma cp composite` is unknown to the host compiler, which warns once per pragma under
# -Wall (gcc's -Wunknown-pragmas; nvcc's own front end says nothing): the annotated sources
# and the converted ones (which keep the pragmas) get the flag that silences it, so that a
# build with -Werror stays green. GCC before 13 cannot silence it from inside the file.
function(_cpconvert_quiet_pragmas)
  set(opts
    "$<$<AND:$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>,$<NOT:$<PLATFORM_ID:Windows>>>:-Xcompiler=-Wno-unknown-pragmas>"
    "$<$<COMPILE_LANG_AND_ID:CUDA,Clang>:-Wno-unknown-pragmas>"
    "$<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang,IntelLLVM>:-Wno-unknown-pragmas>")
  foreach(f IN LISTS ARGN)
    if(f MATCHES "\\.(cu|cpp|cc|cxx|C)$")
      set_property(SOURCE "${f}" APPEND PROPERTY COMPILE_OPTIONS ${opts})
    endif()
  endforeach()
endfunction()

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

# The language whose flags the parser gets: CUDA where the project enables it (nvcc's
# options, which cpconvert reads after `--`), else none (a host compiler's flags are not
# all clang's): then only the include directories and definitions reach the parser.
function(_cpconvert_language out_var)
  get_property(langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if("CUDA" IN_LIST langs)
    set(${out_var} CUDA PARENT_SCOPE)
  else()
    set(${out_var} "" PARENT_SCOPE)
  endif()
endfunction()

# CMAKE_<lang>_FLAGS and CMAKE_<lang>_FLAGS_<CONFIG> of the current directory, as the build
# passes them, in the text of a response file (the build's own shell syntax; the
# configuration's behind $<CONFIG:...>).
function(_cpconvert_lang_flags_text out_var lang)
  set(text "${CMAKE_${lang}_FLAGS}\n")
  set(seen)
  foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES CMAKE_BUILD_TYPE ITEMS Debug Release
                          RelWithDebInfo MinSizeRel)
    string(TOUPPER "${config}" upper)
    if(upper STREQUAL "" OR upper IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${upper}")
    set(flags "${CMAKE_${lang}_FLAGS_${upper}}")
    if(NOT flags STREQUAL "")
      string(REPLACE ">" "$<ANGLE-R>" flags "${flags}")
      string(APPEND text "$<$<CONFIG:${config}>:${flags}>\n")
    endif()
  endforeach()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# The -std=c++NN of `tgt`'s <lang> compiles, as CMake chooses it: <lang>_STANDARD (CUDA
# falls back on CXX_STANDARD), raised by the <lang>_std_NN compile features, else the
# compiler's default; a level the compiler does not support decays to the highest one below
# it. Levels before C++11 are left to the parser's default.
function(_cpconvert_std_genex out_var tgt lang)
  string(TOLOWER "${lang}" prefix)
  set(std "$<TARGET_PROPERTY:${tgt},${lang}_STANDARD>")
  if(lang STREQUAL "CUDA")
    set(std "$<IF:$<BOOL:${std}>,${std},$<TARGET_PROPERTY:${tgt},CXX_STANDARD>>")
  endif()
  set(features "$<TARGET_PROPERTY:${tgt},COMPILE_FEATURES>")
  set(supported)
  foreach(f IN LISTS CMAKE_${lang}_COMPILE_FEATURES)
    if(f MATCHES "^${prefix}_std_([0-9]+)$" AND CMAKE_MATCH_1 GREATER_EQUAL 11
       AND CMAKE_MATCH_1 LESS 98)
      list(APPEND supported ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set(default "${CMAKE_${lang}_STANDARD_COMPUTED_DEFAULT}")
  set(result "")
  foreach(level IN LISTS supported) # ascending: the outermost test is the highest level
    set(terms "$<VERSION_GREATER_EQUAL:${std},${level}>")
    foreach(at_least IN ITEMS 11 14 17 20 23 26)
      if(at_least GREATER_EQUAL level)
        list(APPEND terms "$<IN_LIST:${prefix}_std_${at_least},${features}>")
      endif()
    endforeach()
    if(default MATCHES "^[0-9]+$" AND default LESS 98 AND default GREATER_EQUAL level)
      list(APPEND terms "$<NOT:$<BOOL:${std}>>")
    endif()
    list(JOIN terms "," terms)
    set(result "$<IF:$<OR:${terms}>,-std=c++${level},${result}>")
  endforeach()
  set(${out_var} "${result}" PARENT_SCOPE)
endfunction()

# Writes (when the build is generated) the response file `file` (the language in its name:
# CMAKE_CURRENT_BINARY_DIR/CMakeFiles/cpconvert/<name>[-<config>]-<lang>.flags) with the
# flags `tgt` compiles with: CMAKE_<lang>_FLAGS[_<CONFIG>] of the directory, the standard,
# then its compile definitions, include directories (but those under `skip`) and compile
# options, usage requirements of its libraries included, generator expressions evaluated for
# the language (a `$<$<COMPILE_LANGUAGE:CUDA>:-DX>` counts). Each item is quoted; an option
# with a single quote in it is not supported. A `SHELL:` option is split (CMake 3.27 or
# newer; before, it is left out). Called deferred, so the directory's variables are final.
function(_cpconvert_write_flags file tgt lang skip)
  _cpconvert_lang_flags_text(text ${lang})
  _cpconvert_std_genex(std "${tgt}" ${lang})
  set(inc "$<FILTER:$<TARGET_PROPERTY:${tgt},INCLUDE_DIRECTORIES>,INCLUDE,.>")
  if(skip)
    string(REGEX REPLACE "([][+.*()^$?|\\{}])" "\\\\\\1" re "${skip}")
    set(inc "$<FILTER:${inc},EXCLUDE,^${re}(/|$)>")
  endif()
  set(def "$<FILTER:$<TARGET_PROPERTY:${tgt},COMPILE_DEFINITIONS>,INCLUDE,.>")
  set(opt "$<FILTER:$<TARGET_PROPERTY:${tgt},COMPILE_OPTIONS>,INCLUDE,.>")
  set(plain "$<FILTER:${opt},EXCLUDE,^SHELL:>")
  string(APPEND text "${std}\n"
    "$<$<BOOL:${def}>:'-D$<JOIN:${def},'\n'-D>'\n>"
    "$<$<BOOL:${inc}>:'-I$<JOIN:${inc},'\n'-I>'\n>"
    "$<$<BOOL:${plain}>:'$<JOIN:${plain},'\n'>'\n>")
  if(NOT CMAKE_VERSION VERSION_LESS 3.27)
    string(APPEND text "$<JOIN:$<LIST:TRANSFORM,$<FILTER:${opt},INCLUDE,^SHELL:>,REPLACE,^SHELL:,>,\n>\n")
  endif()
  file(GENERATE OUTPUT "${file}" CONTENT "${text}" TARGET "${tgt}")
endfunction()

# The flags the build compiles with, for the parser (after `--`), so that it takes the
# #if branches the compiler takes, and the files the command then depends on:
#   - with TARGET (CMake 3.19 or newer): a response file of everything `tgt`'s CUDA
#     compiles get (_cpconvert_write_flags), written when the build is generated (the
#     target may be defined after the call, and CMAKE_CUDA_FLAGS set later in the
#     directory);
#   - without: the current directory's compile definitions, include directories and compile
#     options, CMAKE_CUDA_FLAGS[_<CONFIG>] and CMAKE_CUDA_STANDARD, as they are now;
#   - where the project does not enable CUDA (or, with TARGET, on CMake older than 3.19):
#     only the include directories and compile definitions, of TARGET or the directory.
# The include directories under `skip` (the folder of converted files, which TOGETHER puts
# first on TARGET's path) are left out: the parser reads the inputs. `name` names the
# response file.
function(_cpconvert_build_flags out_var out_deps tgt skip name)
  _cpconvert_language(lang)
  if(tgt AND lang AND NOT CMAKE_VERSION VERSION_LESS 3.19)
    set(stem "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/cpconvert/${name}$<$<BOOL:$<CONFIG>>:-$<CONFIG>>")
    set(args "[[${stem}-$<COMPILE_LANGUAGE>.flags]] [[${tgt}]] ${lang} [[${skip}]]")
    cmake_language(EVAL CODE "cmake_language(DEFER CALL _cpconvert_write_flags ${args})")
    set(${out_var} "@${stem}-${lang}.flags" PARENT_SCOPE)
    set(${out_deps} "${stem}-${lang}.flags" PARENT_SCOPE)
    return()
  endif()
  set(${out_deps} "" PARENT_SCOPE)
  if(tgt)
    set(inc "$<TARGET_PROPERTY:${tgt},INCLUDE_DIRECTORIES>")
    if(skip AND NOT CMAKE_VERSION VERSION_LESS 3.19)
      string(REGEX REPLACE "([][+.*()^$?|\\{}])" "\\\\\\1" re "${skip}")
      set(inc "$<FILTER:${inc},EXCLUDE,^${re}(/|$)>")
    endif()
    set(def "$<TARGET_PROPERTY:${tgt},COMPILE_DEFINITIONS>")
    set(${out_var} "$<$<BOOL:${inc}>:-I$<JOIN:${inc},$<SEMICOLON>-I>>"
                   "$<$<BOOL:${def}>:-D$<JOIN:${def},$<SEMICOLON>-D>>" PARENT_SCOPE)
    return()
  endif()
  set(flags)
  if(lang)
    separate_arguments(flags UNIX_COMMAND "${CMAKE_${lang}_FLAGS}")
    set(seen)
    foreach(config IN LISTS CMAKE_CONFIGURATION_TYPES CMAKE_BUILD_TYPE ITEMS Debug Release
                            RelWithDebInfo MinSizeRel)
      string(TOUPPER "${config}" upper)
      if(upper STREQUAL "" OR upper IN_LIST seen)
        continue()
      endif()
      list(APPEND seen "${upper}")
      separate_arguments(parts UNIX_COMMAND "${CMAKE_${lang}_FLAGS_${upper}}")
      if(parts)
        string(REPLACE ">" "$<ANGLE-R>" parts "${parts}")
        string(REPLACE "," "$<COMMA>" parts "${parts}")
        list(JOIN parts "$<SEMICOLON>" parts)
        list(APPEND flags "$<$<CONFIG:${config}>:${parts}>")
      endif()
    endforeach()
    if(CMAKE_${lang}_STANDARD MATCHES "^[0-9]+$" AND CMAKE_${lang}_STANDARD LESS 98
       AND CMAKE_${lang}_STANDARD GREATER_EQUAL 11)
      list(APPEND flags "-std=c++${CMAKE_${lang}_STANDARD}")
    endif()
  endif()
  get_directory_property(incs INCLUDE_DIRECTORIES)
  get_directory_property(defs COMPILE_DEFINITIONS)
  foreach(d IN LISTS defs)
    list(APPEND flags "-D${d}")
  endforeach()
  foreach(i IN LISTS incs)
    list(APPEND flags "-I${i}")
  endforeach()
  if(lang)
    get_directory_property(opts COMPILE_OPTIONS)
    foreach(o IN LISTS opts) # generator expressions are evaluated in the command
      # ... but a custom command has no language: $<COMPILE_LANGUAGE:L,...> is decided here,
      # for CUDA (the sanitizer build's $<$<COMPILE_LANGUAGE:C,CXX>:-fsanitize=...> drops)
      while(o MATCHES "\\$<COMPILE_LANGUAGE:([^>]*)>")
        set(langs "${CMAKE_MATCH_1}")
        string(REPLACE "," ";" langs "${langs}")
        set(is 0)
        if("CUDA" IN_LIST langs)
          set(is 1)
        endif()
        string(REPLACE "$<COMPILE_LANGUAGE:${CMAKE_MATCH_1}>" "${is}" o "${o}")
      endwhile()
      string(REPLACE "$<COMPILE_LANGUAGE>" "CUDA" o "${o}")
      if(o MATCHES "^SHELL:(.*)$")
        separate_arguments(parts UNIX_COMMAND "${CMAKE_MATCH_1}")
        list(APPEND flags ${parts})
      else()
        list(APPEND flags "${o}")
      endif()
    endforeach()
  endif()
  set(${out_var} ${flags} PARENT_SCOPE)
endfunction()

# cpconvert's arguments after the inputs and outputs: OPTIONS up to their `--`, then `--`,
# the build's flags (`flags`), and the flags OPTIONS give after their `--` (which come last
# and win).
function(_cpconvert_tail out_var flags)
  set(before ${arg_OPTIONS})
  set(after)
  list(FIND arg_OPTIONS "--" at)
  if(at GREATER -1)
    list(SUBLIST arg_OPTIONS 0 ${at} before)
    math(EXPR at "${at} + 1")
    list(SUBLIST arg_OPTIONS ${at} -1 after)
  endif()
  set(${out_var} ${before} -- ${flags} ${after} PARENT_SCOPE)
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

# Every generated file under the name it has in the export folder (`key`): two sources
# that would land on the same name there are refused at configure time rather than
# overwriting each other.
function(_cpconvert_register out name)
  get_property(seen GLOBAL PROPERTY _CPCONVERT_NAME_${name})
  if(seen AND NOT seen STREQUAL out)
    message(FATAL_ERROR "cpconvert_sources: ${out} and ${seen} have the same name; "
                        "give one of them another SUFFIX or rename a source")
  endif()
  set_property(GLOBAL PROPERTY _CPCONVERT_NAME_${name} "${out}")
endfunction()

# The target that runs these conversions without compiling, under cpconvert_converted:
# each of `outs` is copied to the path at the same place in `dests`.
function(_cpconvert_export_target outs dests)
  get_property(count GLOBAL PROPERTY _CPCONVERT_COUNT) # (not `n`: if() reads N as false)
  if(NOT count)
    set(count 0)
  endif()
  math(EXPR count "${count} + 1")
  set_property(GLOBAL PROPERTY _CPCONVERT_COUNT ${count})
  set(copies)
  list(LENGTH outs n)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    list(GET outs ${i} out)
    list(GET dests ${i} dest)
    get_filename_component(dest_dir "${dest}" DIRECTORY)
    list(APPEND copies COMMAND ${CMAKE_COMMAND} -E make_directory "${dest_dir}"
                       COMMAND ${CMAKE_COMMAND} -E copy_if_different "${out}" "${dest}")
  endforeach()
  add_custom_target(_cpconvert_sources_${count} ${copies} DEPENDS ${outs} VERBATIM)
  if(NOT TARGET cpconvert_converted)
    add_custom_target(cpconvert_converted)
  endif()
  add_dependencies(cpconvert_converted _cpconvert_sources_${count})
endfunction()

# The deepest directory that holds every file of `files` (absolute, resolved), as cpconvert
# --o-dir computes it for the layout of its outputs.
function(_cpconvert_common_dir out_var)
  set(base)
  foreach(f IN LISTS ARGN)
    get_filename_component(d "${f}" DIRECTORY)
    if(NOT DEFINED base)
      set(base "${d}")
    endif()
    string(FIND "${d}/" "${base}/" at)
    while(NOT at EQUAL 0 AND NOT base STREQUAL "/")
      get_filename_component(base "${base}" DIRECTORY)
      string(FIND "${d}/" "${base}/" at)
    endwhile()
  endforeach()
  set(${out_var} "${base}" PARENT_SCOPE)
endfunction()

# The name of a TOGETHER conversion, unique in the build: its TARGET, else the first
# source's stem and a hash of its files (a/main.cu and b/main.cu in two groups of one
# folder). It names the conversion's output folder (by default), its dependency file, its
# list of outputs and its folder under cpconvert_converted.
function(_cpconvert_group_name out_var)
  if(arg_TARGET)
    set(group "${arg_TARGET}")
  else()
    set(files)
    foreach(f IN LISTS arg_SOURCES arg_HEADERS)
      get_filename_component(f "${f}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      list(APPEND files "${f}")
    endforeach()
    list(GET files 0 first)
    get_filename_component(stem "${first}" NAME_WLE)
    string(SHA1 hash "${files}")
    string(SUBSTRING "${hash}" 0 8 hash)
    set(group "${stem}-${hash}")
  endif()
  get_property(seen GLOBAL PROPERTY _CPCONVERT_GROUP_${group} SET)
  if(seen)
    message(FATAL_ERROR "cpconvert_sources: a second TOGETHER conversion named ${group}: "
            "list every source of a target in one call (TARGET names the conversion)")
  endif()
  set_property(GLOBAL PROPERTY _CPCONVERT_GROUP_${group} 1)
  set(${out_var} "${group}" PARENT_SCOPE)
endfunction()

# A file written by the TOGETHER conversion `group`: refused when another conversion
# writes it too (two conversions with one OUTPUT_DIR and a file in common), which Ninja
# would refuse and Make would run twice, each overwriting the other's output.
function(_cpconvert_register_output out group)
  get_property(other GLOBAL PROPERTY _CPCONVERT_OUTPUT_${out})
  if(other AND NOT other STREQUAL group)
    message(FATAL_ERROR "cpconvert_sources: the conversions ${other} and ${group} both write "
                        "${out}: give one of them another OUTPUT_DIR (or none: each gets its own)")
  endif()
  set_property(GLOBAL PROPERTY _CPCONVERT_OUTPUT_${out} "${group}")
endfunction()

# TOGETHER: one command converts every source (and writes HEADERS) into `dir`.
function(_cpconvert_together out_var dir group tool tool_dep build_flags build_deps)
  if(DEFINED arg_SUFFIX)
    message(FATAL_ERROR "cpconvert_sources: TOGETHER keeps the names (--o-dir); give no SUFFIX")
  endif()
  set(srcs)
  set(hdrs)
  foreach(kind IN ITEMS SOURCES HEADERS)
    foreach(f IN LISTS arg_${kind})
      get_filename_component(f "${f}" REALPATH BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      if(kind STREQUAL "SOURCES")
        list(APPEND srcs "${f}")
      else()
        list(APPEND hdrs "${f}")
      endif()
    endforeach()
  endforeach()
  _cpconvert_common_dir(base ${srcs} ${hdrs})
  list(GET srcs 0 first)
  set(depfile "${dir}/.cpconvert-${group}.d")
  set(listfile "${dir}/.cpconvert-${group}.outputs")
  set(stamp "${dir}/.cpconvert-${group}.stamp")
  if(NOT tool)
    set(dir "${CPCONVERT_CONVERTED_DIR}/${group}")
  endif()
  set(outs)
  set(exports)
  foreach(f IN LISTS srcs hdrs)
    file(RELATIVE_PATH rel "${base}" "${f}")
    set(out "${dir}/${rel}")
    if(tool)
      _cpconvert_register_output("${out}" "${group}")
      _cpconvert_register("${out}" "${group}/${rel}")
      list(APPEND exports "${CPCONVERT_CONVERTED_EXPORT_DIR}/${group}/${rel}")
    else()
      if(NOT EXISTS "${out}")
        message(FATAL_ERROR "cpconvert_sources: no cpconvert to run and ${out} (the "
                            "pre-converted ${f}) does not exist")
      endif()
    endif()
    if(f IN_LIST srcs)
      get_filename_component(src_dir "${f}" DIRECTORY)
      set_property(SOURCE "${out}" APPEND PROPERTY INCLUDE_DIRECTORIES "${src_dir}")
    endif()
    list(APPEND outs "${out}")
  endforeach()
  if(tool)
    file(MAKE_DIRECTORY "${dir}")
    string(REPLACE ";" "\n" lines "${outs}\n")
    set(old)
    if(EXISTS "${listfile}")
      file(READ "${listfile}" old)
    endif()
    if(NOT old STREQUAL lines) # written only when it changes: no rebuild from reconfiguring
      file(WRITE "${listfile}" "${lines}")
    endif()
    _cpconvert_depends_args(dep_args "${depfile}" "${first}")
    _cpconvert_tail(tail "${build_flags}")
    set(names)
    foreach(f IN LISTS srcs)
      get_filename_component(name "${f}" NAME)
      string(APPEND names " ${name}")
    endforeach()
    # The stamp is the first output, touched by every run: the Makefile generators compare
    # the first output with the inputs, and the converted files keep their time when their
    # bytes do not change, so without it every `make` after a touch converted again.
    add_custom_command(OUTPUT "${stamp}" ${outs}
      COMMAND ${tool} ${srcs} --o-dir "${dir}" -MF "${depfile}" ${tail}
      COMMAND "${CMAKE_COMMAND}" "-DCPCONVERT_CHECK_DEPFILE=${depfile}"
              "-DCPCONVERT_CHECK_OUTPUTS=${listfile}" "-DCPCONVERT_CHECK_STAMP=${stamp}"
              -P "${_CPCONVERT_MODULE}"
      COMMAND "${CMAKE_COMMAND}" -E touch "${stamp}"
      DEPENDS ${srcs} ${hdrs} ${tool_dep} ${build_deps}
      ${dep_args}
      COMMENT "cpconvert together:${names}"
      VERBATIM COMMAND_EXPAND_LISTS)
    _cpconvert_export_target("${outs}" "${exports}")
  endif()
  _cpconvert_prefer_converted("${arg_TARGET}" "${dir}" "${base}" ${hdrs})
  set(${out_var} ${outs} PARENT_SCOPE)
endfunction()

# The folders of the converted headers first on TARGET's include path (CMake 3.19 or
# newer): a header found through the include path (`-Iinclude`, `#include <atoms.h>`)
# is then the converted one, as a header beside its includer is. The parser's flags leave
# them out (_cpconvert_build_flags). Added when the directory's CMakeLists.txt has been
# read, so TARGET may be defined after the call.
function(_cpconvert_prefer_converted tgt dir base)
  if(NOT tgt OR NOT ARGN OR CMAKE_VERSION VERSION_LESS 3.19)
    return()
  endif()
  set(mirrors)
  foreach(h IN LISTS ARGN)
    get_filename_component(h_dir "${h}" DIRECTORY)
    file(RELATIVE_PATH rel "${base}" "${h_dir}")
    if(rel)
      list(APPEND mirrors "${dir}/${rel}")
    else()
      list(APPEND mirrors "${dir}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES mirrors)
  set(args "[[${tgt}]] BEFORE PRIVATE") # the values now: a deferred call reads variables late
  foreach(m IN LISTS mirrors)
    string(APPEND args " [[${m}]]")
  endforeach()
  cmake_language(EVAL CODE "cmake_language(DEFER CALL target_include_directories ${args})")
endfunction()

# One command per source: `cpconvert SRC -o DIR/<name><SUFFIX>.cu`.
function(_cpconvert_each out_var dir tool tool_dep build_flags build_deps)
  if(NOT DEFINED arg_SUFFIX)
    set(arg_SUFFIX _cp)
  endif()
  if(arg_HEADERS)
    message(FATAL_ERROR "cpconvert_sources: HEADERS goes with TOGETHER (each source alone "
                        "writes no header)")
  endif()
  _cpconvert_tail(tail "${build_flags}")
  set(outs)
  set(exports)
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
      _cpconvert_register("${out}" "${name}${arg_SUFFIX}.cu")
      list(APPEND exports "${CPCONVERT_CONVERTED_EXPORT_DIR}/${name}${arg_SUFFIX}.cu")
      _cpconvert_depends_args(dep_args "${out}.d" "${src}")
      add_custom_command(OUTPUT "${out}"
        COMMAND ${tool} "${src}" -o "${out}" -MD -MF "${out}.d" ${tail}
        DEPENDS "${src}" ${tool_dep} ${build_deps}
        ${dep_args}
        COMMENT "cpconvert ${name}${arg_SUFFIX}.cu"
        VERBATIM COMMAND_EXPAND_LISTS)
    endif()
    set_property(SOURCE "${out}" APPEND PROPERTY INCLUDE_DIRECTORIES "${src_dir}")
    list(APPEND outs "${out}")
  endforeach()
  if(tool)
    _cpconvert_export_target("${outs}" "${exports}")
  endif()
  set(${out_var} ${outs} PARENT_SCOPE)
endfunction()

function(cpconvert_sources out_var)
  cmake_parse_arguments(PARSE_ARGV 1 arg "TOGETHER" "SUFFIX;OUTPUT_DIR;TARGET"
                        "SOURCES;HEADERS;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "cpconvert_sources: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "cpconvert_sources: no SOURCES given")
  endif()
  set(group)
  if(arg_TOGETHER)
    _cpconvert_group_name(group)
  endif()
  if(NOT arg_OUTPUT_DIR)
    if(CPCONVERT_OUTPUT_DIR)
      set(arg_OUTPUT_DIR "${CPCONVERT_OUTPUT_DIR}")
    else()
      set(arg_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/cpconvert")
    endif()
    if(arg_TOGETHER) # a folder per conversion: two targets may convert the same files
      string(APPEND arg_OUTPUT_DIR "/${group}")
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
  set(skip)
  if(arg_TOGETHER)
    set(skip "${dir}")
  endif()
  if(arg_TOGETHER)
    _cpconvert_build_flags(build_flags build_deps "${arg_TARGET}" "${skip}" "${group}")
    _cpconvert_together(outs "${dir}" "${group}" "${tool}" "${tool_dep}" "${build_flags}"
                        "${build_deps}")
  else()
    _cpconvert_build_flags(build_flags build_deps "${arg_TARGET}" "" "each-${arg_TARGET}")
    _cpconvert_each(outs "${dir}" "${tool}" "${tool_dep}" "${build_flags}" "${build_deps}")
  endif()
  _cpconvert_quiet_pragmas(${arg_SOURCES} ${outs})
  set(${out_var} ${outs} PARENT_SCOPE)
endfunction()


include("${CMAKE_CURRENT_LIST_DIR}/CPConvertTarget.cmake") # cpconvert_target

# embed_tree.cmake: writes the files under a directory as one C table, so a header library
# ships inside the binary.
#   cmake -DROOT=dir -DOUTPUT=out.inc -DNAME=symbol -P embed_tree.cmake
# Output: `static const cp_embedded NAME[]` of {path relative to ROOT, bytes, length},
# sorted by path, and `NAME_count`; the includer defines cp_embedded.
file(GLOB_RECURSE files RELATIVE "${ROOT}" "${ROOT}/*")
list(SORT files)
set(body "")
set(count 0)
foreach(rel IN LISTS files)
  file(READ "${ROOT}/${rel}" hex HEX)
  string(LENGTH "${hex}" n)
  math(EXPR len "${n} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
  string(APPEND body "static const char ${NAME}_${count}[] = {\n${bytes}0x00};\n")
  list(APPEND entries "{\"${rel}\", ${NAME}_${count}, ${len}}")
  math(EXPR count "${count} + 1")
endforeach()
list(JOIN entries ",\n  " table)
file(WRITE "${OUTPUT}.tmp" "/* Generated from ${ROOT} by embed_tree.cmake; do not edit. */\n"
  "${body}static const cp_embedded ${NAME}[] = {\n  ${table}};\n"
  "static const unsigned ${NAME}_count = ${count};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")

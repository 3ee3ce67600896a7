# embed.cmake: writes a file's bytes as a C array, so data files ship inside the binary.
#   cmake -DINPUT=in -DOUTPUT=out.inc -DNAME=symbol -P embed.cmake
# Output: `static const char NAME[] = {...};` followed by `NAME_len`.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" n)
math(EXPR len "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
get_filename_component(input_name "${INPUT}" NAME)
file(WRITE "${OUTPUT}.tmp" "/* Generated from ${input_name} by embed.cmake; do not edit. */\n"
  "static const char ${NAME}[] = {\n${bytes}0x00};\n"
  "static const unsigned long ${NAME}_len = ${len};\n")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")

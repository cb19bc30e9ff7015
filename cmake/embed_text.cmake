# cmake -DIN=file -DOUT=file.c -P embed_text.cmake: the bytes of IN as
# vc4_jit_prelude_text[] (NUL-terminated) and its length (emu/jit.h).
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" n)
math(EXPR len "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE ${OUT} "/* generated from ${IN} by cmake/embed_text.cmake: do not edit */\n#include \"emu/jit.h\"\n\nconst unsigned char vc4_jit_prelude_text[] = {\n${bytes}0x00};\nconst size_t vc4_jit_prelude_len = ${len};\n")

# Compiled QPU code (src/emu/jit.c): the prelude every block is compiled
# with is src/emu/jit_prelude.inc preprocessed by the compiler that builds
# the library (the ALU kernels' own source, self-contained), embedded in the
# library as text.  Nothing here is committed: it is made in the build tree.
set(VC4KIT_JIT_PRELUDE_I ${CMAKE_BINARY_DIR}/jit/jit_prelude.i)
set(VC4KIT_JIT_PRELUDE_C ${CMAKE_BINARY_DIR}/jit/jit_prelude_text.c)
add_custom_command(OUTPUT ${VC4KIT_JIT_PRELUDE_I}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/jit
    COMMAND ${CMAKE_C_COMPILER} -E -P -x c -std=c11 -I${PROJECT_SOURCE_DIR}/src -I${PROJECT_SOURCE_DIR}/include
            ${PROJECT_SOURCE_DIR}/src/emu/jit_prelude.inc -o ${VC4KIT_JIT_PRELUDE_I}
    DEPENDS ${PROJECT_SOURCE_DIR}/src/emu/jit_prelude.inc ${PROJECT_SOURCE_DIR}/src/emu/qpu_alu.c
            ${PROJECT_SOURCE_DIR}/src/emu/qpu_alu.h ${PROJECT_SOURCE_DIR}/src/emu/qpu_lanes.h
            ${PROJECT_SOURCE_DIR}/src/emu/jit_io.h
            ${PROJECT_SOURCE_DIR}/src/emu/sfu.c ${PROJECT_SOURCE_DIR}/src/emu/sfu.h
            ${PROJECT_SOURCE_DIR}/src/spec/half.h ${PROJECT_SOURCE_DIR}/include/vc4kit/qpu.h
    COMMENT "Preprocessing the JIT's prelude (the ALU kernels)")
add_custom_command(OUTPUT ${VC4KIT_JIT_PRELUDE_C}
    COMMAND ${CMAKE_COMMAND} -DIN=${VC4KIT_JIT_PRELUDE_I} -DOUT=${VC4KIT_JIT_PRELUDE_C}
            -P ${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake
    DEPENDS ${VC4KIT_JIT_PRELUDE_I} ${PROJECT_SOURCE_DIR}/cmake/embed_text.cmake)
target_sources(vc4kit_obj PRIVATE ${VC4KIT_JIT_PRELUDE_C})

# The compiler blocks are compiled with, when it exists at run time (else cc).
target_compile_definitions(vc4kit_obj PRIVATE VC4KIT_JIT_CC="${CMAKE_C_COMPILER}")
foreach(t vc4kit_static vc4kit_shared)
  target_link_libraries(${t} PUBLIC ${CMAKE_DL_LIBS})
endforeach()

# VC4KIT_JIT=FORCE: every emulator of the build compiles each block the
# second time it is reached (a CI run of every test on compiled code), into
# a cache directory in the build tree shared by the tests.
set(VC4KIT_JIT "DEFAULT" CACHE STRING "DEFAULT (as the options say) or FORCE (every emulator compiles blocks)")
set_property(CACHE VC4KIT_JIT PROPERTY STRINGS DEFAULT FORCE)
if(VC4KIT_JIT STREQUAL "FORCE")
  target_compile_definitions(vc4kit_obj PRIVATE VC4KIT_JIT_FORCE=2
      VC4KIT_JIT_FORCE_DIR="${CMAKE_BINARY_DIR}/jit-cache")
endif()

# VC4KIT_THREADS=FORCE: every emulator of the build that does not ask for a
# number of host threads gets two (src/emu/par.h: gathered runs of compiled
# blocks split between two host threads); with VC4KIT_JIT=FORCE, a CI run
# of every test on both.
set(VC4KIT_THREADS "DEFAULT" CACHE STRING "DEFAULT (as the options say) or FORCE (two host threads)")
set_property(CACHE VC4KIT_THREADS PROPERTY STRINGS DEFAULT FORCE)
if(VC4KIT_THREADS STREQUAL "FORCE")
  target_compile_definitions(vc4kit_obj PRIVATE VC4KIT_THREADS_FORCE=1)
endif()

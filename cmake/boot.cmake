# boot.cmake - the `arm` layer and `vc4kit boot` (docs/boot.md), included by
# the top-level CMakeLists.txt.  Optional: it needs Unicorn (Debian
# libunicorn-dev) for the ARM core; the bare-metal examples need the cross
# compilers (gcc-arm-none-eabi, gcc-aarch64-linux-gnu).  Whatever is missing
# is said here, and the tests that need it report SKIP.
if(PkgConfig_FOUND)
  pkg_check_modules(UNICORN unicorn)
endif()
if(NOT UNICORN_FOUND)
  message(STATUS "vc4kit: Unicorn not found: `vc4kit boot` is disabled and its tests skip "
                 "(install it with `apt-get install libunicorn-dev`)")
  set(VC4KIT_HAVE_UNICORN OFF)
else()
  set(VC4KIT_HAVE_UNICORN ON)
  file(GLOB VC4KIT_ARM_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/arm/*.c)
  add_library(vc4kit_arm STATIC ${VC4KIT_ARM_SOURCES})
  target_include_directories(vc4kit_arm PRIVATE ${UNICORN_INCLUDE_DIRS})
  # headers only: arm.c dlopens libunicorn.so.MAJOR in vc4_arm_create, so
  # the commands that do not boot do not pay its relocations at start-up
  string(REGEX MATCH "^[0-9]+" VC4KIT_UNICORN_MAJOR "${UNICORN_VERSION}")
  if(NOT VC4KIT_UNICORN_MAJOR)
    set(VC4KIT_UNICORN_MAJOR 2)
  endif()
  target_compile_definitions(vc4kit_arm PRIVATE VC4KIT_UNICORN_SONAME="libunicorn.so.${VC4KIT_UNICORN_MAJOR}")
  target_link_libraries(vc4kit_arm PUBLIC vc4kit_internal ${CMAKE_DL_LIBS})
  target_compile_options(vc4kit_arm PRIVATE ${VC4KIT_WARNINGS})
  target_compile_definitions(vc4kit PRIVATE VC4KIT_HAVE_UNICORN=1)
  target_link_libraries(vc4kit PRIVATE vc4kit_arm)
  # the live window of `vc4kit boot --window` (tools/boot_window.c): optional,
  # never needed by the tests
  if(PkgConfig_FOUND)
    pkg_check_modules(SDL2 sdl2)
  endif()
  if(SDL2_FOUND)
    message(STATUS "vc4kit: SDL2 ${SDL2_VERSION} found: `vc4kit boot --window` is built")
    # headers only: boot_window.c dlopens the library when a window is
    # asked for (linked, it would slow every vc4kit start-up by ~15 ms)
    target_compile_definitions(vc4kit PRIVATE VC4KIT_HAVE_SDL2=1)
    target_include_directories(vc4kit SYSTEM PRIVATE ${SDL2_INCLUDE_DIRS})
    target_link_libraries(vc4kit PRIVATE ${CMAKE_DL_LIBS})
  else()
    message(STATUS "vc4kit: SDL2 not found: `vc4kit boot --window` says it is unavailable "
                   "(optional: apt-get install libsdl2-dev)")
  endif()
  # tests/fuzz/fuzz_arm.c: random kernel images (a no-op without Unicorn)
  if(TARGET fuzz_arm)
    target_link_libraries(fuzz_arm PRIVATE vc4kit_arm)
    target_compile_definitions(fuzz_arm PRIVATE VC4KIT_HAVE_UNICORN=1)
    target_include_directories(fuzz_arm PRIVATE ${PROJECT_SOURCE_DIR}/src)
  endif()
endif()

# ---- bare-metal examples: kernel images for Pi 1, 2, 3 (32 and 64 bit) ----------
find_program(VC4KIT_ARM_CC arm-none-eabi-gcc)
find_program(VC4KIT_ARM_OBJCOPY arm-none-eabi-objcopy)
find_program(VC4KIT_A64_CC aarch64-linux-gnu-gcc)
find_program(VC4KIT_A64_OBJCOPY aarch64-linux-gnu-objcopy)
set(VC4KIT_BAREMETAL_DIR ${PROJECT_BINARY_DIR}/examples/baremetal)
set(VC4KIT_BAREMETAL_SRC ${PROJECT_SOURCE_DIR}/examples/baremetal)
set(VC4KIT_BAREMETAL_IMAGES "")
if(VC4KIT_EXAMPLES)
  file(GLOB VC4KIT_BAREMETAL_DEPS ${VC4KIT_BAREMETAL_SRC}/*.c ${VC4KIT_BAREMETAL_SRC}/*.h
       ${VC4KIT_BAREMETAL_SRC}/*.S ${VC4KIT_BAREMETAL_SRC}/*.ld ${PROJECT_SOURCE_DIR}/examples/gl_seed_shaders.h)
  # bm_image(NAME SCENE BOARD ARCH): NAME.img from scene.c for one board
  function(bm_image name scene board arch)
    if(arch STREQUAL "a64")
      set(cc ${VC4KIT_A64_CC})
      set(objcopy ${VC4KIT_A64_OBJCOPY})
      set(flags -mcpu=cortex-a53 -Wl,--no-warn-rwx-segments)
      set(start start64.S)
      set(ld link64.ld)
    else()
      set(cc ${VC4KIT_ARM_CC})
      set(objcopy ${VC4KIT_ARM_OBJCOPY})
      if(board EQUAL 1)
        set(flags -mcpu=arm1176jzf-s -marm -mfloat-abi=soft)
      else()
        set(flags -mcpu=cortex-a7 -marm -mfloat-abi=soft)
      endif()
      set(start start.S)
      set(ld link.ld)
    endif()
    add_custom_command(OUTPUT ${VC4KIT_BAREMETAL_DIR}/${name}.img
      COMMAND ${CMAKE_COMMAND} -E make_directory ${VC4KIT_BAREMETAL_DIR}
      COMMAND ${cc} ${flags} -O2 -ffreestanding -nostdlib -nostartfiles -fno-builtin -Wall -Wextra -Werror
              -DPI_BOARD=${board} -I${PROJECT_SOURCE_DIR}/examples
              -T ${VC4KIT_BAREMETAL_SRC}/${ld} -o ${VC4KIT_BAREMETAL_DIR}/${name}.elf
              ${VC4KIT_BAREMETAL_SRC}/${start} ${VC4KIT_BAREMETAL_SRC}/${scene}.c -lgcc
      COMMAND ${objcopy} -O binary ${VC4KIT_BAREMETAL_DIR}/${name}.elf ${VC4KIT_BAREMETAL_DIR}/${name}.img
      DEPENDS ${VC4KIT_BAREMETAL_DEPS}
      COMMENT "bare-metal kernel image ${name}.img" VERBATIM)
    set(VC4KIT_BAREMETAL_IMAGES ${VC4KIT_BAREMETAL_IMAGES} ${VC4KIT_BAREMETAL_DIR}/${name}.img PARENT_SCOPE)
  endfunction()
  if(VC4KIT_ARM_CC AND VC4KIT_ARM_OBJCOPY)
    foreach(scene nv_colors gl_seed tex_quad uart_hello vg_shape irq_timer irq_v3d)
      bm_image(${scene}_pi1 ${scene} 1 a32)
      bm_image(${scene}_pi2 ${scene} 2 a32)
      bm_image(${scene}_pi3 ${scene} 3 a32)
    endforeach()
  else()
    message(STATUS "vc4kit: arm-none-eabi-gcc not found: the 32-bit bare-metal examples are not built "
                   "and their tests skip (apt-get install gcc-arm-none-eabi binutils-arm-none-eabi)")
  endif()
  if(VC4KIT_A64_CC AND VC4KIT_A64_OBJCOPY)
    foreach(scene nv_colors gl_seed tex_quad uart_hello vg_shape irq_timer irq_v3d)
      bm_image(${scene}_pi3_64 ${scene} 3 a64)
    endforeach()
  else()
    message(STATUS "vc4kit: aarch64-linux-gnu-gcc not found: the 64-bit bare-metal examples are not built "
                   "and their tests skip (apt-get install gcc-aarch64-linux-gnu)")
  endif()
  if(VC4KIT_BAREMETAL_IMAGES)
    add_custom_target(baremetal_images ALL DEPENDS ${VC4KIT_BAREMETAL_IMAGES})
  endif()
endif()

# ---- tests (exit 77 = SKIP: no Unicorn, no cross compiler) ------------------------
if(VC4KIT_TESTS)
  if(VC4KIT_HAVE_UNICORN)
    file(GLOB VC4KIT_ARM_TESTS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/boot/test_*.c)
    foreach(src ${VC4KIT_ARM_TESTS})
      get_filename_component(name ${src} NAME_WE)
      add_executable(${name} ${src})
      target_link_libraries(${name} PRIVATE vc4kit_arm)
      target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests ${UNICORN_INCLUDE_DIRS})
      target_compile_options(${name} PRIVATE ${VC4KIT_WARNINGS})
      add_test(NAME ${name} COMMAND ${name})
      set_tests_properties(${name} PROPERTIES TIMEOUT 300)
    endforeach()
  endif()
  file(GLOB VC4KIT_BOOT_CLI_TESTS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/boot/*.sh)
  foreach(script ${VC4KIT_BOOT_CLI_TESTS})
    get_filename_component(name ${script} NAME_WE)
    add_test(NAME cli_${name} COMMAND sh ${script} $<TARGET_FILE:vc4kit> ${PROJECT_SOURCE_DIR}
             ${VC4KIT_BAREMETAL_DIR} ${CMAKE_CURRENT_BINARY_DIR}/tests)
    set_tests_properties(cli_${name} PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77)
  endforeach()
endif()

# bench/bench_boot.c is built by bench/CMakeLists.txt's glob; it needs the arm layer
if(TARGET bench_boot)
  target_compile_definitions(bench_boot PRIVATE VC4KIT_BAREMETAL_DIR="${VC4KIT_BAREMETAL_DIR}")
  if(VC4KIT_HAVE_UNICORN)
    target_compile_definitions(bench_boot PRIVATE VC4KIT_HAVE_UNICORN=1)
    target_link_libraries(bench_boot PRIVATE vc4kit_arm)
  endif()
endif()

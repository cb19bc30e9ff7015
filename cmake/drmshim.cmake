# drmshim.cmake - libvc4kit_drm.so, a backend for Mesa's drm-shim that
# answers the vc4 render node's ioctls with vc4kit's kernel stand-in
# (src/drmshim/vc4kit_drm.c over src/kernel; docs/opengl.md).  It is built
# against the Mesa that scripts/mesa.sh (`make mesa`) builds into
# ${VC4KIT_CACHE:-~/.cache/vc4kit}: drm-shim's core is a static library of
# that build, and its headers come from that source tree.  Without that
# build the library is skipped (with a message), and everything else works.
set(VC4KIT_MESA_DIR "" CACHE PATH "Mesa build made by scripts/mesa.sh (default: asks scripts/mesa.sh --dir)")
set(_mesa_dir "${VC4KIT_MESA_DIR}")
if(NOT _mesa_dir)
  execute_process(COMMAND sh ${PROJECT_SOURCE_DIR}/scripts/mesa.sh --dir
                  OUTPUT_VARIABLE _mesa_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
file(GLOB _mesa_src LIST_DIRECTORIES true "${_mesa_dir}/src/mesa-*")
set(_mesa_build "${_mesa_dir}/build")
if(_mesa_dir AND _mesa_src AND EXISTS "${_mesa_build}/src/drm-shim/libdrm_shim.a")
  pkg_check_modules(LIBDRM libdrm)
endif()
if(_mesa_dir AND _mesa_src AND EXISTS "${_mesa_build}/src/drm-shim/libdrm_shim.a" AND LIBDRM_FOUND)
  message(STATUS "vc4kit: GL through Mesa's vc4 driver: libvc4kit_drm.so against ${_mesa_dir}")
  add_library(vc4kit_drm SHARED ${PROJECT_SOURCE_DIR}/src/drmshim/vc4kit_drm.c $<TARGET_OBJECTS:vc4kit_obj>)
  set_target_properties(vc4kit_drm PROPERTIES OUTPUT_NAME vc4kit_drm C_VISIBILITY_PRESET hidden
                        LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
  target_include_directories(vc4kit_drm PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src
      ${_mesa_src}/include ${_mesa_src}/src ${_mesa_build}/src ${LIBDRM_INCLUDE_DIRS})
  # what Mesa's meson tells its own code about this platform (src/c11/threads.h, time.h)
  target_compile_definitions(vc4kit_drm PRIVATE VC4KIT_BUILDING=1 HAVE_PTHREAD HAVE_STRUCT_TIMESPEC HAVE_TIMESPEC_GET)
  # Mesa's headers are not -Wextra clean; vc4kit's own code is checked in the library.
  target_compile_options(vc4kit_drm PRIVATE -Wall)
  target_link_libraries(vc4kit_drm PRIVATE
      -Wl,--whole-archive ${_mesa_build}/src/drm-shim/libdrm_shim.a -Wl,--no-whole-archive
      ${_mesa_build}/src/util/libmesa_util.a ${_mesa_build}/src/util/libmesa_util_sse41.a
      ${_mesa_build}/src/c11/impl/libmesa_util_c11.a
      ${LIBDRM_LINK_LIBRARIES} ${PNG_LIBRARIES} Threads::Threads m ${CMAKE_DL_LIBS} z)
  target_link_directories(vc4kit_drm PRIVATE ${PNG_LIBRARY_DIRS})
  if(zydis_FOUND)
    target_link_libraries(vc4kit_drm PRIVATE Zydis::Zydis)
  endif()
  add_dependencies(vc4kit vc4kit_drm)

  # The GL programs of `make gl-check` (tests/gl), built against the cached
  # Mesa's headers and libraries; the same binary runs on Debian's Mesa.
  file(GLOB _mesa_libdir LIST_DIRECTORIES true "${_mesa_dir}/install/lib/*-linux-gnu" "${_mesa_dir}/install/lib")
  find_library(VC4KIT_MESA_EGL EGL PATHS ${_mesa_libdir} NO_DEFAULT_PATH)
  find_library(VC4KIT_MESA_GLES GLESv2 PATHS ${_mesa_libdir} NO_DEFAULT_PATH)
  if(VC4KIT_MESA_EGL AND VC4KIT_MESA_GLES)
    add_executable(gl_check ${PROJECT_SOURCE_DIR}/tests/gl/gl_check.c)
    target_include_directories(gl_check PRIVATE ${_mesa_src}/include ${PNG_INCLUDE_DIRS})
    target_compile_options(gl_check PRIVATE ${VC4KIT_WARNINGS})
    target_link_libraries(gl_check PRIVATE ${VC4KIT_MESA_EGL} ${VC4KIT_MESA_GLES} ${PNG_LIBRARIES} m)
    target_link_directories(gl_check PRIVATE ${PNG_LIBRARY_DIRS})
    # no RPATH: the loader picks the GL libraries at run time (the cached
    # Mesa through LD_LIBRARY_PATH, or Debian's)
    set_target_properties(gl_check PROPERTIES SKIP_BUILD_RPATH TRUE)
  endif()
  install(TARGETS vc4kit_drm LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
else()
  message(STATUS "vc4kit: no Mesa build from scripts/mesa.sh (make mesa): GL programs will not find the "
                 "vc4 render node under vc4kit exec (libvc4kit_drm.so skipped)")
endif()

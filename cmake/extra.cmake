# extra.cmake - optional pieces included by the top-level CMakeLists.txt.
#
# libbcm_host.so: the Pi userland's small shared library with
# bcm_host_get_peripheral_address / _size / bcm_host_get_sdram_address, which
# Pi programs (hello_fft's gpu_fft_base.c) dlopen("libbcm_host.so") at run
# time.  Built from src/mailbox/bcm_host.c alone (no dependencies), with the
# plain name libbcm_host.so as on the Pi (/opt/vc/lib), and installed next to
# libvc4kit.  libvc4kit exports the same functions for programs that link.
add_library(bcm_host SHARED ${PROJECT_SOURCE_DIR}/src/mailbox/bcm_host.c)
set_target_properties(bcm_host PROPERTIES C_VISIBILITY_PRESET hidden OUTPUT_NAME bcm_host)
target_include_directories(bcm_host PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(bcm_host PRIVATE VC4KIT_BUILDING=1)
target_compile_options(bcm_host PRIVATE ${VC4KIT_WARNINGS})
install(TARGETS bcm_host LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

# The preload of `vc4kit exec` (src/host/, docs/exec.md).
include(${PROJECT_SOURCE_DIR}/cmake/host.cmake)

# host.cmake - libvc4kit_exec.so, the library `vc4kit exec` preloads into
# an unmodified Pi program (src/host/preload.c over the mailbox layer).
# It carries its own copy of the library objects and exports only the C
# library functions it stands in for (src/host/preload.map), so a program's
# own mbox_open / mapmem never collide with the mailbox layer inside.
# Built beside the vc4kit executable (which looks for it there) and
# installed beside libvc4kit.
add_library(vc4kit_exec SHARED ${PROJECT_SOURCE_DIR}/src/host/preload.c $<TARGET_OBJECTS:vc4kit_obj>)
set_target_properties(vc4kit_exec PROPERTIES OUTPUT_NAME vc4kit_exec C_VISIBILITY_PRESET hidden
                      LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
target_include_directories(vc4kit_exec PRIVATE ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(vc4kit_exec PRIVATE VC4KIT_BUILDING=1)
target_compile_options(vc4kit_exec PRIVATE ${VC4KIT_WARNINGS})
target_link_libraries(vc4kit_exec PRIVATE ${PNG_LIBRARIES} Threads::Threads m ${CMAKE_DL_LIBS})
target_link_directories(vc4kit_exec PRIVATE ${PNG_LIBRARY_DIRS})
if(zydis_FOUND)
  target_link_libraries(vc4kit_exec PRIVATE Zydis::Zydis)
endif()
target_link_options(vc4kit_exec PRIVATE -Wl,--version-script=${PROJECT_SOURCE_DIR}/src/host/preload.map)
set_target_properties(vc4kit_exec PROPERTIES LINK_DEPENDS ${PROJECT_SOURCE_DIR}/src/host/preload.map)
add_dependencies(vc4kit vc4kit_exec bcm_host)
install(TARGETS vc4kit_exec LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})

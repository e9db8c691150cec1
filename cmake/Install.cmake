# `cmake --install`: the libraries, the public headers, the command-line
# programs with their manual page and shell completions, the documentation,
# a CMake package (find_package(hclvm)) and a pkg-config file.
include(CMakePackageConfigHelpers)

set(HCLVM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/hclvm)

install(TARGETS hclvm_core hclvm_shared EXPORT hclvmTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS hclvm hcldec RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(NOT CMAKE_CROSSCOMPILING)
  install(FILES ${HCLVM_GEN_DIR}/hclvm.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  # Each shell loads completions by command name: hcldec gets a copy.
  foreach(name hclvm hcldec)
    install(FILES ${HCLVM_GEN_DIR}/hclvm.bash
      DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME ${name})
    install(FILES ${HCLVM_GEN_DIR}/hclvm.fish
      DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d RENAME ${name}.fish)
  endforeach()
  install(FILES ${HCLVM_GEN_DIR}/_hclvm DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}
  FILES_MATCHING PATTERN "*.md")
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# format.h includes format_nodes.def: the X-macro lists go along.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/hclvm DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def")

install(EXPORT hclvmTargets NAMESPACE hclvm:: DESTINATION ${HCLVM_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/hclvmConfig.cmake.in
  ${PROJECT_BINARY_DIR}/hclvmConfig.cmake INSTALL_DESTINATION ${HCLVM_CMAKE_DIR})
# Before 1.0 a minor version may break the interface.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/hclvmConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/hclvmConfig.cmake ${PROJECT_BINARY_DIR}/hclvmConfigVersion.cmake
  DESTINATION ${HCLVM_CMAKE_DIR})

# hclvm.pc finds the prefix from its own place (${pcfiledir}), so an
# installation may be moved, or made with `cmake --install --prefix`.
set(HCLVM_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE ${CMAKE_INSTALL_LIBDIR})
  set(HCLVM_PC_PREFIX ${CMAKE_INSTALL_PREFIX})
else()
  file(RELATIVE_PATH rel /prefix/${HCLVM_PC_DIR} /prefix)
  string(REGEX REPLACE "/$" "" rel "${rel}")
  set(HCLVM_PC_PREFIX "\${pcfiledir}/${rel}")
endif()
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE ${CMAKE_INSTALL_${dir}})
    set(HCLVM_PC_${dir} ${CMAKE_INSTALL_${dir}})
  else()
    set(HCLVM_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/hclvm.pc.in ${PROJECT_BINARY_DIR}/hclvm.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/hclvm.pc DESTINATION ${HCLVM_PC_DIR})

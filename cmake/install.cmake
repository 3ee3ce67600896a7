# install.cmake: what `cmake --install` adds besides the tool (tool/) and the runtime headers
# (runtime/): the CMake package, so that other projects can
#   find_package(CPConvert)   # CPConvert::cpconvert, CPConvert::runtime, cpconvert_sources()
# and the man page. The package is relocatable: every path in it is relative to its own
# location (<prefix>/lib/cmake/CPConvert/).
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

set(CPCONVERT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/CPConvert)
set(CPCONVERT_INSTALL_BINDIR bin)         # where tool/ installs cpconvert
set(CPCONVERT_INSTALL_INCLUDEDIR include) # where runtime/ installs the headers
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/CPConvertConfig.cmake.in
  ${PROJECT_BINARY_DIR}/CPConvertConfig.cmake
  INSTALL_DESTINATION ${CPCONVERT_INSTALL_CMAKEDIR}
  PATH_VARS CPCONVERT_INSTALL_BINDIR CPCONVERT_INSTALL_INCLUDEDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/CPConvertConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/CPConvertConfig.cmake
              ${PROJECT_BINARY_DIR}/CPConvertConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/CPConvert.cmake
              ${CMAKE_CURRENT_LIST_DIR}/CPConvertTarget.cmake
        DESTINATION ${CPCONVERT_INSTALL_CMAKEDIR})

# The man pages, docs/cpconvert.1 and docs/cpconvert-tune.1, checked for at install time rather than at configure time,
# so that a tree configured before a page was written still installs it.
foreach(_page cpconvert.1 cpconvert-tune.1)
  install(CODE "
    if(EXISTS \"${PROJECT_SOURCE_DIR}/docs/${_page}\")
      file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_MANDIR}/man1\"
           TYPE FILE FILES \"${PROJECT_SOURCE_DIR}/docs/${_page}\")
    endif()")
endforeach()

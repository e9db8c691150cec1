# Warning flags for the project's own targets; -Werror when HCLVM_WERROR (CI).
function(hclvm_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
    -Wnon-virtual-dtor -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough)
  # GCC 12 reports false -Wrestrict overlaps inside libstdc++'s
  # std::string at -O3 (GCC bug 105329); the checks stay on elsewhere.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(HCLVM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# Generated sources get a quieter set: their style is the generator's.
function(hclvm_generated_flags)
  set_source_files_properties(${ARGN} PROPERTIES COMPILE_OPTIONS
    "-Wno-unused-but-set-variable;-Wno-unused-parameter;-Wno-shadow;-Wno-unused-variable;-Wno-implicit-fallthrough;-Wno-pedantic")
endfunction()

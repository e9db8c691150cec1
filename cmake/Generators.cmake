# Rules that run re2c and Bison into the build directory.
find_program(RE2C_EXECUTABLE re2c REQUIRED)
find_package(BISON 3.8 REQUIRED)

# Generates [out] from the re2c source [in]. The scanner works on bytes (no
# --utf8): the reference matches identifier characters as byte sequences that
# are not all valid UTF-8. Its `/*!include:re2c` files live in src/syntax.
function(hclvm_re2c in out)
  get_filename_component(dir ${out} DIRECTORY)
  file(GLOB includes CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/syntax/*.re)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${RE2C_EXECUTABLE} -W -Werror -I ${PROJECT_SOURCE_DIR}/src/syntax
            --no-generation-date --no-version -o ${out} ${in}
    DEPENDS ${in} ${includes} MAIN_DEPENDENCY ${in}
    COMMENT "re2c ${in}")
  hclvm_generated_flags(${out})
endfunction()

# Generates [out] and its header [hdr] from the Bison grammar [in].
# The grammar Bison reads is [in] with the binary operators of
# src/syntax/binary_ops.def written in (cmake/GenerateGrammar.cmake).
function(hclvm_bison in out hdr)
  get_filename_component(dir ${out} DIRECTORY)
  set(ops ${PROJECT_SOURCE_DIR}/src/syntax/binary_ops.def)
  set(gen_script ${PROJECT_SOURCE_DIR}/cmake/GenerateGrammar.cmake)
  set(grammar ${dir}/parser.yy)
  add_custom_command(OUTPUT ${out} ${hdr}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${dir}
    COMMAND ${CMAKE_COMMAND} -DIN=${in} -DOPS=${ops} -DOUT=${grammar} -P ${gen_script}
    COMMAND ${BISON_EXECUTABLE} -Wall -Werror --no-lines --defines=${hdr} -o ${out} ${grammar}
    DEPENDS ${in} ${ops} ${gen_script} MAIN_DEPENDENCY ${in}
    COMMENT "bison ${in} (operators from binary_ops.def)")
  hclvm_generated_flags(${out})
endfunction()

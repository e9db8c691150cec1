# Writes the manual page and the shell completion scripts from the help
# texts of the hclvm program, so that they cannot drift from them:
#
#   cmake -DHCLVM=path/to/hclvm -DOUT=dir -P GenerateDocs.cmake
#
# OUT/hclvm.1, OUT/hclvm.bash, OUT/_hclvm (zsh) and OUT/hclvm.fish.
foreach(job "hclvm.1;help;--man" "hclvm.bash;completion;bash" "_hclvm;completion;zsh"
            "hclvm.fish;completion;fish")
  list(POP_FRONT job file)
  execute_process(COMMAND "${HCLVM}" ${job} OUTPUT_FILE "${OUT}/${file}.tmp" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${HCLVM} ${job} failed: ${rc}")
  endif()
  file(RENAME "${OUT}/${file}.tmp" "${OUT}/${file}")
endforeach()

# Fails when docs/functions.md differs from what scripts/gen-functions-doc.sh
# writes from the library (run it to update the file).
execute_process(COMMAND ${SOURCE}/scripts/gen-functions-doc.sh ${HCLVM} ${CMAKE_CURRENT_BINARY_DIR}/functions.md
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gen-functions-doc.sh failed")
endif()
file(READ ${SOURCE}/docs/functions.md want)
file(READ ${CMAKE_CURRENT_BINARY_DIR}/functions.md got)
if(NOT want STREQUAL got)
  message(FATAL_ERROR "docs/functions.md is out of date: run scripts/gen-functions-doc.sh")
endif()

# Runs one CLI test: the hclvm binary with arguments, compared with the
# expected exit status, standard output and standard error.
#
#   cmake -DHCLVM=path/to/hclvm -DARGS="check|--format|json|data/errors"
#         [-DSTDIN=file] [-DENV="NAME=value|..."] [-DTTY=columns] -DRC=1
#         [-DSTDOUT=expected/file] [-DSTDOUT_REGEX=re]
#         [-DSTDERR=expected/file] [-DSTDERR_REGEX=re]
#         -P run.cmake
#
# ARGS and ENV use "|" between items (";" would be split by add_test).
# Expected files are relative to this directory; the command runs here too,
# so paths in the output are stable. Without STDOUT/STDOUT_REGEX the output
# is not checked; STDOUT_EMPTY=1 requires it to be empty (same for STDERR).
# With HCLVM_UPDATE_GOLDEN=1 in the environment the expected files are
# rewritten from the actual output instead (review the diff!).

cmake_minimum_required(VERSION 3.25)

string(REPLACE "|" ";" args "${ARGS}")
set(cmd "${HCLVM}" ${args})
if(ENV)
  string(REPLACE "|" ";" env_items "${ENV}")
  set(cmd "${CMAKE_COMMAND}" -E env ${env_items} ${cmd})
endif()

# TTY=N runs the command on a pseudo-terminal N columns wide (through
# util-linux `script`), with its standard error discarded, since the
# terminal would merge it into standard output.
if(TTY)
  set(line "stty cols ${TTY} && exec")
  foreach(a IN LISTS cmd)
    string(APPEND line " '${a}'")
  endforeach()
  string(APPEND line " 2>/dev/null")
  set(cmd script -qec "${line}" /dev/null)
  if(NOT STDIN)
    set(STDIN /dev/null)
  endif()
endif()

set(input_opt)
if(STDIN)
  cmake_path(ABSOLUTE_PATH STDIN BASE_DIRECTORY "${CMAKE_CURRENT_LIST_DIR}")
  set(input_opt INPUT_FILE "${STDIN}")
endif()

execute_process(
  COMMAND ${cmd}
  WORKING_DIRECTORY "${CMAKE_CURRENT_LIST_DIR}"
  ${input_opt}
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)

if(TTY)
  string(REPLACE "\r" "" out "${out}")
endif()

set(failed FALSE)

if(NOT "${rc}" STREQUAL "${RC}")
  message(SEND_ERROR "exit status: expected ${RC}, got ${rc}")
  set(failed TRUE)
endif()

# Compares stream [name] holding [actual] with the expected file [file].
function(check_file name actual file)
  set(path "${CMAKE_CURRENT_LIST_DIR}/${file}")
  if("$ENV{HCLVM_UPDATE_GOLDEN}" STREQUAL "1")
    file(WRITE "${path}" "${actual}")
    return()
  endif()
  file(READ "${path}" expected)
  if(NOT "${actual}" STREQUAL "${expected}")
    message(SEND_ERROR "${name} differs from ${file}\n--- expected\n${expected}\n--- actual\n${actual}")
    set(failed TRUE PARENT_SCOPE)
  endif()
endfunction()

# Checks that stream [name] holding [actual] matches regular expression [re].
function(check_regex name actual re)
  if(NOT "${actual}" MATCHES "${re}")
    message(SEND_ERROR "${name} does not match /${re}/\n--- actual\n${actual}")
    set(failed TRUE PARENT_SCOPE)
  endif()
endfunction()

# Checks that stream [name] holding [actual] is empty.
function(check_empty name actual)
  if(NOT "${actual}" STREQUAL "")
    message(SEND_ERROR "${name} should be empty\n--- actual\n${actual}")
    set(failed TRUE PARENT_SCOPE)
  endif()
endfunction()

# Each stream against its expectations: a file, a regex, or nothing.
set(actual_stdout "${out}")
set(actual_stderr "${err}")
foreach(stream stdout stderr)
  string(TOUPPER ${stream} key)
  if(${key})
    check_file(${stream} "${actual_${stream}}" "${${key}}")
  endif()
  if(DEFINED ${key}_REGEX)
    check_regex(${stream} "${actual_${stream}}" "${${key}_REGEX}")
  endif()
  if(${key}_EMPTY)
    check_empty(${stream} "${actual_${stream}}")
  endif()
endforeach()

if(failed)
  message(FATAL_ERROR "command: ${cmd}")
endif()

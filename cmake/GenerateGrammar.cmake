# cmake -DIN=parser.yy -DOPS=src/syntax/binary_ops.def -DOUT=gen/parser.yy -P GenerateGrammar.cmake
#
# Writes the grammar Bison reads: parser.yy with its two marker lines
# replaced from the list of binary operators (binary_ops.def), so that the
# precedence the fast path parses with and the levels the recovering parser
# walks come from one list. `// @BINARY_PRECEDENCE@` becomes one `%left`
# line per level, loosest first; `// @BINARY_RULES@` one `expr OP expr`
# alternative per operator, in the list's order.
file(STRINGS ${OPS} lines REGEX "^BINARY_OP\\(")
set(levels "")
set(rules "")
foreach(line ${lines})
  if(NOT line MATCHES "^BINARY_OP\\( *([0-9]+), *([A-Za-z]+), *([A-Z]+), *([A-Za-z]+)\\)")
    message(FATAL_ERROR "${OPS}: cannot read: ${line}")
  endif()
  set(level ${CMAKE_MATCH_1})
  set(token ${CMAKE_MATCH_3})
  set(op ${CMAKE_MATCH_4})
  list(APPEND levels ${level})
  set(level_${level} "${level_${level}} ${token}")
  string(APPEND rules
    "  | expr ${token} expr    { $$ = G->binary(hclvm::ast::BinaryOp::${op}, $1, $3); }\n")
endforeach()
list(REMOVE_DUPLICATES levels)
list(SORT levels COMPARE NATURAL)
set(precedence "")
foreach(level ${levels})
  string(APPEND precedence "%left${level_${level}}\n")
endforeach()

file(READ ${IN} grammar)
foreach(marker BINARY_PRECEDENCE BINARY_RULES)
  string(FIND "${grammar}" "// @${marker}@\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${IN}: the marker line // @${marker}@ is missing")
  endif()
endforeach()
string(REPLACE "// @BINARY_PRECEDENCE@\n" "${precedence}" grammar "${grammar}")
string(REPLACE "// @BINARY_RULES@\n" "${rules}" grammar "${grammar}")
file(WRITE ${OUT}.tmp "${grammar}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
file(REMOVE ${OUT}.tmp)

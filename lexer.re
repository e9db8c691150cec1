// placeholder: the scanner is being written
#include "syntax/token.h"
namespace hclvm::syntax {
Tokens scan(std::string_view src, ScanMode) { return {Token{Tok::EOF_, {uint32_t(src.size()), uint32_t(src.size())}}}; }
}

#include "syntax/token.h"
#include <gtest/gtest.h>
TEST(Lexer, Smoke) { EXPECT_EQ(hclvm::syntax::scan("a", hclvm::syntax::ScanMode::Normal).size(), 2u); }

// Go's math.Pow, math.Log and math.Exp, bit for bit as the reference runs
// them. go-cty computes pow() and log() in float64 through Go's math
// package, whose algorithms are not the C library's: glibc's pow is
// correctly rounded where Go's multiplies repeated squares (pow(10, 23) is
// 1e23 in Go, 1.0000000000000001e23 in C), and its log and exp are other
// polynomials. These functions follow Go 1.19+ on amd64, the platform the
// reference is built for: math.Log is the amd64 assembly version and
// math.Exp the amd64 assembly version on a CPU with FMA (AVX2-era x86 and
// later, where Go fuses its multiply-adds); math.Pow is Go's portable code
// built on those two. They are plain functions of doubles, independent of
// the C library's rounding and of the host's own FMA support.
#pragma once

namespace hclvm::funcs::gomath {

// math.Pow([x], [y]).
double pow(double x, double y);

// math.Log([x]): the natural logarithm.
double log(double x);

// math.Exp([x]).
double exp(double x);

}  // namespace hclvm::funcs::gomath

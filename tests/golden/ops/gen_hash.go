// Writes hash.golden: the text go-cty hashes for a number in a set
// (big.Float's String(), i.e. Text('g', 10)), for numbers made the ways cty
// makes them. One case a line: HOW<TAB>INPUT<TAB>STRING, where HOW is
// "parse" (ParseNumberVal: 512 bits), "int" (NumberIntVal: 64 bits), "float"
// (NumberFloatVal: 53 bits) or "quo" (INPUT is "a/b", both parsed, then
// divided as cty's Divide does). Run by gen.sh; needs only Go's standard
// library.
package main

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

func parse(s string) *big.Float {
	f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	if err != nil {
		panic(err)
	}
	return f
}

func main() {
	parses := []string{"0", "1", "-1", "10", "100", "1000000000", "9999999999", "10000000000",
		"12345678901", "12345678905", "12345678915", "12345678925", "123456789012345678901234567890",
		"0.1", "0.5", "0.25", "0.001", "0.0001", "0.00001", "0.000012345", "1.5e-10", "2.5", "-2.5",
		"3.14159265358979323846", "1e30", "-1e30", "1e21", "1e20", "1e-300", "1234567890.5",
		"1234567890.05", "0.33333333333", "0.99999999995", "0.999999999949", "9.9999999995",
		"99999999995", "1.0000000005", "1.0000000015", "12345678.125", "12345678.375",
		"0.000099999999995", "123456.7890123", "5e-324", "1.7976931348623157e308"}
	ints := []int64{0, 1, -1, 7, 100, 1234567890, 12345678901, -12345678905, 9223372036854775807,
		-9223372036854775808, 4294967296}
	floats := []float64{0.1, 0.5, 2.2, 1e100, 1.0 / 3.0, -0.0}
	quos := []string{"1/3", "2/3", "10/3", "-1/3", "1/7", "22/7", "1/0", "-1/0", "1/1024"}
	var out strings.Builder
	for _, s := range parses {
		fmt.Fprintf(&out, "parse\t%s\t%s\n", s, parse(s).String())
	}
	for _, i := range ints {
		fmt.Fprintf(&out, "int\t%d\t%s\n", i, new(big.Float).SetInt64(i).String())
	}
	for _, f := range floats {
		fmt.Fprintf(&out, "float\t%s\t%s\n", strconv.FormatFloat(f, 'g', -1, 64), new(big.Float).SetFloat64(f).String())
	}
	for _, q := range quos {
		parts := strings.Split(q, "/")
		r := new(big.Float).Quo(parse(parts[0]), parse(parts[1]))
		fmt.Fprintf(&out, "quo\t%s\t%s\n", q, r.String())
	}
	fmt.Print(out.String())
}

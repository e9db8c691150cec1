resource /* c0 */ "a" /* c1 */ "b" /* c2 */ {
}

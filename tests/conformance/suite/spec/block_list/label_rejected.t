# Extraneous label for rule: block_list blocks take no labels.

diagnostics {
  error {
    # Extraneous label for rule
    from {
      line   = 2
      column = 6
      byte   = 13
    }
    to {
      line   = 2
      column = 13
      byte   = 20
    }
  }
}

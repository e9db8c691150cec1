# In JSON, a property that no spec expects: "Extraneous JSON object property".

diagnostics {
  error {
    # Extraneous JSON object property
    from {
      line   = 3
      column = 3
      byte   = 22
    }
    to {
      line   = 3
      column = 10
      byte   = 29
    }
  }
}

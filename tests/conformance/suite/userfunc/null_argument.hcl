v = or_default(null)

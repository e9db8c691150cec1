in = null

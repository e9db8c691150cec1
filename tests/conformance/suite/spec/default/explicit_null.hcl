mode = null

v = unknown + 1

nn     = null
nul    = null
nn_req = null

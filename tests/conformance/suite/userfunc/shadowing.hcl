from_var  = x
from_call = id(1)

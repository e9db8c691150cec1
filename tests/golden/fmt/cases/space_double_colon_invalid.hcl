c = x ? y :: z : w

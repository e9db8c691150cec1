this is {{ not hcl
